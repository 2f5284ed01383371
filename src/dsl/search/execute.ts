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
import { parseQuery, toSearchQuery, type QueryNode } from '../query/index.js';
import { profileShard } from './profile.js';
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
import { extractInnerHits } from './inner-hits.js';
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
import {
  parseSuggest,
  reduceSuggest,
  suggestShard,
  suggestShardOrThrow,
  type ShardSuggest,
  type SuggestNode,
} from './suggest.js';
import type { IndexQueryContext } from '../query/index.js';
import type { ShardRunner } from './shard-request-cache.js';
import { parseAliasFilters, type AliasFilters } from './alias-filter.js';
import { isRenderedAggHit } from '../aggs/shard-result-wire.js';

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
  /** `sql`: `scriptMethods` are SQL's adaptation of the node's (a shard's node uses the same). */
  scriptDialect?: 'sql';
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
  /**
   * What `shardRunner` was built from (requestMayCache), so that a node searching its shards for
   * another node's request can build its own over its own cache.
   */
  requestCachePolicy?: true | 'by-index-setting';
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

/** `groups`: the search's `stats` groups, counted with each shard's query phase. */
export function shardTargets(
  indices: IndexService[],
  filter?: ExecuteOptions['shardFilter'],
  groups?: readonly string[],
): ShardTarget[] {
  const out: ShardTarget[] = [];
  const sorted =
    indices.length < 2
      ? indices
      : [...indices].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const idx of sorted) {
    for (const shard of idx.shards) {
      if (filter && !filter(idx, shard.id)) continue;
      const snapshot = shard.searcher(groups);
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
  // Paths in the body, so that error locations resolve against the request text.
  const query = parseQuery(req.query ?? { match_all: {} }, req.query ? ['query'] : [], q);
  // InnerHitBuilder.fromXContent and the unique names of inner hits, before any shard runs
  extractInnerHits(query);
  return {
    query,
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

/**
 * What the phases of one search share: the page window, the sort, the deadline, the alias
 * filters and the per-index query contexts (built once per index, on the node that runs them).
 */
export interface SearchPlan {
  readonly t0: number;
  readonly from: number;
  readonly size: number;
  readonly sortSpecs: SearchRequest['sort'] | null;
  readonly scoreOnlySort: boolean;
  readonly numHits: number;
  readonly warnings: string[];
  readonly qctx: (idx: IndexService) => IndexQueryContext;
  readonly globalStats: SearchStats | null;
  readonly aliasFilters: ReadonlyMap<IndexService, QueryNode>;
  readonly deadline: ReturnType<typeof searchDeadline>;
  readonly allowPartial: boolean;
}

/** A sort by descending score alone: hits merge by score, as without a sort. */
export function isScoreOnlySort(sortSpecs: NonNullable<SearchRequest['sort']>): boolean {
  return (
    sortSpecs.length === 1 &&
    sortSpecs[0]!.field === '_score' &&
    (sortSpecs[0]!.order ?? 'desc') === 'desc'
  );
}

export function planSearch(
  targets: ShardTarget[],
  req: SearchRequest,
  opts: ExecuteOptions,
  warnings: string[] = [],
): SearchPlan {
  const from = req.from < 0 ? 0 : req.from;
  const size = req.size < 0 ? 10 : req.size;
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
  const sortSpecs = req.sort && req.sort.length > 0 ? req.sort : null;
  return {
    t0: Date.now(),
    from,
    size,
    sortSpecs,
    scoreOnlySort: sortSpecs !== null && isScoreOnlySort(sortSpecs),
    numHits: opts.keepAllHits ? Number.MAX_SAFE_INTEGER : from + size,
    warnings,
    qctx,
    globalStats:
      opts.searchType === 'dfs_query_then_fetch'
        ? combinedStats(targets.map((t) => shardStats(t.snapshot)))
        : null,
    aliasFilters: parseAliasFilters(opts.aliasFilters),
    deadline: searchDeadline(req, opts),
    allowPartial: opts.allowPartialSearchResults ?? true,
  };
}

/** One shard's query phase result as the coordinator reduces it (local, or from another node). */
export type QueryResult = Pick<
  ShardResult,
  'target' | 'top' | 'aggs' | 'sortKeys' | 'hitsFrom' | 'timedOut' | 'nodeId'
> & {
  /** The shard's suggestions, when they ran where the shard is (another node's). */
  readonly suggest?: ShardSuggest;
};

export interface QueryPhaseOutcome<R extends QueryResult = ShardResult> {
  results: R[];
  failures: ShardFailure[];
  /** Shards with no active copy (ES: no failure, only missing from `successful`). */
  unavailable: number;
}

/** The query phase over `targets` on this node (ES SearchService.executeQueryPhase per shard). */
export function runQueryPhase(
  targets: ShardTarget[],
  req: SearchRequest,
  parsed: ParsedSearch,
  opts: ExecuteOptions,
  plan: SearchPlan,
  skipped: ReadonlySet<ShardTarget>,
  skipHits: number,
): QueryPhaseOutcome {
  const failures: ShardFailure[] = [];
  const results: ShardResult[] = [];
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
        qctx: plan.qctx(t.idx),
        globalStats: plan.globalStats,
        sortSpecs: plan.sortSpecs,
        scoreOnlySort: plan.scoreOnlySort,
        numHits: plan.numHits,
        skipHits,
        opts,
        warnings: plan.warnings,
        deadline: plan.deadline,
        aliasFilter: plan.aliasFilters.get(t.idx) ?? null,
      };
      const run = () => runShard(t, input);
      const r = opts.shardRunner ? opts.shardRunner(t, run, opts.aliasFilters?.get(t.idx)) : run();
      if (r.timedOut && !plan.allowPartial) throw timeExceededFailure();
      // the suggest phase runs with the shard's query phase: its failure fails the shard
      const suggest = parsed.suggest
        ? suggestShardOrThrow(parsed.suggest, t, plan.qctx(t.idx))
        : undefined;
      results.push(suggest ? { ...r, suggest } : r);
    } catch (e) {
      failures.push({
        shard: t.shard.id,
        index: t.idx.name,
        node: opts.nodeId,
        error: toEsError(e),
      });
    }
  }
  return { results, failures, unavailable };
}

/** After the query phase: no shard answered, or a failure without partial results allowed. */
export function checkQueryPhase(
  numTargets: number,
  q: QueryPhaseOutcome<QueryResult>,
  allowPartial: boolean,
): void {
  // ES: AbstractSearchAsyncAction counts skipped shards as successful; none at all is a failure.
  if (numTargets > 0 && numTargets - q.failures.length - q.unavailable === 0)
    throw allShardsFailed('query', q.failures);
  if (!allowPartial && q.failures.length > 0)
    throw shardsFailed('query', 'Partial shards failure', q.failures);
}

/** The reduce of the hits (SearchPhaseController.reducedQueryPhase + sortDocs): the page. */
export interface ReducedHits {
  total: number;
  maxScore: number;
  terminated: boolean;
  keys: SortKey[] | null;
  /** Every merged hit (scroll and collapse only). */
  merged: MergedHit[] | null;
  page: MergedHit[];
}

export function reduceHits(
  results: QueryResult[],
  req: SearchRequest,
  plan: SearchPlan,
  opts: ExecuteOptions,
): ReducedHits {
  const { from, size } = plan;
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
  const mergeKeys = keys && !plan.scoreOnlySort ? keys : null;
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
  return { total, maxScore, terminated, keys, merged, page };
}

/** After the fetch phase (ES FetchSearchPhase / buildSearchResponse). */
export function checkFetchPhase(
  numTargets: number,
  failures: ShardFailure[],
  allowPartial: boolean,
): void {
  if (numTargets > 0 && failures.length === numTargets) throw allShardsFailed('fetch', failures);
  // ES buildSearchResponse: fetch failures of a search without partial results
  if (!allowPartial && failures.length > 0) throw shardsFailed('', 'Shard failures', failures);
}

export interface ResponseParts {
  plan: SearchPlan;
  req: SearchRequest;
  parsed: ParsedSearch;
  opts: ExecuteOptions;
  targets: ShardTarget[];
  query: QueryPhaseOutcome<QueryResult>;
  skipped: number;
  reduced: ReducedHits;
  hits: Record<string, unknown>[];
  /** Renders the hits of `top_hits` aggregations (the local fetch by default). */
  topHitsFetch?: (hits: CollectedHit[], o: TopHitsOptions) => unknown[];
}

/** The search response body (ES SearchResponse): took, _shards, hits, aggregations, suggest. */
export function buildSearchResponse(p: ResponseParts): Record<string, unknown> {
  const { plan, req, parsed, opts, targets, query, reduced } = p;
  const { results, failures, unavailable } = query;
  let maxScore = reduced.maxScore;
  // EmptyTopDocsCollectorContext: with size 0 every shard reports TopDocs(total, [], 0)
  if (plan.size === 0 && results.length > 0) maxScore = 0;
  const body: Record<string, unknown> = {
    took: Date.now() - plan.t0,
    // ES SearchPhaseController.reducedQueryPhase: any shard that timed out
    timed_out: results.some((r) => r.timedOut),
  };
  if (req.terminateAfter > 0) body.terminated_early = reduced.terminated;
  const reducePhases = numReducePhases(req, opts, targets.length, results.length);
  if (reducePhases !== 1) body.num_reduce_phases = reducePhases;
  body._shards = {
    total: targets.length,
    // After the fetch phase, whose failures count too.
    successful: targets.length - failures.length - unavailable,
    skipped: p.skipped,
    failed: failures.length,
    ...(failures.length ? { failures: failures.map(failureJson) } : {}),
  };
  body.hits = {
    total: req.trackTotalHits ? reduced.total : -1,
    max_score: Number.isNaN(maxScore) ? null : maxScore,
    hits: p.hits,
  };
  if (parsed.aggs) {
    // top_hits hits name their shard, not a position in some request's shard list (a cached
    // shard result may come from a request that listed the shards differently)
    const byShard = new Map<object, ShardTarget>(targets.map((t) => [t.shard, t]));
    const targetOf = (h: CollectedHit) => byShard.get((h as AggHit).origin!)!;
    const localFetch = (hits: CollectedHit[], o: TopHitsOptions): unknown[] => {
      // hits of shards on other nodes come rendered (ES InternalTopHits carries full hits)
      if (!hits.some(isRenderedAggHit)) return fetchTopHits(hits, o, targetOf, plan, parsed, opts);
      const local = hits.filter((h) => !isRenderedAggHit(h));
      const rendered = fetchTopHits(local, o, targetOf, plan, parsed, opts);
      let i = 0;
      return hits.map((h) => (isRenderedAggHit(h) ? h.rendered : rendered[i++]));
    };
    body.aggregations = reduceAggregations(
      parsed.aggs,
      results.map((r) => r.aggs!).filter((a) => a),
      {
        typedKeys: opts.typedKeys,
        maxBuckets: opts.limits.maxBuckets,
        ...(opts.limits.breaker ? { breaker: opts.limits.breaker } : {}),
        warnings: plan.warnings,
        shardOrder: (origin) => (origin ? byShard.get(origin)!.shardIndex : 0),
        fetchHits: p.topHitsFetch ?? localFetch,
        ...(opts.scriptMethods ? { scriptMethods: opts.scriptMethods } : {}),
      },
    );
  }
  if (parsed.suggest) {
    const nodes = parsed.suggest;
    body.suggest = reduceSuggest(
      nodes,
      results.map((r) => r.suggest ?? suggestShard(nodes, r.target, plan.qctx(r.target.idx))),
      opts.typedKeys,
    );
  }
  if (req.profile) {
    // ES SearchProfileShardResults: the shards whose query phase answered
    body.profile = {
      shards: results.map(
        (r) =>
        profileShard(r.nodeId ?? opts.nodeId, r.target.idx.name, r.target.shard.id, toSearchQuery(parsed.query, plan.qctx(r.target.idx))), // prettier-ignore
      ),
    };
  }
  return body;
}

/** The hits of a `top_hits` aggregation rendered from their shards (`targetOf`) on this node. */
export function fetchTopHits(
  hits: CollectedHit[],
  o: TopHitsOptions,
  targetOf: (h: CollectedHit) => ShardTarget,
  plan: SearchPlan,
  parsed: ParsedSearch,
  opts: ExecuteOptions,
): unknown[] {
  return fetchHits(
    hits.map((h) => ({ ...h, target: targetOf(h) })),
    topHitsFetchOptions(
      o,
      parsed.query,
      plan.qctx,
      (t) => plan.globalStats ?? shardStats(t.snapshot),
      opts,
      plan.warnings,
    ),
    plan.warnings,
  );
}

/**
 * The search on this node's shards: can_match, query phase, reduce, fetch, collapse expansion
 * and the response, one after the other.
 */
export function executeSearch(
  indices: IndexService[],
  req: SearchRequest,
  parsed: ParsedSearch,
  opts: ExecuteOptions,
): SearchOutcome {
  const targets = shardTargets(indices, opts.shardFilter, req.stats);
  const warnings: string[] = [];
  const plan = planSearch(targets, req, opts, warnings);
  const skipped = preFilter(targets, req, parsed, plan.qctx, opts);
  // The only shard to run returns the page itself: its ranks before `from` need no hit objects.
  let running = 0;
  for (const t of targets) if (!t.idx.failed && !skipped.has(t)) running++;
  const skipHits =
    running === 1 && !opts.keepAllHits && !req.collapse && req.rescore.length === 0 ? plan.from : 0;
  const query = runQueryPhase(targets, req, parsed, opts, plan, skipped, skipHits);
  checkQueryPhase(targets.length, query, plan.allowPartial);
  const reduced = reduceHits(query.results, req, plan, opts);
  const fetchOpts = searchFetchOptions(
    req,
    parsed,
    reduced.keys,
    plan.qctx,
    plan.globalStats,
    opts,
    warnings,
    query.results,
  );
  const hits = fetchPerShard(reduced.page, fetchOpts, warnings, query.failures, opts.nodeId);
  checkFetchPhase(targets.length, query.failures, plan.allowPartial);
  if (req.collapse && req.collapse.innerHits.length > 0 && hits.length > 0)
    expandCollapsed(indices, req, hits, opts, warnings);
  const body = buildSearchResponse({
    plan,
    req,
    parsed,
    opts,
    targets,
    query,
    skipped: skipped.size,
    reduced,
    hits,
  });
  const out: SearchOutcome = { body, warnings, sortKeys: reduced.keys, fetch: fetchOpts };
  if (opts.keepAllHits) out.allHits = reduced.merged!;
  return out;
}

/**
 * FetchSearchPhase: each shard fetches its own hits; a shard whose fetch fails is reported in
 * `_shards.failures` and its hits are left out of the response.
 */
export function fetchPerShard(
  page: MergedHit[],
  o: FetchOptions,
  warnings: string[],
  failures: ShardFailure[],
  nodeId: string,
): Record<string, unknown>[] {
  const fetchShard = (t: ShardTarget, hs: MergedHit[]): Record<string, unknown>[] | null => {
    try {
      return fetchHits(hs, o, warnings);
    } catch (e) {
      failures.push({ shard: t.shard.id, index: t.idx.name, node: nodeId, error: toEsError(e) });
      return null;
    }
  };
  // one shard's page (a one-shard index, or hits all from one shard): fetched as it is
  let oneShard = true;
  for (let i = 1; i < page.length && oneShard; i++) oneShard = page[i]!.target === page[0]!.target;
  if (oneShard) return page.length === 0 ? [] : (fetchShard(page[0]!.target, page) ?? []);
  const byShard = new Map<ShardTarget, number[]>();
  for (let i = 0; i < page.length; i++) {
    const l = byShard.get(page[i]!.target);
    if (l) l.push(i);
    else byShard.set(page[i]!.target, [i]);
  }
  // hits in page order; those of a shard whose fetch failed are left out
  const fetched: (Record<string, unknown> | undefined)[] = new Array(page.length);
  for (const [t, at] of byShard) {
    const out = fetchShard(
      t,
      at.map((i) => page[i]!),
    );
    if (out) at.forEach((i, j) => (fetched[i] = out[j]));
  }
  return fetched.filter((h) => h !== undefined);
}

/** CanMatchPreFilterSearchPhase: the shards to skip (never all of them). */
export function preFilter(
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
  const subOpts = groupSearchOptions(opts);
  for (const g of groupSearches(req, hits)) {
    let out: SearchOutcome;
    try {
      out = executeSearch(indices, g.sub, parseSearch(g.sub), subOpts);
    } catch (e) {
      throw expandFailure(e);
    }
    warnings.push(...out.warnings);
    setGroupHits(g, out);
  }
}

/** One inner search of ExpandSearchPhase: a collapsed hit's group under one inner_hits. */
export interface GroupSearch {
  readonly hit: Record<string, unknown>;
  readonly name: string;
  readonly sub: SearchRequest;
}

/** The inner searches of the collapsed `hits`, hit by hit, each hit's definitions in order. */
export function groupSearches(req: SearchRequest, hits: Record<string, unknown>[]): GroupSearch[] {
  const spec = req.collapse!;
  const out: GroupSearch[] = [];
  for (const hit of hits) {
    const vals = (hit.fields as Record<string, unknown[]> | undefined)?.[spec.field];
    const value = vals && vals.length > 0 ? vals[0] : null;
    for (const ih of spec.innerHits) {
      const sub = parseSearchBody(groupSearchBody(spec, ih, value, req.query, req.postFilter));
      sub.sort = ih.sort;
      if (ih.source !== undefined) {
        sub.source = ih.source;
        sub.sourceGiven = true;
      }
      sub.storedFields = ih.storedFields;
      sub.docvalueFields = ih.docvalueFields ?? [];
      out.push({ hit, name: ih.name ?? spec.field, sub });
    }
  }
  return out;
}

/** The options of the inner searches: no request cache, no scroll, one page. */
export function groupSearchOptions(opts: ExecuteOptions): ExecuteOptions {
  const { shardRunner: _cachedOnlyAtTop, ...subOpts } = opts;
  return { ...subOpts, keepAllHits: false, scroll: false };
}

/** An inner search's failure as ES reports it: the whole search fails in phase `expand`. */
export function expandFailure(e: unknown): EsError {
  const err = toEsError(e);
  return new EsError('search_phase_execution_exception', 'failed to expand hits', err.status, {
    meta: { phase: 'expand', grouped: true, failed_shards: [] },
    causedBy: err,
  });
}

/** Puts an inner search's hits on its collapsed hit, under the inner_hits' name. */
export function setGroupHits(g: GroupSearch, out: SearchOutcome): void {
  const inner = (g.hit.inner_hits ??= {}) as Record<string, unknown>;
  inner[g.name] = { hits: out.body.hits };
}

export function searchError(e: unknown): EsError {
  return toEsError(e);
}
