/**
 * One bulk-by-scroll worker (ES AbstractAsyncBulkByScrollAction + WorkerBulkByScrollTaskState):
 * scan the refreshed matches in `_doc` order, then per scroll batch build a bulk of
 * compare-and-write deletes or re-indexes (update scripts may noop or delete), wait for the
 * active shard copies, record version conflicts, and throttle between batches at
 * `requests_per_second`, rescheduling the wait when the task is rethrottled.
 */
import { readTermsLookups } from '../terms-lookups.js';
import { EsError, illegalArgument } from '../../common/errors.js';
import { filterSource, isFilterEmpty } from '../../common/source-filter.js';
import type { IndexService } from '../../engine/index-service.js';
import { MATCH_ANY, type VersionType } from '../../engine/versioning.js';
import type { WriteRequest } from '../../engine/write-request.js';
import { runIngest } from '../ingest-writes.js';
import { valueAtPath } from '../../engine/documents.js';
import type { ParsedSearch, ExecuteOptions } from '../../dsl/search/execute.js';
import type { ScanEnvironment, ScanHit } from '../../dsl/search/scan.js';
import type { SearchRequest } from '../../dsl/search/request.js';
import { timeValueMillis, type TimeValue } from '../../common/units.js';
import { routingShardFilter, type AliasFilters } from '../../dsl/search/alias-filter.js';
import { RawJson } from '../../common/json.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../engine/index-names.js';
import type { NodeContext } from '../../node-context.js';
import { searchLimits } from './search.js';
import { reindexItem } from './reindex-item.js';
import {
  applyBulkByScrollScript,
  checkNoExtraFields,
  opType,
  SCRIPTED_FIELDS,
} from './bulk-by-scroll-script.js';
import { docInSlice, shardSlice } from './by-query-slices.js';
import {
  emptyStatus,
  type BulkFailure,
  type ByQueryResult,
  type ByQueryStatus,
  type SearchFailure,
} from './by-query-status.js';
import { sqlScriptMethods } from '../../sql/execute/script-bridge.js';

/** `wait_for_active_shards`: ES ActiveShardCount (DEFAULT resolves to the index setting). */
export type ActiveShards = 'default' | 'all' | number;

/** Where and how `_reindex` writes each document (ES ReindexRequest's destination). */
export interface ReindexDest {
  index: string;
  /** null: keep each document's type. */
  type: string | null;
  /** ES `routing`: keep the document's, discard it, or `=value`. */
  routing: 'keep' | 'discard' | { readonly value: string };
  opType: 'index' | 'create';
  versionType: VersionType;
}

/** A parsed by-query or reindex request (ES AbstractBulkByScrollRequest). */
export interface ByQueryJob {
  mode: 'delete' | 'update' | 'reindex';
  /** The destination of a reindex. */
  dest?: ReindexDest;
  /** A reindex from a remote cluster: its hits, read over HTTP instead of the local scan. */
  remoteScan?: () => Promise<ScanHit[]>;
  /** Concrete indices, resolved when the task starts. */
  targets: IndexService[];
  search: SearchRequest;
  parsed: ParsedSearch;
  /** `routing` URI parameter. */
  routing: string | null;
  /**
   * The routing values per index of the parameter and the aliases' search routing (ES
   * resolveSearchRouting, restricts the shards searched), resolved with the targets.
   */
  routings?: ReadonlyMap<string, ReadonlySet<string>> | null;
  /** The alias filters of the targets searched through filtering aliases. */
  aliasFilters?: AliasFilters;
  /** Max documents to process, -1 for all (ES `size`). */
  size: number;
  /** Documents per scroll batch (ES `scroll_size`, default 1000). */
  scrollSize: number;
  abortOnVersionConflict: boolean;
  refresh: boolean;
  timeout: TimeValue;
  waitForActiveShards: ActiveShards;
  /** Float, Infinity when unthrottled. */
  requestsPerSecond: number;
  /** Update script, as written in the request (null: re-index the source as is). */
  script: unknown;
  pipeline: string | null;
}

/** ES WorkerBulkByScrollTaskState.MAX_THROTTLE_WAIT_TIME (one hour). */
const MAX_THROTTLE_WAIT_NANOS = 3600e9;

interface DelayedBatch {
  /** Throttle the delay was computed for (ES keeps the original one on reschedule). */
  readonly rps: number;
  readonly delayNanos: number;
  readonly startedAt: number;
  readonly run: () => void;
  cancel: () => void;
  settled: boolean;
}

/** Counters and throttle of one worker (ES WorkerBulkByScrollTaskState). */
export class WorkerState {
  total = 0;
  updated = 0;
  created = 0;
  deleted = 0;
  batches = 0;
  versionConflicts = 0;
  noops = 0;
  throttledNanos = 0;
  /** Why the task was cancelled (ES BulkByScrollTask.getReasonCancelled), null while it is not. */
  cancelled: string | null = null;
  private rps: number;
  private delayed: DelayedBatch | null = null;

  constructor(
    readonly sliceId: number | null,
    requestsPerSecond: number,
  ) {
    this.rps = checkRps(requestsPerSecond);
  }

  get requestsPerSecond(): number {
    return this.rps;
  }

  get successfullyProcessed(): number {
    return this.created + this.updated + this.deleted;
  }

  status(): ByQueryStatus {
    const s = emptyStatus();
    s.sliceId = this.sliceId;
    s.total = this.total;
    s.updated = this.updated;
    s.created = this.created;
    s.deleted = this.deleted;
    s.batches = this.batches;
    s.versionConflicts = this.versionConflicts;
    s.noops = this.noops;
    s.throttledNanos = this.throttledNanos;
    s.requestsPerSecond = this.rps;
    s.reasonCancelled = this.cancelled;
    s.throttledUntilNanos = this.throttledUntilNanos();
    return s;
  }

  private throttledUntilNanos(): number {
    const d = this.delayed;
    if (!d || d.settled) return 0;
    return Math.max(0, d.delayNanos - (performance.now() - d.startedAt) * 1e6);
  }

  /** ES perfectlyThrottledBatchTime: float seconds a batch should have taken, in nanos. */
  private batchNanos(lastBatchSize: number): number {
    if (this.rps === Infinity) return 0;
    return Math.fround(1e9 * Math.fround(lastBatchSize / this.rps));
  }

  /** Waits before the next batch (ES delayPrepareBulkRequest); the wait counts as throttled. */
  throttle(lastBatchSize: number): Promise<void> {
    const nanos = Math.min(
      MAX_THROTTLE_WAIT_NANOS,
      Math.max(0, Math.trunc(this.batchNanos(lastBatchSize))),
    );
    return new Promise((resolve) => this.schedule(this.rps, nanos, resolve));
  }

  private schedule(rps: number, delayNanos: number, run: () => void): void {
    const d: DelayedBatch = {
      rps,
      delayNanos,
      startedAt: performance.now(),
      run,
      settled: false,
      cancel: () => undefined,
    };
    const fire = () => {
      if (d.settled) return;
      d.settled = true;
      this.throttledNanos += d.delayNanos;
      run();
    };
    if (delayNanos === 0) {
      const h = setImmediate(fire);
      d.cancel = () => clearImmediate(h);
    } else {
      const h = setTimeout(fire, delayNanos / 1e6);
      h.unref();
      d.cancel = () => clearTimeout(h);
    }
    this.delayed = d;
  }

  /**
   * ES WorkerBulkByScrollTaskState.handleCancel: unthrottled, so a batch waiting out its throttle
   * wakes at once and the worker sees the cancellation before its next batch.
   */
  cancel(reason: string): void {
    if (this.cancelled !== null) return;
    this.cancelled = reason;
    this.rethrottle(Infinity);
  }

  /** ES WorkerBulkByScrollTaskState.rethrottle: speed-ups reschedule the pending wait. */
  rethrottle(requestsPerSecond: number): void {
    this.rps = checkRps(requestsPerSecond);
    const d = this.delayed;
    if (!d || d.settled) return;
    // Slowing down takes effect at the next batch (the scroll context must not expire).
    if (requestsPerSecond < d.rps) return;
    const remaining = d.delayNanos - (performance.now() - d.startedAt) * 1e6;
    d.settled = true;
    d.cancel();
    // ES DelayedPrepareBulkRequest.newDelay: Math.round of a float, so capped at Integer.MAX_VALUE.
    const scaled =
      remaining < 0 ? 0 : Math.round(Math.fround((remaining * d.rps) / requestsPerSecond));
    this.schedule(d.rps, Math.min(scaled, 2147483647), d.run);
  }
}

function checkRps(rps: number): number {
  if (!(rps > 0)) {
    throw illegalArgument(`requests per second must be more than 0 but was [${rps}]`);
  }
  return Math.fround(rps);
}

/** One write of a bulk batch. */
export interface BulkItem {
  op: 'index' | 'delete';
  /** The index written (a reindex destination may not exist yet). */
  index: string;
  type: string;
  /** null: a reindex script cleared `_id` (the destination generates one). */
  id: string | null;
  routing: string | null;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  source?: Buffer;
  /** Reindex: the destination's versioning and op type. */
  version?: number;
  versionType?: VersionType;
  opType?: 'index' | 'create';
}

/** A shard failure of the scan, from the `_shards.failures` entry the executor rendered. */
function searchFailureOf(j: Record<string, unknown>): SearchFailure {
  const r = (j.reason ?? {}) as Record<string, unknown>;
  const err = fromErrorJson(r);
  return {
    index: (j.index as string | undefined) ?? null,
    shard: (j.shard as number | undefined) ?? null,
    node: (j.node as string | undefined) ?? null,
    reason: err,
  };
}

/**
 * Rebuilds an error from its rendered form (type, reason, metadata, caused_by). The executor only
 * exposes shard failures as JSON, so the HTTP status (ES ExceptionsHelper.status) is inferred
 * from the type; the response status of the request is derived from it.
 */
function fromErrorJson(j: Record<string, unknown>): EsError {
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(j)) {
    if (k !== 'type' && k !== 'reason' && k !== 'caused_by') meta[k] = v;
  }
  const cause = j.caused_by as Record<string, unknown> | undefined;
  const type = String(j.type);
  return new EsError(
    type,
    (j.reason as string | null) ?? null,
    CLIENT_ERROR_TYPES.has(type) ? 400 : 500,
    {
      meta,
      ...(cause ? { causedBy: fromErrorJson(cause) } : {}),
    },
  );
}

/** Shard-level failures that are the request's fault (their ES status() is 400). */
const CLIENT_ERROR_TYPES = new Set([
  'illegal_argument_exception',
  'query_shard_exception',
  'parsing_exception',
  'parse_exception',
  'x_content_parse_exception',
  'number_format_exception',
]);

/** What the scan needs besides the parsed request (search options shared by all batches). */
export interface ScanScope {
  node: NodeContext;
  /** `{id, max}` for a slice of a sliced request. */
  slice: { id: number; max: number } | null;
}

/** Runs one worker to completion (ES AbstractAsyncBulkByScrollAction.start ... finishHim). */
export async function runWorker(
  scope: ScanScope,
  job: ByQueryJob,
  state: WorkerState,
): Promise<ByQueryResult> {
  const { node, slice } = scope;
  const t0 = performance.now();
  const finish = (bulkFailures: BulkFailure[], searchFailures: SearchFailure[]): ByQueryResult => ({
    tookNanos: Math.round((performance.now() - t0) * 1e6),
    status: state.status(),
    bulkFailures,
    searchFailures,
    timedOut: false,
  });

  const hits = await scan(node, job, slice);
  if (hits.failures.length) return finish([], hits.failures);
  if (state.cancelled !== null) return finish([], []);
  const all = hits.hits;
  state.total = job.size > 0 ? Math.min(all.length, job.size) : all.length;

  const destinations = new Set<string>();
  const refreshAndFinish = async (bulkFailures: BulkFailure[]): Promise<ByQueryResult> => {
    // every copy of the indices written (each node's, in a cluster)
    const written = [...destinations].flatMap((n) => node.indices.get(n) ?? []);
    if (job.refresh && written.length > 0) await node.broadcast.run('refresh', written);
    return finish(bulkFailures, []);
  };

  let pos = 0;
  let lastBatchSize = 0;
  for (;;) {
    await state.throttle(lastBatchSize);
    // ES AbstractAsyncBulkByScrollAction: a cancelled task ends before its next batch
    if (state.cancelled !== null) return refreshAndFinish([]);
    let batch = all.slice(pos, pos + job.scrollSize);
    pos += batch.length;
    if (batch.length === 0) return refreshAndFinish([]);
    state.batches++;
    if (job.size !== -1) {
      const remaining = Math.max(0, job.size - state.successfullyProcessed);
      if (remaining < batch.length) batch = batch.slice(0, remaining);
    }
    const items = buildBulk(node, job, state, batch);
    if (items.length === 0) {
      lastBatchSize = 0;
      continue;
    }
    const failures: BulkFailure[] = [];
    for (const r of await executeBulk(node, job, items)) {
      if ('cause' in r) {
        if (r.status === 409) {
          state.versionConflicts++;
          if (!job.abortOnVersionConflict) continue;
        }
        failures.push(r);
        continue;
      }
      if (r.result === 'created') state.created++;
      else if (r.result === 'noop') state.noops++;
      else if (r.op === 'delete') state.deleted++;
      else state.updated++;
      destinations.add(r.index);
    }
    if (failures.length) return refreshAndFinish(failures);
    if (job.size !== -1 && state.successfullyProcessed >= job.size) return refreshAndFinish([]);
    lastBatchSize = items.length;
  }
}

/** The scroll search: every match in `_doc` order over the shards' refreshed snapshots. */
async function scan(
  node: NodeContext,
  job: ByQueryJob,
  slice: { id: number; max: number } | null,
): Promise<{ hits: ScanHit[]; failures: SearchFailure[] }> {
  if (job.remoteScan) return { hits: await job.remoteScan(), failures: [] };
  const routed = routingShardFilter(job.routings ?? null);
  const shardFilter: ExecuteOptions['shardFilter'] =
    routed || slice
      ? (idx, shard) =>
          (!routed || routed(idx, shard)) &&
          (!slice || shardSlice(shard, idx.numberOfShards, slice.id, slice.max) !== 'none')
      : undefined;
  const out = await node.scans.scan({
    targets: job.targets,
    search: job.search,
    parsed: job.parsed,
    sources: job.mode !== 'delete',
    // read here, wherever the lookup documents are: the shards' nodes use these values
    lookups: await readTermsLookups(node, [job.parsed.query, job.parsed.postFilter]),
    ...(shardFilter ? { shardFilter } : {}),
    ...(job.aliasFilters ? { aliasFilters: job.aliasFilters } : {}),
  });
  if (out.failures.length) return { hits: [], failures: out.failures.map(searchFailureOf) };
  let hits = out.hits;
  if (slice) {
    const shardsOf = new Map(job.targets.map((i) => [i.name, i.numberOfShards]));
    hits = hits.filter((h) =>
      docInSlice(h.id, h.shard, shardsOf.get(h.index)!, slice.id, slice.max),
    );
  }
  return { hits, failures: [] };
}

/** What the node's scans read besides the job: its limits, scripts and terms lookups. */
export function scanEnvironment(node: NodeContext): ScanEnvironment {
  return {
    limits: searchLimits(node),
    nodeId: node.nodeId,
    termsLookup: (index, type, id, path, r) => {
      const idx = node.indices.resolve(
        index,
        indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED, () => undefined),
      )[0];
      if (!idx) return null;
      const got = node.documents.get(idx, type, id, r, { source: { includes: [], excludes: [] } });
      if (!got.found) return null;
      const src = got.body._source;
      const v = valueAtPath(src instanceof RawJson ? JSON.parse(src.text) : src, path);
      return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
    },
    // ES SQL's InternalQlScriptUtils read doc values the same in any search (its translations are
    // valid DSL): the adapted table, as for `_sql`
    ...(node.scriptMethods ? { scriptMethods: sqlScriptMethods(node.scriptMethods) } : {}),
  };
}

/** ES buildBulk: one request per hit, through the update script for update-by-query. */
function buildBulk(
  node: NodeContext,
  job: ByQueryJob,
  state: WorkerState,
  batch: ScanHit[],
): BulkItem[] {
  const items: BulkItem[] = [];
  for (const h of batch) {
    if (job.mode === 'reindex') {
      const item = reindexHit(node, job, h);
      if (item === 'noop') state.noops++;
      else if (item) items.push(item);
      continue;
    }
    const idx = node.indices.get(h.index)!;
    const base = { index: idx.name, type: h.type, id: h.id, routing: h.routing };
    const cas = { ifSeqNo: h.seqNo, ifPrimaryTerm: h.primaryTerm };
    if (job.mode === 'delete') {
      items.push({ op: 'delete', ...base, ...cas });
      continue;
    }
    // ES accept(): update-by-query needs the source it re-indexes.
    if (idx.mapping?.source.enabled === false || job.search.source === null) {
      throw illegalArgument(`[${idx.name}][${base.type}][${base.id}] didn't store _source`);
    }
    const raw = h.readSource();
    if (raw === null) {
      // Changed since the scan: the snapshot's source is gone, and the compare-and-write fails
      // with the engine's own conflict, as it would in ES.
      items.push({ op: 'index', ...base, ...cas, source: Buffer.from('{}') });
      continue;
    }
    let source: unknown = JSON.parse(raw.toString('utf8'));
    if (job.search.source && !isFilterEmpty(job.search.source)) {
      source = filterSource(source, job.search.source);
    }
    if (job.script === null) {
      items.push({ op: 'index', ...base, ...cas, source: Buffer.from(JSON.stringify(source)) });
      continue;
    }
    const applied = applyScript(node, job.script, state, { ...base, idx }, h.version, source);
    if (applied === 'noop') continue;
    if (applied === 'delete') items.push({ op: 'delete', ...base });
    else
      items.push({
        op: 'index',
        ...base,
        ...cas,
        source: Buffer.from(JSON.stringify(applied.source)),
      });
  }
  return items;
}

/** The destination write of one reindexed hit; null when its source changed since the scan. */
function reindexHit(node: NodeContext, job: ByQueryJob, h: ScanHit): BulkItem | 'noop' | null {
  // a remote hit's index is not one of this node's
  const idx = job.remoteScan ? undefined : node.indices.get(h.index);
  const raw = h.readSource();
  if (idx?.mapping?.source.enabled === false || (job.remoteScan && raw === null)) {
    throw illegalArgument(`[${h.index}][${h.type}][${h.id}] didn't store _source`);
  }
  // changed since the scan: ES copies the scroll's snapshot, which this scan does not keep
  if (raw === null) return null;
  let source: unknown = JSON.parse(raw.toString('utf8'));
  if (job.search.source && !isFilterEmpty(job.search.source)) {
    source = filterSource(source, job.search.source);
  }
  // a shard scanned on a node whose copy of the mapping lags names no type: the source index's
  // type as this node knows it is the document's
  const type = h.type === '_doc' && idx?.typeName ? idx.typeName : h.type;
  const hit = type === h.type ? h : { ...h, type, readSource: () => raw };
  return reindexItem(node, job.dest!, job.script, hit, source);
}

/** ES ScriptApplier with UpdateByQueryScriptApplier's checks: the metadata may not change. */
function applyScript(
  node: NodeContext,
  script: unknown,
  state: WorkerState,
  doc: { idx: IndexService; type: string; id: string; routing: string | null },
  version: number,
  source: unknown,
): 'noop' | 'delete' | { source: unknown } {
  const was = { _index: doc.idx.name, _type: doc.type, _id: doc.id, _version: version, _routing: doc.routing }; // prettier-ignore
  const r = applyBulkByScrollScript(node, script, was, source);
  for (const k of SCRIPTED_FIELDS) {
    if (r.fields[k] !== (k === '_parent' ? null : was[k]))
      throw illegalArgument(`Modifying [${k}] not allowed`);
  }
  const op = opType(r.op);
  if (op === 'noop') {
    state.noops++;
    return 'noop';
  }
  if (op === 'delete') return 'delete';
  checkNoExtraFields(r);
  return { source: r.source };
}

type ItemOutcome = BulkFailure | { op: 'index' | 'delete'; index: string; result: string };

/**
 * ES TransportBulkAction for one batch: each write in order through the node's write path (its
 * primaries' nodes in a cluster), which waits for the active shard copies asked for.
 */
async function executeBulk(
  node: NodeContext,
  job: ByQueryJob,
  items: BulkItem[],
): Promise<ItemOutcome[]> {
  const reqs: WriteRequest[] = items.map((it) => {
    const base = {
      index: it.index,
      type: it.type,
      id: it.id,
      routing: it.routing,
      version: it.version ?? MATCH_ANY,
      versionType: it.versionType ?? 'internal',
      ...(it.ifSeqNo !== undefined
        ? { ifSeqNo: it.ifSeqNo, ifPrimaryTerm: it.ifPrimaryTerm! }
        : {}),
    };
    return it.op === 'delete'
      ? { kind: 'delete', ...base }
      : {
          kind: 'index',
          opType: it.opType ?? 'index',
          ...base,
          source: it.source!,
          ...(job.pipeline !== null ? { pipeline: job.pipeline } : {}),
        };
  });
  const w = job.waitForActiveShards;
  // the ingest pipeline (given, or the index's default) runs before the write, as for bulk
  const r = await node.writes.run(reqs, {
    policy: 'false',
    prepare: (req) => (req.kind === 'index' ? runIngest(node.ingest, node.indices, req) : req),
    timeoutMs: timeValueMs(job.timeout),
    ...(w !== 'default' ? { waitForActiveShards: String(w) } : {}),
  });
  return r.items.map((item, k): ItemOutcome => {
    const it = items[k]!;
    if (!item.error)
      return { op: it.op, index: it.index, result: String(item.outcome!.body.result) };
    const cause = item.error;
    return { index: it.index, type: it.type, id: it.id ?? '', cause, status: cause.status };
  });
}

const timeValueMs = (tv: TimeValue): number => Math.max(0, timeValueMillis(tv));
