import { describe, expect, it } from 'vitest';
import {
  applyRerouteCommands,
  markInSync,
  newIndexRouting,
  nextDelayedAllocation,
  nodesJoined,
  nodesLeft,
  removeFromInSync,
  reroute,
  shardFailed,
  shardStarted,
  updateNumberOfReplicas,
} from '../../../../src/cluster/allocation/index.js';
import { allShards, primaryOf } from '../../../../src/cluster/state.js';
import {
  T0,
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

describe('newIndexRouting', () => {
  it('creates every copy UNASSIGNED INDEX_CREATED, primaries from an empty store, replicas by peer recovery', () => {
    const t = newIndexRouting(indexMeta('i', 2, 2), T0);
    expect(t.shards).toHaveLength(2);
    for (const g of t.shards) {
      expect(g).toHaveLength(3);
      expect(g[0]!.primary).toBe(true);
      expect(g[0]!.recoverySource).toEqual({ type: 'EMPTY_STORE' });
      expect(g.slice(1).every((c) => !c.primary && c.recoverySource?.type === 'PEER')).toBe(true);
      for (const c of g) {
        expect(c.state).toBe('UNASSIGNED');
        expect(c.unassignedInfo).toMatchObject({
          reason: 'INDEX_CREATED',
          at: T0,
          delayed: false,
          failedAttempts: 0,
          lastAllocationStatus: 'no_attempt',
        });
      }
    }
  });
});

function twoNodeCluster(shards = 1, replicas = 1, settings: Record<string, string> = {}) {
  const ctx = context();
  const s = settle(
    clusterState(nodes('n1', 'n2'), [indexMeta('i', shards, replicas, settings)]),
    ctx,
  );
  return { ctx, s };
}

describe('nodesLeft', () => {
  it('a lost primary is replaced by its started in-sync replica and the term goes up by one', () => {
    const { s } = twoNodeCluster();
    const p = primaryOf(s, 'i', 0)!;
    const r = copies(s, 'i', 0).find((c) => !c.primary)!;
    const termBefore = s.metadata.indices.get('i')!.terms[0]!.primaryTerm;
    const after = nodesLeft(s, [p.nodeId!], T0 + 1000);
    expect(after.nodes.has(p.nodeId!)).toBe(false);
    const np = primaryOf(after, 'i', 0)!;
    expect(np.allocationId!.id).toBe(r.allocationId!.id);
    expect(np.state).toBe('STARTED');
    expect(after.metadata.indices.get('i')!.terms[0]!.primaryTerm).toBe(termBefore + 1);
    expect(after.metadata.indices.get('i')!.version).toBe(s.metadata.indices.get('i')!.version + 1);
    const lost = copies(after, 'i', 0).find((c) => !c.primary)!;
    expect(lost.state).toBe('UNASSIGNED');
    expect(lost.unassignedInfo).toMatchObject({
      reason: 'NODE_LEFT',
      details: `node_left [${p.nodeId}]`,
      delayed: true,
      lastNodeId: p.nodeId,
    });
    // The in-sync set still names the lost copy (it may come back).
    expect(after.metadata.indices.get('i')!.terms[0]!.inSync).toContain(p.allocationId!.id);
  });

  it('with two replicas, the one not promoted leaves the in-sync set and recovers from the new primary', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('i', 1, 2)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const termBefore = s.metadata.indices.get('i')!.terms[0]!.primaryTerm;
    const after = nodesLeft(s, [p.nodeId!], T0 + 1000);
    const np = primaryOf(after, 'i', 0)!;
    expect(np.state).toBe('STARTED');
    const other = copies(after, 'i', 0).find(
      (c) => !c.primary && c.unassignedInfo?.reason === 'PRIMARY_FAILED',
    )!;
    // it may hold operations of the failed primary that the new one never got
    expect(other.state).toBe('UNASSIGNED');
    expect(other.recoverySource).toEqual({ type: 'PEER' });
    const terms = after.metadata.indices.get('i')!.terms[0]!;
    expect(terms.primaryTerm).toBe(termBefore + 1);
    expect(terms.inSync).not.toContain(other.allocationId?.id ?? '-');
    expect(terms.inSync).toContain(np.allocationId!.id);
    // the next reroute puts it back on its node (the only one without a copy), to recover there
    const back = settle(after, ctx);
    expect(copies(back, 'i', 0).filter((c) => c.state === 'STARTED')).toHaveLength(2);
  });

  it('no in-sync replica: the primary stays unassigned (EXISTING_STORE) and reroute says no_valid_shard_copy', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const after = nodesLeft(s, [p.nodeId!], T0);
    const up = primaryOf(after, 'i', 0)!;
    expect(up.state).toBe('UNASSIGNED');
    expect(up.recoverySource).toEqual({ type: 'EXISTING_STORE' });
    // The other node has no copy: nothing to allocate.
    const r = reroute(after, ctx);
    expect(primaryOf(r.state, 'i', 0)!.state).toBe('UNASSIGNED');
    expect(primaryOf(r.state, 'i', 0)!.unassignedInfo!.lastAllocationStatus).toBe(
      'no_valid_shard_copy',
    );
    expect(r.unassigned[0]).toMatchObject({
      allocationStatus: 'no_valid_shard_copy',
      explanation:
        'cannot allocate because a previous copy of the primary shard existed but can no longer be found on the nodes in the cluster',
    });
  });

  it('an existing-store primary goes back only to a node holding an in-sync copy, reusing its allocation id', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const gone = nodesLeft(s, [p.nodeId!], T0);
    // A stale copy elsewhere is not enough.
    ctx.disks.get('i-uuid', 0).set(p.nodeId === 'n1' ? 'n2' : 'n1', 'stale-aid');
    const r = reroute(gone, ctx);
    expect(primaryOf(r.state, 'i', 0)!.state).toBe('UNASSIGNED');
    expect(r.unassigned[0]!.explanation).toBe(
      'cannot allocate because all found copies of the shard are either stale or corrupt',
    );
    // The node comes back with its in-sync copy.
    const back = nodesJoined(r.state, [s.nodes.get(p.nodeId!)!], ctx).state;
    const np = primaryOf(back, 'i', 0)!;
    expect(np).toMatchObject({
      state: 'INITIALIZING',
      nodeId: p.nodeId,
      allocationId: { id: p.allocationId!.id },
    });
    expect(np.recoverySource).toEqual({ type: 'EXISTING_STORE' });
  });

  it('a replica that left waits delayed_timeout, then is allocated elsewhere; health of delay via nextDelayedAllocation', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('i', 1, 1)]), ctx);
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    s = nodesLeft(s, [rep.nodeId!], T0);
    expect(nextDelayedAllocation(s, T0 + 10_000)).toBe(50_000);
    ctx.time.now = T0 + 10_000;
    const r = reroute(s, ctx);
    const waiting = copies(r.state, 'i', 0).find((c) => !c.primary)!;
    expect(waiting.state).toBe('UNASSIGNED');
    expect(waiting.unassignedInfo!.lastAllocationStatus).toBe('delayed_allocation');
    expect(r.unassigned[0]!.explanation).toBe(
      'cannot allocate because the cluster is still waiting 50s for the departed node holding a replica to rejoin, despite being allowed to allocate the shard to at least one other node',
    );
    ctx.time.now = T0 + 60_000;
    const later = reroute(r.state, ctx).state;
    const moved = copies(later, 'i', 0).find((c) => !c.primary)!;
    expect(moved.state).toBe('INITIALIZING');
    expect(moved.nodeId).not.toBe(rep.nodeId);
    expect(nextDelayedAllocation(later, T0 + 60_000)).toBe(-1);
  });

  it('a delayed replica goes back to its node when the node returns in time', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('i', 1, 1)]), ctx);
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    const gone = s.nodes.get(rep.nodeId!)!;
    s = nodesLeft(s, [gone.id], T0);
    ctx.time.now = T0 + 5000;
    s = reroute(s, ctx).state;
    const r = nodesJoined(s, [gone], ctx);
    const back = copies(r.state, 'i', 0).find((c) => !c.primary)!;
    expect(back.state).toBe('INITIALIZING');
    expect(back.nodeId).toBe(gone.id);
  });

  it('delayed_timeout 0 allocates at once', () => {
    const ctx = context();
    let s = settle(
      clusterState(nodes('n1', 'n2', 'n3'), [
        indexMeta('i', 1, 1, { 'index.unassigned.node_left.delayed_timeout': '0' }),
      ]),
      ctx,
    );
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    s = nodesLeft(s, [rep.nodeId!], T0);
    expect(copies(s, 'i', 0).find((c) => !c.primary)!.unassignedInfo!.delayed).toBe(false);
    expect(initializing(reroute(s, ctx).state)).toHaveLength(1);
  });

  it('a node holding a relocation target leaves: the relocation is cancelled, the source keeps running', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1'), [indexMeta('i', 2, 0)]), ctx);
    const r = nodesJoined(s, [node('n2', {}, 2)], ctx);
    s = r.state;
    const relocating = [...allShards(s)].filter((c) => c.state === 'RELOCATING');
    expect(relocating).toHaveLength(1);
    const target = initializing(s)[0]!;
    expect(target).toMatchObject({ nodeId: 'n2', relocatingNodeId: 'n1' });
    expect(target.allocationId!.relocationId).toBe(relocating[0]!.allocationId!.id);
    expect(relocating[0]!.allocationId!.relocationId).toBe(target.allocationId!.id);
    const after = nodesLeft(s, ['n2'], T0);
    expect([...allShards(after)].map((c) => [c.state, c.nodeId])).toEqual([
      ['STARTED', 'n1'],
      ['STARTED', 'n1'],
    ]);
  });
});

describe('shardStarted / shardFailed', () => {
  it('a failed replica is unassigned ALLOCATION_FAILED with one more attempt, and stops after index.allocation.max_retries', () => {
    const ctx = context();
    let s = settle(
      clusterState(nodes('n1'), [indexMeta('i', 1, 1, { 'index.allocation.max_retries': '2' })]),
      ctx,
    );
    s = nodesJoined(s, [node('n2', {}, 2)], ctx).state;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const init = initializing(s)[0]!;
      expect(init.primary).toBe(false);
      s = shardFailed(s, init.allocationId!.id, 'recovery failed', T0 + attempt);
      const failed = copies(s, 'i', 0).find((c) => !c.primary)!;
      expect(failed.unassignedInfo).toMatchObject({
        reason: 'ALLOCATION_FAILED',
        failedAttempts: attempt,
        details: 'failed shard on node [n2]: recovery failed',
      });
      s = reroute(s, ctx).state;
    }
    expect(initializing(s)).toHaveLength(0);
    const r = reroute(s, ctx);
    expect(r.unassigned[0]!.allocationStatus).toBe('deciders_no');
  });

  it('a failed started primary promotes the in-sync replica (term + 1); the old primary becomes an unassigned replica', () => {
    const { s } = twoNodeCluster();
    const p = primaryOf(s, 'i', 0)!;
    const after = shardFailed(s, p.allocationId!.id, 'disk broke', T0);
    const np = primaryOf(after, 'i', 0)!;
    expect(np.allocationId!.id).not.toBe(p.allocationId!.id);
    expect(after.metadata.indices.get('i')!.terms[0]!.primaryTerm).toBe(2);
    const old = copies(after, 'i', 0).find((c) => !c.primary)!;
    expect(old).toMatchObject({ state: 'UNASSIGNED', recoverySource: { type: 'PEER' } });
  });

  it('a replica outside the in-sync set is not promoted', () => {
    const { s } = twoNodeCluster();
    const p = primaryOf(s, 'i', 0)!;
    const r = copies(s, 'i', 0).find((c) => !c.primary)!;
    const stale = removeFromInSync(s, 'i', 0, r.allocationId!.id);
    expect(stale.metadata.indices.get('i')!.terms[0]!.inSync).toEqual([p.allocationId!.id]);
    const after = nodesLeft(stale, [p.nodeId!], T0);
    expect(primaryOf(after, 'i', 0)!.state).toBe('UNASSIGNED');
    const back = markInSync(stale, 'i', 0, r.allocationId!.id);
    expect([...back.metadata.indices.get('i')!.terms[0]!.inSync].sort()).toEqual(
      [p.allocationId!.id, r.allocationId!.id].sort(),
    );
    // markAsStale from shardFailed does the same as removeFromInSync.
    const failed = shardFailed(s, r.allocationId!.id, 'x', T0, { markAsStale: true });
    expect(failed.metadata.indices.get('i')!.terms[0]!.inSync).toEqual([p.allocationId!.id]);
  });

  it('a failing primary fails its initializing replicas (PRIMARY_FAILED)', () => {
    const ctx = context();
    let s = reroute(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 1)]), ctx).state;
    s = shardStarted(s, initializing(s)[0]!.allocationId!.id);
    s = reroute(s, ctx).state;
    const rep = initializing(s)[0]!;
    expect(rep.primary).toBe(false);
    const p = primaryOf(s, 'i', 0)!;
    const after = shardFailed(s, p.allocationId!.id, 'boom', T0);
    const rr = copies(after, 'i', 0).find((c) => !c.primary)!;
    expect(rr.unassignedInfo).toMatchObject({
      reason: 'PRIMARY_FAILED',
      details: 'primary failed while replica initializing',
    });
    expect(primaryOf(after, 'i', 0)!.state).toBe('UNASSIGNED');
  });

  it('stale events change nothing', () => {
    const { s } = twoNodeCluster();
    expect(shardStarted(s, 'nope')).toBe(s);
    expect(shardFailed(s, 'nope', 'x', T0)).toBe(s);
    const started = primaryOf(s, 'i', 0)!;
    expect(shardStarted(s, started.allocationId!.id)).toBe(s);
  });
});

describe('rebalancing', () => {
  it('converges to an even spread when nodes join, two relocations at a time', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1'), [indexMeta('i', 6, 0)]), ctx);
    expect(countByNode(s)).toEqual({ n1: 6 });
    const r = nodesJoined(s, [node('n2', {}, 2), node('n3', {}, 3)], ctx);
    expect([...allShards(r.state)].filter((c) => c.state === 'RELOCATING')).toHaveLength(2);
    s = settle(r.state, ctx);
    expect(countByNode(s)).toEqual({ n1: 2, n2: 2, n3: 2 });
    expect([...allShards(s)]).toHaveLength(6);
    // A finished relocation leaves only the target in the in-sync set.
    for (let sh = 0; sh < 6; sh++)
      expect(s.metadata.indices.get('i')!.terms[sh]!.inSync).toEqual([
        primaryOf(s, 'i', sh)!.allocationId!.id,
      ]);
  });

  it('cluster.routing.rebalance.enable none and allow_rebalance keep copies where they are', () => {
    const ctx = context({ settings: { 'cluster.routing.rebalance.enable': 'none' } });
    let s = settle(clusterState(nodes('n1'), [indexMeta('i', 4, 0)]), ctx);
    s = settle(nodesJoined(s, [node('n2', {}, 2)], ctx).state, ctx);
    expect(countByNode(s)).toEqual({ n1: 4 });
    // indices_all_active: an unassigned replica anywhere blocks rebalancing.
    const ctx2 = context();
    let t = settle(
      clusterState(nodes('n1'), [
        indexMeta('i', 4, 0),
        indexMeta('j', 1, 1, { 'index.routing.allocation.require._name': 'name-n1' }),
      ]),
      ctx2,
    );
    t = settle(nodesJoined(t, [node('n2', {}, 2)], ctx2).state, ctx2);
    expect(countByNode(t, 'i')).toEqual({ n1: 4 });
    const ctx3 = context({
      disks: ctx2.disks,
      settings: { 'cluster.routing.allocation.allow_rebalance': 'always' },
    });
    t = settle(t, ctx3);
    expect(countByNode(t, 'i')).toEqual({ n1: 2, n2: 2 });
  });
});

describe('updateNumberOfReplicas', () => {
  it('adds REPLICA_ADDED copies and removes unassigned ones first, then assigned ones (leaving the in-sync set)', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    s = updateNumberOfReplicas(s, 'i', 2, T0);
    const g = copies(s, 'i', 0);
    expect(g).toHaveLength(3);
    expect(g.filter((c) => c.state === 'UNASSIGNED').map((c) => c.unassignedInfo!.reason)).toEqual([
      'REPLICA_ADDED',
      'REPLICA_ADDED',
    ]);
    const meta = s.metadata.indices.get('i')!;
    s = {
      ...s,
      metadata: { ...s.metadata, indices: new Map([['i', { ...meta, numberOfReplicas: 2 }]]) },
    };
    s = settle(s, ctx);
    expect(copies(s, 'i', 0).filter((c) => c.state === 'STARTED')).toHaveLength(2);
    s = updateNumberOfReplicas(s, 'i', 1, T0);
    expect(copies(s, 'i', 0).map((c) => c.state)).toEqual(['STARTED', 'STARTED']);
    s = updateNumberOfReplicas(s, 'i', 0, T0);
    const left = copies(s, 'i', 0);
    expect(left).toHaveLength(1);
    expect(left[0]!.primary).toBe(true);
    expect(s.metadata.indices.get('i')!.terms[0]!.inSync).toEqual([left[0]!.allocationId!.id]);
  });
});

describe('cluster_concurrent_rebalance', () => {
  it('bounds the relocations one reroute starts', () => {
    const ctx = context({
      settings: { 'cluster.routing.allocation.cluster_concurrent_rebalance': '1' },
    });
    const s = settle(clusterState(nodes('n1'), [indexMeta('i', 6, 0)]), ctx);
    const r = nodesJoined(s, [node('n2', {}, 2), node('n3', {}, 3)], ctx);
    expect([...allShards(r.state)].filter((c) => c.state === 'RELOCATING')).toHaveLength(1);
    expect(countByNode(settle(r.state, ctx))).toEqual({ n1: 2, n2: 2, n3: 2 });
  });
});

describe('relocation failures', () => {
  it('a failed relocation target puts the source back to STARTED; a failed replica source leaves the target as a plain recovery', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 1)]), ctx);
    s = nodesJoined(s, [node('n3', {}, 3)], ctx).state;
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    const moving = applyRerouteCommands(
      s,
      [{ kind: 'move', index: 'i', shard: 0, fromNode: rep.nodeId!, toNode: 'n3' }],
      ctx,
    ).state;
    const target = initializing(moving)[0]!;
    const back = shardFailed(moving, target.allocationId!.id, 'recovery failed', T0);
    expect(copies(back, 'i', 0).map((c) => [c.primary, c.state, c.nodeId])).toEqual([
      [true, 'STARTED', primaryOf(s, 'i', 0)!.nodeId],
      [false, 'STARTED', rep.nodeId],
    ]);
    const sourceGone = shardFailed(moving, rep.allocationId!.id, 'disk', T0);
    const left = copies(sourceGone, 'i', 0).find((c) => !c.primary)!;
    expect(left).toMatchObject({ state: 'INITIALIZING', nodeId: 'n3', relocatingNodeId: null });
    expect(left.allocationId).toEqual({ id: target.allocationId!.id });
  });
});
