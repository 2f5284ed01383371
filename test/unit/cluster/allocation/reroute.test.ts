import { describe, expect, it } from 'vitest';
import { reroute, shardStarted } from '../../../../src/cluster/allocation/index.js';
import { allShards } from '../../../../src/cluster/state.js';
import {
  clusterState,
  context,
  copies,
  countByNode,
  indexMeta,
  initializing,
  node,
  nodes,
  settle,
} from './helpers.js';

describe('reroute: initial placement', () => {
  it('places 5 primaries and 5 replicas of a 5x1 index over 2 nodes, 5 each, never a replica with its primary', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('logs', 5, 1)]), ctx);
    const all = [...allShards(s)];
    expect(all).toHaveLength(10);
    expect(all.every((c) => c.state === 'STARTED')).toBe(true);
    expect(countByNode(s)).toEqual({ n1: 5, n2: 5 });
    for (let sh = 0; sh < 5; sh++) {
      const g = copies(s, 'logs', sh);
      expect(g.filter((c) => c.primary)).toHaveLength(1);
      expect(new Set(g.map((c) => c.nodeId)).size).toBe(2);
    }
    // Every started copy is in sync, and the first allocation made the term 1.
    const meta = s.metadata.indices.get('logs')!;
    for (let sh = 0; sh < 5; sh++) {
      expect(meta.terms[sh]!.primaryTerm).toBe(1);
      expect([...meta.terms[sh]!.inSync].sort()).toEqual(
        copies(s, 'logs', sh)
          .map((c) => c.allocationId!.id)
          .sort(),
      );
    }
  });

  it('balances over 3 nodes (5x1: 4/3/3) and per index', () => {
    const ctx = context();
    const s = settle(
      clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('a', 5, 1), indexMeta('b', 3, 0)]),
      ctx,
    );
    const counts = Object.values(countByNode(s)).sort();
    expect(counts.reduce((x, y) => x + y, 0)).toBe(13);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    const perA = Object.values(countByNode(s, 'a'));
    expect(Math.max(...perA) - Math.min(...perA)).toBeLessThanOrEqual(1);
    const perB = Object.values(countByNode(s, 'b'));
    expect(perB).toEqual([1, 1, 1]);
  });

  it('first round initializes primaries only; replicas wait for an active primary', () => {
    const ctx = context();
    const r = reroute(clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 1)]), ctx);
    const init = initializing(r.state);
    expect(init.every((c) => c.primary)).toBe(true);
    expect(init).toHaveLength(2);
    expect(init.every((c) => c.recoverySource?.type === 'EMPTY_STORE')).toBe(true);
    const stuck = r.unassigned.filter((u) => !u.primary);
    expect(stuck).toHaveLength(2);
    expect(stuck[0]!.allocationStatus).toBe('deciders_no');
    // Replicas are assigned once primaries are started, with PEER recovery.
    let s = r.state;
    for (const c of init) s = shardStarted(s, c.allocationId!.id);
    const r2 = reroute(s, ctx);
    const reps = initializing(r2.state);
    expect(reps).toHaveLength(2);
    expect(reps.every((c) => !c.primary && c.recoverySource?.type === 'PEER')).toBe(true);
  });

  it('a single node keeps replicas unassigned (same_shard) and the state is yellow-shaped', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1'), [indexMeta('i', 3, 1)]), ctx);
    const all = [...allShards(s)];
    expect(all.filter((c) => c.state === 'STARTED')).toHaveLength(3);
    const un = all.filter((c) => c.state === 'UNASSIGNED');
    expect(un).toHaveLength(3);
    expect(un.every((c) => c.unassignedInfo!.lastAllocationStatus === 'deciders_no')).toBe(true);
  });

  it('returns the same state object when nothing changes', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 1)]), ctx);
    const r = reroute(s, ctx);
    expect(r.changed).toBe(false);
    expect(r.state).toBe(s);
  });

  it('throttles: 4 initial primaries per node, then 2 incoming and 2 outgoing peer recoveries', () => {
    const ctx = context();
    const ns = nodes('n1', 'n2');
    let s = reroute(
      clusterState(ns, [
        indexMeta('i', 6, 1, { 'index.routing.allocation.require._name': 'name-n1' }),
      ]),
      ctx,
    ).state;
    expect(initializing(s)).toHaveLength(4);
    s = settle(s, ctx);
    expect(countByNode(s)).toEqual({ n1: 6 });
    // Lift the filter: replicas go to n2, two at a time (n2's incoming, n1's outgoing limit).
    const meta = s.metadata.indices.get('i')!;
    const free = { ...meta, settings: { ...meta.settings } };
    delete (free.settings as Record<string, string>)['index.routing.allocation.require._name'];
    s = { ...s, metadata: { ...s.metadata, indices: new Map([['i', free]]) } };
    const r = reroute(s, ctx);
    expect(initializing(r.state)).toHaveLength(2);
    const throttled = r.unassigned.filter((u) => u.allocationStatus === 'deciders_throttled');
    expect(throttled).toHaveLength(4);
    expect(throttled[0]!.explanation).toBe('allocation temporarily throttled');
    const r2 = reroute(
      r.state,
      context({
        disks: ctx.disks,
        settings: { 'cluster.routing.allocation.node_concurrent_recoveries': '5' },
      }),
    );
    expect(initializing(r2.state)).toHaveLength(5);
  });
});

describe('reroute: deciders', () => {
  it('index require/include/exclude filters by _name, _id, attribute, with wildcards and comma lists', () => {
    const ns = [
      node('n1', { zone: 'a' }, 1),
      node('n2', { zone: 'b' }, 2),
      node('n3', { zone: 'c' }, 3),
    ];
    const place = (settings: Record<string, string>) => {
      const s = settle(clusterState(ns, [indexMeta('i', 3, 0, settings)]), context());
      return Object.keys(countByNode(s)).sort();
    };
    expect(place({ 'index.routing.allocation.require._name': 'name-n2' })).toEqual(['n2']);
    expect(place({ 'index.routing.allocation.include.zone': 'a,c' })).toEqual(['n1', 'n3']);
    expect(place({ 'index.routing.allocation.exclude._id': 'n1' })).toEqual(['n2', 'n3']);
    expect(place({ 'index.routing.allocation.include._name': 'name-n*' })).toEqual([
      'n1',
      'n2',
      'n3',
    ]);
    expect(place({ 'index.routing.allocation.require._ip': '127.0.0.3' })).toEqual(['n3']);
  });

  it('cluster-level filters apply to every index; exclude moves started copies away', () => {
    const ns = [node('n1', {}, 1), node('n2', {}, 2)];
    const ctx = context();
    let s = settle(clusterState(ns, [indexMeta('i', 4, 0)]), ctx);
    expect(countByNode(s)).toEqual({ n1: 2, n2: 2 });
    const ctx2 = context({
      disks: ctx.disks,
      settings: { 'cluster.routing.allocation.exclude._name': 'name-n1' },
    });
    s = settle(s, ctx2);
    expect(countByNode(s)).toEqual({ n2: 4 });
  });

  it('total_shards_per_node caps copies per node (index and cluster level)', () => {
    const s = settle(
      clusterState(nodes('n1', 'n2'), [
        indexMeta('i', 3, 1, { 'index.routing.allocation.total_shards_per_node': '2' }),
      ]),
      context(),
    );
    expect(countByNode(s)).toEqual({ n1: 2, n2: 2 });
    const un = [...allShards(s)].filter((c) => c.state === 'UNASSIGNED');
    expect(un).toHaveLength(2);
    const s2 = settle(
      clusterState(nodes('n1', 'n2'), [indexMeta('i', 5, 0)]),
      context({ settings: { 'cluster.routing.allocation.total_shards_per_node': '1' } }),
    );
    expect(countByNode(s2)).toEqual({ n1: 1, n2: 1 });
  });

  it('cluster.routing.allocation.enable: none blocks all, primaries blocks replicas, new_primaries blocks existing ones', () => {
    const none = settle(
      clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 1)]),
      context({
        settings: { 'cluster.routing.allocation.enable': 'none' },
      }),
    );
    expect([...allShards(none)].every((c) => c.state === 'UNASSIGNED')).toBe(true);
    const prim = settle(
      clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 1)]),
      context({
        settings: { 'cluster.routing.allocation.enable': 'primaries' },
      }),
    );
    const all = [...allShards(prim)];
    expect(all.filter((c) => c.state === 'STARTED').every((c) => c.primary)).toBe(true);
    expect(all.filter((c) => c.state === 'UNASSIGNED').every((c) => !c.primary)).toBe(true);
    expect(all.filter((c) => c.state === 'UNASSIGNED')).toHaveLength(2);
    const np = settle(
      clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 1)]),
      context({
        settings: { 'cluster.routing.allocation.enable': 'new_primaries' },
      }),
    );
    expect([...allShards(np)].filter((c) => c.state === 'STARTED')).toHaveLength(2);
    // The index setting wins over the cluster one.
    const idx = settle(
      clusterState(nodes('n1', 'n2'), [
        indexMeta('i', 2, 1, { 'index.routing.allocation.enable': 'all' }),
      ]),
      context({ settings: { 'cluster.routing.allocation.enable': 'none' } }),
    );
    expect([...allShards(idx)].every((c) => c.state === 'STARTED')).toBe(true);
  });
});
