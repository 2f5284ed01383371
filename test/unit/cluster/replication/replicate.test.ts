import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import type { ReplicatedOperation } from '../../../../src/engine/replicated-op.js';
import {
  replicate,
  type ReplicaTarget,
  type ReplicationGroup,
  type ReplicationTransport,
} from '../../../../src/cluster/replication/replicate.js';
import { ReplicationTracker } from '../../../../src/cluster/replication/replication-tracker.js';

const op: ReplicatedOperation = {
  kind: 'index',
  id: '1',
  seqNo: 7,
  primaryTerm: 2,
  version: 1,
  routing: null,
  source: Buffer.from('{}'),
};

const r1: ReplicaTarget = { allocationId: 'r1', nodeId: 'n2' };
const r2: ReplicaTarget = { allocationId: 'r2', nodeId: 'n3' };

function group(targets: ReplicaTarget[], skipped = 0): ReplicationGroup {
  return { index: 'logs', shard: 0, primaryTerm: 2, primaryNodeId: 'n1', targets, skipped };
}

function tracker(): ReplicationTracker {
  const t = new ReplicationTracker('p', 7, 5, ['p', 'r1', 'r2']);
  expect(t.globalCheckpoint).toBe(5);
  return t;
}

/** A fake transport: per node, an answer or an error; records what happened. */
function fake(
  answers: Record<string, number | EsError>,
  fenced = false,
): ReplicationTransport & { failed: string[]; sent: Array<[string, number, number]> } {
  const failed: string[] = [];
  const sent: Array<[string, number, number]> = [];
  return {
    failed,
    sent,
    async sendToReplica(target, _op, term, global) {
      sent.push([target.nodeId, term, global]);
      const a = answers[target.nodeId]!;
      if (a instanceof EsError) throw a;
      return { localCheckpoint: a };
    },
    async failReplica(target, term) {
      if (fenced) throw new EsError('illegal_state_exception', `term [${term}] is stale`, 500);
      failed.push(target.allocationId);
    },
  };
}

describe('replicate', () => {
  it('counts every copy, the unassigned ones in total only', async () => {
    const t = tracker();
    const tr = fake({ n2: 7, n3: 7 });
    const info = await replicate(op, group([r1, r2], 1), t, tr);
    expect(info).toEqual({ total: 4, successful: 3, failed: 0 });
    expect(tr.sent).toEqual([
      ['n2', 2, 5],
      ['n3', 2, 5],
    ]);
    expect(t.globalCheckpoint).toBe(7);
  });

  it('removes a failed copy from the in-sync set before answering, and reports it', async () => {
    const t = tracker();
    const tr = fake({ n2: 7, n3: new EsError('mapper_parsing_exception', 'boom', 400) });
    const info = await replicate(op, group([r1, r2]), t, tr);
    expect(tr.failed).toEqual(['r2']);
    expect(t.isInSync('r2')).toBe(false);
    expect(info.total).toBe(3);
    expect(info.successful).toBe(2);
    expect(info.failed).toBe(1);
    expect(info.failures![0]).toMatchObject({
      _index: 'logs',
      _shard: 0,
      _node: 'n3',
      status: 'BAD_REQUEST',
      primary: false,
      reason: { type: 'mapper_parsing_exception', reason: 'boom' },
    });
  });

  it('does not count a copy that is gone as a failure, but still removes it', async () => {
    const t = tracker();
    const tr = fake({ n2: 7, n3: new EsError('shard_not_found_exception', 'no such shard', 404) });
    const info = await replicate(op, group([r1, r2]), t, tr);
    expect(info).toEqual({ total: 3, successful: 2, failed: 0 });
    expect(tr.failed).toEqual(['r2']);
  });

  it('fails with a retryable error when this primary is stale, never acknowledging', async () => {
    const t = tracker();
    const tr = fake({ n2: new EsError('node_disconnected_exception', 'gone', 500), n3: 7 }, true);
    await expect(replicate(op, group([r1, r2]), t, tr)).rejects.toMatchObject({
      type: 'retry_on_primary_exception',
      status: 503,
    });
    expect(t.isInSync('r1')).toBe(true);
  });
});

describe('ReplicationTracker', () => {
  it('marks a recovered copy in sync once live operations in flight have reached it', async () => {
    const t = new ReplicationTracker('p', 10);
    t.initiateTracking('r');
    // the recovery read the copy at 9 while operation 10 was still on its way to it
    const marked = t.markInSyncWhenCaughtUp('r', 9, 5_000);
    await Promise.resolve();
    expect(t.isInSync('r')).toBe(false);
    t.updateLocalCheckpoint('r', 10);
    await marked;
    expect(t.isInSync('r')).toBe(true);
  });

  it('refuses a recovered copy that never catches up within the wait', async () => {
    const t = new ReplicationTracker('p', 10);
    t.initiateTracking('r');
    await expect(t.markInSyncWhenCaughtUp('r', 4, 20)).rejects.toThrow(
      'below the global checkpoint',
    );
    expect(t.isInSync('r')).toBe(false);
  });

  it('computes the global checkpoint over in-sync copies only', () => {
    const t = new ReplicationTracker('p', 10);
    expect(t.globalCheckpoint).toBe(10);
    t.initiateTracking('r');
    expect(t.globalCheckpoint).toBe(10);
    expect(() => t.markInSync('r', 4)).toThrow('below the global checkpoint');
    t.markInSync('r', 10);
    t.updateLocalCheckpoint('p', 12);
    expect(t.globalCheckpoint).toBe(10);
    t.updateLocalCheckpoint('r', 11);
    expect(t.globalCheckpoint).toBe(11);
    t.remove('r');
    // only the primary is left in sync: its checkpoint is the global one
    expect(t.globalCheckpoint).toBe(12);
    expect(t.inSyncIds()).toEqual(['p']);
    expect(() => t.remove('p')).toThrow();
  });

  it('holds the global checkpoint until promoted in-sync copies report', () => {
    const t = new ReplicationTracker('p', 20, 15, ['p', 'a', 'b']);
    expect(t.globalCheckpoint).toBe(15);
    t.updateLocalCheckpoint('a', 20);
    expect(t.globalCheckpoint).toBe(15);
    t.updateLocalCheckpoint('b', 18);
    expect(t.globalCheckpoint).toBe(18);
    t.updateLocalCheckpoint('b', 3);
    expect(t.localCheckpoint('b')).toBe(18);
  });
});
