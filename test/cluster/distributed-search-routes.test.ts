/**
 * The search routes of a node in a cluster (NodeContext.cluster and clusterSearch set): `_search`,
 * `_count` and `_msearch` over HTTP read the shards on the nodes the routing table names and
 * answer as a lone node holding everything does, through the cluster gate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterMembership } from '../../src/cluster/membership.js';
import { startClusterSearch } from '../../src/cluster/search/index.js';
import type { ClusterState, DiscoveryNode, ShardRouting } from '../../src/cluster/state.js';
import { createTransport, type Transport } from '../../src/cluster/transport/transport.js';
import { nodeRequestCache } from '../../src/dsl/search/shard-request-cache.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import type { SearchService } from '../../src/dsl/search/search-service.js';

let a: TestNode; // in the cluster: coordinates
let b: TestNode; // a lone node: the reference answers; its transport serves shard 1
const transports: Transport[] = [];
const closers: Array<() => void> = [];
let lone: SearchService | undefined;

const copy = (shard: number, nodeId: string): ShardRouting => ({
  index: 'docs',
  indexUuid: 'docs-uuid',
  shard,
  primary: true,
  state: 'STARTED',
  nodeId,
  relocatingNodeId: null,
  allocationId: { id: `${shard}-${nodeId}` },
  unassignedInfo: null,
  recoverySource: null,
});

beforeAll(async () => {
  a = await startTestNode();
  b = await startTestNode();
  const discovery = new Map<string, DiscoveryNode>();
  for (const [id, n] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const body = {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings: { _doc: { properties: { t: { type: 'text' }, k: { type: 'keyword' }, n: { type: 'long' } } } }, // prettier-ignore
    };
    expect((await n.req('PUT', '/docs', body)).status).toBe(200);
    const lines = Array.from({ length: 50 }, (_, i) =>
      [
        JSON.stringify({ index: { _index: 'docs', _type: '_doc', _id: `d${i}` } }),
        JSON.stringify({ t: `w${i % 7} w${i % 3} common`, k: `k${i % 5}`, n: i }),
      ].join('\n'),
    );
    const bulk = await n.req('POST', '/_bulk?refresh=true', lines.join('\n') + '\n', {
      'content-type': 'application/x-ndjson',
    });
    expect(bulk.json.errors).toBe(false);
    const t = createTransport({
      local: { clusterName: 'routes', nodeId: id, nodeName: id, version: '0.1.0' },
      settings: { 'transport.host': '127.0.0.1', 'transport.port': '0' },
    });
    transports.push(t);
    discovery.set(id, {
      id,
      name: id,
      ephemeralId: id,
      transportAddress: await t.start(),
      httpAddress: n.url,
      attributes: {},
      version: '0.1.0',
      esVersion: '6.8.13',
      roles: ['master', 'data', 'ingest'],
    });
  }
  const state: ClusterState = {
    clusterName: 'routes',
    version: 1,
    masterNodeId: 'A',
    nodes: discovery,
    metadata: {
      clusterUuid: 'routes-uuid',
      indices: new Map(),
      templates: new Map(),
      scripts: new Map(),
      persistentSettings: {},
      transientSettings: {},
    },
    routing: new Map([
      ['docs', { index: 'docs', indexUuid: 'docs-uuid', shards: [[copy(0, 'A')], [copy(1, 'B')], [copy(2, 'B')]] }], // prettier-ignore
    ]),
  };
  for (const [i, id] of ['A', 'B'].entries()) {
    const n = [a, b][i]!;
    const cs = startClusterSearch({
      state: () => state,
      transport: transports[i]!,
      host: {
        nodeId: id,
        index: (name) => n.context.indices.get(name),
        requestCache: () => nodeRequestCache(n.context.indices, undefined),
      },
    });
    closers.push(() => cs.close());
    if (id === 'A') {
      a.context.clusterSearch = cs;
      lone = a.context.searches;
      a.context.searches = cs;
      // the membership as far as the routes read it: the gate is on (no data plane yet)
      a.context.cluster = {
        dataPlane: false,
        state: () => state,
        stop: async () => undefined,
      } as unknown as ClusterMembership;
    }
  }
}, 60_000);

afterAll(async () => {
  for (const c of closers) c();
  if (a) a.context.cluster = undefined;
  if (a && lone) a.context.searches = lone;
  for (const t of transports) await t.close().catch(() => undefined);
  await a?.destroy();
  await b?.destroy();
});

const noTook = (v: Record<string, unknown>) => {
  const { took: _t, ...rest } = v;
  return rest;
};

describe('search routes in a cluster', () => {
  it('answers _search as the lone node', async () => {
    const body = {
      query: { match: { t: 'w1 w2' } },
      from: 2,
      size: 9,
      aggs: { k: { terms: { field: 'k' }, aggs: { top: { top_hits: { size: 1 } } } } },
    };
    const got = await a.req('POST', '/docs/_search', body);
    const want = await b.req('POST', '/docs/_search', body);
    expect(got.status).toBe(200);
    expect(noTook(got.json)).toEqual(noTook(want.json));
    expect(got.json.hits.hits.length).toBe(9);
  });

  it('answers _count and _msearch as the lone node', async () => {
    const q = { query: { range: { n: { gte: 13 } } } };
    const got = await a.req('POST', '/docs/_count', q);
    expect(got.json).toEqual((await b.req('POST', '/docs/_count', q)).json);
    expect(got.json.count).toBe(37);
    const lines =
      [
        '{"index":"docs"}',
        JSON.stringify({ sort: [{ n: 'desc' }], size: 4 }),
        '{"index":"docs"}',
        JSON.stringify({ query: { match: { n: 'abc' } } }),
      ].join('\n') + '\n';
    const h = { 'content-type': 'application/x-ndjson' };
    const ms = await a.req('POST', '/_msearch', lines, h);
    const ref = await b.req('POST', '/_msearch', lines, h);
    expect(ms.status).toBe(ref.status);
    // two lone-made indices: their uuids and node ids differ, nothing else may
    const same = (v: unknown) =>
      JSON.parse(
        JSON.stringify(v)
          .replaceAll(b.context.indices.get('docs')!.uuid, 'UUID')
          .replaceAll(a.context.indices.get('docs')!.uuid, 'UUID')
          .replaceAll(b.context.nodeId, 'NODE')
          .replaceAll(a.context.nodeId, 'NODE'),
      );
    expect(same(ms.json.responses.map(noTook))).toEqual(same(ref.json.responses.map(noTook)));
    expect(ms.json.responses[1].status).toBe(400);
  });

  it('runs size-0 searches through the request cache of the node holding each shard', async () => {
    const cacheStats = async (n: TestNode) => {
      const r = await n.req('GET', '/docs/_stats/request_cache?level=shards');
      const shards = r.json.indices.docs.shards as Record<string, Array<Record<string, any>>>;
      return Object.fromEntries(
        Object.entries(shards).map(([k, copies]) => [k, copies[0]!.request_cache]),
      );
    };
    const body = { size: 0, aggs: { m: { max: { field: 'n' } } }, query: { term: { k: 'k2' } } };
    const before = await cacheStats(b);
    const first = await a.req('POST', '/docs/_search', body);
    const second = await a.req('POST', '/docs/_search', body);
    expect(noTook(second.json)).toEqual(noTook(first.json));
    expect(first.json.aggregations.m.value).toBe(47);
    const after = await cacheStats(b);
    // shards 1 and 2 live on B (its shard 0 copy is not the routed one)
    for (const s of ['1', '2']) {
      expect(after[s].miss_count - before[s].miss_count).toBe(1);
      expect(after[s].hit_count - before[s].hit_count).toBe(1);
    }
    expect(after['0']).toEqual(before['0']);
  });

  it('answers suggestions as the lone node', async () => {
    const body = {
      size: 1,
      suggest: { s: { text: 'w1 comon', term: { field: 't', suggest_mode: 'always' } } },
    };
    const got = await a.req('POST', '/docs/_search?typed_keys', body);
    const ref = await b.req('POST', '/docs/_search?typed_keys', body);
    expect(got.status).toBe(200);
    expect(noTook(got.json)).toEqual(noTook(ref.json));
    expect(got.json.suggest['term#s'][1].options[0].text).toBe('common');
  });

  it('reads a terms lookup once here and sends its values to the other nodes', async () => {
    const lookup = { terms: { k: { index: 'docs', type: '_doc', id: 'd3', path: 'k' } } };
    for (const body of [
      { query: lookup, sort: ['n'], size: 20 },
      { size: 0, aggs: { f: { filter: lookup } } },
      { query: { terms: { k: { index: 'docs', type: '_doc', id: 'nope', path: 'k' } } } },
    ]) {
      const got = await a.req('POST', '/docs/_search', body);
      const ref = await b.req('POST', '/docs/_search', body);
      expect(got.status).toBe(200);
      expect(noTook(got.json)).toEqual(noTook(ref.json));
    }
    const hits = (await a.req('POST', '/docs/_search', { query: lookup, size: 20 })).json.hits;
    expect(hits.total).toBe(10);
    const noIndex = { query: { terms: { k: { index: 'nothing', type: '_doc', id: 'd3', path: 'k' } } } }; // prettier-ignore
    const missing = await a.req('POST', '/docs/_search', noIndex);
    const refMissing = await b.req('POST', '/docs/_search', noIndex);
    expect(missing.status).toBe(refMissing.status);
    const causes = (r: typeof missing) =>
      r.json.error.root_cause.map((c: Record<string, unknown>) => [c.type, c.reason]);
    expect(causes(missing)).toEqual(causes(refMissing));
  });

  it('answers dfs_query_then_fetch and profile as the lone node', async () => {
    const dfs = { query: { match: { t: 'w1 w2 common' } }, size: 10 };
    const got = await a.req('POST', '/docs/_search?search_type=dfs_query_then_fetch', dfs);
    const want = await b.req('POST', '/docs/_search?search_type=dfs_query_then_fetch', dfs);
    expect(got.status).toBe(200);
    expect(noTook(got.json)).toEqual(noTook(want.json));
    // the profile names the node whose copy answered each shard: this node's own for shard 0
    // (its context's id), B's for the others
    const profiled = await a.req('POST', '/docs/_search', { profile: true, size: 3 });
    const ref = await b.req('POST', '/docs/_search', { profile: true, size: 3 });
    expect(profiled.status).toBe(200);
    const ids = (r: typeof ref) => r.json.profile.shards.map((s: { id: string }) => s.id);
    expect(ids(profiled)).toEqual([`[${a.context.nodeId}][docs][0]`, '[B][docs][1]', '[B][docs][2]']); // prettier-ignore
    expect(ids(ref)).toEqual([0, 1, 2].map((n) => `[${b.context.nodeId}][docs][${n}]`));
    const { profile: p1, ...rest1 } = noTook(profiled.json);
    const { profile: p2, ...rest2 } = noTook(ref.json);
    expect(rest1).toEqual(rest2);
    const noIds = (p: { shards: Array<{ id: string }> }) => p.shards.map(({ id: _, ...s }) => s);
    expect(noIds(p1 as never)).toEqual(noIds(p2 as never));
  });
});
