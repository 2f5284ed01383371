/**
 * A shard's search index that reports its refreshes to the shard's counters, as ES's
 * RefreshMetricUpdater listens to the reader manager: every explicit refresh counts (even when
 * nothing changed), a scheduled one only when it opened a new reader.
 */
import type { AnalysisResolver } from '../search/index/segment-builder.js';
import { ShardIndex } from '../search/index/shard-index.js';
import type { IndexSort } from '../search/index/index-sort.js';
import { clockMs, inScheduledRefresh, type ShardCounters } from './stats.js';

export class CountedShardIndex extends ShardIndex {
  constructor(
    analysis: AnalysisResolver,
    private readonly counters: ShardCounters,
    indexSort: IndexSort | null = null,
    workerAnalysis: string | null = null,
  ) {
    super(analysis, indexSort, workerAnalysis);
  }

  override refresh(): void {
    const t0 = clockMs();
    const before = this.searcher().generation;
    super.refresh();
    const published = this.searcher().generation !== before;
    if (published || !inScheduledRefresh()) this.counters.refreshed(t0, published);
  }

  override refreshInBackground(): Promise<void> | null {
    const t0 = clockMs();
    const before = this.searcher().generation;
    const inflight = this.latestGeneration !== before;
    const published = super.refreshInBackground();
    // a build handed to a worker counts once, when its view is published (one done at once
    // counted itself, through refresh)
    if (published && !inflight) void published.then(() => this.counters.refreshed(t0, true));
    return published;
  }
}
