/**
 * The query phase on one shard (ES SearchService.parseSource + DefaultSearchContext.preProcess +
 * QueryPhase + RescorePhase): the request checks ES makes per shard, the shard query (with
 * indices_boost and the slice filter), top docs or top collapse groups, aggregations and
 * rescoring of the top window.
 */
import type { ShardSuggest } from './suggest.js';
import { EsError, illegalArgument } from '../../common/errors.js';
import { getInt } from '../../engine/index-settings.js';
import { indexAnalyzer } from '../../engine/analyzers.js';
import type { FieldMapping } from '../../mapping/types.js';
import {
  collectTopDocs,
  type CollectOptions,
  type CollectedHit,
  type ShardTopDocs,
} from '../../search/collect/top-docs.js';
import { sortsLikeIndex, type SortKey, type SortValue } from '../../search/collect/sort.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { boolQuery, type Query } from '../../search/query/query.js';
import { shardStats, type SearchStats } from '../../search/query/stats.js';
import { createWeight, type Weight, type WeightContext } from '../../search/query/weights.js';
import { formatTimeValue } from '../../common/units.js';
import { isTimeExceeded, type Deadline } from '../../search/deadline.js';
import {
  parseQuery,
  resolveErrorLocations,
  toSearchQuery,
  type IndexQueryContext,
  type QueryNode,
} from '../query/index.js';
import { lowerAliasFilter, withFilters } from './alias-filter.js';
import { createShardAggregator, type ShardAggResult } from '../aggs/index.js';
import { collapseReader } from './collapse.js';
import { fastTopDocs } from './fast-collect.js';
import { parallelCountAndAggs } from './parallel-aggs.js';
import type { ExecuteOptions, ParsedSearch, ShardTarget } from './execute.js';
import { DEFAULT_WINDOW_SIZE, rescoreShardHits } from './rescore.js';
import type { SearchRequest } from './request.js';
import { sliceFilter } from './slice.js';
import { resolveSort } from './sort-keys.js';
import { nestedSortKey } from './nested-sort.js';
import type { SortSpec } from './request-values.js';
import { loadTextFielddata } from './text-fielddata.js';
import { lookupField } from '../../mapping/mapping-service.js';
import { compileScript, parseScriptSpec } from '../script/index.js';

export interface ShardResult {
  target: ShardTarget;
  top: ShardTopDocs;
  aggs: ShardAggResult | null;
  sortKeys: SortKey[] | null;
  /** Rank of top.hits[0] in the shard's order (earlier ranks left out when skipHits allowed). */
  hitsFrom: number;
  /** The search timeout passed before the shard finished collecting (ES searchTimedOut). */
  timedOut: boolean;
  /** The shard's query (boosted, sliced) and its rescore queries, for explanations. */
  weight: Weight;
  rescoreWeights: Weight[];
  /** The node whose copy answered (a cluster's remote shard); absent: this node. */
  nodeId?: string;
  /** The shard's suggestions (its suggest phase ran with its query phase). */
  suggest?: ShardSuggest;
}

export interface ShardPhaseInput {
  req: SearchRequest;
  parsed: ParsedSearch;
  qctx: IndexQueryContext;
  globalStats: SearchStats | null;
  /** Sort specs, null when sorting by score only. */
  sortSpecs: SearchRequest['sort'];
  scoreOnlySort: boolean;
  numHits: number;
  /** Leading ranks the coordinator will not read (the only shard of a page from `from`). */
  skipHits: number;
  opts: ExecuteOptions;
  warnings: string[];
  /** The request's search timeout, null without one. */
  deadline: Deadline | null;
  /** The shard's alias filter (alias-filter.ts), null without one. */
  aliasFilter: QueryNode | null;
}

const searchContextError = (reason: string) => new EsError('search_context_exception', reason, 500);
const queryPhaseError = (reason: string) =>
  new EsError('query_phase_execution_exception', reason, 500);

/** The checks SearchService.createContext/parseSource and DefaultSearchContext.preProcess make. */
function shardChecks(t: ShardTarget, p: ShardPhaseInput, rescoring: boolean): void {
  const { req, opts } = p;
  const s = t.idx.meta.settings;
  if (opts.scroll && opts.scrollKeepAliveMs !== undefined && opts.maxKeepAliveMs !== undefined) {
    if (opts.scrollKeepAliveMs > opts.maxKeepAliveMs) {
      throw queryPhaseError(
        `Keep alive for scroll (${formatTimeValue(opts.scrollKeepAliveMs)}) is too large. It must be less than (${formatTimeValue(opts.maxKeepAliveMs)}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`,
      );
    }
  }
  if (req.docvalueFields.length > 0) {
    const max = getInt(s, 'index.max_docvalue_fields_search', 100);
    let n = 0;
    for (const d of req.docvalueFields)
      n += d.field.includes('*') ? p.qctx.expandFields(d.field).length : 1;
    if (n > max)
      throw illegalArgument(
        `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${max}] but was [${n}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.`,
      );
  }
  if (req.scriptFields.length > 0 && req.size !== 0) {
    const max = getInt(s, 'index.max_script_fields', 32);
    if (req.scriptFields.length > max)
      throw illegalArgument(
        `Trying to retrieve too many script_fields. Must be less than or equal to: [${max}] but was [${req.scriptFields.length}]. This limit can be set by changing the [index.max_script_fields] index level setting.`,
      );
    // SearchService.parseSource compiles every script field, so a bad script fails each shard
    // (not only the shards that fetch hits).
    for (const f of req.scriptFields) {
      const spec = parseScriptSpec(f.script);
      compileScript(spec.source, {
        lang: spec.lang,
        ...(opts.scriptMethods ? { methods: opts.scriptMethods } : {}),
      });
    }
  }
  if (req.searchAfter && req.searchAfter.length > 0) {
    if (opts.scroll) throw searchContextError('`search_after` cannot be used in a scroll context.');
    if (req.from > 0)
      throw searchContextError('`from` parameter must be set to 0 when `search_after` is used.');
  }
  if (req.slice && !opts.scroll)
    throw searchContextError('`slice` cannot be used outside of a scroll context');
  if (req.storedFields?.length === 1 && req.storedFields[0] === '_none_') {
    if (req.version)
      throw searchContextError('`stored_fields` cannot be disabled if version is requested');
    if (req.sourceGiven && req.source !== null)
      throw searchContextError('`stored_fields` cannot be disabled if _source is requested');
  }
  // preProcess
  const from = req.from < 0 ? 0 : req.from;
  const size = req.size < 0 ? 10 : req.size;
  const maxWindow = getInt(s, 'index.max_result_window', 10000);
  if (from + size > maxWindow && (opts.scroll || !opts.keepAllHits)) {
    if (!opts.scroll)
      throw queryPhaseError(
        `Result window is too large, from + size must be less than or equal to: [${maxWindow}] but was [${from + size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
      );
    throw queryPhaseError(
      `Batch size is too large, size must be less than or equal to: [${maxWindow}] but was [${from + size}]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting.`,
    );
  }
  if (rescoring) {
    if (p.sortSpecs && !p.scoreOnlySort)
      throw queryPhaseError('Cannot use [sort] option in conjunction with [rescore].');
    const maxRescore = getInt(s, 'index.max_rescore_window', maxWindow);
    for (const r of req.rescore) {
      const w = r.windowSize ?? DEFAULT_WINDOW_SIZE;
      if (w > maxRescore)
        throw queryPhaseError(
          `Rescore window [${w}] is too large. It must be less than [${maxRescore}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.`,
        );
    }
  }
}

/**
 * ES DefaultSearchContext.preProcess: the query, boosted for indices_boost, and the filters
 * buildFilteredQuery adds to it (the alias filter, then the slice's), which `global`
 * aggregations also apply (AggregationPhase: buildFilteredQuery of match_all).
 */
function shardQuery(
  t: ShardTarget,
  p: ShardPhaseInput,
  boost: number,
): { query: Query; filters: Query[] } {
  let q = toSearchQuery(p.parsed.query, p.qctx);
  if (boost !== 1) {
    // FunctionScoreQuery(query, WeightFactorFunction(boost))
    q = {
      kind: 'FunctionScore',
      inner: q,
      functions: [{ filter: null, weight: boost, factory: null, describe: 'weight' }],
      scoreMode: 'first',
      boostMode: 'multiply',
      maxBoost: 3.4028234663852886e38,
      minScore: null,
      boost: 1,
    };
  }
  const filters: Query[] = [];
  const alias = lowerAliasFilter(p.aliasFilter, p.qctx);
  if (alias) filters.push(alias);
  if (p.req.slice) {
    const filter = sliceFilter(p.req.slice, {
      shardId: t.shard.id,
      numShards: t.idx.numberOfShards,
      maxSlices: getInt(t.idx.meta.settings, 'index.max_slices_per_scroll', 1024),
      field: (path) => p.qctx.field(path),
    });
    if (filter) filters.push(filter);
  }
  return { query: withFilters(q, filters), filters };
}

/** Field sorts with a `nested` path read the nested documents (nested-sort.ts). */
function withNestedSorts(
  keys: SortKey[],
  specs: readonly SortSpec[],
  qctx: IndexQueryContext,
  ctx: WeightContext,
): SortKey[] {
  return keys.map((k, i) => {
    const s = specs[i];
    if (!s || !s.nestedPath || k.kind !== 'field') return k;
    const filter =
      s.nestedFilter !== undefined ? toSearchQuery(parseQuery(s.nestedFilter), qctx) : null;
    return nestedSortKey(k, s.nestedPath, filter, ctx);
  });
}

export function runShard(t: ShardTarget, p: ShardPhaseInput): ShardResult {
  const { req, parsed, qctx, opts, warnings } = p;
  // TopDocsCollectorContext: no rescoring in scrolls or without hits to return
  const rescoring = req.rescore.length > 0 && !opts.scroll;
  const rescoreHits = rescoring && req.size !== 0;
  shardChecks(t, p, rescoring);
  const stats = p.globalStats ?? shardStats(t.snapshot);
  const groupBy = req.collapse
    ? collapseReader(req.collapse, t.idx, {
        scroll: opts.scroll === true,
        searchAfter: req.searchAfter !== null && req.searchAfter.length > 0,
        rescore: req.rescore.length > 0,
      })
    : undefined;
  const sortKeys = p.sortSpecs
    ? withNestedSorts(
        resolveSort(p.sortSpecs, t.idx, warnings, opts.scriptMethods),
        p.sortSpecs,
        qctx,
        {
          stats,
          needsScores: false,
        },
      )
    : null;
  // sorting on a text field loads its fielddata (ES uninverts it on first use)
  for (const k of sortKeys ?? []) {
    if (k.kind !== 'field' || !t.idx.mapping) continue;
    if (lookupField(t.idx.mapping, k.field)?.type === 'text')
      loadTextFielddata(t.snapshot, k.field, t.shard.counters);
  }
  const sortNeedsScore =
    !sortKeys || p.scoreOnlySort || sortKeys.some((k) => k.kind === 'score' || k.needsScore);
  const needsScores =
    sortNeedsScore || req.trackScores || req.minScore !== null || req.explain || rescoring;
  const dl = p.deadline;
  const checksBefore = dl?.failedChecks ?? 0;
  const shardQ = shardQuery(t, p, opts.indexBoosts?.get(t.idx) ?? 1);
  const {
    query: q,
    weight,
    post,
  } = shardWeights(
    shardQ.query,
    parsed.postFilter ? toSearchQuery(parsed.postFilter, qctx) : null,
    stats,
    needsScores,
    dl,
    t.snapshot.segments,
  );
  const globalFilter =
    parsed.aggs && shardQ.filters.length > 0
      ? createWeight(boolQuery({ filter: shardQ.filters }), { stats, needsScores: false, segments: t.snapshot.segments }) // prettier-ignore
      : null;
  const agg = parsed.aggs
    ? createShardAggregator(parsed.aggs, {
        snapshot: t.snapshot,
        field: (path) => qctx.field(path),
        compileQuery: (json) => {
          try {
            return createWeight(toSearchQuery(parseQuery(json), qctx), {
              stats,
              needsScores: false,
              segments: t.snapshot.segments,
            });
          } catch (e) {
            // The aggregation's query has no place in the request text here: never leave a
            // location marker in the reason.
            throw e instanceof EsError ? resolveErrorLocations(e, () => null) : e;
          }
        },
        objectMapping: (path: string) => t.idx.mapping?.objectsByPath.get(path),
        joinField: () => qctx.joinField,
        now: opts.now,
        maxBuckets: opts.limits.maxBuckets,
        ...(opts.limits.breaker ? { breaker: opts.limits.breaker } : {}),
        warnings,
        origin: t.shard,
        counters: t.shard.counters,
        sourceOf: (ls: LiveSegment, doc: number) => {
          const rec = t.shard.read(ls.segment.ids[doc]!);
          return rec && rec.source.length > 0 ? JSON.parse(rec.source.toString('utf8')) : null;
        },
        indexAnalyzer: (f: FieldMapping) => indexAnalyzer(t.idx, f),
        deadline: dl,
        ...(globalFilter ? { globalFilter } : {}),
        index: t.idx.name,
        typeName: t.idx.typeName ?? '_doc',
        ...(opts.scriptMethods ? { scriptMethods: opts.scriptMethods } : {}),
      })
    : null;
  let numHits = p.numHits;
  if (rescoreHits)
    for (const r of req.rescore) numHits = Math.max(numHits, r.windowSize ?? DEFAULT_WINDOW_SIZE);
  const collect: CollectOptions = {
    numHits,
    sort: sortKeys && !p.scoreOnlySort ? sortKeys : null,
    trackScores: req.trackScores || p.scoreOnlySort,
    needsScores,
    minScore: req.minScore,
    postFilter: post,
    searchAfter: req.searchAfter ? (req.searchAfter as SortValue[]) : null,
    terminateAfter: req.terminateAfter,
    deadline: dl,
    earlyTerminate:
      !req.trackTotalHits &&
      !!sortKeys &&
      !p.scoreOnlySort &&
      sortsLikeIndex(sortKeys, t.shard.search?.indexSort ?? null),
    ...(groupBy ? { groupBy } : {}),
    ...(agg
      ? {
          onSegment: (ls: LiveSegment, si: number) => agg.onSegment(ls, si),
          onMatch: (_ls: LiveSegment, _si: number, d: number, scorer: { score(): number }) =>
            agg.collect(d, needsScores ? scorer.score() : NaN),
        }
      : {}),
  };
  // Shapes with a dedicated collector (size 0, presorted paging): see fast-collect.ts
  // Large size-0 aggregation searches: the search workers take slices (parallel-aggs.ts)
  const par =
    agg && numHits === 0 && !post && req.minScore === null && req.terminateAfter <= 0
      ? parallelCountAndAggs(t.snapshot, q, agg, dl)
      : null;
  const fast = par
    ? { ...par, hitsFrom: 0 }
    : fastTopDocs(t.snapshot, q, weight, agg, collect, p.skipHits);
  const top = fast ?? collectTopDocs(t.snapshot, weight, collect);
  const hitsFrom = fast ? fast.hitsFrom : 0;
  let rescoreWeights: Weight[] = [];
  if (rescoreHits && top.hits.length > 0) {
    rescoreWeights = parsed.rescoreQueries.map(
      (rq) =>
      createWeight(toSearchQuery(rq, qctx), { stats, needsScores: true, segments: t.snapshot.segments }), // prettier-ignore
    );
    const r = rescoreShardHits(
      top.hits,
      req.rescore.map((spec, i) => ({ spec, weight: rescoreWeights[i]! })),
    );
    for (const h of r.hits)
      (h as CollectedHit & { rescored?: boolean[] }).rescored = r.rescored.map((s) =>
        s.has(h.globalDoc),
      );
    top.hits = r.hits;
  }
  if (p.scoreOnlySort && sortKeys) for (const h of top.hits) h.sort = [h.score];
  const aggs = agg ? agg.finish() : null;
  return {
    target: t,
    top,
    aggs,
    sortKeys,
    hitsFrom,
    timedOut: dl !== null && dl.failedChecks > checksBefore,
    weight,
    rescoreWeights,
  };
}

/**
 * The shard's query and post_filter weights. Multi-term queries expand here under the deadline;
 * when it passes, the shard collects nothing (a weight matching no doc) and reports the timeout
 * (ES 7 ExitableDirectoryReader; ES 6.8 does not check the timeout before collecting).
 */
function shardWeights(
  q: Query,
  postFilter: Query | null,
  stats: SearchStats,
  needsScores: boolean,
  deadline: Deadline | null,
  segments: readonly LiveSegment[],
): { query: Query; weight: Weight; post: Weight | null } {
  try {
    return {
      query: q,
      weight: createWeight(q, { stats, needsScores, deadline, segments }),
      post: postFilter
        ? createWeight(postFilter, { stats, needsScores: false, deadline, segments })
        : null,
    };
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
    const query: Query = { kind: 'MatchNone' };
    const none = createWeight(query, { stats, needsScores });
    return { query, weight: none, post: postFilter ? none : null };
  }
}
