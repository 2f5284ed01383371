import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import {
  applyRerouteCommands,
  FORCED_ALLOCATION_ID,
  nodesLeft,
  parseRerouteCommands,
  reroute,
  shardFailed,
  shardStarted,
  type RerouteCommand,
} from '../../../../src/cluster/allocation/index.js';
import { allShards, primaryOf, type ClusterState } from '../../../../src/cluster/state.js';
import {
  T0,
  clusterState,
  context,
  copies,
  indexMeta,
  initializing,
  node,
  nodes,
  settle,
} from './helpers.js';

const N1 = '{name-n1}{n1}{eph-n1}{127.0.0.1}{127.0.0.1}{127.0.0.1:9300}';

function error(f: () => unknown): {
  type: string;
  reason: string | null;
  status: number;
  cause?: string | null;
} {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError)
      return {
        type: e.type,
        reason: e.reason,
        status: e.status,
        ...(e.causedBy ? { cause: e.causedBy.reason } : {}),
      };
    throw e;
  }
  throw new Error('no error');
}

function cmds(body: unknown): RerouteCommand[] {
  return parseRerouteCommands(body).commands;
}

describe('parseRerouteCommands', () => {
  it('reads the five ES 6.8 commands', () => {
    expect(
      parseRerouteCommands({
        dry_run: true,
        commands: [
          { move: { index: 'i', shard: 0, from_node: 'n1', to_node: 'n2' } },
          { cancel: { index: 'i', shard: '1', node: 'n1', allow_primary: true } },
          { allocate_replica: { index: 'i', shard: 0, node: 'n2' } },
          { allocate_stale_primary: { index: 'i', shard: 0, node: 'n2', accept_data_loss: true } },
          { allocate_empty_primary: { index: 'i', shard: 0, node: 'n2' } },
        ],
      }),
    ).toEqual({
      dryRun: true,
      commands: [
        { kind: 'move', index: 'i', shard: 0, fromNode: 'n1', toNode: 'n2' },
        { kind: 'cancel', index: 'i', shard: 1, node: 'n1', allowPrimary: true },
        { kind: 'allocate_replica', index: 'i', shard: 0, node: 'n2' },
        { kind: 'allocate_stale_primary', index: 'i', shard: 0, node: 'n2', acceptDataLoss: true },
        { kind: 'allocate_empty_primary', index: 'i', shard: 0, node: 'n2', acceptDataLoss: false },
      ],
    });
  });

  it('refuses malformed commands with ES texts', () => {
    expect(
      error(() => cmds({ commands: [{ move: { index: 'i', shard: 0, to_node: 'x' } }] })),
    ).toEqual({
      type: 'x_content_parse_exception',
      reason: '[cluster_reroute] failed to parse field [commands]',
      status: 400,
      cause: '[move] command missing the from_node parameter',
    });
    expect(
      error(() => cmds({ commands: [{ cancel: { index: 'i', shard: 0, node: 'n', bogus: 1 } }] }))
        .cause,
    ).toBe('[cancel] command does not support field [bogus]');
    expect(
      error(() => cmds({ commands: [{ allocate_replica: { index: 'i', node: 'n' } }] })).cause,
    ).toBe('Argument [shard] must be defined and non-negative');
    expect(error(() => cmds({ commands: [{ nope: {} }] })).cause).toBe(
      'unable to parse AllocationCommand with name [nope]: parser not found',
    );
    expect(error(() => cmds({ commands: {} })).cause).toBe(
      'commands should follow with an array element',
    );
    expect(error(() => cmds({ other: 1 })).reason).toBe(
      '[cluster_reroute] unknown field [other], parser not found',
    );
  });
});

function started2x1(): { s: ClusterState; ctx: ReturnType<typeof context> } {
  const ctx = context();
  return { ctx, s: settle(clusterState(nodes('n1', 'n2', 'n3'), [indexMeta('i', 1, 1)]), ctx) };
}

describe('applyRerouteCommands: move', () => {
  it('moves a started copy (RELOCATING source, INITIALIZING target) and explains with every decider', () => {
    const { s, ctx } = started2x1();
    const p = primaryOf(s, 'i', 0)!;
    const free = ['n1', 'n2', 'n3'].find((n) => !copies(s, 'i', 0).some((c) => c.nodeId === n))!;
    const r = applyRerouteCommands(
      s,
      [{ kind: 'move', index: 'i', shard: 0, fromNode: p.nodeId!, toNode: free }],
      ctx,
      { explain: true },
    );
    expect(r.apply).toBe(true);
    const src = primaryOf(r.state, 'i', 0)!;
    expect(src.state).toBe('RELOCATING');
    expect(src.relocatingNodeId).toBe(free);
    const target = initializing(r.state)[0]!;
    expect(target).toMatchObject({ primary: true, nodeId: free, relocatingNodeId: p.nodeId });
    expect(r.explanations![0]!.command).toBe('move');
    expect(r.explanations![0]!.parameters).toEqual({
      index: 'i',
      shard: 0,
      from_node: p.nodeId,
      to_node: free,
    });
    const deciders = r.explanations![0]!.decisions.map((d) => d.decider);
    expect(deciders).toEqual([
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
    // Starting the target finishes the move.
    const done = shardStarted(r.state, target.allocationId!.id);
    expect(primaryOf(done, 'i', 0)).toMatchObject({ state: 'STARTED', nodeId: free });
    expect(copies(done, 'i', 0)).toHaveLength(2);
  });

  it('errors: unknown node, onto a node holding a copy, not started, unknown shard', () => {
    const { s, ctx } = started2x1();
    const [a, b] = copies(s, 'i', 0).map((c) => c.nodeId!) as [string, string];
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'move', index: 'i', shard: 0, fromNode: 'zz', toNode: 'n1' }],
          ctx,
        ),
      ),
    ).toEqual({
      type: 'illegal_argument_exception',
      reason: 'failed to resolve [zz], no matching nodes',
      status: 400,
    });
    const onto = error(() =>
      applyRerouteCommands(
        s,
        [{ kind: 'move', index: 'i', shard: 0, fromNode: a, toNode: b }],
        ctx,
      ),
    );
    expect(onto.reason).toMatch(
      /^\[move_allocation\] can't move 0, from \{name-n\d\}.*, since its not allowed, reason: \[YES\(shard has no previous failures\)\]/,
    );
    expect(onto.reason).toContain(
      '[NO(the shard cannot be allocated to the same node on which a copy of the shard already exists [[i][0], node[',
    );
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'move', index: 'i', shard: 3, fromNode: 'n1', toNode: 'n2' }],
          ctx,
        ),
      ).reason,
    ).toBe(`[move_allocation] can't move 3, failed to find it on node ${N1}`);
    // An initializing copy cannot be moved.
    const ctx2 = context();
    const fresh = reroute(clusterState(nodes('n1', 'n2'), [indexMeta('j', 1, 0)]), ctx2).state;
    const on = primaryOf(fresh, 'j', 0)!.nodeId!;
    const other = on === 'n1' ? 'n2' : 'n1';
    expect(
      error(() =>
        applyRerouteCommands(
          fresh,
          [{ kind: 'move', index: 'j', shard: 0, fromNode: on, toNode: other }],
          ctx2,
        ),
      ).reason,
    ).toBe("[move_allocation] can't move 0, shard is not started (state = INITIALIZING]");
    // explain=true turns refusals into NO decisions and still answers.
    const r = applyRerouteCommands(
      fresh,
      [{ kind: 'move', index: 'j', shard: 0, fromNode: on, toNode: other }],
      ctx2,
      { explain: true },
    );
    expect(r.explanations![0]!.decisions).toEqual([
      {
        decider: 'move_allocation_command',
        decision: 'NO',
        explanation: 'shard 0 has not been started',
      },
    ]);
  });

  it('nodes may be named by name', () => {
    const { s, ctx } = started2x1();
    const p = primaryOf(s, 'i', 0)!;
    const free = ['n1', 'n2', 'n3'].find((n) => !copies(s, 'i', 0).some((c) => c.nodeId === n))!;
    const r = applyRerouteCommands(
      s,
      [
        {
          kind: 'move',
          index: 'i',
          shard: 0,
          fromNode: `name-${p.nodeId}`,
          toNode: `name-${free}`,
        },
      ],
      ctx,
    );
    expect(primaryOf(r.state, 'i', 0)!.state).toBe('RELOCATING');
  });

  it('the source node of a moving primary leaves: its in-sync replica is promoted and the target dropped', () => {
    const { s, ctx } = started2x1();
    const p = primaryOf(s, 'i', 0)!;
    const free = ['n1', 'n2', 'n3'].find((n) => !copies(s, 'i', 0).some((c) => c.nodeId === n))!;
    const moving = applyRerouteCommands(
      s,
      [{ kind: 'move', index: 'i', shard: 0, fromNode: p.nodeId!, toNode: free }],
      ctx,
    ).state;
    const after = nodesLeft(moving, [p.nodeId!], T0);
    const np = primaryOf(after, 'i', 0)!;
    expect(np.state).toBe('STARTED');
    expect(np.nodeId).not.toBe(p.nodeId);
    expect(np.nodeId).not.toBe(free);
    expect(copies(after, 'i', 0)).toHaveLength(2);
    expect(after.metadata.indices.get('i')!.terms[0]!.primaryTerm).toBe(2);
  });
});

describe('applyRerouteCommands: cancel', () => {
  it('cancels a replica; a primary needs allow_primary', () => {
    const { s, ctx } = started2x1();
    const p = primaryOf(s, 'i', 0)!;
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    const r = applyRerouteCommands(
      s,
      [{ kind: 'cancel', index: 'i', shard: 0, node: rep.nodeId!, allowPrimary: false }],
      context({ disks: ctx.disks, settings: { 'cluster.routing.allocation.enable': 'none' } }),
      { explain: true },
    );
    const cancelled = copies(r.state, 'i', 0).find((c) => !c.primary)!;
    expect(cancelled.state).toBe('UNASSIGNED');
    expect(cancelled.unassignedInfo!.reason).toBe('REROUTE_CANCELLED');
    expect(r.state.metadata.indices.get('i')!.terms[0]!.inSync).toEqual([p.allocationId!.id]);
    expect(r.explanations![0]!.decisions[0]!.explanation).toMatch(
      /^shard 0 on node \{name-n\d\}.* can be cancelled$/,
    );
    const e = error(() =>
      applyRerouteCommands(
        s,
        [{ kind: 'cancel', index: 'i', shard: 0, node: p.nodeId!, allowPrimary: false }],
        ctx,
      ),
    );
    expect(e.reason).toMatch(
      /^\[cancel_allocation\] can't cancel 0 on node \{name-n\d\}.*, shard is primary and started$/,
    );
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'cancel', index: 'nope', shard: 0, node: 'n1', allowPrimary: false }],
          ctx,
        ),
      ),
    ).toEqual({
      type: 'index_not_found_exception',
      reason: 'no such index',
      status: 404,
    });
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'cancel', index: 'i', shard: 7, node: 'n1', allowPrimary: false }],
          ctx,
        ),
      ).reason,
    ).toBe(`[cancel_allocation] can't cancel 7, failed to find it on node ${N1}`);
  });
});

describe('applyRerouteCommands: allocate_*', () => {
  it('allocate_replica: assigns against enable=none (commands ignore it); refuses before the primary is active', () => {
    const ctx = context({ settings: { 'cluster.routing.allocation.enable': 'primaries' } });
    let s = reroute(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 1)]), ctx).state;
    const p = primaryOf(s, 'i', 0)!;
    const other = p.nodeId === 'n1' ? 'n2' : 'n1';
    const e = error(() =>
      applyRerouteCommands(
        s,
        [{ kind: 'allocate_replica', index: 'i', shard: 0, node: other }],
        ctx,
      ),
    );
    expect(e.reason).toContain(`[allocate_replica] allocation of [i][0] on node {name-${other}}`);
    expect(e.reason).toContain('[NO(primary shard for this replica is not yet active)]');
    expect(e.reason).toContain(
      '[YES(explicitly ignoring any disabling of allocation due to manual allocation commands via the reroute API)]',
    );
    s = shardStarted(s, p.allocationId!.id);
    expect(reroute(s, ctx).unassigned).toHaveLength(1);
    const r = applyRerouteCommands(
      s,
      [{ kind: 'allocate_replica', index: 'i', shard: 0, node: other }],
      ctx,
    );
    expect(copies(r.state, 'i', 0).find((c) => !c.primary)).toMatchObject({
      state: 'INITIALIZING',
      nodeId: other,
    });
    expect(
      error(() =>
        applyRerouteCommands(
          r.state,
          [{ kind: 'allocate_replica', index: 'i', shard: 0, node: other }],
          ctx,
        ),
      ).reason,
    ).toBe(
      '[allocate_replica] all copies of [i][0] are already assigned. Use the move allocation command instead',
    );
  });

  it('allocate_replica with an unassigned primary, an unknown index, a bad shard number, an unknown node', () => {
    const ctx = context({ settings: { 'cluster.routing.allocation.enable': 'none' } });
    const s = reroute(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 1)]), ctx).state;
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'allocate_replica', index: 'i', shard: 0, node: 'n1' }],
          ctx,
        ),
      ).reason,
    ).toBe(
      '[allocate_replica] trying to allocate a replica shard [i][0], while corresponding primary shard is still unassigned',
    );
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'allocate_replica', index: 'x', shard: 0, node: 'n1' }],
          ctx,
        ),
      ),
    ).toEqual({
      type: 'index_not_found_exception',
      reason: 'no such index',
      status: 404,
    });
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'allocate_replica', index: 'i', shard: 4, node: 'n1' }],
          ctx,
        ),
      ),
    ).toEqual({
      type: 'shard_not_found_exception',
      reason: 'no such shard',
      status: 404,
    });
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [{ kind: 'allocate_replica', index: 'i', shard: 0, node: 'n9' }],
          ctx,
        ),
      ).reason,
    ).toBe('failed to resolve [n9], no matching nodes');
  });

  it('allocate_empty_primary: needs accept_data_loss for a lost primary, resets in-sync, bumps the term', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 0)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const other = p.nodeId === 'n1' ? 'n2' : 'n1';
    s = reroute(nodesLeft(s, [p.nodeId!], T0), ctx).state;
    expect(
      error(() =>
        applyRerouteCommands(
          s,
          [
            {
              kind: 'allocate_empty_primary',
              index: 'i',
              shard: 0,
              node: other,
              acceptDataLoss: false,
            },
          ],
          ctx,
        ),
      ),
    ).toEqual({
      type: 'illegal_argument_exception',
      reason:
        '[allocate_empty_primary] allocating an empty primary for [i][0] can result in data loss. Please confirm by setting the accept_data_loss parameter to true',
      status: 400,
    });
    const term = s.metadata.indices.get('i')!.terms[0]!.primaryTerm;
    const r = applyRerouteCommands(
      s,
      [{ kind: 'allocate_empty_primary', index: 'i', shard: 0, node: other, acceptDataLoss: true }],
      ctx,
      { explain: true },
    );
    const np = primaryOf(r.state, 'i', 0)!;
    expect(np).toMatchObject({
      state: 'INITIALIZING',
      nodeId: other,
      recoverySource: { type: 'EMPTY_STORE' },
    });
    expect(np.unassignedInfo!.reason).toBe('FORCED_EMPTY_PRIMARY');
    expect(np.unassignedInfo!.details).toBe(
      `force empty allocation from previous reason NODE_LEFT, node_left [${p.nodeId}]`,
    );
    expect(r.state.metadata.indices.get('i')!.terms[0]).toEqual({
      primaryTerm: term + 1,
      inSync: [],
    });
    expect(r.explanations![0]!.decisions).toEqual([
      {
        decider: 'allocate_empty_primary (allocation command)',
        decision: 'YES',
        explanation: 'ignore deciders',
      },
    ]);
    expect(
      error(() =>
        applyRerouteCommands(
          r.state,
          [
            {
              kind: 'allocate_empty_primary',
              index: 'i',
              shard: 0,
              node: other,
              acceptDataLoss: true,
            },
          ],
          ctx,
        ),
      ).reason,
    ).toBe('[allocate_empty_primary] primary [i][0] is already assigned');
  });

  it('allocate_stale_primary revives a stale copy only with accept_data_loss and only where a copy exists', () => {
    const ctx = context();
    let s = settle(clusterState(nodes('n1', 'n2'), [indexMeta('i', 1, 1)]), ctx);
    const p = primaryOf(s, 'i', 0)!;
    const rep = copies(s, 'i', 0).find((c) => !c.primary)!;
    // The replica fell out of sync, then the primary's node died: red, and reroute will not use the stale copy.
    s = nodesLeft(shardFailed2(s, rep.allocationId!.id), [p.nodeId!], T0);
    ctx.disks.get('i-uuid', 0).set(rep.nodeId!, rep.allocationId!.id);
    s = reroute(s, ctx).state;
    expect(primaryOf(s, 'i', 0)!.state).toBe('UNASSIGNED');
    const cmd = (accept: boolean, node = rep.nodeId!): RerouteCommand => ({
      kind: 'allocate_stale_primary',
      index: 'i',
      shard: 0,
      node,
      acceptDataLoss: accept,
    });
    expect(error(() => applyRerouteCommands(s, [cmd(false)], ctx)).reason).toBe(
      '[allocate_stale_primary] allocating an empty primary for [i][0] can result in data loss. Please confirm by setting the accept_data_loss parameter to true',
    );
    const joined: ClusterState = { ...s, nodes: new Map(s.nodes).set('n9', node('n9', {}, 9)) };
    expect(error(() => applyRerouteCommands(joined, [cmd(true, 'n9')], ctx)).reason).toBe(
      '[allocate_stale_primary] trying to allocate a stale primary shard [i][0] on node {name-n9}{n9}{eph-n9}{127.0.0.9}{127.0.0.9}{127.0.0.9:9300}, which holds no copy of it',
    );
    const r = applyRerouteCommands(s, [cmd(true)], ctx);
    const np = primaryOf(r.state, 'i', 0)!;
    expect(np).toMatchObject({
      state: 'INITIALIZING',
      nodeId: rep.nodeId,
      recoverySource: { type: 'EXISTING_STORE', bootstrapNewHistory: true },
    });
    expect(r.state.metadata.indices.get('i')!.terms[0]!.inSync).toEqual([FORCED_ALLOCATION_ID]);
    const started = shardStarted(r.state, np.allocationId!.id);
    expect(started.metadata.indices.get('i')!.terms[0]!.inSync).toEqual([np.allocationId!.id]);
    // An index that never had an active primary cannot use it.
    const fresh = reroute(
      clusterState(nodes('n1'), [indexMeta('k', 1, 0)]),
      context({ settings: { 'cluster.routing.allocation.enable': 'none' } }),
    ).state;
    expect(
      error(() =>
        applyRerouteCommands(
          fresh,
          [
            {
              kind: 'allocate_stale_primary',
              index: 'k',
              shard: 0,
              node: 'n1',
              acceptDataLoss: true,
            },
          ],
          ctx,
        ),
      ).reason,
    ).toBe(
      '[allocate_stale_primary] trying to allocate an existing primary shard [k][0], while no such shard has ever been active',
    );
  });

  it('dry_run computes the state but says not to apply it; retry_failed resets failed attempts', () => {
    const { s, ctx } = started2x1();
    const r = applyRerouteCommands(s, [], ctx, { dryRun: true });
    expect(r.apply).toBe(false);
    expect(r.explanations).toBeUndefined();
    const failedInfo = {
      reason: 'ALLOCATION_FAILED' as const,
      at: T0,
      delayed: false,
      failedAttempts: 5,
      lastAllocationStatus: 'deciders_no',
    };
    const table = s.routing.get('i')!;
    const rep = table.shards[0]!.find((c) => !c.primary)!;
    const un = {
      ...rep,
      state: 'UNASSIGNED' as const,
      nodeId: null,
      allocationId: null,
      unassignedInfo: failedInfo,
      recoverySource: { type: 'PEER' as const },
    };
    const broken: ClusterState = {
      ...s,
      routing: new Map(s.routing).set('i', {
        ...table,
        shards: [table.shards[0]!.map((c) => (c === rep ? un : c))],
      }),
    };
    expect(initializing(reroute(broken, ctx).state)).toHaveLength(0);
    const retried = applyRerouteCommands(broken, [], ctx, { retryFailed: true });
    const again = copies(retried.state, 'i', 0).find((c) => !c.primary)!;
    expect(again.state).toBe('INITIALIZING');
    expect(again.unassignedInfo).toMatchObject({ reason: 'MANUAL_ALLOCATION', failedAttempts: 0 });
    expect([...allShards(retried.state)]).toHaveLength(2);
  });
});

function shardFailed2(s: ClusterState, aid: string): ClusterState {
  // The primary reports the replica stale: out of the in-sync set and unassigned.
  return shardFailed(s, aid, 'replication failed', T0, { markAsStale: true });
}
