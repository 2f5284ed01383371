/**
 * Replication and peer recovery between nodes over the transport (ES's
 * `indices:data/write/bulk[s][r]` replica action and the `internal:index/shard/recovery/*`
 * actions). A node registers the handlers for the shard copies it holds; the primary's node
 * replicates through `transportReplication` and recovers a copy by driving `runPeerRecovery`
 * with the copy's side proxied over the transport. `_source` bytes travel as the frame's binary
 * attachment, never inside JSON.
 */
import { packSources, unpackSources } from '../transport/source-attachment.js';
import { EsError } from '../../common/errors.js';
import type { DocumentService } from '../../engine/documents.js';
import type { IndexService } from '../../engine/index-service.js';
import { LocalCheckpointTracker } from '../../engine/local-checkpoint.js';
import type { OpStamp, ReplicatedOperation } from '../../engine/replicated-op.js';
import type { DocHeader, DocRecord } from '../../store/doc-record.js';
import type { Store } from '../../store/store.js';
import type { RefreshPolicy } from '../../engine/write-request.js';
import {
  runPeerRecovery,
  type RecoveryStats,
  type RecoveryTarget,
} from '../recovery/peer-recovery.js';
import { primaryRecoverySource } from '../recovery/shard-endpoints.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import type { ReplicaTarget, ReplicationTransport } from './replicate.js';

export const REPLICA_ACTION = 'indices:data/write/bulk[s][r]';
export const START_RECOVERY_ACTION = 'internal:index/shard/recovery/start_recovery';
export const RECOVERY_RESET_ACTION = 'internal:index/shard/recovery/reset';
export const RECOVERY_OPS_ACTION = 'internal:index/shard/recovery/translog_ops';
export const RECOVERY_FINALIZE_ACTION = 'internal:index/shard/recovery/finalize';

/** What this node needs to serve the shard actions. */
export interface ShardHost {
  readonly documents: DocumentService;
  readonly store: Store;
  /** The open index of that name here, or undefined. */
  index(name: string): IndexService | undefined;
}

/** The local checkpoint of each copy this node holds, by `index/shard`. */
export class CopyCheckpoints {
  private readonly trackers = new Map<string, LocalCheckpointTracker>();

  get(idx: IndexService, shard: number): LocalCheckpointTracker {
    const key = `${idx.uuid}/${shard}`;
    let t = this.trackers.get(key);
    if (!t) {
      const max = idx.shard(shard).maxSeqNo;
      this.trackers.set(key, (t = new LocalCheckpointTracker(max, max)));
    }
    return t;
  }

  /** A recovery hands over the tracker it filled. */
  set(idx: IndexService, shard: number, tracker: LocalCheckpointTracker): void {
    this.trackers.set(`${idx.uuid}/${shard}`, tracker);
  }
}

/** An operation on the wire: a tuple in the JSON; an index operation's source is in the attachment. */
type WireOp = [
  kind: 'index' | 'delete',
  id: string,
  seqNo: number,
  primaryTerm: number,
  version: number,
  routing: string | null,
];

/** Operations as JSON tuples plus one attachment holding every `_source`, back to back. */
function packOps(ops: readonly ReplicatedOperation[]): {
  ops: WireOp[];
  ends: number[];
  attachment: Buffer;
} {
  const sources: Buffer[] = [];
  const wire = new Array<WireOp>(ops.length);
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.kind === 'index') sources.push(op.source);
    wire[i] = [op.kind, op.id, op.seqNo, op.primaryTerm, op.version, op.routing];
  }
  const { attachment, ends } = packSources(sources);
  return { ops: wire, ends, attachment };
}

function unpackOps(
  wire: readonly WireOp[],
  ends: readonly number[],
  attachment: Buffer | undefined,
): ReplicatedOperation[] {
  const sources = unpackSources(attachment, ends);
  let next = 0;
  return wire.map(([kind, id, seqNo, primaryTerm, version, routing]): ReplicatedOperation =>
    kind === 'delete'
      ? { kind, id, seqNo, primaryTerm, version, routing }
      : { kind, id, seqNo, primaryTerm, version, routing, source: sources[next++]! },
  );
}

const noShard = (index: string, shard: number) =>
  new EsError('shard_not_found_exception', `no such shard`, 404, {
    meta: { index, shard: String(shard) },
  });

function copyOf(host: ShardHost, index: string, shard: number): IndexService {
  const idx = host.index(index);
  if (!idx || shard < 0 || shard >= idx.numberOfShards) throw noShard(index, shard);
  return idx;
}

/**
 * Serves the replica and recovery-target actions for the copies this node holds: replicated
 * operations are applied and durable before the answer, which carries the copy's local checkpoint.
 */
export function registerShardHandlers(
  transport: Transport,
  host: ShardHost,
  checkpoints: CopyCheckpoints,
  /**
   * Whether `allocationId` is the copy of the shard this node is recovering now. A recovery of an
   * older allocation (the node left and came back, and a new copy is recovering) must never
   * touch the shard: its source may be an old primary, its resets would roll back writes the new
   * copy already holds. Absent: every recovery is current (tests).
   */
  isRecovering: (index: string, shard: number, allocationId: string) => boolean = () => true,
): void {
  const recovering = (b: { index: string; shard: number; allocationId?: string }) => {
    if (b.allocationId !== undefined && !isRecovering(b.index, b.shard, b.allocationId))
      throw new EsError('illegal_index_shard_state_exception', `[${b.index}][${b.shard}] copy [${b.allocationId}] is not recovering on this node`, 409, { meta: { index: b.index, shard: String(b.shard) } }); // prettier-ignore
  };
  transport.registerHandler(REPLICA_ACTION, async (req) => {
    const b = req.body as {
      index: string;
      shard: number;
      ops: WireOp[];
      ends: number[];
      primaryTerm?: number;
      refresh?: RefreshPolicy;
    };
    const idx = copyOf(host, b.index, b.shard);
    const tracker = checkpoints.get(idx, b.shard);
    const ops = unpackOps(b.ops, b.ends, req.attachment);
    const done = ops.map(
      (op) =>
        host.documents.applyReplicated(idx, b.shard, op, b.primaryTerm ?? op.primaryTerm).done,
    );
    await Promise.all(done);
    await host.store.durable();
    for (const op of ops) tracker.markProcessed(op.seqNo);
    // ES refreshes every copy for refresh=true and waits on each for wait_for
    const search = idx.shard(b.shard).search;
    if (b.refresh === 'true') search?.refresh();
    else if (b.refresh === 'wait_for') await search?.nextRefresh();
    return { body: { localCheckpoint: tracker.checkpoint } };
  });
  transport.registerHandler(RECOVERY_RESET_ACTION, async (req) => {
    const b = req.body as { index: string; shard: number; allocationId?: string; id: string; record: WireRecord | null }; // prettier-ignore
    recovering(b);
    const idx = copyOf(host, b.index, b.shard);
    const record = b.record && fromWireRecord(b.record, req.attachment);
    await host.documents.resetForRecovery(idx, b.shard, b.id, record);
    await host.store.durable();
    idx.shard(b.shard).recomputeMaxSeqNo();
    return { body: {} };
  });
  transport.registerHandler(RECOVERY_OPS_ACTION, async (req) => {
    const b = req.body as { index: string; shard: number; allocationId?: string; ops: WireOp[]; ends: number[] }; // prettier-ignore
    recovering(b);
    const idx = copyOf(host, b.index, b.shard);
    const tracker = checkpoints.get(idx, b.shard);
    const ops = unpackOps(b.ops, b.ends, req.attachment);
    // history replayed with the terms it was written in: no term check of its own
    await Promise.all(ops.map((op) => host.documents.applyReplicated(idx, b.shard, op, null).done)); // prettier-ignore
    await host.store.durable();
    for (const op of ops) tracker.markProcessed(op.seqNo);
    return { body: {} };
  });
  transport.registerHandler(RECOVERY_FINALIZE_ACTION, async (req) => {
    const b = req.body as { index: string; shard: number; allocationId?: string; upTo: number };
    recovering(b);
    const idx = copyOf(host, b.index, b.shard);
    const tracker = checkpoints.get(idx, b.shard);
    tracker.fastForward(b.upTo);
    return { body: { localCheckpoint: tracker.checkpoint } };
  });
}

/** A record as it travels: the header as JSON, the source as the attachment. */
type WireRecord = DocHeader;

function fromWireRecord(w: WireRecord, attachment: Buffer | undefined): DocRecord {
  return { ...w, source: Buffer.from(attachment ?? Buffer.alloc(0)) };
}

/** The primary's side of replication, over the transport. */
export function transportReplication(
  transport: Transport,
  peerOf: (nodeId: string) => TransportPeer,
  index: string,
  shard: number,
  failReplica: ReplicationTransport['failReplica'],
  timeoutMs = 60_000,
  refresh: RefreshPolicy = 'false',
): ReplicationTransport {
  return {
    async sendToReplica(target: ReplicaTarget, batch, primaryTerm, globalCheckpoint) {
      const { ops, ends, attachment } = packOps(batch);
      const r = await transport.send(
        peerOf(target.nodeId),
        REPLICA_ACTION,
        { index, shard, ops, ends, primaryTerm, globalCheckpoint, refresh },
        { timeoutMs, attachment },
      );
      return r.body as { localCheckpoint: number };
    },
    failReplica,
  };
}

/** A recovering copy on another node, as the primary's recovery sees it. */
function remoteTarget(
  transport: Transport,
  peer: TransportPeer,
  index: string,
  shard: number,
  allocationId: string,
  aboveGlobal: ReadonlyMap<string, OpStamp>,
  timeoutMs: number,
): RecoveryTarget {
  let localCheckpoint = -1;
  const send = (action: string, body: Record<string, unknown>, attachment?: Buffer) =>
    transport.send(
      peer,
      action,
      { index, shard, allocationId, ...body },
      {
        timeoutMs,
        ...(attachment ? { attachment } : {}),
      },
    );
  // operations go in batches rather than one round trip each
  let batch: ReplicatedOperation[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const { ops, ends, attachment } = packOps(batch);
    batch = [];
    await send(RECOVERY_OPS_ACTION, { ops, ends }, attachment);
  };
  return {
    allocationId,
    aboveGlobal: () => aboveGlobal,
    async reset(id, record) {
      const wire = record && {
        tombstone: record.tombstone,
        version: record.version,
        seqNo: record.seqNo,
        primaryTerm: record.primaryTerm,
        timestamp: record.timestamp,
        routing: record.routing,
      };
      await send(RECOVERY_RESET_ACTION, { id, record: wire }, record?.source);
    },
    async apply(op) {
      batch.push(op);
      if (batch.length >= 500) await flush();
    },
    async fastForward(upTo) {
      await flush();
      const r = await send(RECOVERY_FINALIZE_ACTION, { upTo });
      localCheckpoint = (r.body as { localCheckpoint: number }).localCheckpoint;
    },
    localCheckpoint: () => localCheckpoint,
  };
}

export interface StartRecoveryRequest {
  index: string;
  shard: number;
  allocationId: string;
  globalCheckpoint: number;
  /** The copy's documents above the global checkpoint: [id, seqNo, primaryTerm]. */
  aboveGlobal: Array<[string, number, number]>;
}

/**
 * Serves `start_recovery` on the primary's node: recovers the asking copy over the transport.
 * `startTracking` begins live replication to it; `markInSync` is the fenced in-sync change.
 */
export function registerRecoverySource(
  transport: Transport,
  host: ShardHost,
  peerOf: (nodeId: string) => TransportPeer,
  hooks: {
    /**
     * Throws unless this node may serve the shard's recovery (it is its started primary), before
     * anything is read or sent: a rollback planned from a copy that is not the primary would
     * undo writes the primary acknowledged.
     */
    canServe?(index: string, shard: number): void;
    startTracking(index: string, shard: number, allocationId: string, nodeId: string): void;
    markInSync(
      index: string,
      shard: number,
      allocationId: string,
      checkpoint: number,
    ): Promise<void>;
  },
  timeoutMs = 60_000,
): void {
  transport.registerHandler(START_RECOVERY_ACTION, async (req) => {
    const b = req.body as StartRecoveryRequest;
    hooks.canServe?.(b.index, b.shard);
    const idx = copyOf(host, b.index, b.shard);
    const above = new Map<string, OpStamp>(
      b.aboveGlobal.map(([id, seqNo, primaryTerm]) => [id, { seqNo, primaryTerm }]),
    );
    const target = remoteTarget(
      transport,
      peerOf(req.fromNode.id),
      b.index,
      b.shard,
      b.allocationId,
      above,
      timeoutMs,
    );
    const source = primaryRecoverySource(host.store, idx, b.shard, {
      startTracking: (aid) => hooks.startTracking(b.index, b.shard, aid, req.fromNode.id),
      markInSync: (aid, cp) => hooks.markInSync(b.index, b.shard, aid, cp),
    });
    const stats = await runPeerRecovery(source, target, b.globalCheckpoint);
    return { body: stats };
  });
}

/** The copy's side: asks the primary's node to recover this copy, and waits until it is in sync. */
export async function recoverFromPrimary(
  transport: Transport,
  primary: TransportPeer,
  idx: IndexService,
  shard: number,
  allocationId: string,
  globalCheckpoint: number,
  timeoutMs = 10 * 60_000,
): Promise<RecoveryStats> {
  const aboveGlobal: Array<[string, number, number]> = idx
    .shard(shard)
    .changesSince(globalCheckpoint + 1)
    .map(({ id, record }) => [id, record.seqNo, record.primaryTerm]);
  const body: StartRecoveryRequest = {
    index: idx.name,
    shard,
    allocationId,
    globalCheckpoint,
    aboveGlobal,
  };
  const r = await transport.send(primary, START_RECOVERY_ACTION, body, { timeoutMs });
  return r.body as RecoveryStats;
}
