import { describe, expect, it } from 'vitest';
import {
  applyRerouteCommands,
  clusterHealth,
  explainAllocation,
  nodesLeft,
  reroute,
  shardFailed,
  shardStarted,
  updateNumberOfReplicas,
} from '../../../../src/cluster/allocation/index.js';
import { allShards, type ClusterState } from '../../../../src/cluster/state.js';
import { T0, clusterState, context, indexMeta, nodes, settle } from './helpers.js';

/** Freezes every object, array and map the state holds, so any mutation throws. */
function deepFreeze<T>(v: T): T {
  if (v instanceof Map) {
    for (const x of v.values()) deepFreeze(x);
    const m = v as Map<unknown, unknown>;
    m.set = () => {
      throw new Error('mutated a Map');
    };
    m.delete = () => {
      throw new Error('mutated a Map');
    };
    m.clear = () => {
      throw new Error('mutated a Map');
    };
    return v;
  }
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const snapshot = (s: ClusterState) =>
  JSON.stringify([
    [...allShards(s)],
    [...s.metadata.indices.values()].map((m) => m.terms),
    [...s.nodes.keys()],
  ]);

describe('purity', () => {
  it('no function mutates the state it is given', () => {
    const ctx = context();
    const s = deepFreeze(
      settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('i', 3, 1)]), ctx),
    );
    const before = snapshot(s);
    const copy = [...allShards(s)][0]!;
    reroute(s, ctx);
    nodesLeft(s, ['n1'], T0);
    shardFailed(s, copy.allocationId!.id, 'x', T0, { markAsStale: true });
    shardStarted(s, copy.allocationId!.id);
    updateNumberOfReplicas(s, 'i', 2, T0);
    updateNumberOfReplicas(s, 'i', 0, T0);
    applyRerouteCommands(
      s,
      [{ kind: 'cancel', index: 'i', shard: copy.shard, node: copy.nodeId!, allowPrimary: true }],
      ctx,
      { explain: true, retryFailed: true },
    );
    explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true, includeYesDecisions: true });
    clusterHealth(s, { level: 'shards' });
    expect(snapshot(s)).toBe(before);
  });
});
