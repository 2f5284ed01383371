/**
 * SQL's door into search (ES Querier's `client.search`): the `_search` body translation produced
 * goes through the same request parser and the one DSL executor `POST /_search` uses, over the
 * concrete indices resolved for the query; non-aggregation queries page through a scroll context
 * exactly like `_search?scroll`. The 7.x-only spellings translation emits (`track_total_hits` as
 * a count, `calendar_interval`/`fixed_interval`) are mapped to what the 6.8 executor reads.
 */
import { isPlainIndexName, LENIENT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { IndicesService } from '../../engine/indices-service.js';
import type { IndexService } from '../../engine/index-service.js';
import {
  executeSearch,
  parseSearch,
  type ExecuteOptions,
  type MergedHit,
  type ParsedSearch,
  type SearchOutcome,
} from '../../dsl/search/execute.js';
import { parseSearchBody, type SearchRequest } from '../../dsl/search/request.js';
import type { AliasFilters } from '../../dsl/search/alias-filter.js';
import { fetchHits, type FetchOptions } from '../../dsl/search/fetch.js';
import { indexQueryContext, type RequestLimits } from '../../dsl/search/index-context.js';
import { pinScrollViews, type ScrollService } from '../../dsl/search/scroll.js';
import { shardStats } from '../../search/query/stats.js';
import type { Clock } from '../../search/deadline.js';
import { ScriptDouble, sqlScriptMethods } from './script-bridge.js';
import { doubleParamNames } from '../translate/script.js';

/** What SQL execution needs from the node. */
export interface SqlNode {
  readonly indices: Pick<IndicesService, 'get' | 'resolve' | 'all' | 'aliasFilters'>;
  /** Where its searches run (localSqlSearch on a lone node). */
  readonly searches: SqlSearchBackend;
  readonly nodeId: string;
  readonly clusterName: string;
  readonly scriptMethods?: Record<string, (...a: unknown[]) => unknown>;
  limits(): RequestLimits;
  /** The clock of search timeouts (deadline.ts); performance.now when absent. */
  readonly clock?: Clock;
  /** Epoch millis of NOW() / CURRENT_DATE (Date.now when absent; a test pins it). */
  readonly wallClock?: () => number;
  /** `sql.join.max_rows`: rows past which a JOIN input is refused (100,000 when absent). */
  readonly joinMaxRows?: number;
}

export interface SearchResult {
  readonly body: Record<string, unknown>;
  /** Set when a scroll context was opened for the remaining hits. */
  readonly scrollId: string | null;
}

/** The concrete indices of a pattern (lenient: unknown names resolve to nothing). */
export function resolveIndices(
  node: SqlNode,
  pattern: string,
  includeFrozen = false,
): IndexService[] {
  // one index by its name (most statements, resolved a few times each): what the lenient
  // resolution below gives it, without matching the name against every index and alias
  if (isPlainIndexName(pattern)) {
    const idx = node.indices.get(pattern);
    if (idx !== undefined) return idx.searchThrottled && !includeFrozen ? [] : [idx];
  }
  // IndexResolver: frozen (search-throttled) indices only when asked for
  return node.indices.resolve(pattern, { ...LENIENT_EXPAND_OPEN, ignoreThrottled: !includeFrozen });
}

/** Rewrites one JSON value of the body (see executableBody); `inAggs` under `aggregations`. */
function adapt(v: unknown, inAggs: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => adapt(x, inAggs));
  if (v === null || typeof v !== 'object') return v;
  const doubles = doubleParamNames(v);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (doubles?.has(k)) out[k] = new ScriptDouble(x as number);
    else if (inAggs && (k === 'calendar_interval' || k === 'fixed_interval')) out.interval = x;
    else if (k === 'time_zone' && x === 'Z') out[k] = 'UTC';
    else if (inAggs && k === 'top_hits' && x !== null && typeof x === 'object')
      out[k] = adapt(adaptTopHits(x), inAggs);
    else out[k] = adapt(x, inAggs || k === 'aggregations' || k === 'aggs');
  }
  return out;
}

/**
 * top_hits' `docvalue_fields` as plain names: the 6.8 executor reads only the string form there;
 * dates then come back as epoch millis, which is what `format: epoch_millis` asks for anyway.
 */
function adaptTopHits(th: object): object {
  const dv = (th as { docvalue_fields?: unknown }).docvalue_fields;
  if (!Array.isArray(dv)) return th;
  const names = dv.map((d) =>
    d !== null && typeof d === 'object' ? String((d as { field?: unknown }).field) : d,
  );
  return { ...th, docvalue_fields: names };
}

/**
 * 7.10 request spellings -> what the 6.8 executor reads: `track_total_hits` as a count,
 * `calendar_interval`/`fixed_interval`, java.time's UTC id `Z`, top_hits' docvalue_fields
 * objects; script params that are integral Doubles become ScriptDouble (see doubleParamNames).
 */
export function executableBody(body: Record<string, unknown>): Record<string, unknown> {
  const out = adapt(body, false) as Record<string, unknown>;
  if (typeof out.track_total_hits === 'number') out.track_total_hits = true;
  return out;
}

/** Where SQL's searches run: this node's shards, or query-then-fetch across a cluster. */
export interface SqlSearchBackend {
  search(
    indices: readonly IndexService[],
    sreq: SearchRequest,
    parsed: ParsedSearch,
    opts: ExecuteOptions,
  ): Promise<SearchOutcome>;
  /** The first page of `size` hits, the rest kept in a scroll context (null when none remain). */
  openScroll(
    indices: readonly IndexService[],
    sreq: SearchRequest,
    parsed: ParsedSearch,
    opts: ExecuteOptions,
    size: number,
    keepAliveMs: number,
  ): Promise<SearchResult>;
  /** The next page of a scroll (ES `_search/scroll`): hits and whether more remain. */
  scrollNext(
    scrollId: string,
    keepAliveMs: number,
  ): Promise<{ hits: Record<string, unknown>[]; done: boolean }>;
  clearScroll(scrollId: string): Promise<boolean>;
}

/** The lone node's backend: the DSL executor over its shards, scrolls in its scroll service. */
export function localSqlSearch(nodeId: string, scrolls: ScrollService): SqlSearchBackend {
  return {
    search: async (indices, sreq, parsed, opts) => executeSearch([...indices], sreq, parsed, opts),
    async openScroll(indices, sreq, parsed, opts, size, keepAliveMs) {
      const out = executeSearch([...indices], { ...sreq, size }, parsed, {
        ...opts,
        keepAllHits: true,
      });
      const all = out.allHits ?? [];
      if (all.length <= size) return { body: out.body, scrollId: null };
      const fetch: FetchOptions = {
        source: sreq.source,
        storedFields: sreq.storedFields,
        docvalueFields: sreq.docvalueFields,
        version: false,
        seqNoPrimaryTerm: false,
        explain: false,
        highlight: null,
        sortKeys: out.sortKeys ?? null,
        nodeId,
        parsedQuery: parsed.query,
        queryContext: (idx: IndexService) => indexQueryContext(idx, opts.now, opts.limits),
        stats: (t) => shardStats(t.snapshot),
        // the nested queries' inner hits (SQL reads nested fields from them) on every page
        ...(out.fetch?.innerHits ? { innerHits: out.fetch.innerHits } : {}),
      };
      const hitsObj = out.body.hits as { total: number; max_score: number | null };
      const ctx = scrolls.open<MergedHit, FetchOptions>({
        hits: all,
        pos: size,
        size,
        total: hitsObj.total,
        maxScore: hitsObj.max_score,
        shards: (out.body._shards as { total: number }).total,
        fetch,
        keepAliveMs,
        release: pinScrollViews(all),
      });
      return { body: out.body, scrollId: ctx.id };
    },
    async scrollNext(scrollId, keepAliveMs) {
      const ctx = scrolls.get<MergedHit, FetchOptions>(scrollId, keepAliveMs);
      const page = ctx.hits.slice(ctx.pos, ctx.pos + ctx.size);
      ctx.pos += page.length;
      const hits = fetchHits(page, ctx.fetch, []);
      return { hits, done: ctx.pos >= ctx.hits.length };
    },
    clearScroll: async (scrollId) => scrolls.clear([scrollId]).freed > 0,
  };
}

/** A body's search request and its parsed query and aggregations, built once per body object. */
const parsedBodies = new WeakMap<object, { request: SearchRequest; parsed: ParsedSearch }>();

/**
 * The parsed form of a body. Both parses are pure functions of the body and the executor only
 * reads them, so a body object run again (a cached plan's first request, see query-runner.ts)
 * is parsed once; bodies are never changed once built.
 */
function parsedRequest(body: Record<string, unknown>): {
  request: SearchRequest;
  parsed: ParsedSearch;
} {
  const kept = parsedBodies.get(body);
  if (kept !== undefined) return kept;
  const request = parseSearchBody(executableBody(body));
  // ES SQL builds its query and aggregation objects: no parser bounds their nesting
  const parsed = parseSearch(request, undefined, { maxQueryDepth: Infinity, maxAggDepth: Infinity }); // prettier-ignore
  const made = { request, parsed };
  parsedBodies.set(body, made);
  return made;
}

/**
 * Runs one search. With `scrollSize`, the first page is returned and the rest kept in a scroll
 * context (ES scroll with `keep_alive`). With `timeoutMs`, the search has that timeout and no
 * partial results (ES 7.10 Querier.prepareRequest: the aggregation searches, as the others are
 * scrolls, which have no timeout; a shard that times out fails the search).
 */
export async function search(
  node: SqlNode,
  indices: readonly IndexService[],
  body: Record<string, unknown>,
  opts: {
    scrollSize?: number;
    keepAliveMs?: number;
    timeoutMs?: number;
    aliasFilters?: AliasFilters;
  } = {},
): Promise<SearchResult> {
  const { request, parsed } = parsedRequest(body);
  const sreq =
    opts.timeoutMs !== undefined ? { ...request, timeoutMs: Math.trunc(opts.timeoutMs) } : request;
  const execOpts: ExecuteOptions = {
    searchType: 'query_then_fetch' as const,
    typedKeys: false,
    now: Date.now(),
    limits: node.limits(),
    nodeId: node.nodeId,
    ...(node.scriptMethods
      ? { scriptMethods: sqlScriptMethods(node.scriptMethods), scriptDialect: 'sql' as const }
      : {}),
    ...(opts.timeoutMs !== undefined ? { allowPartialSearchResults: false } : {}),
    ...(node.clock ? { clock: node.clock } : {}),
    ...(opts.aliasFilters && opts.aliasFilters.size > 0 ? { aliasFilters: opts.aliasFilters } : {}),
  };
  if (opts.scrollSize === undefined) {
    const out = await node.searches.search(indices, sreq, parsed, execOpts);
    return { body: out.body, scrollId: null };
  }
  const keepAlive = opts.keepAliveMs ?? 45_000;
  return node.searches.openScroll(indices, sreq, parsed, execOpts, opts.scrollSize, keepAlive);
}

/** The next page of a scroll (ES `_search/scroll`): hits and whether more remain. */
export function scrollNext(
  node: SqlNode,
  scrollId: string,
  keepAliveMs: number,
): Promise<{ hits: Record<string, unknown>[]; done: boolean }> {
  return node.searches.scrollNext(scrollId, keepAliveMs);
}

export function clearScroll(node: SqlNode, scrollId: string): Promise<boolean> {
  return node.searches.clearScroll(scrollId);
}
