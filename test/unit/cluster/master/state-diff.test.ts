/**
 * The master writes only what changed: a state stored in etcd's layout, plus the diff to the
 * next state, reads back as the next state — through index creation, allocation, a node leaving
 * (promotion with a new term), templates, settings, snapshot repositories and an index deletion.
 */
import { describe, expect, it } from 'vitest';
import {
  newIndexRouting,
  newIndexTerms,
  nodesLeft,
  reroute,
  shardStarted,
  type AllocationContext,
} from '../../../../src/cluster/allocation/index.js';
import { decodeState, encodeState, type Kv } from '../../../../src/cluster/coordination/codec.js';
import { keySpace } from '../../../../src/cluster/coordination/keys.js';
import { applyKvOps, sortedKvs } from '../../../../src/cluster/coordination/memory-kv.js';
import { toKvOps } from '../../../../src/cluster/coordination/ops.js';
import { stateDiff } from '../../../../src/cluster/master/state-diff.js';
import type { ClusterState, DiscoveryNode, IndexMetadata } from '../../../../src/cluster/state.js';

const ks = keySpace('c');

const node = (id: string): DiscoveryNode => ({
  id,
  name: id,
  ephemeralId: `e-${id}`,
  transportAddress: `127.0.0.1:${id.length}`,
  httpAddress: `127.0.0.1:9${id.length}`,
  attributes: {},
  version: '0.1.0',
  esVersion: '6.8.13',
  roles: ['master', 'data', 'ingest'],
});

let n = 0;
const ctx: AllocationContext = {
  now: 1_000,
  settings: {},
  copies: () => new Map(),
  newAllocationId: () => `a${n++}`,
};

function withIndex(state: ClusterState, name: string, uuid: string): ClusterState {
  const meta: IndexMetadata = {
    name,
    uuid,
    state: 'open',
    settings: { 'index.number_of_shards': '2', 'index.number_of_replicas': '1' },
    mappings: null,
    aliases: {},
    numberOfShards: 2,
    numberOfReplicas: 1,
    version: 1,
    mappingVersion: 1,
    settingsVersion: 1,
    terms: newIndexTerms(2),
  };
  const indices = new Map(state.metadata.indices).set(name, meta);
  const routing = new Map(state.routing).set(name, newIndexRouting(meta, ctx.now));
  return { ...state, metadata: { ...state.metadata, indices }, routing };
}

/** Stores `prev`, applies the diff to `next`, reads the store back. */
function roundTrip(prev: ClusterState, next: ClusterState): ClusterState {
  const store = new Map<string, Kv>();
  applyKvOps(
    store,
    encodeState(ks, prev).map((kv) => ({ type: 'put' as const, ...kv })),
    1,
  );
  applyKvOps(store, toKvOps(ks, stateDiff(prev, next)), 2);
  return decodeState(sortedKvs(store), 2, 'c').state;
}

const comparable = (s: ClusterState) => ({
  indices: [...s.metadata.indices.values()].sort((a, b) => a.name.localeCompare(b.name)),
  routing: [...s.routing.values()].sort((a, b) => a.index.localeCompare(b.index)),
  templates: [...s.metadata.templates],
  persistent: s.metadata.persistentSettings,
});

describe('stateDiff', () => {
  it('writes nothing when nothing changed', () => {
    const s = withIndex(emptyWithNodes(), 'logs', 'u1');
    expect(stateDiff(s, s)).toEqual([]);
  });

  it('carries every change through the etcd layout', () => {
    let s0 = emptyWithNodes();
    let s1 = reroute(withIndex(s0, 'logs', 'u1'), ctx).state;
    expect(comparable(roundTrip(s0, s1))).toEqual(comparable(s1));
    // the copies start, then a node leaves: a replica is promoted with a new term
    let s2 = s1;
    for (const t of s2.routing.values())
      for (const copies of t.shards)
        for (const c of copies) if (c.allocationId) s2 = shardStarted(s2, c.allocationId.id);
    s2 = reroute(s2, ctx).state;
    for (const t of s2.routing.values())
      for (const copies of t.shards)
        for (const c of copies)
          if (c.state === 'INITIALIZING' && c.allocationId)
            s2 = shardStarted(s2, c.allocationId.id);
    const s3 = reroute(nodesLeft(s2, ['n1'], ctx.now), ctx).state;
    const ops = stateDiff(s2, s3);
    expect(ops.some((o) => o.type === 'putTerms')).toBe(true);
    expect(ops.some((o) => o.type === 'putRouting')).toBe(true);
    expect(comparable(roundTrip(s2, s3))).toEqual(comparable(s3));
    // templates and settings, then the index goes
    const s4: ClusterState = {
      ...s3,
      metadata: {
        ...s3.metadata,
        templates: new Map([['t', { index_patterns: ['x*'] }]]),
        persistentSettings: { 'cluster.routing.allocation.enable': 'primaries' },
      },
    };
    expect(comparable(roundTrip(s3, s4))).toEqual(comparable(s4));
    const s5: ClusterState = {
      ...s4,
      metadata: { ...s4.metadata, indices: new Map() },
      routing: new Map(),
    };
    expect(stateDiff(s4, s5)).toEqual([{ type: 'deleteIndex', uuid: 'u1' }]);
    expect(comparable(roundTrip(s4, s5)).indices).toEqual([]);
    s0 = s5;
    s1 = s0;
    expect(stateDiff(s0, s1)).toEqual([]);
  });

  it('carries snapshot repositories: added, changed and removed one by one', () => {
    const fs = (location: string) => ({ type: 'fs', settings: { location } });
    const with_ = (s: ClusterState, repos: Array<[string, unknown]>): ClusterState => ({
      ...s,
      metadata: { ...s.metadata, repositories: new Map(repos) },
    });
    const s0 = emptyWithNodes();
    const s1 = with_(s0, [
      ['r1', fs('/a')],
      ['r2', fs('/b')],
    ]);
    expect(roundTrip(s0, s1).metadata.repositories).toEqual(s1.metadata.repositories);
    const s2 = with_(s1, [['r1', fs('/c')]]);
    expect(stateDiff(s1, s2)).toEqual([
      { type: 'putRepository', name: 'r1', repository: fs('/c') },
      { type: 'deleteRepository', name: 'r2' },
    ]);
    expect(roundTrip(s1, s2).metadata.repositories).toEqual(new Map([['r1', fs('/c')]]));
    expect(stateDiff(s2, s2)).toEqual([]);
  });
});

function emptyWithNodes(): ClusterState {
  return {
    clusterName: 'c',
    version: 0,
    masterNodeId: 'n1',
    nodes: new Map([
      ['n1', node('n1')],
      ['n22', node('n22')],
      ['n333', node('n333')],
    ]),
    metadata: {
      clusterUuid: 'cu',
      indices: new Map(),
      templates: new Map(),
      scripts: new Map(),
      persistentSettings: {},
      transientSettings: {},
    },
    routing: new Map(),
  };
}
