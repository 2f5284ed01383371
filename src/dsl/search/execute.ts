/**
 * The one search executor (ES query_then_fetch / dfs_query_then_fetch on one node): every
 * `_search`, `_count`, `_msearch`, scroll page and SQL query runs through `executeSearch`.
 * Query phase per shard over an immutable snapshot, merge by score or sort values with
 * Lucene's tie-breaks (shard, doc), fetch phase from the store, aggregation reduce.
 */
import { EsError, illegalArgument, toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import { getInt } from '../../engine/index-settings.js';
import type { Shard } from '../../engine/shard.js';
import type { LiveSegment, ShardSnapshot } from '../../search/index/live-segment.js';
import {
  collectTopDocs,
  type CollectedHit,
  type ShardTopDocs,
} from '../../search/collect/top-docs.js';
import { compareSortValues, type SortKey, type SortValue } from '../../search/collect/sort.js';
import { combinedStats, shardStats, type SearchStats } from '../../search/query/stats.js';
import { createWeight, type Weight } from '../../search/query/weights.js';
import { parseQuery, toSearchQuery, type QueryNode } from '../query/index.js';
import {
  createShardAggregator,
  parseAggregations,
  reduceAggregations,
  type AggNode,
  type ShardAggResult,
  type TopHitsOptions,
} from '../aggs/index.js';
import { fetchHits, type FetchOptions } from './fetch.js';
import { parseSourceSpec } from './request.js';
import { indexQueryContext, type RequestLimits } from './index-context.js';
import type { SearchRequest } from './request.js';
import { resolveSort } from './sort-keys.js';
import { allShardsFailed, failureJson, type ShardFailure } from './shard-failures.js';
import type { IndexQueryContext } from '../query/index.js';

export interface ShardTarget {
  idx: IndexService;
  shard: Shard;
  snapshot: ShardSnapshot;
  /** Position in the request's shard list (ES shard index, the first tie-break). */
  shardIndex: number;
}

export interface ExecuteOptions {
  /** Reads a field of a stored document (`terms` query lookups). */
  termsLookup?: IndexQueryContext['termsLookup'];
  searchType: 'query_then_fetch' | 'dfs_query_then_fetch';
  typedKeys: boolean;
  now: number;
  limits: RequestLimits;
  nodeId: string;
  /** Keep every hit in order (scroll); the response then carries only the first page. */
  keepAllHits?: boolean;
  scriptMethods?: Record<string, (...a: unknown[]) => unknown>;
  /** restrict the shards (routing) per index */
  shardFilter?: (idx: IndexService, shard: number) => boolean;
}

export interface MergedHit extends CollectedHit {
  target: ShardTarget;
}

export interface SearchOutcome {
  body: Record<string, unknown>;
  warnings: string[];
  /** All merged hits in order (only with keepAllHits). */
  allHits?: MergedHit[];
  sortKeys?: SortKey[] | null;
}

export function shardTargets(
  indices: IndexService[],
  filter?: ExecuteOptions['shardFilter'],
): ShardTarget[] {
  const out: ShardTarget[] = [];
  const sorted = [...indices].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const idx of sorted) {
    for (const shard of idx.shards) {
      if (filter && !filter(idx, shard.id)) continue;
      const snapshot = shard.searcher();
      out.push({ idx, shard, snapshot, shardIndex: out.length });
    }
  }
  return out;
}

interface ShardResult {
  target: ShardTarget;
  top: ShardTopDocs;
  aggs: ShardAggResult | null;
  sortKeys: SortKey[] | null;
}

export interface ParsedSearch {
  query: QueryNode;
  postFilter: QueryNode | null;
  aggs: AggNode[] | null;
}

/** Request-level parsing (before any shard is touched): errors here are plain 400s. */
export function parseSearch(req: SearchRequest, warnings?: string[]): ParsedSearch {
  return {
    query: parseQuery(req.query ?? { match_all: {} }),
    postFilter: req.postFilter ? parseQuery(req.postFilter) : null,
    aggs: req.aggs ? parseAggregations(req.aggs, warnings ? { warnings } : {}) : null,
  };
}

export function executeSearch(
  indices: IndexService[],
  req: SearchRequest,
  parsed: ParsedSearch,
  opts: ExecuteOptions,
): SearchOutcome {
  const t0 = Date.now();
  const from = req.from < 0 ? 0 : req.from;
  const size = req.size < 0 ? 10 : req.size;
  const targets = shardTargets(indices, opts.shardFilter);
  const warnings: string[] = [];
  if (!opts.keepAllHits) {
    for (const idx of indices) {
      const max = getInt(idx.meta.settings, 'index.max_result_window', 10000);
      if (from + size > max) {
        throw illegalArgument(
          `Result window is too large, from + size must be less than or equal to: [${max}] but was [${from + size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
        );
      }
    }
  }
  const ctxCache = new Map<IndexService, IndexQueryContext>();
  const qctx = (idx: IndexService) => {
    let c = ctxCache.get(idx);
    if (!c) {
      c = indexQueryContext(idx, opts.now, opts.limits, {
        warnings,
        ...(opts.scriptMethods ? { scriptMethods: opts.scriptMethods } : {}),
        ...(opts.termsLookup ? { termsLookup: opts.termsLookup } : {}),
      });
      ctxCache.set(idx, c);
    }
    return c;
  };
  let globalStats: SearchStats | null = null;
  if (opts.searchType === 'dfs_query_then_fetch')
    globalStats = combinedStats(targets.map((t) => shardStats(t.snapshot)));
  const sortSpecs = req.sort && req.sort.length > 0 ? req.sort : null;
  const scoreOnlySort =
    sortSpecs !== null &&
    sortSpecs.length === 1 &&
    sortSpecs[0]!.field === '_score' &&
    (sortSpecs[0]!.order ?? 'desc') === 'desc';
  const numHits = opts.keepAllHits ? Number.MAX_SAFE_INTEGER : from + size;
  const failures: ShardFailure[] = [];
  const results: ShardResult[] = [];
  for (const t of targets) {
    try {
      results.push(
        runShard(
          t,
          req,
          parsed,
          qctx(t.idx),
          globalStats,
          sortSpecs,
          scoreOnlySort,
          numHits,
          opts,
          warnings,
        ),
      );
    } catch (e) {
      failures.push({
        shard: t.shard.id,
        index: t.idx.name,
        node: opts.nodeId,
        error: toEsError(e),
      });
    }
  }
  if (targets.length > 0 && failures.length === targets.length)
    throw allShardsFailed('query', failures);

  // ---- reduce: hits
  let total = 0;
  let maxScore = NaN;
  let terminated = false;
  for (const r of results) {
    total += r.top.totalHits;
    terminated ||= r.top.terminatedEarly;
    if (!Number.isNaN(r.top.maxScore) && (Number.isNaN(maxScore) || r.top.maxScore > maxScore))
      maxScore = r.top.maxScore;
  }
  const keys = results.find((r) => r.sortKeys)?.sortKeys ?? null;
  const merged: MergedHit[] = [];
  for (const r of results) for (const h of r.top.hits) merged.push({ ...h, target: r.target });
  merged.sort((a, b) => {
    if (keys && !scoreOnlySort) {
      const c = compareSortValues(keys, a.sort!, b.sort!);
      if (c !== 0) return c;
    } else if (a.score !== b.score) return b.score - a.score;
    if (a.target.shardIndex !== b.target.shardIndex)
      return a.target.shardIndex - b.target.shardIndex;
    return a.globalDoc - b.globalDoc;
  });
  const page = merged.slice(from, from + size);
  const fetchOpts: FetchOptions = {
    source: req.source,
    storedFields: req.storedFields,
    docvalueFields: req.docvalueFields,
    version: req.version,
    seqNoPrimaryTerm: req.seqNoPrimaryTerm,
    explain: req.explain,
    highlight: req.highlight,
    sortKeys: keys,
    nodeId: opts.nodeId,
    parsedQuery: parsed.query,
    queryContext: qctx,
    stats: (t) => globalStats ?? shardStats(t.snapshot),
  };
  const hits = fetchHits(page, fetchOpts, warnings);
  if (size === 0 && Number.isNaN(maxScore) && !(keys && !scoreOnlySort)) maxScore = 0;
  const body: Record<string, unknown> = {
    took: Date.now() - t0,
    timed_out: false,
  };
  if (req.terminateAfter > 0) body.terminated_early = terminated;
  body._shards = {
    total: targets.length,
    successful: targets.length - failures.length,
    skipped: 0,
    failed: failures.length,
    ...(failures.length ? { failures: failures.map(failureJson) } : {}),
  };
  body.hits = {
    total: req.trackTotalHits ? total : -1,
    max_score: Number.isNaN(maxScore) ? null : maxScore,
    hits,
  };
  if (parsed.aggs) {
    body.aggregations = reduceAggregations(
      parsed.aggs,
      results.map((r) => r.aggs!).filter((a) => a),
      {
        typedKeys: opts.typedKeys,
        maxBuckets: opts.limits.maxBuckets,
        ...(opts.limits.breaker ? { breaker: opts.limits.breaker } : {}),
        warnings,
        fetchHits: (hits: CollectedHit[], o: TopHitsOptions) =>
          fetchHits(
            hits.map((h) => ({
              ...h,
              target: targets[(h as CollectedHit & { shard: number }).shard]!,
            })),
            topHitsFetchOptions(
              o,
              parsed.query,
              qctx,
              (t) => globalStats ?? shardStats(t.snapshot),
              opts.nodeId,
            ),
            warnings,
          ),
        ...(opts.scriptMethods ? { scriptMethods: opts.scriptMethods } : {}),
      },
    );
  }
  const out: SearchOutcome = { body, warnings, sortKeys: keys };
  if (opts.keepAllHits) out.allHits = merged;
  return out;
}

function runShard(
  t: ShardTarget,
  req: SearchRequest,
  parsed: ParsedSearch,
  qctx: IndexQueryContext,
  globalStats: SearchStats | null,
  sortSpecs: SearchRequest['sort'],
  scoreOnlySort: boolean,
  numHits: number,
  opts: ExecuteOptions,
  warnings: string[],
): ShardResult {
  const stats = globalStats ?? shardStats(t.snapshot);
  const sortKeys = sortSpecs ? resolveSort(sortSpecs, t.idx) : null;
  const sortNeedsScore = !sortKeys || scoreOnlySort || sortKeys.some((k) => k.kind === 'score');
  const needsScores = sortNeedsScore || req.trackScores || req.minScore !== null || req.explain;
  const q = toSearchQuery(parsed.query, qctx);
  const weight = createWeight(q, { stats, needsScores });
  const post: Weight | null = parsed.postFilter
    ? createWeight(toSearchQuery(parsed.postFilter, qctx), { stats, needsScores: false })
    : null;
  let aggregator: ReturnType<typeof createShardAggregator> | null = null;
  if (parsed.aggs) {
    aggregator = createShardAggregator(parsed.aggs, {
      snapshot: t.snapshot,
      field: (p) => qctx.field(p),
      compileQuery: (json) =>
        createWeight(toSearchQuery(parseQuery(json), qctx), { stats, needsScores: false }),
      objectMapping: (p: string) => t.idx.mapping?.objectsByPath.get(p),
      now: opts.now,
      maxBuckets: opts.limits.maxBuckets,
      ...(opts.limits.breaker ? { breaker: opts.limits.breaker } : {}),
      warnings,
      shardIndex: t.shardIndex,
      index: t.idx.name,
      typeName: t.idx.typeName ?? '_doc',
      fetchHits: (hits: CollectedHit[], o: TopHitsOptions) =>
        fetchHits(
          hits.map((h) => ({ ...h, target: t })),
          topHitsFetchOptions(
            o,
            parsed.query,
            () => qctx,
            () => stats,
            opts.nodeId,
          ),
          warnings,
        ),
      ...(opts.scriptMethods ? { scriptMethods: opts.scriptMethods } : {}),
    });
  }
  const agg = aggregator;
  const top = collectTopDocs(t.snapshot, weight, {
    numHits,
    sort: sortKeys && !scoreOnlySort ? sortKeys : null,
    trackScores: req.trackScores || scoreOnlySort,
    needsScores,
    minScore: req.minScore,
    postFilter: post,
    searchAfter: req.searchAfter ? (req.searchAfter as SortValue[]) : null,
    terminateAfter: req.terminateAfter,
    ...(agg
      ? {
          onSegment: (ls: LiveSegment, si: number) => agg.onSegment(ls, si),
          onMatch: (_ls: LiveSegment, _si: number, d: number, scorer: { score(): number }) =>
            agg.collect(d, needsScores ? scorer.score() : NaN),
        }
      : {}),
  });
  if (scoreOnlySort && sortKeys) for (const h of top.hits) h.sort = [h.score];
  return { target: t, top, aggs: agg ? agg.finish() : null, sortKeys };
}

export function searchError(e: unknown): EsError {
  return toEsError(e);
}

/** Fetch options of a `top_hits` aggregation (its own `_source`, docvalue_fields, version, ...). */
function topHitsFetchOptions(
  o: TopHitsOptions,
  query: QueryNode,
  qctx: (idx: IndexService) => IndexQueryContext,
  stats: (t: ShardTarget) => SearchStats,
  nodeId: string,
): FetchOptions {
  const r = o.request;
  const list = (v: unknown) =>
    v === undefined ? null : Array.isArray(v) ? v.map(String) : [String(v)];
  return {
    source: r._source === undefined ? { includes: [], excludes: [] } : parseSourceSpec(r._source),
    storedFields: list(r.stored_fields),
    docvalueFields: (list(r.docvalue_fields) ?? []).map((field) => ({ field, format: null })),
    version: o.version,
    seqNoPrimaryTerm: o.seqNoPrimaryTerm,
    explain: o.explain,
    highlight: null,
    sortKeys: o.sort,
    nodeId,
    parsedQuery: query,
    queryContext: qctx,
    stats,
  };
}
