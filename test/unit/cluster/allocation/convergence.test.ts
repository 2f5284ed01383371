import { describe, expect, it } from 'vitest';
import {
  explainAllocation,
  nodesJoined,
  nodesLeft,
  reroute,
} from '../../../../src/cluster/allocation/index.js';
import { allShards } from '../../../../src/cluster/state.js';
import {
  T0,
  clusterState,
  context,
  countByNode,
  indexMeta,
  node,
  nodes,
  settle,
} from './helpers.js';

const spread = (counts: Record<string, number>) => {
  const v = Object.values(counts);
  return Math.max(...v) - Math.min(...v);
};

describe('convergence', () => {
  it('several indices over nodes joining one by one end balanced per node and per index', () => {
    const ctx = context();
    let s = settle(
      clusterState(nodes('n1', 'n2'), [
        indexMeta('a', 5, 1),
        indexMeta('b', 3, 1),
        indexMeta('c', 2, 0),
      ]),
      ctx,
    );
    for (const [id, k] of [
      ['n3', 3],
      ['n4', 4],
    ] as const) {
      s = settle(nodesJoined(s, [node(id, {}, k)], ctx).state, ctx);
      const counts = countByNode(s);
      expect(Object.keys(counts)).toHaveLength(k);
      expect(spread(counts)).toBeLessThanOrEqual(1);
      for (const idx of ['a', 'b']) {
        const per = countByNode(s, idx);
        const total = idx === 'a' ? 10 : 6;
        expect(Object.values(per).reduce((x, y) => x + y, 0)).toBe(total);
        expect(Math.max(...Object.values(per))).toBeLessThanOrEqual(Math.ceil(total / k) + 1);
      }
      // No copy of a shard shares a node with another copy of it.
      for (const t of s.routing.values())
        for (const g of t.shards) expect(new Set(g.map((c) => c.nodeId)).size).toBe(g.length);
    }
    // A settled cluster stays put.
    expect(reroute(s, ctx).changed).toBe(false);
  });

  it('a node leaving and its replicas re-placed after the delay keeps every shard green', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('a', 6, 1)]), ctx);
    s = nodesLeft(s, ['n3'], T0);
    ctx.time.now = T0 + 61_000;
    s = settle(s, ctx);
    expect([...allShards(s)].every((c) => c.state === 'STARTED')).toBe(true);
    expect(countByNode(s)).toEqual({ n1: 6, n2: 6 });
  });

  it('explain names the rebalance target before the reroute that moves it', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1'), [indexMeta('i', 4, 0)]), ctx);
    s = { ...s, nodes: new Map(s.nodes).set('n2', node('n2', {}, 2)) };
    const body = explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true });
    expect(body).toMatchObject({
      current_node: { id: 'n1', weight_ranking: 2 },
      can_remain_on_current_node: 'yes',
      can_rebalance_cluster: 'yes',
      can_rebalance_to_other_node: 'yes',
      rebalance_explanation: 'can rebalance shard',
      target_node: { id: 'n2', name: 'name-n2' },
      node_allocation_decisions: [{ node_id: 'n2', node_decision: 'yes', weight_ranking: 1 }],
    });
  });

  it('a larger cluster settles in bounded time', () => {
    const ctx = context();
    const indices = Array.from({ length: 30 }, (_, i) => indexMeta(`idx-${i}`, 5, 1));
    const started = Date.now();
    let s = settle(clusterState(nodes('n1', 'n2', 'n3', 'n4', 'n5'), indices), ctx, 200);
    s = settle(nodesJoined(s, [node('n6', {}, 6)], ctx).state, ctx, 400);
    expect(spread(countByNode(s))).toBeLessThanOrEqual(1);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
