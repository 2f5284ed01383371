/**
 * Which copy of each shard a search reads: active copies only, ordered by `preference`
 * (ES OperationRouting.searchShards), round-robin without one.
 */
import { describe, expect, it } from 'vitest';
import { roundRobin, selectShardCopies } from '../../../../src/cluster/search/copy-selection.js';
import type { ClusterState, ShardRouting, ShardState } from '../../../../src/cluster/state.js';

const copy = (
  shard: number,
  nodeId: string,
  primary: boolean,
  state: ShardState = 'STARTED',
): ShardRouting => ({
  index: 'i',
  indexUuid: 'u',
  shard,
  primary,
  state,
  nodeId,
  relocatingNodeId: null,
  allocationId: { id: `${nodeId}-${shard}` },
  unassignedInfo: null,
  recoverySource: null,
});

const node = (id: string) => ({
  id,
  name: `name-${id}`,
  ephemeralId: id,
  transportAddress: '127.0.0.1:1',
  httpAddress: '127.0.0.1:2',
  attributes: {},
  version: '0',
  esVersion: '6.8.13',
  roles: ['master', 'data', 'ingest'],
});

const state = (shards: ShardRouting[][]): ClusterState => ({
  clusterName: 'c',
  version: 1,
  masterNodeId: 'a',
  nodes: new Map(['a', 'b', 'c'].map((id) => [id, node(id)])),
  metadata: {
    clusterUuid: 'x',
    indices: new Map(),
    templates: new Map(),
    scripts: new Map(),
    persistentSettings: {},
    transientSettings: {},
  },
  routing: new Map([['i', { index: 'i', indexUuid: 'u', shards }]]),
});

// shard 0: primary on a, replica on b; shard 1: primary on b, replica on c (initializing)
const s = state([
  [copy(0, 'a', true), copy(0, 'b', false)],
  [copy(1, 'b', true), copy(1, 'c', false, 'INITIALIZING')],
]);
const targets = [
  { index: 'i', shard: 0 },
  { index: 'i', shard: 1 },
];
const pick = (pref: string | undefined, local = 'a') =>
  selectShardCopies(s, local, targets, pref, roundRobin()).map((c) => c.nodes);

describe('selectShardCopies', () => {
  it('never reads a copy that is not active', () => {
    expect(pick(undefined)[1]).toEqual(['b']);
  });

  it('round-robins across the copies between requests without a preference', () => {
    const rr = roundRobin();
    const firsts = [0, 1, 2, 3].map(
      () => selectShardCopies(s, 'a', targets, undefined, rr)[0]!.nodes[0],
    );
    expect(new Set(firsts)).toEqual(new Set(['a', 'b']));
    expect(firsts[0]).not.toBe(firsts[1]);
  });

  it('honours _local, _only_local, _primary, _replica, _primary_first, _replica_first', () => {
    expect(pick('_local', 'b')).toEqual([['b', 'a'], ['b']]);
    expect(pick('_only_local', 'a')).toEqual([['a'], []]);
    expect(pick('_primary')).toEqual([['a'], ['b']]);
    expect(pick('_replica')).toEqual([['b'], []]);
    expect(pick('_primary_first')).toEqual([['a', 'b'], ['b']]);
    expect(pick('_replica_first')).toEqual([['b', 'a'], ['b']]);
  });

  it('honours _only_nodes and _prefer_nodes by id, name or wildcard', () => {
    expect(pick('_only_nodes:b')).toEqual([['b'], ['b']]);
    expect(pick('_prefer_nodes:name-b')).toEqual([['b', 'a'], ['b']]);
    expect(pick('_only_nodes:name-*')).toEqual([['a', 'b'], ['b']]);
    expect(() => pick('_only_nodes:zz')).toThrow(
      'no data nodes with criteria [zz] found for shard: [i][0]',
    );
  });

  it('gives a custom preference string the same copy every time', () => {
    const first = pick('session-1');
    for (let i = 0; i < 5; i++) expect(pick('session-1')).toEqual(first);
    const seen = new Set(['x', 'y', 'z', 'w', 'v', 'u'].map((p) => pick(p)[0]![0]));
    expect(seen.size).toBe(2);
  });

  it('restricts the shards with _shards: and refuses unknown _ preferences', () => {
    const out = selectShardCopies(s, 'a', targets, '_shards:1|_primary', roundRobin());
    expect(out).toEqual([{ index: 'i', shard: 1, nodes: ['b'] }]);
    expect(() => pick('_bogus')).toThrow('no Preference for [_bogus]');
  });
});
