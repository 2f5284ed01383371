/**
 * One write's replication from the primary (ES ReplicationOperation): the primary has written
 * the operation; it is sent to every copy of the replication group in parallel with the primary
 * term and the global checkpoint; a copy that fails is removed from the in-sync set through the
 * term-fenced transaction BEFORE the write is acknowledged, so an acknowledged write is on every
 * copy that may become primary. If that removal fails, this primary is stale (a newer one exists)
 * and the write fails with a retryable error instead of being acknowledged.
 */
import { EsError, toEsError } from '../../common/errors.js';
import type { ReplicatedOperation } from '../../engine/replicated-op.js';
import type { ReplicationTracker } from './replication-tracker.js';

/** A copy to replicate to: assigned (started, or initializing and tracked). */
export interface ReplicaTarget {
  readonly allocationId: string;
  readonly nodeId: string;
}

export interface ReplicationGroup {
  readonly index: string;
  readonly shard: number;
  readonly primaryTerm: number;
  readonly primaryNodeId: string;
  /** Copies other than the primary that receive the operation. */
  readonly targets: readonly ReplicaTarget[];
  /** Copies of the shard with no node (unassigned): counted in `_shards.total`, not sent to. */
  readonly skipped: number;
}

export interface ReplicationTransport {
  /** Applies `ops` on a copy; resolves with that copy's local checkpoint once durable there. */
  sendToReplica(
    target: ReplicaTarget,
    ops: readonly ReplicatedOperation[],
    primaryTerm: number,
    globalCheckpoint: number,
  ): Promise<{ localCheckpoint: number }>;
  /**
   * Removes a failed copy from the in-sync set in a transaction fenced on `primaryTerm`; rejects
   * when the term moved on (this primary was replaced).
   */
  failReplica(target: ReplicaTarget, primaryTerm: number, cause: EsError): Promise<void>;
}

/** ES ReplicationResponse.ShardInfo.Failure, as `_shards.failures` renders it. */
export interface ShardFailure {
  _index: string;
  _shard: number;
  _node: string;
  reason: Record<string, unknown>;
  status: string;
  primary: boolean;
}

export interface ShardsInfo {
  total: number;
  successful: number;
  failed: number;
  failures?: ShardFailure[];
}

/** ES TransportActions.isShardNotAvailableException: a copy that is gone is not a failure. */
function shardNotAvailable(e: EsError): boolean {
  return [
    'shard_not_found_exception',
    'index_not_found_exception',
    'illegal_index_shard_state_exception',
    'no_shard_available_action_exception',
    'unavailable_shards_exception',
    'already_closed_exception',
  ].includes(e.type);
}

/** ES's status names for `_shards.failures[].status`. */
function statusName(status: number): string {
  const names: Record<number, string> = {
    400: 'BAD_REQUEST',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    429: 'TOO_MANY_REQUESTS',
    500: 'INTERNAL_SERVER_ERROR',
    503: 'SERVICE_UNAVAILABLE',
  };
  return names[status] ?? String(status);
}

/**
 * Replicates `op` (already written on the primary) and resolves with `_shards` once every
 * target answered or was removed from the in-sync set. Rejects with a retryable
 * `retry_on_primary_exception` when this primary turned out to be stale.
 */
export async function replicate(
  op: ReplicatedOperation | readonly ReplicatedOperation[],
  group: ReplicationGroup,
  tracker: ReplicationTracker,
  transport: ReplicationTransport,
): Promise<ShardsInfo> {
  const failures: ShardFailure[] = [];
  let successful = 1;
  let stale: EsError | null = null;
  const global = tracker.globalCheckpoint;
  const ops: readonly ReplicatedOperation[] = Array.isArray(op) ? op : [op as ReplicatedOperation];
  await Promise.all(
    group.targets.map(async (target) => {
      try {
        const r = await transport.sendToReplica(target, ops, group.primaryTerm, global);
        tracker.updateLocalCheckpoint(target.allocationId, r.localCheckpoint);
        successful++;
      } catch (e) {
        const cause = toEsError(e);
        if (!shardNotAvailable(cause)) {
          failures.push({
            _index: group.index,
            _shard: group.shard,
            _node: target.nodeId,
            reason: cause.toInner(),
            status: statusName(cause.status),
            primary: false,
          });
        }
        try {
          await transport.failReplica(target, group.primaryTerm, cause);
          tracker.remove(target.allocationId);
        } catch (fenced) {
          stale ??= toEsError(fenced);
        }
      }
    }),
  );
  if (stale) {
    throw new EsError(
      'retry_on_primary_exception',
      `[${group.index}][${group.shard}] primary term [${group.primaryTerm}] is no longer current: ${(stale as EsError).reason}`,
      503,
      { causedBy: stale as EsError },
    );
  }
  const total = 1 + group.targets.length + group.skipped;
  return failures.length > 0
    ? { total, successful, failed: failures.length, failures }
    : { total, successful, failed: 0 };
}
