/**
 * The one search executor (ES query_then_fetch / dfs_query_then_fetch on one node): every
 * `_search`, `_count`, `_msearch`, scroll page and SQL query runs through `executeSearch`.
 * can_match pre-filter, query phase per shard over an immutable snapshot, merge by score or sort
 * values with Lucene's tie-breaks (shard, doc), field collapsing, fetch phase from the store,
 * collapse expansion, aggregation reduce and suggestions.
 */
import { EsError, toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { Shard } from '../../engine/shard.js';
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import { dedupCollapsed } from '../../search/collect/collapse.js';
import type { SortKey } from '../../search/collect/sort.js';
import { combinedStats, shardStats, type SearchStats } from '../../search/query/stats.js';
import type { Clock } from '../../search/deadline.js';
import { parseQuery, type QueryNode } from '../query/index.js';
import {
  parseAggregations,
  reduceAggregations,
  type AggHit,
  type AggNode,
  type TopHitsOptions,
} from '../aggs/index.js';
import { canRewriteToMatchNone, shardCanMatch } from './can-match.js';
import { groupSearchBody } from './collapse.js';
import { fetchHits, type FetchOptions } from './fetch.js';
import { searchFetchOptions, topHitsFetchOptions } from './fetch-options.js';
import { indexQueryContext, type RequestLimits } from './index-context.js';
import { mergeShardHits } from './merge-hits.js';
import { runShard, type ShardResult } from './query-phase.js';
import { parseSearchBody, type SearchRequest } from './request.js';
import { searchDeadline } from './search-timeout.js';
import {
  allShardsFailed,
  failureJson,
  shardsFailed,
  timeExceededFailure,
  type ShardFailure,
} from './shard-failures.js';
import { executeSuggest, parseSuggest, type SuggestNode } from './suggest.js';
import type { IndexQueryContext } from '../query/index.js';
import type { ShardRunner } from './shard-request-cache.js';
import { parseAliasFilters, type AliasFilters } from './alias-filter.js';

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
  /** Keep every hit in order (scroll, by-query); the response then carries only the first page. */
  keepAllHits?: boolean;
  /** A scroll search (ES scrollContext != null). */
  scroll?: boolean;
  /** The scroll's keep alive and the `search.max_keep_alive` limit. */
  scrollKeepAliveMs?: number;
  maxKeepAliveMs?: number;
  scriptMethods?: Record<string, (...a: unknown[]) => unknown>;
  /** restrict the shards (routing) per index */
  shardFilter?: (idx: IndexService, shard: number) => boolean;
  /** indices_boost resolved to concrete indices. */
  indexBoosts?: Map<IndexService, number>;
  /** `batched_reduce_size` (default 512). */
  batchedReduceSize?: number;
  /** `pre_filter_shard_size` (default 128). */
  preFilterShardSize?: number;
  /** Runs each shard's query phase through the shard request cache (shard-request-cache.ts). */
  shardRunner?: ShardRunner;
  /** The alias filter of each index searched through filtering aliases (alias-filter.ts). */
  aliasFilters?: AliasFilters;
  /** `search.default_search_timeout` in ms, for requests without a `timeout` (-1: none). */
  defaultTimeoutMs?: number;
  /**
   * `allow_partial_search_results` (default true): when false, a shard that timed out fails and
   * any shard failure fails the search (ES AbstractSearchAsyncAction).
   */
  allowPartialSearchResults?: boolean;
  /** The clock of the search timeout (deadline.ts); tests inject one. */
  clock?: Clock;
}

export interface MergedHit extends CollectedHit {
  target: ShardTarget;
  rescored?: boolean[];
}

export interface SearchOutcome {
  body: Record<string, unknown>;
  warnings: string[];
  /** All merged hits in order (only with keepAllHits). */
  allHits?: MergedHit[];
  sortKeys?: SortKey[] | null;
  /** How the hits were fetched (scroll pages reuse it). */
  fetch?: FetchOptions;
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

export interface ParsedSearch {
  query: QueryNode;
  postFilter: QueryNode | null;
  aggs: AggNode[] | null;
  rescoreQueries: QueryNode[];
  suggest: SuggestNode[] | null;
}

/**
 * How deeply a request may nest: query objects (`indices.query.bool.max_nested_depth`, the
 * node's by default) and aggregation levels (`search.aggs.max_nested_depth`).
 */
export interface NestingLimits {
  readonly maxQueryDepth?: number;
  readonly maxAggDepth?: number;
}

/** Request-level parsing (before any shard is touched): errors here are plain 400s. */
export function parseSearch(
  req: SearchRequest,
  warnings?: string[],
  limits: NestingLimits = {},
): ParsedSearch {
  const q = limits.maxQueryDepth;
  return {
    // Paths in the body, so that error locations resolve against the request text.
    query: parseQuery(req.query ?? { match_all: {} }, req.query ? ['query'] : [], q),
    postFilter: req.postFilter ? parseQuery(req.postFilter, ['post_filter'], q) : null,
    aggs: req.aggs
      ? parseAggregations(req.aggs, {
          ...(warnings ? { warnings } : {}),
          ...(limits.maxAggDepth !== undefined ? { maxDepth: limits.maxAggDepth } : {}),
        })
      : null,
    rescoreQueries: req.rescore.map((r) => parseQuery(r.query, [], q)),
    suggest: req.suggest ? parseSuggest(req.suggest) : null,
  };
}

const DEFAULT_BATCHED_REDUCE_SIZE = 512;
const DEFAULT_PRE_FILTER_SHARD_SIZE = 128;

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

  const aliasFilters = parseAliasFilters(opts.aliasFilters);
  const deadline = searchDeadline(req, opts);
  const allowPartial = opts.allowPartialSearchResults ?? true;
  const skipped = preFilter(targets, req, parsed, qctx, opts);
  const failures: ShardFailure[] = [];
  const results: ShardResult[] = [];
  // The only shard to run returns the page itself: its ranks before `from` need no hit objects.
  let running = 0;
  for (const t of targets) if (!t.idx.failed && !skipped.has(t)) running++;
  const skipHits =
    running === 1 && !opts.keepAllHits && !req.collapse && req.rescore.length === 0 ? from : 0;
  // ES: a shard with no active copy is no failure, it is only missing from `successful`.
  let unavailable = 0;
  for (const t of targets) {
    if (t.idx.failed) {
      unavailable++;
      continue;
    }
    if (skipped.has(t)) continue;
    try {
      const input = {
        req,
        parsed,
        qctx: qctx(t.idx),
        globalStats,
        sortSpecs,
        scoreOnlySort,
        numHits,
        skipHits,
        opts,
        warnings,
        deadline,
        aliasFilter: aliasFilters.get(t.idx) ?? null,
      };
      const run = () => runShard(t, input);
      const r = opts.shardRunner ? opts.shardRunner(t, run, opts.aliasFilters?.get(t.idx)) : run();
      if (r.timedOut && !allowPartial) throw timeExceededFailure();
      results.push(r);
    } catch (e) {
      failures.push({
        shard: t.shard.id,
        index: t.idx.name,
        node: opts.nodeId,
        error: toEsError(e),
      });
    }
  }
  // ES: AbstractSearchAsyncAction counts skipped shards as successful; none at all is a failure.
  if (targets.length > 0 && targets.length - failures.length - unavailable === 0)
    throw allShardsFailed('query', failures);
  if (!allowPartial && failures.length > 0)
    throw shardsFailed('query', 'Partial shards failure', failures);

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
  const shardHits = results.map((r) => ({
    target: r.target,
    hits: r.top.hits,
    hitsFrom: r.hitsFrom,
  }));
  const mergeKeys = keys && !scoreOnlySort ? keys : null;
  // scrolls keep every hit, collapsing pages over groups: both need all ranks
  const merged =
    opts.keepAllHits || req.collapse
      ? mergeShardHits(shardHits, mergeKeys, 0, Number.MAX_SAFE_INTEGER)
      : null;
  const page = merged
    ? req.collapse
      ? dedupCollapsed(merged, from, size)
      : merged.slice(from, from + size)
    : mergeShardHits(shardHits, mergeKeys, from, from + size);
  const fetchOpts = searchFetchOptions(
    req,
    parsed,
    keys,
    qctx,
    globalStats,
    opts,
    warnings,
    results,
  );
  const hits = fetchPerShard(page, fetchOpts, warnings, failures, opts.nodeId);
  if (targets.length > 0 && failures.length === targets.length)
    throw allShardsFailed('fetch', failures);
  // ES buildSearchResponse: fetch failures of a search without partial results
  if (!allowPartial && failures.length > 0) throw shardsFailed('', 'Shard failures', failures);
  if (req.collapse && req.collapse.innerHits.length > 0 && hits.length > 0)
    expandCollapsed(indices, req, hits, opts, warnings);
  // EmptyTopDocsCollectorContext: with size 0 every shard reports TopDocs(total, [], 0)
  if (size === 0 && results.length > 0) maxScore = 0;
  const body: Record<string, unknown> = {
    took: Date.now() - t0,
    // ES SearchPhaseController.reducedQueryPhase: any shard that timed out
    timed_out: results.some((r) => r.timedOut),
  };
  if (req.terminateAfter > 0) body.terminated_early = terminated;
  const reducePhases = numReducePhases(req, opts, targets.length, results.length);
  if (reducePhases !== 1) body.num_reduce_phases = reducePhases;
  body._shards = {
    total: targets.length,
    // After the fetch phase, whose failures count too.
    successful: targets.length - failures.length - unavailable,
    skipped: skipped.size,
    failed: failures.length,
    ...(failures.length ? { failures: failures.map(failureJson) } : {}),
  };
  body.hits = {
    total: req.trackTotalHits ? total : -1,
    max_score: Number.isNaN(maxScore) ? null : maxScore,
    hits,
  };
  if (parsed.aggs) {
    // top_hits hits name their shard, not a position in some request's shard list (a cached
    // shard result may come from a request that listed the shards differently)
    const byShard = new Map<object, ShardTarget>(targets.map((t) => [t.shard, t]));
    const targetOf = (h: CollectedHit) => byShard.get((h as AggHit).origin!)!;
    body.aggregations = reduceAggregations(
      parsed.aggs,
      results.map((r) => r.aggs!).filter((a) => a),
      {
        typedKeys: opts.typedKeys,
        maxBuckets: opts.limits.maxBuckets,
        ...(opts.limits.breaker ? { breaker: opts.limits.breaker } : {}),
        warnings,
        shardOrder: (origin) => (origin ? byShard.get(origin)!.shardIndex : 0),
        fetchHits: (hits: CollectedHit[], o: TopHitsOptions) =>
          fetchHits(
            hits.map((h) => ({ ...h, target: targetOf(h) })),
            topHitsFetchOptions(
              o,
              parsed.query,
              qctx,
              (t) => globalStats ?? shardStats(t.snapshot),
              opts,
              warnings,
            ),
            warnings,
          ),
        ...(opts.scriptMethods ? { scriptMethods: opts.scriptMethods } : {}),
      },
    );
  }
  if (parsed.suggest) {
    body.suggest = executeSuggest(
      parsed.suggest,
      results.map((r) => r.target),
      qctx,
      opts.typedKeys,
    );
  }
  const out: SearchOutcome = { body, warnings, sortKeys: keys, fetch: fetchOpts };
  if (opts.keepAllHits) out.allHits = merged!;
  return out;
}

/**
 * FetchSearchPhase: each shard fetches its own hits; a shard whose fetch fails is reported in
 * `_shards.failures` and its hits are left out of the response.
 */
function fetchPerShard(
  page: MergedHit[],
  o: FetchOptions,
  warnings: string[],
  failures: ShardFailure[],
  nodeId: string,
): Record<string, unknown>[] {
  const byShard = new Map<ShardTarget, MergedHit[]>();
  for (const h of page) {
    const l = byShard.get(h.target);
    if (l) l.push(h);
    else byShard.set(h.target, [h]);
  }
  const fetched = new Map<MergedHit, Record<string, unknown>>();
  for (const [t, hs] of byShard) {
    try {
      const out = fetchHits(hs, o, warnings);
      hs.forEach((h, i) => fetched.set(h, out[i]!));
    } catch (e) {
      failures.push({ shard: t.shard.id, index: t.idx.name, node: nodeId, error: toEsError(e) });
    }
  }
  return page.filter((h) => fetched.has(h)).map((h) => fetched.get(h)!);
}

/** CanMatchPreFilterSearchPhase: the shards to skip (never all of them). */
function preFilter(
  targets: ShardTarget[],
  req: SearchRequest,
  parsed: ParsedSearch,
  qctx: (idx: IndexService) => IndexQueryContext,
  opts: ExecuteOptions,
): Set<ShardTarget> {
  const skipped = new Set<ShardTarget>();
  const threshold = opts.preFilterShardSize ?? DEFAULT_PRE_FILTER_SHARD_SIZE;
  if (
    opts.searchType !== 'query_then_fetch' ||
    threshold >= targets.length ||
    !canRewriteToMatchNone(req.query === null ? null : parsed.query, req.aggs, req.suggest)
  )
    return skipped;
  // ES: CanMatchPreFilterSearchPhase lets a shard with no active copy through to fail later.
  for (const t of targets)
    if (!t.idx.failed && !shardCanMatch(parsed.query, t.snapshot, qctx(t.idx))) skipped.add(t);
  // one shard still runs to produce a valid (empty) response with its aggregations
  if (skipped.size === targets.length) skipped.delete(targets[0]!);
  return skipped;
}

/**
 * SearchPhaseController.QueryPhaseResultConsumer: with more shards than `batched_reduce_size`,
 * results are reduced every time the buffer is full, plus the final reduce.
 */
function numReducePhases(
  req: SearchRequest,
  opts: ExecuteOptions,
  numShards: number,
  numResults: number,
): number {
  const b = opts.batchedReduceSize ?? DEFAULT_BATCHED_REDUCE_SIZE;
  const hasAggs = req.aggs !== null;
  const hasTopDocs = req.size !== 0;
  if (opts.scroll || !(hasAggs || hasTopDocs) || b >= numShards) return 1;
  let partial = 0;
  let index = 0;
  for (let i = 0; i < numResults; i++) {
    if (index === b) {
      partial++;
      index = 1;
    }
    index++;
  }
  return partial + 1;
}

/** ExpandSearchPhase: one group search per collapsed hit and inner_hits definition. */
function expandCollapsed(
  indices: IndexService[],
  req: SearchRequest,
  hits: Record<string, unknown>[],
  opts: ExecuteOptions,
  warnings: string[],
): void {
  const spec = req.collapse!;
  for (const hit of hits) {
    const vals = (hit.fields as Record<string, unknown[]> | undefined)?.[spec.field];
    const value = vals && vals.length > 0 ? vals[0] : null;
    const inner: Record<string, unknown> = {};
    for (const ih of spec.innerHits) {
      const sub = parseSearchBody(groupSearchBody(spec, ih, value, req.query, req.postFilter));
      sub.sort = ih.sort;
      if (ih.source !== undefined) {
        sub.source = ih.source;
        sub.sourceGiven = true;
      }
      sub.storedFields = ih.storedFields;
      sub.docvalueFields = ih.docvalueFields ?? [];
      let out: SearchOutcome;
      try {
        const { shardRunner: _cachedOnlyAtTop, ...subOpts } = opts;
        out = executeSearch(indices, sub, parseSearch(sub), {
          ...subOpts,
          keepAllHits: false,
          scroll: false,
        });
      } catch (e) {
        const err = toEsError(e);
        throw new EsError('search_phase_execution_exception', 'failed to expand hits', err.status, {
          meta: { phase: 'expand', grouped: true, failed_shards: [] },
          causedBy: err,
        });
      }
      warnings.push(...out.warnings);
      inner[ih.name ?? spec.field] = { hits: out.body.hits };
    }
    hit.inner_hits = inner;
  }
}

export function searchError(e: unknown): EsError {
  return toEsError(e);
}
