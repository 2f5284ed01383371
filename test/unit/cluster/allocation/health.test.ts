import { describe, expect, it } from 'vitest';
import {
  clusterHealth,
  nodesJoined,
  nodesLeft,
  reroute,
  shardFailed,
} from '../../../../src/cluster/allocation/index.js';
import { primaryOf, type ClusterState } from '../../../../src/cluster/state.js';
import { T0, clusterState, context, copies, indexMeta, node, nodes, settle } from './helpers.js';

describe('clusterHealth', () => {
  it('green when every copy is active', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 5, 1)]), ctx);
    expect(clusterHealth(s)).toEqual({
      cluster_name: 'test',
      status: 'green',
      timed_out: false,
      number_of_nodes: 2,
      number_of_data_nodes: 2,
      active_primary_shards: 5,
      active_shards: 10,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 0,
      delayed_unassigned_shards: 0,
      number_of_pending_tasks: 0,
      number_of_in_flight_fetch: 0,
      task_max_waiting_in_queue_millis: 0,
      active_shards_percent_as_number: 100,
    });
  });

  it('counts no copy on a node that left before the master reacted: a lost primary is red until promoted', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 1)]), ctx);
    // n2's key is gone from etcd; the master has not yet failed its copies over
    const gone: ClusterState = { ...s, nodes: new Map([...s.nodes].filter(([id]) => id !== 'n2')) };
    const h = clusterHealth(gone);
    const onN2 = [...s.routing.get('i')!.shards].flat().filter((c) => c.nodeId === 'n2');
    const lostPrimaries = onN2.filter((c) => c.primary).length;
    expect(h).toMatchObject({
      status: lostPrimaries > 0 ? 'red' : 'yellow',
      number_of_nodes: 1,
      active_primary_shards: 2 - lostPrimaries,
      active_shards: 4 - onN2.length,
    });
    // once the master failed n2's copies over, the index is yellow with every primary active
    expect(clusterHealth(nodesLeft(s, ['n2'], T0))).toMatchObject({
      status: 'yellow',
      active_primary_shards: 2,
    });
  });

  it('yellow with unassigned replicas; a new index waiting for its primaries is yellow too', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1'), [indexMeta('i', 2, 1)]), ctx);
    const h = clusterHealth(s, { level: 'shards' });
    expect(h).toMatchObject({
      status: 'yellow',
      active_shards: 2,
      unassigned_shards: 2,
      active_shards_percent_as_number: 50,
    });
    expect(h.indices!.i).toEqual({
      status: 'yellow',
      number_of_shards: 2,
      number_of_replicas: 1,
      active_primary_shards: 2,
      active_shards: 2,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 2,
      shards: {
        '0': {
          status: 'yellow',
          primary_active: true,
          active_shards: 1,
          relocating_shards: 0,
          initializing_shards: 0,
          unassigned_shards: 1,
        },
        '1': {
          status: 'yellow',
          primary_active: true,
          active_shards: 1,
          relocating_shards: 0,
          initializing_shards: 0,
          unassigned_shards: 1,
        },
      },
    });
    const fresh = reroute(clusterState(nodes('n1'), [indexMeta('j', 1, 0)]), ctx).state;
    expect(clusterHealth(fresh)).toMatchObject({
      status: 'yellow',
      initializing_shards: 1,
      active_primary_shards: 0,
    });
    // A primary the deciders refuse is red.
    const none = reroute(
      clusterState(nodes('n1'), [indexMeta('k', 1, 0)]),
      context({ settings: { 'cluster.routing.allocation.enable': 'none' } }),
    ).state;
    expect(clusterHealth(none).status).toBe('red');
  });

  it('red when a primary is lost without an in-sync copy; delayed replicas are counted', () => {
    const ctx = context();
    let s = settle(
      clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('a', 1, 0), indexMeta('b', 1, 1)]),
      ctx,
    );
    const pa = primaryOf(s, 'a', 0)!;
    s = nodesLeft(s, [pa.nodeId!], T0);
    const h = clusterHealth(s, { level: 'indices' });
    expect(h.status).toBe('red');
    expect(h.indices!.a!.status).toBe('red');
    const lostB = copies(s, 'b', 0).some((c) => c.state === 'UNASSIGNED');
    // Every copy the node took is delayed, the lost primary too (ES sets the flag on all of them).
    expect(h.delayed_unassigned_shards).toBe(lostB ? 2 : 1);
    // Filtering by index, and a failed new primary is red.
    expect(clusterHealth(s, { indices: ['b'] }).status).toBe(lostB ? 'yellow' : 'green');
    const c2 = context();
    const f = reroute(clusterState(nodes('n1'), [indexMeta('c', 1, 0)]), c2).state;
    const failed = shardFailed(f, primaryOf(f, 'c', 0)!.allocationId!.id, 'x', T0);
    expect(clusterHealth(failed).status).toBe('red');
  });

  it('relocations count as active and relocating; their targets are not counted', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1'), [indexMeta('i', 4, 0)]), ctx);
    s = nodesJoined(s, [node('n2', {}, 2)], ctx).state;
    const h = clusterHealth(s);
    expect(h).toMatchObject({
      status: 'green',
      active_shards: 4,
      relocating_shards: 2,
      initializing_shards: 0,
    });
  });

  it('closed indices are left out', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1'), [indexMeta('i', 1, 0), indexMeta('c', 1, 1)]), ctx);
    const meta = s.metadata.indices.get('c')!;
    const closed: ClusterState = {
      ...s,
      metadata: {
        ...s.metadata,
        indices: new Map(s.metadata.indices).set('c', { ...meta, state: 'close' }),
      },
    };
    const h = clusterHealth(closed, { level: 'indices' });
    expect(h.status).toBe('green');
    expect(Object.keys(h.indices!)).toEqual(['i']);
    expect(h.active_shards).toBe(1);
  });
});
