/**
 * The status of a bulk-by-scroll task and its response body (ES BulkByScrollTask.Status,
 * BulkByScrollResponse): counters of one worker, the merge of sliced workers, and their JSON with
 * `include_created` / `include_updated` as the REST handlers set them.
 */
import type { EsError } from '../../common/errors.js';
import { javaFloatToString } from '../../dsl/script/index.js';

export interface ByQueryStatus {
  sliceId: number | null;
  total: number;
  updated: number;
  created: number;
  deleted: number;
  batches: number;
  versionConflicts: number;
  noops: number;
  bulkRetries: number;
  searchRetries: number;
  throttledNanos: number;
  /** Float; Infinity means unthrottled (rendered -1). */
  requestsPerSecond: number;
  reasonCancelled: string | null;
  throttledUntilNanos: number;
  /** Sliced tasks: one entry per slice (null while running, an error when the slice failed). */
  slices: Array<ByQueryStatus | EsError | null>;
}

export const emptyStatus = (): ByQueryStatus => ({
  sliceId: null,
  total: 0,
  updated: 0,
  created: 0,
  deleted: 0,
  batches: 0,
  versionConflicts: 0,
  noops: 0,
  bulkRetries: 0,
  searchRetries: 0,
  throttledNanos: 0,
  requestsPerSecond: Infinity,
  reasonCancelled: null,
  throttledUntilNanos: 0,
  slices: [],
});

const isStatus = (s: ByQueryStatus | EsError | null): s is ByQueryStatus =>
  s !== null && 'batches' in s;

/** ES Status(List<StatusOrException>): sums of finished slices, minimum throttled-until. */
export function mergeSliceStatuses(
  slices: Array<ByQueryStatus | EsError | null>,
  reasonCancelled: string | null,
): ByQueryStatus {
  const m = emptyStatus();
  m.requestsPerSecond = 0;
  m.reasonCancelled = reasonCancelled;
  let until = Infinity;
  for (const s of slices) {
    if (!isStatus(s)) continue;
    m.total += s.total;
    m.updated += s.updated;
    m.created += s.created;
    m.deleted += s.deleted;
    m.batches += s.batches;
    m.versionConflicts += s.versionConflicts;
    m.noops += s.noops;
    m.bulkRetries += s.bulkRetries;
    m.searchRetries += s.searchRetries;
    m.throttledNanos += s.throttledNanos;
    m.requestsPerSecond = Math.fround(m.requestsPerSecond + s.requestsPerSecond);
    until = Math.min(until, s.throttledUntilNanos);
  }
  m.throttledUntilNanos = until === Infinity ? 0 : until;
  m.slices = slices;
  return m;
}

export interface StatusJsonOptions {
  includeCreated: boolean;
  includeUpdated: boolean;
}

/** Java float as JSON: the shortest decimal that round-trips the float (Float.toString). */
const floatJson = (f: number): number => Number(javaFloatToString(f));

/** ES Status.innerXContent (fields in ES's order). */
export function statusFields(s: ByQueryStatus, o: StatusJsonOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.sliceId !== null) out.slice_id = s.sliceId;
  out.total = s.total;
  if (o.includeUpdated) out.updated = s.updated;
  if (o.includeCreated) out.created = s.created;
  out.deleted = s.deleted;
  out.batches = s.batches;
  out.version_conflicts = s.versionConflicts;
  out.noops = s.noops;
  out.retries = { bulk: s.bulkRetries, search: s.searchRetries };
  out.throttled_millis = Math.floor(s.throttledNanos / 1e6);
  out.requests_per_second = s.requestsPerSecond === Infinity ? -1 : floatJson(s.requestsPerSecond);
  if (s.reasonCancelled !== null) out.canceled = s.reasonCancelled;
  out.throttled_until_millis = Math.floor(s.throttledUntilNanos / 1e6);
  if (s.slices.length > 0) {
    out.slices = s.slices.map((x) =>
      x === null ? null : isStatus(x) ? statusFields(x, o) : x.toInner(),
    );
  }
  return out;
}

/** A bulk-item failure (ES BulkItemResponse.Failure). */
export interface BulkFailure {
  index: string;
  type: string;
  id: string;
  cause: EsError;
  status: number;
}

/** A shard failure of the scroll search (ES ScrollableHitSource.SearchFailure). */
export interface SearchFailure {
  index: string | null;
  shard: number | null;
  node: string | null;
  reason: EsError;
}

export interface ByQueryResult {
  tookNanos: number;
  status: ByQueryStatus;
  bulkFailures: BulkFailure[];
  searchFailures: SearchFailure[];
  timedOut: boolean;
}

/** ES BulkByScrollResponse(Iterable): the merge of the slices' responses. */
export function mergeResults(
  parts: ByQueryResult[],
  reasonCancelled: string | null,
): ByQueryResult {
  return {
    tookNanos: parts.reduce((m, p) => Math.max(m, p.tookNanos), 0),
    status: mergeSliceStatuses(
      parts.map((p) => p.status),
      reasonCancelled,
    ),
    bulkFailures: parts.flatMap((p) => p.bulkFailures),
    searchFailures: parts.flatMap((p) => p.searchFailures),
    timedOut: parts.some((p) => p.timedOut),
  };
}

/** ES BulkByScrollResponse.toXContent. */
export function resultJson(r: ByQueryResult, o: StatusJsonOptions): Record<string, unknown> {
  const failures: unknown[] = r.bulkFailures.map((f) => ({
    index: f.index,
    type: f.type,
    id: f.id,
    cause: f.cause.toInner(),
    status: f.status,
  }));
  for (const f of r.searchFailures) {
    const j: Record<string, unknown> = {};
    if (f.index !== null) j.index = f.index;
    if (f.shard !== null) j.shard = f.shard;
    if (f.node !== null) j.node = f.node;
    j.reason = f.reason.toInner();
    failures.push(j);
  }
  return {
    took: Math.floor(r.tookNanos / 1e6),
    timed_out: r.timedOut,
    ...statusFields(r.status, o),
    failures,
  };
}

/**
 * ES ExceptionsHelper.status as 6.8 computes it: a ScriptException does not override status()
 * and is not a wrapper, so it is a 500 whatever its cause.
 */
export function restStatusOf(e: EsError): number {
  return e.type === 'script_exception' ? 500 : e.status;
}

/** BulkIndexByScrollResponseContentListener.getStatus: the highest status of any failure. */
export function resultStatus(r: ByQueryResult): number {
  let status = r.timedOut ? 408 : 200;
  for (const f of r.bulkFailures) status = Math.max(status, f.status);
  for (const f of r.searchFailures) status = Math.max(status, restStatusOf(f.reason));
  return status;
}
