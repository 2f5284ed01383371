/**
 * A shard's share of a bulk on its primary's node (ES TransportShardBulkAction + ReplicationOperation):
 * the node checks it holds the started primary in the current term, runs the items in order (each
 * gets its `seq_no` here), publishes a dynamic mapping update through the master, makes the writes
 * durable, then replicates them to every copy of the group in one batch. A copy that fails leaves
 * the in-sync set through the term-fenced transaction before the answer goes out; `_shards` says
 * how the copies really went.
 */
import { EsError, toEsError } from '../../common/errors.js';
import { FORCED_ALLOCATION_ID } from '../allocation/work.js';
import { executeBulk } from '../../engine/bulk.js';
import { replicatedOf, type DocumentService } from '../../engine/documents.js';
import type { IndicesService } from '../../engine/indices-service.js';
import type { IndexService } from '../../engine/index-service.js';
import type { ReplicatedOperation } from '../../engine/replicated-op.js';
import { markForcedRefresh } from '../../engine/forced-refresh.js';
import { acknowledge } from '../../engine/write-ack.js';
import {
  describeBulkShardRequest,
  notEnoughActiveCopies,
  requiredActiveShards,
} from '../../engine/active-shards.js';
import type { Store } from '../../store/store.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { replicate, type ReplicaTarget, type ShardsInfo } from '../replication/replicate.js';
import { transportReplication } from '../replication/shard-transport.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import { copiesOf, replicationGroup, type PrimaryGroups } from './primary-groups.js';
import {
  upsertThroughPipeline,
  type ShardBulkRequest,
  type ShardItemResult,
} from './shard-bulk-wire.js';
import type { UpdateRequest } from '../../engine/write-request.js';
import type { PendingWrites } from './pending-writes.js';
import type { ShardTerms } from '../state.js';

export interface PrimaryDeps {
  readonly nodeId: string;
  readonly coordinator: Coordinator;
  readonly indices: IndicesService;
  readonly documents: DocumentService;
  readonly store: Store;
  readonly transport: Transport;
  readonly groups: PrimaryGroups;
  peerOf(nodeId: string): TransportPeer;
  /** Publishes the index's mapping through the master; resolves once applied here. */
  putMapping(index: string, uuid: string, type: string, mapping: unknown): Promise<void>;
  /** Tells the master a copy failed (it unassigns it and marks it stale). */
  shardFailed(allocationId: string, reason: string): Promise<void>;
  /**
   * Tells the master this node's primary failed, keeping it in sync: a replica takes over with a
   * new term, or — with no other in-sync copy — the same store is placed again under a new term.
   */
  primaryFailed?(allocationId: string, reason: string, primaryTerm: number): Promise<void>;
  /** Gives an update the index's default pipeline for its upsert (the update API's). */
  readonly upsertPipeline?: (req: UpdateRequest) => UpdateRequest;
  /** Writes applied here and not yet answered, which realtime GETs wait for. */
  readonly pending?: PendingWrites;
  /** True while this node has lost its etcd lease and not rejoined: it takes no writes. */
  writesBlocked?(): boolean;
  log?: (level: string, msg: string) => void;
}

/**
 * ES ShardNotInPrimaryModeException: this node does not (or no longer) hold the started primary.
 * Nothing ran, so the coordinating node retries with a newer cluster state.
 */
export function notPrimaryHere(index: string, shard: number, why: string): EsError {
  return new EsError('shard_not_in_primary_mode_exception', `[${index}][${shard}] ${why}`, 500, {
    meta: { index, shard: String(shard) },
  });
}

/**
 * ES NO_MASTER_BLOCK_WRITES: a node that lost its lease may no longer be primary, and a write it
 * ran could only end unacknowledged and rolled back — yet readable meanwhile. Retryable: the
 * coordinating node tries again on a newer state.
 */
export function noMasterBlock(): EsError {
  return new EsError('cluster_block_exception', 'blocked by: [SERVICE_UNAVAILABLE/2/no master];', 503); // prettier-ignore
}

export async function executeOnPrimary(
  deps: PrimaryDeps,
  req: ShardBulkRequest,
): Promise<ShardItemResult[]> {
  if (deps.writesBlocked?.()) throw noMasterBlock();
  const state = deps.coordinator.state();
  const meta = state.metadata.indices.get(req.index);
  const primary = copiesOf(state, req.index, req.shard).find((c) => c.primary);
  const idx = deps.indices.get(req.index);
  if (!meta || meta.uuid !== req.uuid || !idx || idx.uuid !== req.uuid)
    throw notPrimaryHere(req.index, req.shard, 'the index is not open on this node');
  if (
    !primary?.allocationId ||
    primary.nodeId !== deps.nodeId ||
    (primary.state !== 'STARTED' && primary.state !== 'RELOCATING')
  )
    throw notPrimaryHere(req.index, req.shard, `is not an active primary on node [${deps.nodeId}]`);
  const terms = meta.terms[req.shard]!;
  const shard = idx.shard(req.shard);
  shard.raisePrimaryTerm(terms.primaryTerm);
  if (shard.primaryTerm !== terms.primaryTerm)
    throw notPrimaryHere(req.index, req.shard, `primary term [${shard.primaryTerm}] is not the cluster's [${terms.primaryTerm}]`); // prettier-ignore
  // ES ReplicationOperation.checkActiveShardCount: enough copies active before the write runs
  const count = requiredActiveShards(req.waitForActiveShards, idx);
  const activeCopies = () =>
    copiesOf(deps.coordinator.state(), req.index, req.shard).filter(
      (c) => c.nodeId !== null && (c.state === 'STARTED' || c.state === 'RELOCATING'),
    ).length;
  if (activeCopies() < count.required) {
    const timeoutMs = req.timeoutMs ?? 60_000;
    const end = Date.now() + timeoutMs;
    while (activeCopies() < count.required && Date.now() < end)
      await new Promise((r) => setTimeout(r, Math.min(100, Math.max(1, end - Date.now()))));
    const active = activeCopies();
    if (active < count.required)
      throw notEnoughActiveCopies(req.index, req.shard, count, active, timeoutMs, describeBulkShardRequest(req.index, req.shard, req.items)); // prettier-ignore
  }
  const mappingBefore = idx.meta.mapping;

  const items = executeBulk(
    deps.documents,
    req.items.map((r) =>
      r.kind === 'update' && upsertThroughPipeline(r) && deps.upsertPipeline
        ? deps.upsertPipeline(r)
        : r,
    ),
  );
  // readable on this copy from now: a GET of these waits for the outcome (pending-writes.ts)
  const applied = items.filter((i) => i.outcome).map((i) => String(i.outcome!.body._id));
  const settle = deps.pending?.begin(req.index, req.shard, terms.primaryTerm, applied);
  let out: ShardItemResult[];
  try {
    out = await replicateApplied(deps, req, items, {
      idx,
      mappingBefore,
      primaryAid: primary.allocationId.id,
      terms,
    });
    settle?.(true);
  } catch (e) {
    settle?.(false);
    failOverLater(deps, req.index, req.shard, primary.allocationId.id, terms.primaryTerm, e);
    throw e;
  }
  // a version conflict judged against another request's write still in flight is only as
  // good as that write: it waits for it, and is withdrawn if the write is never acknowledged
  const pending = deps.pending;
  if (pending) {
    // a promise only for such conflicts, not one per item
    const waits: Promise<void>[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.error?.type !== 'version_conflict_engine_exception' || !item.req.id) continue;
      waits.push(
        pending
          .settled(req.index, req.shard, item.req.id, terms.primaryTerm, true)
          .catch((e: unknown) => {
            out[i] = { error: toEsError(e) };
          }),
      );
    }
    if (waits.length > 0) await Promise.all(waits);
  }
  return out;
}

/**
 * A primary whose write failed while replicating may hold operations no other copy has, and
 * serves no read of the shard until the shard moves to a new term (pending-writes.ts). It asks
 * the master to fail it over (ES: a primary that cannot complete a replication fails itself), a
 * few times while the master is unreachable, until the term moved on or it is no longer primary.
 */
function failOverLater(
  deps: PrimaryDeps,
  index: string,
  shard: number,
  primaryAid: string,
  term: number,
  cause: unknown,
): void {
  if (!deps.primaryFailed) return;
  const reason = `the primary failed to replicate a write: ${toEsError(cause).reason ?? toEsError(cause).type}`; // prettier-ignore
  const stillPrimary = () => {
    const state = deps.coordinator.state();
    const p = copiesOf(state, index, shard).find((c) => c.primary);
    const t = state.metadata.indices.get(index)?.terms[shard]?.primaryTerm ?? 0;
    return p?.allocationId?.id === primaryAid && p.nodeId === deps.nodeId && t === term;
  };
  void (async () => {
    for (let attempt = 0; attempt < 30 && stillPrimary(); attempt++) {
      try {
        await deps.primaryFailed!(primaryAid, reason, term);
        deps.log?.('WARN', `[${index}][${shard}] ${reason}; failed over`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();
}

/** The rest of a primary's write once the items ran: durable, replicated, answered. */
async function replicateApplied(
  deps: PrimaryDeps,
  req: ShardBulkRequest,
  items: ReturnType<typeof executeBulk>,
  at: { idx: IndexService; mappingBefore: unknown; primaryAid: string; terms: ShardTerms },
): Promise<ShardItemResult[]> {
  const { idx, mappingBefore, primaryAid, terms } = at;
  const shard = idx.shard(req.shard);
  // ES MappingUpdatedAction: a dynamic update reaches the master before any copy sees the docs
  const mapping = idx.meta.mapping;
  if (mapping && mapping !== mappingBefore)
    await deps.putMapping(idx.name, idx.uuid, mapping.type, mapping.json);
  const done = items.filter((i) => i.outcome).map((i) => i.outcome!);
  if (await acknowledge(deps.store, done, req.policy)) markForcedRefresh(done);

  const tracker = deps.groups.tracker(primaryAid, shard.maxSeqNo, terms.inSync);
  tracker.updateLocalCheckpoint(primaryAid, shard.maxSeqNo);
  const current = deps.coordinator.state();
  const group = replicationGroup(
    current,
    req.index,
    req.shard,
    primaryAid,
    terms.primaryTerm,
    deps.nodeId,
    tracker,
  );
  const failReplica = async (target: ReplicaTarget, term: number, cause: EsError) => {
    await deps.coordinator.termTxn(req.uuid, req.shard, term, (cur) => ({
      ...cur,
      inSync: cur.inSync.filter((id) => id !== target.allocationId),
    }));
    deps.log?.('WARN', `[${req.index}][${req.shard}] replica [${target.allocationId}] on [${target.nodeId}] failed, removed from the in-sync set: ${cause.reason}`); // prettier-ignore
    void deps
      .shardFailed(target.allocationId, `failed to perform indices:data/write/bulk[s] on replica: ${cause.reason}`) // prettier-ignore
      .catch((e: unknown) => deps.log?.('WARN', `shard-failed for [${target.allocationId}] not sent: ${String(e)}`)); // prettier-ignore
  };
  // the copies' operations are built only when a copy will read them (a shard without replicas
  // has none); built here, after the items ran, a copy that joined meanwhile still gets them
  const wrote = done.some((o) => o.routing !== undefined);
  const ops: ReplicatedOperation[] = [];
  if (wrote && group.targets.length > 0)
    for (const o of done) {
      const op = replicatedOf(o);
      if (op) ops.push(op);
    }
  const info: ShardsInfo = !wrote
    ? { total: 1 + group.targets.length + group.skipped, successful: 1, failed: 0 }
    : await replicate(
        ops,
        group,
        tracker,
        transportReplication(
          deps.transport,
          (n) => deps.peerOf(n),
          req.index,
          req.shard,
          failReplica,
          60_000,
          req.policy,
        ),
      );
  if (wrote) await markUnavailableStale(deps, req, current, primaryAid, group.targets);
  // each item's outcome is its answer (no second object per item)
  return items.map((i): ShardItemResult => {
    if (i.error) return { error: i.error };
    const o = i.outcome!;
    if (o.body._shards !== undefined) o.body._shards = info;
    return o;
  });
}

/**
 * ES ReplicationOperation.markUnavailableShardsAsStale: in-sync copies with no node (their node
 * left) did not get this write, so they leave the in-sync set — term-fenced — before it is
 * acknowledged. Kept in sync, such a copy could come back while this primary is away and be made
 * primary without the write. A failed transaction means this primary is stale: nothing is
 * acknowledged.
 */
async function markUnavailableStale(
  deps: PrimaryDeps,
  req: ShardBulkRequest,
  state: ReturnType<Coordinator['state']>,
  primaryAid: string,
  targets: readonly ReplicaTarget[],
): Promise<void> {
  const terms = state.metadata.indices.get(req.index)?.terms[req.shard];
  if (!terms) return;
  const reached = new Set([primaryAid, ...targets.map((t) => t.allocationId)]);
  const unavailable = terms.inSync.filter((id) => !reached.has(id) && id !== FORCED_ALLOCATION_ID);
  if (unavailable.length === 0) return;
  try {
    await deps.coordinator.termTxn(req.uuid, req.shard, terms.primaryTerm, (cur) => ({
      ...cur,
      inSync: cur.inSync.filter((id) => !unavailable.includes(id)),
    }));
  } catch (e) {
    const cause = toEsError(e);
    throw new EsError(
      'retry_on_primary_exception',
      `[${req.index}][${req.shard}] primary term [${terms.primaryTerm}] is no longer current: ${cause.reason}`,
      503,
      { causedBy: cause },
    );
  }
  deps.log?.('WARN', `[${req.index}][${req.shard}] marked unavailable in-sync copies ${JSON.stringify(unavailable)} stale`); // prettier-ignore
}
