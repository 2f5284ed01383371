/**
 * Peer recovery of a shard copy from its primary (ES RecoverySourceHandler / PeerRecoveryTargetService,
 * operations-based): the copy tells the primary what it holds above the last global checkpoint it
 * knew; the primary rolls back what it never had (planRollback), then starts tracking the copy —
 * from that instant every new write is replicated to it live — and sends its operations above the
 * global checkpoint as of that instant; applied idempotently, they meet the live writes without
 * harm (the newer sequence number wins). The copy's local checkpoint then covers everything up to
 * the primary's max sequence number at tracking start, and the primary marks it in sync (a fenced
 * change of the in-sync set). Both sides are interfaces: in-process here, over the transport in
 * a cluster.
 */
import type { DocRecord } from '../../store/doc-record.js';
import {
  planRollback,
  type OpStamp,
  type ReplicatedOperation,
} from '../../engine/replicated-op.js';

/** The primary's side. */
export interface RecoverySource {
  /** Newest operation per document id (tombstones included), or null when never written. */
  latest(id: string): OpStamp | null;
  /** The primary's record of a document (tombstones included). */
  record(id: string): DocRecord | null;
  /** Starts replicating live writes to the copy; returns the max sequence number at that instant. */
  startTracking(allocationId: string): number;
  /** Waits until every operation up to now is durable on the primary. */
  durable(): Promise<void>;
  /** The operations with a sequence number of at least `fromSeqNo`, in order. */
  changesSince(fromSeqNo: number): ReplicatedOperation[];
  /** Adds the copy to the in-sync set (term-fenced); rejects when the primary is stale. */
  markInSync(allocationId: string, localCheckpoint: number): Promise<void>;
}

/** The recovering copy's side. */
export interface RecoveryTarget {
  readonly allocationId: string;
  /** Documents whose newest operation is above `globalCheckpoint`, with that operation's stamp. */
  aboveGlobal(globalCheckpoint: number): ReadonlyMap<string, OpStamp>;
  reset(id: string, record: DocRecord | null): Promise<void>;
  apply(op: ReplicatedOperation): Promise<void>;
  /**
   * Everything up to `seqNo` is now on the copy (the local checkpoint moves there); a remote copy
   * first receives the operations still on their way.
   */
  fastForward(seqNo: number): void | Promise<void>;
  localCheckpoint(): number;
}

/** ES RecoveryState.Stage. */
export type RecoveryStage = 'INIT' | 'INDEX' | 'VERIFY_INDEX' | 'TRANSLOG' | 'FINALIZE' | 'DONE';

export interface RecoveryStats {
  stage: RecoveryStage;
  startTime: number;
  stopTime: number;
  /** Documents rolled back (reset or removed). */
  rolledBack: number;
  /** Operations replayed from the primary. */
  operations: number;
  /** Bytes of `_source` replayed. */
  bytes: number;
  /** The copy's local checkpoint when it went in sync. */
  localCheckpoint: number;
}

export async function runPeerRecovery(
  source: RecoverySource,
  target: RecoveryTarget,
  globalCheckpoint: number,
  onStage: (stats: RecoveryStats) => void = () => undefined,
  now: () => number = Date.now,
): Promise<RecoveryStats> {
  const stats: RecoveryStats = {
    stage: 'INIT',
    startTime: now(),
    stopTime: 0,
    rolledBack: 0,
    operations: 0,
    bytes: 0,
    localCheckpoint: -1,
  };
  const stage = (s: RecoveryStage) => {
    stats.stage = s;
    onStage(stats);
  };
  stage('INDEX');
  const resets = planRollback(target.aboveGlobal(globalCheckpoint), (id) => source.latest(id));
  for (const id of resets) await target.reset(id, source.record(id));
  stats.rolledBack = resets.length;
  stage('VERIFY_INDEX');
  // From here on live writes reach the copy; the replay below covers everything before.
  const upTo = source.startTracking(target.allocationId);
  await source.durable();
  stage('TRANSLOG');
  for (const op of source.changesSince(globalCheckpoint + 1)) {
    if (op.seqNo > upTo) continue; // already live-replicated
    await target.apply(op);
    stats.operations++;
    if (op.kind === 'index') stats.bytes += op.source.length;
  }
  await target.fastForward(upTo);
  stage('FINALIZE');
  stats.localCheckpoint = target.localCheckpoint();
  await source.markInSync(target.allocationId, stats.localCheckpoint);
  stats.stopTime = now();
  stage('DONE');
  return stats;
}
