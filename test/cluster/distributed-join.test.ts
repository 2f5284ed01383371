/**
 * Parent-join and percolator searches across three in-process nodes over the real transport
 * (loopback): every node holds the same documents, the hand-built routing table puts one shard
 * on each node, and a search coordinated by any node answers what the lone-node executor
 * answers: has_child / has_parent / parent_id joined on the shard's own node, their inner hits
 * and nested inner hits fetched there, and percolate with `_percolator_document_slot`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClusterSearch, type ClusterSearch } from '../../src/cluster/search/index.js';
import type { ClusterState, DiscoveryNode, IndexRoutingTable } from '../../src/cluster/state.js';
import { createTransport, type Transport } from '../../src/cluster/transport/transport.js';
import { executeSearch, parseSearch, type ExecuteOptions } from '../../src/dsl/search/execute.js';
import { parseSearchBody } from '../../src/dsl/search/request.js';
import type { IndexService } from '../../src/engine/index-service.js';
import { openNode, type OpenNode } from '../../src/node.js';

const IDS = ['A', 'B', 'C'] as const;
type Id = (typeof IDS)[number];
const dirs = IDS.map(() => mkdtempSync(join(tmpdir(), 'quarry-djoin-')));
const nodes = new Map<Id, OpenNode>();
const transports = new Map<Id, Transport>();
const searches = new Map<Id, ClusterSearch>();
let state: ClusterState;

/** Shard i of each index is on node IDS[i]. */
function routing(indices: string[]): Map<string, IndexRoutingTable> {
  const out = new Map<string, IndexRoutingTable>();
  for (const index of indices) {
    out.set(index, {
      index,
      indexUuid: `${index}-uuid`,
      shards: IDS.map((nodeId, shard) => [
        {
          index,
          indexUuid: `${index}-uuid`,
          shard,
          primary: true,
          state: 'STARTED',
          nodeId,
          relocatingNodeId: null,
          allocationId: { id: `${index}-${shard}-${nodeId}` },
          unassignedInfo: null,
          recoverySource: null,
        },
      ]),
    });
  }
  return out;
}

const settings = { number_of_shards: 3, number_of_replicas: 0, refresh_interval: -1 };

beforeAll(async () => {
  const discovery = new Map<string, DiscoveryNode>();
  for (const [i, id] of IDS.entries()) {
    const node = await openNode({ dataPath: dirs[i]!, nodeName: id });
    nodes.set(id, node);
    const t = createTransport({
      local: { clusterName: 'djoin', nodeId: id, nodeName: id, version: '0.1.0' },
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
    const ctx = node.context;
    await ctx.indices.create('qa', {
      settings,
      mappings: {
        _doc: {
          properties: {
            j: { type: 'join', relations: { q: 'a' } },
            votes: { type: 'integer' },
            notes: { type: 'nested', properties: { k: { type: 'keyword' } } },
          },
        },
      },
    });
    await ctx.indices.create('alerts', {
      settings,
      mappings: { _doc: { properties: { query: { type: 'percolator' }, level: { type: 'keyword' } } } }, // prettier-ignore
    });
    const write = (index: string, id: string, routing: string | null, body: unknown) =>
      ctx.documents.index({
        kind: 'index',
        index,
        type: '_doc',
        id,
        routing,
        version: -3,
        versionType: 'internal',
        opType: 'index',
        source: Buffer.from(JSON.stringify(body)),
      });
    for (let p = 0; p < 9; p++) {
      write('qa', `q${p}`, null, { j: 'q', notes: [{ k: 'x' }, { k: p % 2 ? 'y' : 'x' }] });
      for (let c = 0; c < p % 4; c++)
        write('qa', `a${p}-${c}`, `q${p}`, { j: { name: 'a', parent: `q${p}` }, votes: p + c });
    }
    ['error', 'warn', 'info', 'error'].forEach((level, n) =>
      write('alerts', `al${n}`, null, { query: { term: { level } } }),
    );
    ctx.indices.get('qa')!.refresh();
    ctx.indices.get('alerts')!.refresh();
  }
  state = {
    clusterName: 'djoin',
    version: 1,
    masterNodeId: 'A',
    nodes: discovery,
    metadata: {
      clusterUuid: 'djoin-uuid',
      indices: new Map(),
      templates: new Map(),
      scripts: new Map(),
      persistentSettings: {},
      transientSettings: {},
    },
    routing: routing(['qa', 'alerts']),
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
const options = (id: Id): ExecuteOptions => ({
  searchType: 'query_then_fetch',
  typedKeys: false,
  now: 0,
  limits: { maxClauseCount: 1024, maxBuckets: -1 },
  nodeId: id,
});
const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, any>;

function lone(body: unknown, names: string[]) {
  const sreq = parseSearchBody(body);
  const { took: _t, ...rest } = executeSearch(indicesOf('A', names), sreq, parseSearch(sreq), options('A')).body; // prettier-ignore
  return plain(rest);
}

async function distributed(body: unknown, names: string[], from: Id) {
  const sreq = parseSearchBody(body);
  const out = await searches.get(from)!.search({
    indices: indicesOf(from, names),
    req: sreq,
    parsed: parseSearch(sreq),
    opts: options(from),
  });
  const { took: _t, ...rest } = out.body;
  return plain(rest);
}

const byVotes = {
  function_score: {
    query: { match_all: {} },
    functions: [{ field_value_factor: { field: 'votes' } }],
    boost_mode: 'replace',
  },
};

const requests: Record<string, [unknown, string[]]> = {
  hasChild: [
    {
      query: {
        has_child: {
          type: 'a',
          score_mode: 'sum',
          query: byVotes,
          inner_hits: { size: 2, sort: [{ votes: 'desc' }] },
        },
      },
    },
    ['qa'],
  ],
  hasParentNested: [
    {
      query: {
        bool: {
          should: [
            { has_parent: { parent_type: 'q', query: { match_all: {} }, inner_hits: {} } },
            { nested: { path: 'notes', query: { term: { 'notes.k': 'y' } }, inner_hits: {} } },
          ],
        },
      },
      sort: ['_id'],
      size: 30,
    },
    ['qa'],
  ],
  parentId: [{ query: { parent_id: { type: 'a', id: 'q3' } }, sort: ['_id'] }, ['qa']],
  percolate: [
    {
      query: {
        percolate: { field: 'query', documents: [{ level: 'info' }, { level: 'error' }] },
      },
      sort: ['_id'],
    },
    ['alerts'],
  ],
};

describe('joins and percolation across nodes', () => {
  for (const [name, [body, names]] of Object.entries(requests)) {
    it(`answers ${name} as the lone-node executor`, async () => {
      const expected = lone(body, names);
      expect(expected.hits.total).toBeGreaterThan(0);
      for (const from of IDS) expect(await distributed(body, names, from)).toEqual(expected);
    });
  }

  it('finds every parent with children, whichever shard holds it', async () => {
    const r = await distributed(
      { query: { has_child: { type: 'a', query: { match_all: {} } } }, sort: ['_id'] },
      ['qa'],
      'B',
    );
    expect(r.hits.hits.map((h: any) => h._id)).toEqual(['q1', 'q2', 'q3', 'q5', 'q6', 'q7']);
    const p = await distributed(requests.percolate![0], ['alerts'], 'C');
    expect(p.hits.hits.map((h: any) => [h._id, h.fields._percolator_document_slot])).toEqual([
      ['al0', [1]],
      ['al2', [0]],
      ['al3', [1]],
    ]);
  });
});
