import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import {
  explainAllocation,
  nodesLeft,
  parseExplainRequest,
  reroute,
} from '../../../../src/cluster/allocation/index.js';
import { primaryOf } from '../../../../src/cluster/state.js';
import { T0, clusterState, context, copies, indexMeta, node, nodes, settle } from './helpers.js';

function error(f: () => unknown): { type: string; reason: string | null; status: number } {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('no error');
}

describe('explainAllocation: unassigned copies', () => {
  it('a replica on a one-node cluster: same_shard NO, with ES texts and ranking', () => {
    const ctx = context();
    const s = settle(clusterState([node('n1', { zone: 'a' })], [indexMeta('i', 1, 1)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const body = explainAllocation(s, ctx);
    expect(body).toEqual({
      index: 'i',
      shard: 0,
      primary: false,
      current_state: 'unassigned',
      unassigned_info: {
        reason: 'INDEX_CREATED',
        at: '2026-11-28T12:00:00.000Z',
        last_allocation_status: 'no',
      },
      can_allocate: 'no',
      allocate_explanation:
        'cannot allocate because allocation is not permitted to any of the nodes',
      node_allocation_decisions: [
        {
          node_id: 'n1',
          node_name: 'name-n1',
          transport_address: '127.0.0.1:9300',
          node_attributes: { zone: 'a' },
          node_decision: 'no',
          deciders: [
            {
              decider: 'same_shard',
              decision: 'NO',
              explanation: `the shard cannot be allocated to the same node on which a copy of the shard already exists [[i][0], node[n1], [P], s[STARTED], a[id=${p.allocationId!.id}]]`,
            },
          ],
        },
      ],
    });
  });

  it('include_yes_decisions lists every decider; include_disk_info adds cluster_info', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1'), [indexMeta('i', 1, 1)]), ctx);
    const body = explainAllocation(s, ctx, { includeYesDecisions: true, includeDiskInfo: true });
    expect(body.cluster_info).toEqual({ nodes: {}, shard_sizes: {}, shard_paths: {} });
    const deciders = (
      body.node_allocation_decisions as {
        deciders: { decider: string; decision: string; explanation: string }[];
      }[]
    )[0]!.deciders;
    expect(deciders.map((d) => d.decider)).toEqual([
      'max_retry',
      'replica_after_primary_active',
      'enable',
      'node_version',
      'snapshot_in_progress',
      'restore_in_progress',
      'filter',
      'same_shard',
      'disk_threshold',
      'throttling',
      'shards_limit',
      'awareness',
    ]);
    expect(deciders[0]).toEqual({
      decider: 'max_retry',
      decision: 'YES',
      explanation: 'shard has no previous failures',
    });
    expect(deciders[8]!.explanation).toBe('there is only a single data node present');
    expect(deciders[10]!.explanation).toBe(
      'total shard limits are disabled: [index: -1, cluster: -1] <= 0',
    );
    expect(deciders[11]!.explanation).toBe(
      'allocation awareness is not enabled, set cluster setting [cluster.routing.allocation.awareness.attributes] to enable it',
    );
  });

  it('filter explanations name the setting and the filters as ES prints them', () => {
    const ctx = context();
    const s = settle(
      clusterState(nodes('n1', 'n2'), [
        indexMeta('i', 1, 0, {
          'index.routing.allocation.require._name': 'x,y',
          'index.routing.allocation.require.zone': 'z',
        }),
        indexMeta('j', 1, 0, { 'index.routing.allocation.exclude._id': 'n1,n2' }),
      ]),
      ctx,
    );
    const deciders = (idx: string) =>
      (
        explainAllocation(s, ctx, { index: idx, shard: 0, primary: true })
          .node_allocation_decisions as { deciders: { explanation: string }[] }[]
      ).map((n) => n.deciders[0]!.explanation);
    expect(deciders('i')).toEqual([
      'node does not match index setting [index.routing.allocation.require] filters [_name:"x AND y",zone:"z"]',
      'node does not match index setting [index.routing.allocation.require] filters [_name:"x AND y",zone:"z"]',
    ]);
    expect(deciders('j')[0]).toBe(
      'node matches index setting [index.routing.allocation.exclude.] filters [_id:"n1 OR n2"]',
    );
    const c = context({ settings: { 'cluster.routing.allocation.include._name': 'q' } });
    const s2 = reroute(clusterState(nodes('n1'), [indexMeta('k', 1, 0)]), c).state;
    expect(
      (
        explainAllocation(s2, c).node_allocation_decisions as {
          deciders: { explanation: string }[];
        }[]
      )[0]!.deciders[0]!.explanation,
    ).toBe(
      'node does not cluster setting [cluster.routing.allocation.include] filters [_name:"q"]',
    );
  });

  it('a primary with no in-sync copy: no_valid_shard_copy with store info per node', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const other = p.nodeId === 'n1' ? 'n2' : 'n1';
    s = reroute(nodesLeft(s, [p.nodeId!], T0 + 1000), ctx).state;
    const body = explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true });
    expect(body).toMatchObject({
      current_state: 'unassigned',
      unassigned_info: {
        reason: 'NODE_LEFT',
        at: '2026-11-28T12:00:01.000Z',
        details: `node_left [${p.nodeId}]`,
        last_allocation_status: 'no_valid_shard_copy',
      },
      can_allocate: 'no_valid_shard_copy',
      allocate_explanation:
        'cannot allocate because a previous copy of the primary shard existed but can no longer be found on the nodes in the cluster',
      node_allocation_decisions: [
        {
          node_id: other,
          node_name: `name-${other}`,
          node_decision: 'no',
          store: { found: false },
        },
      ],
    });
    ctx.disks.get('i-uuid', 0).set(other, 'old');
    const stale = explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true });
    expect(stale.allocate_explanation).toBe(
      'cannot allocate because all found copies of the shard are either stale or corrupt',
    );
    expect((stale.node_allocation_decisions as unknown[])[0]).toMatchObject({
      store: { in_sync: false, allocation_id: 'old' },
    });
  });

  it('a delayed replica: allocation_delayed with the delays in millis', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('i', 1, 1)]), ctx);
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    s = nodesLeft(s, [rep.nodeId!], T0);
    ctx.time.now = T0 + 15_500;
    const body = explainAllocation(s, ctx);
    expect(body).toMatchObject({
      can_allocate: 'allocation_delayed',
      allocate_explanation:
        'cannot allocate because the cluster is still waiting 44.5s for the departed node holding a replica to rejoin, despite being allowed to allocate the shard to at least one other node',
      configured_delay_in_millis: 60000,
      remaining_delay_in_millis: 44500,
    });
  });

  it('max_retry after repeated failures names retry_failed', () => {
    const ctx = context();
    const s0 = clusterState(nodes('n1'), [indexMeta('i', 1, 0)]);
    const t = s0.routing.get('i')!;
    const failed = {
      ...t.shards[0]![0]!,
      unassignedInfo: {
        reason: 'ALLOCATION_FAILED' as const,
        at: T0,
        details: 'failed shard on node [n1]: boom',
        delayed: false,
        failedAttempts: 5,
        lastAllocationStatus: 'deciders_no',
      },
    };
    const s = { ...s0, routing: new Map([['i', { ...t, shards: [[failed]] }]]) };
    const body = explainAllocation(s, ctx);
    expect(body.unassigned_info).toEqual({
      reason: 'ALLOCATION_FAILED',
      at: '2026-11-28T12:00:00.000Z',
      failed_allocation_attempts: 5,
      details: 'failed shard on node [n1]: boom',
      last_allocation_status: 'no',
    });
    expect(
      (body.node_allocation_decisions as { deciders: { explanation: string }[] }[])[0]!.deciders[0]!
        .explanation,
    ).toBe(
      'shard has exceeded the maximum number of retries [5] on failed allocation attempts - manually call [/_cluster/reroute?retry_failed=true] to retry, [unassigned_info[[reason=ALLOCATION_FAILED], at[2026-11-28T12:00:00.000Z], failed_attempts[5], delayed=false, details[failed shard on node [n1]: boom], allocation_status[deciders_no]]]',
    );
  });
});

describe('explainAllocation: assigned copies', () => {
  it('a started copy that may stay and has nowhere better to go', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 2, 0)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const body = explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true });
    expect(body).toEqual({
      index: 'i',
      shard: 0,
      primary: true,
      current_state: 'started',
      current_node: {
        id: p.nodeId,
        name: `name-${p.nodeId}`,
        transport_address: s.nodes.get(p.nodeId!)!.transportAddress,
        weight_ranking: 1,
      },
      can_remain_on_current_node: 'yes',
      can_rebalance_cluster: 'yes',
      can_rebalance_to_other_node: 'no',
      rebalance_explanation:
        'cannot rebalance as no target node exists that can both allocate this shard and improve the cluster balance',
      node_allocation_decisions: [
        {
          node_id: p.nodeId === 'n1' ? 'n2' : 'n1',
          node_name: `name-${p.nodeId === 'n1' ? 'n2' : 'n1'}`,
          transport_address: s.nodes.get(p.nodeId === 'n1' ? 'n2' : 'n1')!.transportAddress,
          node_decision: 'worse_balance',
          weight_ranking: 1,
        },
      ],
    });
  });

  it('rebalancing disallowed, and a copy that may not remain', () => {
    const ctx = context({ settings: { 'cluster.routing.rebalance.enable': 'none' } });
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    const body = explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true });
    expect(body.can_rebalance_cluster).toBe('no');
    expect(body.can_rebalance_cluster_decisions).toEqual([
      {
        decider: 'enable',
        decision: 'NO',
        explanation:
          'no rebalancing is allowed due to cluster setting [cluster.routing.rebalance.enable=none]',
      },
    ]);
    // The other node is allowed but would not improve the balance: worse_balance, not yes.
    expect(body.rebalance_explanation).toBe('rebalancing is not allowed');
    expect(body.can_rebalance_to_other_node).toBe('no');
    const p = primaryOf(s, 'i', 0)!;
    const c2 = context({
      settings: {
        'cluster.routing.allocation.exclude._id': p.nodeId!,
        'cluster.routing.allocation.enable': 'none',
      },
    });
    const moving = explainAllocation(s, c2, { index: 'i', shard: 0, primary: true });
    expect(moving).toMatchObject({
      can_remain_on_current_node: 'no',
      can_remain_decisions: [
        {
          decider: 'filter',
          decision: 'NO',
          explanation: `node matches cluster setting [cluster.routing.allocation.exclude] filters [_id:"${p.nodeId}"]`,
        },
      ],
      can_move_to_other_node: 'no',
      move_explanation:
        'cannot move shard to another node, even though it is not allowed to remain on its current node',
    });
  });

  it('initializing and relocating copies say to wait', () => {
    const ctx = context();
    const s = reroute(clusterState(nodes('n1'), [indexMeta('i', 1, 0)]), ctx).state;
    expect(explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true })).toEqual({
      index: 'i',
      shard: 0,
      primary: true,
      current_state: 'initializing',
      unassigned_info: {
        reason: 'INDEX_CREATED',
        at: '2026-11-28T12:00:00.000Z',
        last_allocation_status: 'no_attempt',
      },
      current_node: { id: 'n1', name: 'name-n1', transport_address: '127.0.0.1:9300' },
      explanation:
        'the shard is in the process of initializing on node [name-n1], wait until initialization has completed',
    });
  });
});

describe('explainAllocation: request errors', () => {
  it('no unassigned copy, missing fields, unknown index and shard, no replica, wrong node', () => {
    const ctx = context();
    const s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    expect(error(() => explainAllocation(s, ctx))).toEqual({
      type: 'illegal_argument_exception',
      reason:
        'unable to find any unassigned shards to explain [ClusterAllocationExplainRequest[useAnyUnassignedShard=true,includeYesDecisions?=false]',
      status: 400,
    });
    expect(error(() => explainAllocation(s, ctx, { index: 'i' }))).toEqual({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: shard must be specified;2: primary must be specified;',
      status: 400,
    });
    expect(
      error(() => explainAllocation(s, ctx, { index: 'x', shard: 0, primary: true })).type,
    ).toBe('index_not_found_exception');
    expect(
      error(() => explainAllocation(s, ctx, { index: 'i', shard: 3, primary: true })).type,
    ).toBe('shard_not_found_exception');
    expect(
      error(() => explainAllocation(s, ctx, { index: 'i', shard: 0, primary: false })).reason,
    ).toBe(
      'unable to find any shards to explain [ClusterAllocationExplainRequest[index=i,shard=0,primary?=false,includeYesDecisions?=false] in the routing table',
    );
    const other = primaryOf(s, 'i', 0)!.nodeId === 'n1' ? 'n2' : 'n1';
    expect(
      error(() =>
        explainAllocation(s, ctx, { index: 'i', shard: 0, primary: true, currentNode: other }),
      ).reason,
    ).toBe(`unable to find primary shard assigned to node [${other}]`);
  });

  it('parses the request body as ES does', () => {
    expect(
      parseExplainRequest({ index: 'i', shard: 0, primary: false, current_node: 'n1' }),
    ).toEqual({
      index: 'i',
      shard: 0,
      primary: false,
      currentNode: 'n1',
    });
    expect(parseExplainRequest(undefined)).toEqual({});
    expect(error(() => parseExplainRequest({ idx: 'i' })).reason).toBe(
      '[cluster/allocation/explain] unknown field [idx], parser not found',
    );
  });
});
