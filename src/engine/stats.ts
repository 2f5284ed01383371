/**
 * Per-shard operation counters behind the indices stats API (ES IndexingStats, GetStats,
 * SearchStats, RefreshStats, RequestCacheStats, FieldDataStats, translog operations). The write,
 * get, search and refresh paths bump them through one-line hooks; everything is a plain number
 * so the hot paths pay one `performance.now()` and a few additions.
 */

/** Milliseconds with sub-millisecond resolution, for operation timings. */
export const clockMs = (): number => performance.now();

export class ShardCounters {
  // ES InternalIndexingStats
  indexTotal = 0;
  indexTimeMs = 0;
  indexCurrent = 0;
  indexFailed = 0;
  deleteTotal = 0;
  deleteTimeMs = 0;
  deleteCurrent = 0;
  noopUpdateTotal = 0;
  // ES ShardGetService metrics
  getExists = 0;
  getExistsTimeMs = 0;
  getMissing = 0;
  getMissingTimeMs = 0;
  // ES ShardSearchStats (query phases: one per shard a search runs on)
  queryTotal = 0;
  queryTimeMs = 0;
  fetchTotal = 0;
  fetchTimeMs = 0;
  scrollTotal = 0;
  scrollTimeMs = 0;
  suggestTotal = 0;
  suggestTimeMs = 0;
  /** Query phases per search `stats` group (ES ShardSearchStats groupsStats). */
  readonly groupQueries = new Map<string, number>();
  // ES IndexShard.refreshMetric and the warmer runs of new readers
  refreshTotal = 0;
  refreshTimeMs = 0;
  // ES IndexShard.flushMetric and periodicFlushMetric
  flushTotal = 0;
  flushPeriodic = 0;
  flushTimeMs = 0;
  warmerTotal = 0;
  // ES ShardRequestCache / ShardFieldData (fed by the search layer when it caches or loads)
  requestCacheHits = 0;
  requestCacheMisses = 0;
  requestCacheEvictions = 0;
  requestCacheBytes = 0;
  readonly fielddataBytes = new Map<string, number>();
  fielddataEvictions = 0;
  // Operations the translog still holds (ES Translog stats: retained since the last trim) and
  // those written since the last commit point (uncommitted)
  translogOps = 0;
  translogBytes = 0;
  uncommittedOps = 0;
  uncommittedBytes = 0;

  /** A successful index operation that took since `t0` (ES postIndex). */
  indexed(t0: number, sourceBytes: number): void {
    this.indexTotal++;
    this.indexTimeMs += clockMs() - t0;
    this.logged(sourceBytes + TRANSLOG_OP_OVERHEAD);
  }

  private logged(bytes: number): void {
    this.translogOps++;
    this.translogBytes += bytes;
    this.uncommittedOps++;
    this.uncommittedBytes += bytes;
  }

  /**
   * A commit point now holds every operation logged so far (ES flush rolls the translog
   * generation); `trim` when retention no longer keeps the committed ones
   * (TranslogDeletionPolicy).
   */
  committed(trim: boolean): void {
    this.uncommittedOps = 0;
    this.uncommittedBytes = 0;
    if (trim) {
      this.translogOps = 0;
      this.translogBytes = 0;
    }
  }

  /** A delete operation (found or not: both reach the engine) since `t0`. */
  deleted(t0: number): void {
    this.deleteTotal++;
    this.deleteTimeMs += clockMs() - t0;
    this.logged(TRANSLOG_OP_OVERHEAD);
  }

  /** An index operation the engine rejected (ES counts version conflicts as index_failed). */
  indexFailedWith<E>(error: E): E {
    this.indexFailed++;
    return error;
  }

  /** A realtime or refreshed-view GET since `t0`. */
  got(t0: number, found: boolean): void {
    const ms = clockMs() - t0;
    if (found) {
      this.getExists++;
      this.getExistsTimeMs += ms;
    } else {
      this.getMissing++;
      this.getMissingTimeMs += ms;
    }
  }

  /** A shard-level query phase started (a searcher was acquired for it), with its `stats` groups. */
  queried(groups: readonly string[] = []): void {
    this.queryTotal++;
    for (const g of new Set(groups)) this.groupQueries.set(g, (this.groupQueries.get(g) ?? 0) + 1);
  }

  /** A refresh that took since `t0`; `published` when it opened a new reader (warmed). */
  refreshed(t0: number, published: boolean): void {
    this.refreshTotal++;
    this.refreshTimeMs += clockMs() - t0;
    if (published) this.warmerTotal++;
  }

  /** Memory held by fielddata / global ordinals of `field` on this shard (loads and evictions). */
  fielddataLoaded(field: string, bytes: number): void {
    const n = (this.fielddataBytes.get(field) ?? 0) + bytes;
    // a field whose structures were all released is no longer listed (ES FieldDataStats)
    if (n <= 0) this.fielddataBytes.delete(field);
    else this.fielddataBytes.set(field, n);
  }

  get fielddataTotalBytes(): number {
    let n = 0;
    for (const b of this.fielddataBytes.values()) n += b;
    return n;
  }
}

/** Bytes a translog operation takes besides its source (ES Translog.Index header and checksum). */
const TRANSLOG_OP_OVERHEAD = 55;

/** ES IndexService's scheduled refresh: only counted when it actually opened a new reader. */
let scheduledDepth = 0;

export function runScheduledRefresh(fn: () => void): void {
  scheduledDepth++;
  try {
    fn();
  } finally {
    scheduledDepth--;
  }
}

export const inScheduledRefresh = (): boolean => scheduledDepth > 0;
