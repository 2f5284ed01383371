/**
 * The routing and members views of a node of a cluster, over a settled routing table: health,
 * master, `_cat/shards` rows with the copies' collected counts, the copies this node holds, where
 * another node is reached, and node filters.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterIndices } from '../../../../src/cluster/cluster-indices.js';
import type { ClusterMembership } from '../../../../src/cluster/membership.js';
import { clusterMembersView, selectedNodes } from '../../../../src/cluster/members-view.js';
import { clusterRoutingView } from '../../../../src/cluster/routing/routing-view.js';
import { SHARD_STATS_ACTION } from '../../../../src/cluster/routing/shard-stats.js';
import type { ClusterState } from '../../../../src/cluster/state.js';
import type { IndexService } from '../../../../src/engine/index-service.js';
import { clusterState, context, copies, indexMeta, nodes, settle } from '../allocation/helpers.js';

function settled(): ClusterState {
  return settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 1), indexMeta('j', 1, 0)]), context()); // prettier-ignore
}

/** A membership seen from `local`, whose collect answers `answers` by node. */
function membership(
  state: ClusterState,
  local: string,
  answers: Record<string, unknown> = {},
): ClusterMembership & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    localNode: state.nodes.get(local)!,
    state: () => state,
    async collect(action: string) {
      asked.push(action);
      return { results: new Map(Object.entries(answers)), failures: [] };
    },
  } as unknown as ClusterMembership & { asked: string[] };
}

const noIndices = {} as ClusterIndices;

describe('clusterRoutingView', () => {
  it('reports health from the routing table under the cluster name, refusing an unknown index', () => {
    const view = clusterRoutingView({ clusterName: 'qc', membership: membership(settled(), 'n1'), indices: noIndices }); // prettier-ignore
    const { health, missing } = view.health(undefined, 'indices');
    expect(missing).toBe(false);
    expect(health).toMatchObject({ cluster_name: 'qc', status: 'green', active_primary_shards: 3, active_shards: 5 }); // prettier-ignore
    expect(Object.keys(health.indices!)).toEqual(['i', 'j']);
    expect(view.health('j', 'cluster').health.active_shards).toBe(1);
    expect(view.status()).toBe('green');
    expect(view.nodeCount()).toBe(2);
    expect(() => view.health('nope', 'cluster')).toThrow(expect.objectContaining({ type: 'index_not_found_exception', status: 404 })); // prettier-ignore
  });

  it('names the elected master by its transport host, and none when no master is elected', () => {
    const s = settled();
    const view = clusterRoutingView({ clusterName: 'qc', membership: membership(s, 'n2'), indices: noIndices }); // prettier-ignore
    expect(view.masterNodeId()).toBe('n1');
    expect(view.master()).toEqual({ id: 'n1', host: '127.0.0.1', name: 'name-n1' });
    const none = clusterRoutingView({ clusterName: 'qc', membership: membership({ ...s, masterNodeId: null }, 'n2'), indices: noIndices }); // prettier-ignore
    expect(none.master()).toBeNull();
    expect(none.masterNodeId()).toBeNull();
  });

  it('lists every copy with the counts its node collected, empty where a node sent none', async () => {
    const s = settled();
    const primary = copies(s, 'j', 0)[0]!;
    const m = membership(s, 'n1', {
      [primary.nodeId!]: { [primary.allocationId!.id]: { docs: 7, segments: 2, maxSeqNo: 6, syncId: null, storeBytes: 2048 } }, // prettier-ignore
    });
    const view = clusterRoutingView({ clusterName: 'qc', membership: m, indices: noIndices });
    const rows = await view.shardRows('j');
    expect(m.asked).toEqual([SHARD_STATS_ACTION]);
    expect(rows).toEqual([
      {
        values: expect.objectContaining({ index: 'j', shard: 0, prirep: 'p', state: 'STARTED', docs: 7, store: { bytes: 2048 }, 'segments.count': 2, 'seq_no.max': 6, id: primary.nodeId, node: `name-${primary.nodeId}` }), // prettier-ignore
        others: 'empty',
      },
    ]);
    const all = await view.shardRows(undefined);
    expect(all).toHaveLength(5);
    expect(all.filter((r) => r.values.index === 'i').every((r) => r.values.docs === null)).toBe(true); // prettier-ignore
  });

  it('holds only the copies assigned to this node; passes other nodes on by their HTTP address', () => {
    const s = settled();
    const view = clusterRoutingView({ clusterName: 'qc', membership: membership(s, 'n2'), indices: noIndices }); // prettier-ignore
    const idx = { name: 'i', numberOfShards: 2 } as IndexService;
    const here = view.copiesHere(idx);
    const assigned = [0, 1].flatMap((n) => copies(s, 'i', n).filter((c) => c.nodeId === 'n2'));
    expect(here).toEqual(assigned.map((c) => ({ shard: c.shard, primary: c.primary, state: 'STARTED', allocationId: c.allocationId!.id }))); // prettier-ignore
    expect(view.peerUrl('n2')).toBeNull();
    expect(view.peerUrl('n1')).toBe('http://127.0.0.1:9200');
    expect(view.peerUrl('gone')).toBeNull();
  });

  it("reads recoveries from the master's indices, for the named live indices only", async () => {
    const indices = { recoveries: async () => ({ i: [{ id: 0 }], k: [{ id: 0 }] }) } as unknown as ClusterIndices; // prettier-ignore
    const view = clusterRoutingView({ clusterName: 'qc', membership: membership(settled(), 'n1'), indices }); // prettier-ignore
    const live = [{ name: 'i' }, { name: 'j' }] as IndexService[];
    expect(await view.recoveries(live, false, false)).toEqual({ i: [{ id: 0 }] });
  });
});

describe('clusterMembersView', () => {
  it('resolves node filters over the cluster state: _local, _master, names, hosts, wildcards', () => {
    const s = settled();
    expect([...selectedNodes(s, 'n2', [])]).toEqual(['n1', 'n2']);
    expect([...selectedNodes(s, 'n2', ['_local'])]).toEqual(['n2']);
    expect([...selectedNodes(s, 'n2', ['_master'])]).toEqual(['n1']);
    expect([...selectedNodes(s, 'n2', ['name-n*'])]).toEqual(['n1', 'n2']);
    expect([...selectedNodes(s, 'n2', ['127.0.0.2'])]).toEqual(['n2']);
  });

  it('answers in the state’s node order, counting selected nodes that did not answer', async () => {
    const s = settled();
    const view = clusterMembersView(membership(s, 'n1', { n2: 'b' }), 'n1');
    expect(await view.ask('a', {}, [], 1000)).toEqual({ answers: [['n2', 'b']], failed: 1, failures: [] }); // prettier-ignore
    expect(await view.ask('a', {}, ['_local'], 1000)).toEqual({ answers: [], failed: 1, failures: [] }); // prettier-ignore
    expect(view.transportAddress()).toBe('127.0.0.1:9300');
  });
});
