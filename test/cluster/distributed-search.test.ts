/**
 * Query-then-fetch across three in-process nodes over the real transport (loopback): every node
 * holds the same documents in the same shards, the hand-built routing table spreads the shards
 * over the nodes, and a search coordinated by one node answers exactly what the lone-node executor
 * answers over its own copy of everything (hits, order, scores, aggregations, _shards). A node
 * whose transport is gone turns its shards into shard failures with partial results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClusterSearch, type ClusterSearch } from '../../src/cluster/search/index.js';
import type {
  ClusterState,
  DiscoveryNode,
  IndexRoutingTable,
  ShardRouting,
} from '../../src/cluster/state.js';
import { createTransport, type Transport } from '../../src/cluster/transport/transport.js';
import { executeCount } from '../../src/dsl/search/count.js';
import {
  executeSearch,
  parseSearch,
  shardTargets,
  type ExecuteOptions,
} from '../../src/dsl/search/execute.js';
import { fetchHits } from '../../src/dsl/search/fetch.js';
import { parseSearchBody } from '../../src/dsl/search/request.js';
import type { IndexService } from '../../src/engine/index-service.js';
import { openNode, type OpenNode } from '../../src/node.js';

const IDS = ['A', 'B', 'C'] as const;
type Id = (typeof IDS)[number];
const dirs = IDS.map(() => mkdtempSync(join(tmpdir(), 'quarry-dsearch-')));
const nodes = new Map<Id, OpenNode>();
const transports = new Map<Id, Transport>();
const searches = new Map<Id, ClusterSearch>();
let state: ClusterState;

const NOW = Date.UTC(2021, 5, 1);

/** docs: 4 shards on A, B, C and A (+ replica on B); other: 2 shards, both on B only. */
const placement: Record<string, Array<Array<[Id, boolean]>>> = {
  docs: [
    [['A', true]],
    [['B', true]],
    [['C', true]],
    [
      ['A', true],
      ['B', false],
    ],
  ],
  other: [[['B', true]], [['B', true]]],
};

function routing(): Map<string, IndexRoutingTable> {
  const out = new Map<string, IndexRoutingTable>();
  for (const [index, shards] of Object.entries(placement)) {
    out.set(index, {
      index,
      indexUuid: `${index}-uuid`,
      shards: shards.map((copies, shard) =>
        copies.map(([nodeId, primary]): ShardRouting => ({
          index,
          indexUuid: `${index}-uuid`,
          shard,
          primary,
          state: 'STARTED',
          nodeId,
          relocatingNodeId: null,
          allocationId: { id: `${index}-${shard}-${nodeId}` },
          unassignedInfo: null,
          recoverySource: null,
        })),
      ),
    });
  }
  return out;
}

const words = ['quick', 'brown', 'fox', 'lazy', 'dog', 'jumps', 'over', 'the', 'red', 'cat'];
const tags = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

beforeAll(async () => {
  const discovery = new Map<string, DiscoveryNode>();
  for (const [i, id] of IDS.entries()) {
    const node = await openNode({ dataPath: dirs[i]!, nodeName: id });
    nodes.set(id, node);
    const t = createTransport({
      local: { clusterName: 'dsearch', nodeId: id, nodeName: id, version: '0.1.0' },
      settings: { 'transport.host': '127.0.0.1', 'transport.port': '0' },
    });
    transports.set(id, t);
    const address = await t.start();
    discovery.set(id, {
      id,
      name: id,
      ephemeralId: id,
      transportAddress: address,
      httpAddress: '127.0.0.1:0',
      attributes: {},
      version: '0.1.0',
      esVersion: '6.8.13',
      roles: ['master', 'data', 'ingest'],
    });
    const mappings = {
      _doc: {
        properties: {
          title: { type: 'text' },
          tag: { type: 'keyword' },
          n: { type: 'long' },
          price: { type: 'double' },
          day: { type: 'date' },
        },
      },
    };
    const settings = (shards: number) => ({
      settings: { number_of_shards: shards, number_of_replicas: 0, refresh_interval: -1 },
      mappings,
    });
    await node.context.indices.create('docs', settings(4));
    await node.context.indices.create('other', settings(2));
    // the same documents in the same order on every node: any copy would do
    for (let d = 0; d < 120; d++) {
      const index = d % 3 === 0 ? 'other' : 'docs';
      const body = {
        title: [0, 1, 2, 3].map((k) => words[(d * (k + 3) + k) % words.length]).join(' '),
        tag: tags[d % tags.length],
        n: (d * 37) % 97,
        price: ((d * 13) % 40) / 4,
        day: new Date(Date.UTC(2021, 0, 1 + (d % 45))).toISOString(),
      };
      node.context.documents.index({
        kind: 'index',
        index,
        type: '_doc',
        id: `d${d}`,
        routing: null,
        version: -3,
        versionType: 'internal',
        opType: 'index',
        source: Buffer.from(JSON.stringify(body)),
      });
    }
    node.context.indices.get('docs')!.refresh();
    node.context.indices.get('other')!.refresh();
  }
  state = {
    clusterName: 'dsearch',
    version: 1,
    masterNodeId: 'A',
    nodes: discovery,
    metadata: {
      clusterUuid: 'dsearch-uuid',
      indices: new Map(),
      templates: new Map(),
      scripts: new Map(),
      persistentSettings: {},
      transientSettings: {},
    },
    routing: routing(),
  };
  for (const id of IDS) {
    const ctx = nodes.get(id)!.context;
    searches.set(
      id,
      startClusterSearch({
        state: () => state,
        transport: transports.get(id)!,
        host: { nodeId: id, index: (name) => ctx.indices.get(name) },
        requestTimeoutMs: 5_000,
      }),
    );
  }
}, 60_000);

afterAll(async () => {
  for (const s of searches.values()) s.close();
  for (const t of transports.values()) await t.close().catch(() => undefined);
  for (const n of nodes.values()) await n.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const indicesOf = (id: Id, names: string[]): IndexService[] =>
  names.map((n) => nodes.get(id)!.context.indices.get(n)!);

const options = (id: Id, extra: Partial<ExecuteOptions> = {}): ExecuteOptions => ({
  searchType: 'query_then_fetch',
  typedKeys: false,
  now: NOW,
  limits: { maxClauseCount: 1024, maxBuckets: -1 },
  nodeId: id,
  ...extra,
});

/** The lone-node executor on A over all of A's copies. */
function lone(body: unknown, names = ['docs'], extra: Partial<ExecuteOptions> = {}) {
  const sreq = parseSearchBody(body);
  const out = executeSearch(indicesOf('A', names), sreq, parseSearch(sreq), options('A', extra));
  const { took: _t, ...rest } = out.body;
  return rest;
}

async function distributed(
  body: unknown,
  names = ['docs'],
  extra: Partial<ExecuteOptions> = {},
  preference?: string,
  from: Id = 'A',
) {
  const sreq = parseSearchBody(body);
  const out = await searches.get(from)!.search({
    indices: indicesOf(from, names),
    req: sreq,
    parsed: parseSearch(sreq),
    opts: options(from, extra),
    ...(preference !== undefined ? { preference } : {}),
  });
  const { took: _t, ...rest } = out.body;
  return JSON.parse(JSON.stringify(rest)) as Record<string, any>;
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, any>;

const requests: Record<string, [unknown, string[]?, Partial<ExecuteOptions>?]> = {
  matchAll: [{}],
  scoredPage: [{ query: { match: { title: 'quick fox dog' } }, from: 5, size: 7 }],
  sortedPage: [
    {
      query: { range: { n: { gte: 10 } } },
      sort: [{ n: 'desc' }, { tag: 'asc' }],
      from: 3,
      size: 12,
      _source: ['tag', 'n'],
    },
  ],
  trackScores: [{ query: { match: { title: 'lazy' } }, sort: ['tag', '_doc'], track_scores: true, size: 30 }], // prettier-ignore
  deepPage: [{ query: { match: { title: 'the red cat' } }, from: 40, size: 10 }],
  aggsOnly: [
    {
      size: 0,
      aggs: {
        tags: { terms: { field: 'tag' }, aggs: { avg: { avg: { field: 'price' } } } },
        card: { cardinality: { field: 'n' } },
        pct: { percentiles: { field: 'price', percents: [10, 50, 90] } },
        days: { date_histogram: { field: 'day', interval: 'week', min_doc_count: 0 } },
        stats: { extended_stats: { field: 'n' } },
        top: { top_hits: { size: 3, sort: [{ n: 'desc' }], _source: ['n'] } },
        max_tag: { max_bucket: { buckets_path: 'tags>avg' } },
      },
    },
  ],
  aggsAndHits: [
    {
      query: { match: { title: 'brown' } },
      aggs: {
        t: { terms: { field: 'tag', size: 2 }, aggs: { best: { top_hits: { size: 2 } } } },
      },
    },
  ],
  postFilterHighlight: [
    {
      query: { match: { title: 'fox' } },
      post_filter: { term: { tag: 'beta' } },
      highlight: { fields: { title: {} } },
    },
  ],
  collapse: [{ query: { match_all: {} }, collapse: { field: 'tag' }, sort: ['n'] }],
  rescore: [
    {
      query: { match: { title: 'quick' } },
      rescore: { window_size: 20, query: { rescore_query: { match: { title: 'dog' } } } },
    },
  ],
  twoIndices: [
    { query: { match: { title: 'over' } }, indices_boost: [{ other: 2 }], size: 20 },
    ['docs', 'other'],
  ],
  docvalues: [{ sort: [{ day: 'asc' }, { n: 'asc' }], docvalue_fields: ['day', 'n'], version: true }], // prettier-ignore
  terminateAfter: [{ terminate_after: 5, size: 3 }],
  countLike: [{ size: 0, query: { match: { title: 'jumps' } } }],
  minScore: [{ query: { match: { title: 'quick brown' } }, min_score: 1.5 }],
  searchAfter: [{ sort: [{ n: 'asc' }, { tag: 'desc' }], search_after: [40, 'beta'], size: 5 }],
  preFilter: [
    { query: { range: { day: { gte: '2021-01-20', lte: '2021-01-25' } } } },
    ['docs', 'other'],
    { preFilterShardSize: 1 },
  ],
  suggest: [
    {
      size: 2,
      suggest: {
        text: 'quik brwn',
        words: { term: { field: 'title', suggest_mode: 'always' } },
        phrase: { phrase: { field: 'title', size: 2, gram_size: 1 } },
      },
    },
    ['docs', 'other'],
    { typedKeys: true },
  ],
  dfs: [
    { query: { match: { title: 'quick fox lazy' } }, size: 15 },
    ['docs', 'other'],
    { searchType: 'dfs_query_then_fetch' },
  ],
  dfsFuzzyPrefix: [
    {
      query: {
        bool: {
          should: [
            { match: { title: { query: 'quik brwn', fuzziness: 'AUTO' } } },
            { prefix: { title: 'ju' } },
            { match_phrase: { title: 'the red' } },
          ],
        },
      },
      size: 20,
    },
    ['docs'],
    { searchType: 'dfs_query_then_fetch' },
  ],
  collapseInnerHits: [
    {
      query: { match: { title: 'fox' } },
      collapse: {
        field: 'tag',
        inner_hits: [
          { name: 'cheap', size: 2, sort: [{ price: 'asc' }] },
          { name: 'recent', size: 1, sort: [{ day: 'desc' }], _source: ['day'] },
        ],
      },
      sort: ['n'],
    },
  ],
};

describe('search across nodes', () => {
  for (const [name, [body, names, extra]] of Object.entries(requests)) {
    it(`answers ${name} as the lone-node executor`, async () => {
      const expected = plain(lone(body, names, extra));
      // twice: the round-robin puts shard 3 on A, then on B
      for (let i = 0; i < 2; i++) expect(await distributed(body, names, extra)).toEqual(expected);
    });
  }

  it('scores dfs_query_then_fetch with the statistics of all shards, not of each', async () => {
    const [body, names, extra] = requests.dfs!;
    const dfs = await distributed(body, names, extra);
    expect(dfs).not.toEqual(await distributed(body, names));
    expect(dfs.hits.hits[0]._score).not.toBe(plain(lone(body, names)).hits.hits[0]._score);
  });

  it('leaves no search context behind on the shard nodes', async () => {
    await distributed({ size: 0, aggs: { t: { terms: { field: 'tag' } } } });
    await distributed({ query: { term: { tag: 'nothing' } } });
    await distributed({ from: 0, size: 1 });
    // free_context is sent without waiting for its answer
    for (let i = 0; i < 50 && IDS.some((id) => searches.get(id)!.openContexts() > 0); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(IDS.map((id) => searches.get(id)!.openContexts())).toEqual([0, 0, 0]);
  });

  for (const [name, body, names] of [
    ['by score', { query: { match: { title: 'the quick fox' } }, size: 7 }, ['docs']],
    ['sorted, two indices', { sort: ['n', { tag: 'desc' }], size: 9, _source: ['n'] }, ['docs', 'other']], // prettier-ignore
  ] as const) {
    it(`scrolls ${name} in the lone node's order, any node serving any page`, async () => {
      const scroll = { scroll: true, keepAllHits: true, scrollKeepAliveMs: 60_000, maxKeepAliveMs: 3_600_000 }; // prettier-ignore
      const sreq = parseSearchBody(body);
      const ref = executeSearch(indicesOf('A', [...names]), sreq, parseSearch(sreq), options('A', scroll)); // prettier-ignore
      const all = plain(fetchHits(ref.allHits!, ref.fetch!, [])) as unknown as unknown[];
      expect(all.length).toBeGreaterThan(20);
      const first = await distributed(body, [...names], scroll);
      expect(first._scroll_id).toEqual(expect.any(String));
      expect(first.hits.total).toBe(all.length);
      const got: unknown[] = [...first.hits.hits];
      for (let i = 0; got.length < all.length + 1 && i < 30; i++) {
        const page = await searches.get(IDS[i % 3]!)!.scroll({
          scrollId: first._scroll_id,
          keepAliveMs: null,
          maxKeepAliveMs: 3_600_000,
        });
        const b = plain(page.body);
        expect(b._shards).toEqual(first._shards);
        expect(b.hits.total).toBe(all.length);
        expect(b.hits.max_score).toBe(first.hits.max_score);
        if (b.hits.hits.length === 0) break;
        got.push(...b.hits.hits);
      }
      expect(got).toEqual(all);
      expect(IDS.some((id) => searches.get(id)!.openContexts() > 0)).toBe(true);
      expect(await searches.get('C')!.clearScroll([first._scroll_id])).toEqual({ freed: 1, missing: 0 }); // prettier-ignore
      expect(IDS.map((id) => searches.get(id)!.openContexts())).toEqual([0, 0, 0]);
      expect(await searches.get('B')!.clearScroll([first._scroll_id])).toEqual({ freed: 0, missing: 1 }); // prettier-ignore
      await expect(
        searches
          .get('A')!
          .scroll({ scrollId: first._scroll_id, keepAliveMs: null, maxKeepAliveMs: 1 }),
      ).rejects.toMatchObject({ type: 'search_context_missing_exception', status: 404 });
    });
  }

  it('clears every scroll of the cluster with _all', async () => {
    const scroll = { scroll: true, keepAllHits: true, scrollKeepAliveMs: 60_000 };
    await distributed({ size: 2 }, ['docs'], scroll, undefined, 'B');
    await distributed({ size: 3 }, ['docs', 'other'], scroll, undefined, 'C');
    expect(await searches.get('A')!.clearScroll('all')).toEqual({ freed: 2, missing: 0 });
    expect(IDS.map((id) => searches.get(id)!.openContexts())).toEqual([0, 0, 0]);
  });

  it('coordinates from a node holding none of the shards read', async () => {
    const body = { query: { match: { title: 'dog' } }, aggs: { t: { terms: { field: 'tag' } } } };
    expect(
      await distributed(body, ['docs'], {}, '_shards:1,2,3|_only_nodes:B,C', 'C'),
    ).toMatchObject({
      _shards: { total: 3, successful: 3, failed: 0 },
    });
    expect(await distributed(body, ['other'], {}, undefined, 'C')).toEqual(
      plain(lone(body, ['other'])),
    );
  });

  it('explains hits on the node that holds them', async () => {
    const body = { query: { match: { title: 'brown fox' } }, explain: true, size: 30 };
    const expected = plain(lone(body));
    const got = await distributed(body);
    const nodes = got.hits.hits.map((h: { _node: string }) => h._node);
    expect(new Set(nodes)).toEqual(new Set(['A', 'B', 'C']));
    for (const h of [...got.hits.hits, ...expected.hits.hits]) delete h._node;
    expect(got).toEqual(expected);
  });

  it('pages a single remote shard from `from` as the lone node pages it', async () => {
    const body = { query: { match: { title: 'the quick' } }, from: 5, size: 4, sort: ['n'] };
    const only1 = (idx: IndexService, s: number) => s === 1;
    const expected = plain(lone(body, ['docs'], { shardFilter: only1 }));
    expect(await distributed(body, ['docs'], {}, '_shards:1')).toEqual(expected);
    expect(expected.hits.hits).toHaveLength(4);
  });

  it('counts as the lone node does', async () => {
    const sreq = parseSearchBody({ query: { match: { title: 'fox' } } });
    const query = parseSearch(sreq).query;
    const expected = executeCount(shardTargets(indicesOf('A', ['docs', 'other'])), query, {
      now: NOW,
      limits: { maxClauseCount: 1024, maxBuckets: -1 },
      nodeId: 'A',
    });
    const got = await searches.get('A')!.count({
      indices: indicesOf('A', ['docs', 'other']),
      sreq,
      query,
      opts: { now: NOW, limits: { maxClauseCount: 1024, maxBuckets: -1 }, nodeId: 'A' },
    });
    expect(got).toEqual(expected);
    expect(got.count).toBeGreaterThan(0);
  });

  it('refuses what it cannot do across nodes yet, with a 400', async () => {
    const refused = async (body: unknown, extra: Partial<ExecuteOptions> = {}) => {
      try {
        await distributed(body, ['docs'], extra);
      } catch (e) {
        const err = e as { status: number; type: string; reason: string };
        return [err.status, err.type, err.reason];
      }
      throw new Error('not refused');
    };
    expect((await refused({}, { keepAllHits: true }))[2]).toBe(
      'scroll is not supported yet when shards are on several nodes',
    );
    const lookup = { terms: { tag: { index: 'docs', type: '_doc', id: 'd1', path: 'tag' } } };
    expect((await refused({ query: { bool: { filter: [lookup] } } }))[2]).toBe(
      'a terms lookup is not supported yet when shards are on several nodes',
    );
  });

  it('uses the local executor when every shard read is on the coordinating node', async () => {
    const body = { query: { match: { title: 'cat' } }, suggest: { s: { text: 'cat', term: { field: 'title' } } } }; // prettier-ignore
    const out = await distributed(body, ['docs'], {}, '_shards:0,3|_local');
    expect(out._shards).toEqual({ total: 2, successful: 2, skipped: 0, failed: 0 });
  });

  it('reports the shards of a node that is gone as failures, with partial results', async () => {
    await transports.get('C')!.close();
    const body = { query: { match: { title: 'quick' } }, size: 50, aggs: { t: { terms: { field: 'tag' } } } }; // prettier-ignore
    const out = await distributed(body);
    expect(out._shards.total).toBe(4);
    expect(out._shards.successful).toBe(3);
    expect(out._shards.failed).toBe(1);
    expect(out._shards.failures[0]).toMatchObject({ shard: 2, index: 'docs', node: 'C' });
    expect(typeof out._shards.failures[0].reason.type).toBe('string');
    // the hits of the other shards, as a lone node reads them
    const expected = plain(
      lone(body, ['docs'], { shardFilter: (idx, s) => !(idx.name === 'docs' && s === 2) }),
    );
    expect(out.hits).toEqual(expected.hits);
    expect(out.aggregations).toEqual(expected.aggregations);
  });

  it('moves a shard on to its next copy when its node fails, and fails the search when none is left', async () => {
    await transports.get('B')!.close();
    // shard 3 has a copy on A: never a failure; shard 1 (B) and 2 (C) fail
    for (let i = 0; i < 2; i++) {
      const out = await distributed({ size: 100 });
      expect(out._shards).toMatchObject({ total: 4, successful: 2, failed: 2 });
      expect(out._shards.failures.map((f: { shard: number }) => f.shard)).toEqual([1, 2]);
    }
    const err = await distributed({}, ['other']).then(
      () => null,
      (e: { status: number; toBody(): Record<string, any> }) => e,
    );
    expect(err).not.toBeNull();
    const b = err!.toBody();
    expect(b.error.type).toBe('search_phase_execution_exception');
    expect(b.error.reason).toBe('all shards failed');
    expect(b.error.phase).toBe('query');
    expect(b.error.failed_shards[0]).toMatchObject({ index: 'other', node: 'B' });
  });
});
