/**
 * The two sides of a peer recovery over this node's engine: a primary shard copy as the source,
 * a recovering copy as the target. The transport carries their calls between nodes; in one
 * process they are called directly.
 */
import type { DocumentService } from '../../engine/documents.js';
import type { IndexService } from '../../engine/index-service.js';
import { LocalCheckpointTracker } from '../../engine/local-checkpoint.js';
import type { OpStamp, ReplicatedOperation } from '../../engine/replicated-op.js';
import type { Store } from '../../store/store.js';
import type { RecoverySource, RecoveryTarget } from './peer-recovery.js';

/** The operations of a shard from `fromSeqNo` on, newest per document, in sequence order. */
export function shardChanges(
  idx: IndexService,
  shard: number,
  fromSeqNo: number,
): ReplicatedOperation[] {
  return idx
    .shard(shard)
    .changesSince(fromSeqNo)
    .map(
      ({ id, record: r }): ReplicatedOperation =>
      r.tombstone
        ? { kind: 'delete', id, seqNo: r.seqNo, primaryTerm: r.primaryTerm, version: r.version, routing: r.routing } // prettier-ignore
        : { kind: 'index', id, seqNo: r.seqNo, primaryTerm: r.primaryTerm, version: r.version, routing: r.routing, source: r.source }, // prettier-ignore
    );
}

export function primaryRecoverySource(
  store: Store,
  idx: IndexService,
  shard: number,
  hooks: {
    startTracking(allocationId: string): void;
    markInSync(allocationId: string, localCheckpoint: number): Promise<void>;
  },
): RecoverySource {
  const sh = idx.shard(shard);
  return {
    latest: (id) => sh.latest(id),
    record: (id) => sh.record(id),
    startTracking(allocationId) {
      hooks.startTracking(allocationId);
      return sh.maxSeqNo;
    },
    durable: () => store.durable(),
    changesSince: (from) => shardChanges(idx, shard, from),
    markInSync: (aid, cp) => hooks.markInSync(aid, cp),
  };
}

export function copyRecoveryTarget(
  documents: DocumentService,
  store: Store,
  idx: IndexService,
  shard: number,
  allocationId: string,
  globalCheckpoint: number,
): RecoveryTarget & { readonly tracker: LocalCheckpointTracker } {
  const sh = idx.shard(shard);
  const tracker = new LocalCheckpointTracker(sh.maxSeqNo, Math.min(globalCheckpoint, sh.maxSeqNo));
  return {
    allocationId,
    tracker,
    aboveGlobal(gcp) {
      const out = new Map<string, OpStamp>();
      for (const { id, record } of sh.changesSince(gcp + 1)) out.set(id, record);
      return out;
    },
    async reset(id, record) {
      await documents.resetForRecovery(idx, shard, id, record);
      await store.durable();
      sh.recomputeMaxSeqNo();
    },
    async apply(op) {
      await documents.applyReplicated(idx, shard, op, null).done;
      tracker.markProcessed(op.seqNo);
    },
    fastForward: (seqNo) => tracker.fastForward(seqNo),
    localCheckpoint: () => tracker.checkpoint,
  };
}
