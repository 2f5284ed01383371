/**
 * The `_count` API's shard phase (ES TransportCountAction: a size-0 search that reports only the
 * hit count): the query lowered once per index, then counted per shard through the weights' cheap
 * per-segment counts where the query has them. Shard failures are reported as a search's are.
 */
import { toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import { countDocs } from '../../search/collect/top-docs.js';
import type { Query } from '../../search/query/query.js';
import { shardStats } from '../../search/query/stats.js';
import { createWeight, type Weight } from '../../search/query/weights.js';
import { Deadline, isTimeExceeded, type Clock } from '../../search/deadline.js';
import { toSearchQuery, type IndexQueryContext, type QueryNode } from '../query/index.js';
import type { ShardTarget } from './execute.js';
import { indexQueryContext, type RequestLimits } from './index-context.js';
import {
  lowerAliasFilter,
  parseAliasFilters,
  withFilters,
  type AliasFilters,
} from './alias-filter.js';
import {
  allShardsFailed,
  shardsFailed,
  timeExceededFailure,
  type ShardFailure,
} from './shard-failures.js';

export interface CountOptions {
  now: number;
  limits: RequestLimits;
  nodeId: string;
  /**
   * `search.default_search_timeout` in ms (-1: none). ES runs a count as a size-0 search, which
   * takes the default timeout: counting stops there and the count so far is reported, with no
   * sign of it in the response (a count has no `timed_out`).
   */
  defaultTimeoutMs?: number;
  /** `search.default_allow_partial_results`: when false, a shard that timed out fails. */
  allowPartialSearchResults?: boolean;
  clock?: Clock;
  /** The alias filter of each index counted through filtering aliases (alias-filter.ts). */
  aliasFilters?: AliasFilters;
}

/** The `_count` response body for `query` over `targets`. */
export function executeCount(
  targets: ShardTarget[],
  query: QueryNode,
  o: CountOptions,
): Record<string, unknown> {
  let total = 0;
  const failures: ShardFailure[] = [];
  let unavailable = 0;
  // the lowered query of the index of the previous target (targets come grouped by index)
  let lastIdx: IndexService | null = null;
  let lowered: Query | null = null;
  let error: unknown = null;
  const ms = o.defaultTimeoutMs ?? -1;
  const dl = ms === -1 ? null : Deadline.after(ms, o.clock);
  const allowPartial = o.allowPartialSearchResults ?? true;
  const aliasFilters = parseAliasFilters(o.aliasFilters);
  for (const t of targets) {
    if (t.idx.failed) {
      unavailable++;
      continue;
    }
    if (t.idx !== lastIdx) {
      lastIdx = t.idx;
      lowered = null;
      error = null;
      try {
        const aliasFilter = aliasFilters.get(t.idx) ?? null;
        if (aliasFilter === null) lowered = loweredForCount(query, t.idx, o);
        else {
          const ctx = indexQueryContext(t.idx, o.now, o.limits);
          lowered = withFilters(toSearchQuery(query, ctx), [lowerAliasFilter(aliasFilter, ctx)!]);
        }
      } catch (e) {
        error = e;
      }
    }
    try {
      if (lowered === null) throw error;
      const before = dl?.failedChecks ?? 0;
      total += shardCount(t, lowered, dl);
      if (!allowPartial && dl !== null && dl.failedChecks > before) throw timeExceededFailure();
    } catch (e) {
      failures.push({ shard: t.shard.id, index: t.idx.name, node: o.nodeId, error: toEsError(e) });
    }
  }
  if (targets.length > 0 && failures.length + unavailable === targets.length)
    throw allShardsFailed('query', failures);
  if (!allowPartial && failures.length > 0)
    throw shardsFailed('query', 'Partial shards failure', failures);
  return {
    count: total,
    _shards: {
      total: targets.length,
      successful: targets.length - failures.length - unavailable,
      skipped: 0,
      failed: failures.length,
    },
  };
}

/**
 * A count's query lowered for one index, and what the lowering read: equal count bodies share
 * their parsed query (count-body.ts), so a body counted again on an index whose mapping, analysis,
 * settings and clause limit are the ones it was lowered with takes the same engine query.
 */
interface LoweredCount {
  readonly idx: IndexService;
  readonly mapping: IndexService['mapping'];
  readonly analysis: IndexService['analysis'];
  readonly settings: IndexService['meta']['settings'];
  readonly metaVersion: number;
  readonly maxClauseCount: number;
  readonly query: Query;
}

const loweredCounts = new WeakMap<QueryNode, LoweredCount>();

/**
 * `query` lowered for `idx` (no alias filter), kept for the next count of the same parsed query
 * when the lowering read nothing of the request: not the time (date math), and no script, warning,
 * percolated or geo document (their results belong to the request that made them).
 */
function loweredForCount(query: QueryNode, idx: IndexService, o: CountOptions): Query {
  const kept = loweredCounts.get(query);
  if (
    kept !== undefined &&
    kept.idx === idx &&
    kept.mapping === idx.mapping &&
    kept.analysis === idx.analysis &&
    kept.settings === idx.meta.settings &&
    kept.metaVersion === idx.meta.version &&
    kept.maxClauseCount === o.limits.maxClauseCount
  )
    return kept.query;
  const base = indexQueryContext(idx, o.now, o.limits);
  let pure = true;
  const impure = <F>(f: F | undefined): F | undefined => {
    if (f === undefined) return undefined;
    const call = f as (...a: unknown[]) => unknown;
    return ((...a: unknown[]) => {
      pure = false;
      return call(...a);
    }) as F;
  };
  const ctx: IndexQueryContext = {
    ...base,
    deprecation: impure(base.deprecation),
    compileScript: impure(base.compileScript),
    percolateSegment: impure(base.percolateSegment),
    geoPoints: impure(base.geoPoints),
  };
  const now = o.now;
  Object.defineProperty(ctx, 'now', {
    get: () => {
      pure = false;
      return now;
    },
  });
  const lowered = toSearchQuery(query, ctx);
  if (pure)
    loweredCounts.set(query, {
      idx,
      mapping: idx.mapping,
      analysis: idx.analysis,
      settings: idx.meta.settings,
      metaVersion: idx.meta.version,
      maxClauseCount: o.limits.maxClauseCount,
      query: lowered,
    });
  return lowered;
}

/** The shard's count; a deadline passed while the query expands counts nothing. */
function shardCount(t: ShardTarget, q: Query, dl: Deadline | null): number {
  const stats = shardStats(t.snapshot);
  let w: Weight;
  try {
    w = createWeight(q, { stats, needsScores: false, deadline: dl, segments: t.snapshot.segments }); // prettier-ignore
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
    return 0;
  }
  return countDocs(t.snapshot, w, dl);
}
