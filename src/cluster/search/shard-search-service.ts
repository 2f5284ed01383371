/**
 * The shard side of a search across nodes (ES SearchService + SearchTransportService handlers):
 * the query phase over the shards this node was asked for, keeping their results (the snapshots
 * the hits point into) as a search context until the coordinator fetches the page's hits, frees
 * it, or the keep alive passes; then the fetch of the hits asked for from that context.
 */
import { randomUUID } from 'node:crypto';
import { EsError, toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import { encodeShardAggs } from '../../dsl/aggs/shard-result-wire.js';
import { shardCanMatch } from '../../dsl/search/can-match.js';
import {
  fetchTopHits,
  parseSearch,
  planSearch,
  runQueryPhase,
  type ExecuteOptions,
  type MergedHit,
  type ParsedSearch,
  type SearchPlan,
  type ShardTarget,
} from '../../dsl/search/execute.js';
import { fetchHits } from '../../dsl/search/fetch.js';
import { searchFetchOptions } from '../../dsl/search/fetch-options.js';
import type { RequestLimits } from '../../dsl/search/index-context.js';
import type { ShardResult } from '../../dsl/search/query-phase.js';
import type { SearchRequest } from '../../dsl/search/request.js';
import { suggestShard } from '../../dsl/search/suggest.js';
import { termsLookupOnce } from '../../dsl/query/terms-lookup-once.js';
import {
  cachedShardRunner,
  requestCacheKey,
  type NodeRequestCache,
} from '../../dsl/search/shard-request-cache.js';
import { serializeError } from '../transport/errors.js';
import { unmarkScriptDoubles } from '../../dsl/script/script-double.js';
import type { Transport } from '../transport/transport.js';
import {
  decodeLookups,
  encodeRendered,
  encodeSuggest,
  FETCH_ACTION,
  CLEAR_SCROLLS_ACTION,
  DFS_ACTION,
  FREE_CONTEXT_ACTION,
  pack,
  QUERY_ACTION,
  SCROLL_QUERY_ACTION,
  unpack,
  type DfsReply,
  type FetchReply,
  type FetchRequest,
  type QueryReply,
  type QueryRequest,
  type ScrollQueryReply,
  type ScrollQueryRequest,
  type ShardFetchReply,
  type ShardQueryReply,
  type WireHit,
} from './wire.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import { hitOrder } from '../../dsl/search/merge-hits.js';
import { pinScrollViews } from '../../dsl/search/scroll.js';
import { shardStats } from '../../search/query/stats.js';
import {
  emptyStatsTable,
  recordStats,
  tableStats,
  type StatsTable,
} from '../../search/query/stats-table.js';
import { formatTimeValue } from '../../common/units.js';

/** What this node lends the search actions. */
export interface SearchHost {
  readonly nodeId: string;
  /** The open index of that name here. */
  index(name: string): IndexService | undefined;
  /** This node's request breaker over aggregation buckets, one per request. */
  bucketBreaker?(): RequestLimits['breaker'] | undefined;
  readonly scriptMethods?: ExecuteOptions['scriptMethods'];
  /** SQL's adaptation of them (ExecuteOptions.scriptDialect `sql`). */
  readonly sqlScriptMethods?: ExecuteOptions['scriptMethods'];
  /** This node's shard request cache, which its shards' query results go through. */
  requestCache?(): NodeRequestCache;
}

interface SearchContext {
  readonly req: SearchRequest;
  readonly parsed: ParsedSearch;
  readonly opts: ExecuteOptions;
  readonly plan: SearchPlan;
  readonly results: Map<number, ShardResult>;
  timer: NodeJS.Timeout;
  /** A scroll's context: kept across pages, each shard's hits read up to its cursor. */
  readonly scroll?: ScrollState;
}

interface ScrollState {
  readonly id: string;
  keepAliveMs: number;
  /** Per shard index: its hits in merge order, and how many the pages fetched so far. */
  readonly hits: Map<number, CollectedHit[]>;
  readonly cursors: Map<number, number>;
  readonly release: () => void;
}

/** ES `search.default_keep_alive`. */
export const DEFAULT_CONTEXT_KEEP_ALIVE_MS = 5 * 60_000;

const contextMissing = (id: string) =>
  new EsError('search_context_missing_exception', `No search context found for id [${id}]`, 404);

export interface ShardSearchService {
  /** Search contexts held now (tests, stats). */
  openContexts(): number;
  /** The actions, called directly for this node's own shards. */
  query(r: QueryRequest): QueryReply;
  dfs(r: QueryRequest): DfsReply;
  fetch(r: FetchRequest): FetchReply;
  scrollQuery(r: ScrollQueryRequest): ScrollQueryReply;
  free(contextId: string): boolean;
  /** Frees every scroll context; the ids of the scrolls they belonged to. */
  clearScrolls(): string[];
  close(): void;
}

export function registerShardSearchHandlers(
  transport: Transport,
  host: SearchHost,
  keepAliveMs = DEFAULT_CONTEXT_KEEP_ALIVE_MS,
): ShardSearchService {
  const contexts = new Map<string, SearchContext>();
  const free = (id: string): boolean => {
    const c = contexts.get(id);
    if (!c) return false;
    clearTimeout(c.timer);
    contexts.delete(id);
    c.scroll?.release();
    return true;
  };
  const expireIn = (id: string, ms: number) => {
    const timer = setTimeout(() => free(id), ms);
    timer.unref();
    return timer;
  };

  const query = (r: QueryRequest): QueryReply => {
    const reply = queryPhase(r, host);
    let contextId: string | null = null;
    if (r.scroll && reply.results.size > 0) {
      contextId = randomUUID();
      const kept = [...reply.results.values()];
      contexts.set(contextId, {
        ...reply.context,
        results: reply.results,
        timer: expireIn(contextId, r.scroll.keepAliveMs),
        scroll: {
          id: r.scroll.id,
          keepAliveMs: r.scroll.keepAliveMs,
          hits: reply.ordered,
          cursors: new Map(kept.map((x) => [x.target.shardIndex, 0])),
          // superseded versions of the hits stay readable for the scroll's life
          release: pinScrollViews(kept),
        },
      });
    } else if (r.keepContext) {
      // contexts only hold shards with hits to fetch
      for (const [i, res] of reply.results) if (res.top.hits.length === 0) reply.results.delete(i);
      if (reply.results.size > 0) {
        contextId = randomUUID();
        contexts.set(contextId, {
          ...reply.context,
          results: reply.results,
          timer: expireIn(contextId, keepAliveMs),
        });
      }
    }
    return { contextId, shards: reply.shards, warnings: reply.warnings };
  };

  const fetch = (r: FetchRequest): FetchReply => {
    const c = contexts.get(r.contextId);
    if (!c) throw contextMissing(r.contextId);
    if (!c.scroll) {
      try {
        return fetchPhase(c, r);
      } finally {
        free(r.contextId);
      }
    }
    const out = fetchPhase(c, r);
    // each shard's page is a prefix of its remaining hits: the cursor moves past the last one
    for (const s of r.shards) {
      const hits = c.scroll.hits.get(s.shardIndex);
      const from = c.scroll.cursors.get(s.shardIndex);
      if (!hits || from === undefined) continue;
      const last = new Set(s.docs);
      let cursor = from;
      for (let i = from; i < hits.length && last.size > 0; i++)
        if (last.delete(hits[i]!.globalDoc)) cursor = i + 1;
      c.scroll.cursors.set(s.shardIndex, cursor);
    }
    return out;
  };

  const scrollQuery = (r: ScrollQueryRequest): ScrollQueryReply => {
    const c = contexts.get(r.contextId);
    if (!c || !c.scroll) throw contextMissing(r.contextId);
    const sc = c.scroll;
    const results = [...c.results.values()];
    if (r.keepAliveMs !== null && r.keepAliveMs > r.maxKeepAliveMs) {
      // ES processFailure: a scroll whose query fails is freed
      free(r.contextId);
      const reason = `Keep alive for scroll (${formatTimeValue(r.keepAliveMs)}) is too large. It must be less than (${formatTimeValue(r.maxKeepAliveMs)}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`;
      const error = serializeError(new EsError('query_phase_execution_exception', reason, 500));
      return {
        sort: c.req.sort,
        size: c.plan.size,
        shards: results.map((res) => ({
          shardIndex: res.target.shardIndex,
          index: res.target.idx.name,
          shard: res.target.shard.id,
          ok: false,
          error,
        })),
      };
    }
    if (r.keepAliveMs !== null) sc.keepAliveMs = r.keepAliveMs;
    clearTimeout(c.timer);
    c.timer = expireIn(r.contextId, sc.keepAliveMs);
    return {
      sort: c.req.sort,
      size: c.plan.size,
      shards: results.map((res) => {
        const i = res.target.shardIndex;
        const from = sc.cursors.get(i) ?? 0;
        return {
          shardIndex: i,
          index: res.target.idx.name,
          shard: res.target.shard.id,
          ok: true,
          totalHits: res.top.totalHits,
          maxScore: res.top.maxScore,
          terminatedEarly: res.top.terminatedEarly,
          hits: wireHits((sc.hits.get(i) ?? []).slice(from, from + c.plan.size)),
        };
      }),
    };
  };

  const clearScrolls = (): string[] => {
    const ids: string[] = [];
    for (const [id, c] of [...contexts])
      if (c.scroll) {
        ids.push(c.scroll.id);
        free(id);
      }
    return ids;
  };

  // ES SQL's Double params were marked for the wire (script-double.ts)
  const queryRequest = (b: Buffer | undefined): QueryRequest => {
    const r = unpack<QueryRequest>(b);
    return { ...r, sreq: unmarkScriptDoubles(r.sreq) };
  };
  transport.registerHandler(QUERY_ACTION, async (rq) => {
    const out = query(queryRequest(rq.attachment));
    return { body: { contextId: out.contextId }, attachment: pack(out) };
  });
  transport.registerHandler(DFS_ACTION, async (rq) => ({
    body: {},
    attachment: pack(dfsPhase(queryRequest(rq.attachment), host)),
  }));
  transport.registerHandler(FETCH_ACTION, async (rq) => ({
    body: {},
    attachment: pack(fetch(unpack<FetchRequest>(rq.attachment))),
  }));
  transport.registerHandler(SCROLL_QUERY_ACTION, async (rq) => ({
    body: {},
    attachment: pack(scrollQuery(unpack<ScrollQueryRequest>(rq.attachment))),
  }));
  transport.registerHandler(FREE_CONTEXT_ACTION, async (rq) => {
    const { contextId } = rq.body as { contextId: string };
    return { body: { freed: free(contextId) } };
  });
  transport.registerHandler(CLEAR_SCROLLS_ACTION, async () => ({
    body: { scrolls: clearScrolls() },
  }));

  return {
    openContexts: () => contexts.size,
    query,
    dfs: (r) => dfsPhase(r, host),
    fetch,
    scrollQuery,
    free,
    clearScrolls,
    close() {
      for (const id of [...contexts.keys()]) free(id);
    },
  };
}

const wireHits = (hits: readonly CollectedHit[]): WireHit[] =>
  hits.map((h) => ({
    globalDoc: h.globalDoc,
    score: h.score,
    sort: h.sort,
    ...(h.collapseValue !== undefined ? { collapseValue: h.collapseValue } : {}),
  }));

/** What the phases of a request share on this node: its options, parsed search and shards. */
function prepareShards(r: QueryRequest, host: SearchHost) {
  const warnings: string[] = [];
  const w = r.opts;
  const byName = <T>(list: readonly (readonly [string, T])[]) => {
    const m = new Map<IndexService, T>();
    for (const [name, v] of list) {
      const idx = host.index(name);
      if (idx) m.set(idx, v);
    }
    return m;
  };
  const aliasFilters = byName(w.aliasFilters);
  const indexBoosts = byName(w.indexBoosts);
  const breaker = host.bucketBreaker?.();
  const scriptMethods = w.scriptDialect === 'sql' ? host.sqlScriptMethods : host.scriptMethods;
  const opts: ExecuteOptions = {
    searchType: w.searchType,
    typedKeys: w.typedKeys,
    now: w.now,
    limits: {
      maxClauseCount: w.maxClauseCount,
      maxBuckets: w.maxBuckets,
      ...(breaker ? { breaker } : {}),
    },
    nodeId: host.nodeId,
    ...(scriptMethods ? { scriptMethods } : {}),
    ...(w.scriptDialect ? { scriptDialect: w.scriptDialect } : {}),
    ...(w.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: w.defaultTimeoutMs } : {}),
    ...(w.allowPartialSearchResults !== undefined
      ? { allowPartialSearchResults: w.allowPartialSearchResults }
      : {}),
    ...(aliasFilters.size > 0
      ? { aliasFilters: aliasFilters as NonNullable<ExecuteOptions['aliasFilters']> }
      : {}),
    ...(indexBoosts.size > 0 ? { indexBoosts } : {}),
    ...(r.lookups ? { termsLookup: primedLookups(r.lookups) } : {}),
    ...cacheRunner(r, host),
    ...(w.scroll
      ? {
          scroll: true,
          keepAllHits: true,
          ...(w.scrollKeepAliveMs !== undefined ? { scrollKeepAliveMs: w.scrollKeepAliveMs } : {}),
          ...(w.maxKeepAliveMs !== undefined ? { maxKeepAliveMs: w.maxKeepAliveMs } : {}),
        }
      : {}),
  };
  const parsed = parseSearch(
    r.sreq,
    warnings,
    r.maxAggDepth !== undefined ? { maxAggDepth: r.maxAggDepth } : {},
  );
  const shards: ShardQueryReply[] = [];
  const targets: ShardTarget[] = [];
  for (const s of r.shards) {
    const idx = host.index(s.index);
    if (!idx) {
      const error = new EsError('index_not_found_exception', 'no such index', 404, {
        meta: { 'resource.type': 'index_expression', 'resource.id': s.index, index: s.index },
      });
      shards.push({ shardIndex: s.shardIndex, ok: false, error: serializeError(error) });
      continue;
    }
    const shard = idx.shard(s.shard);
    targets.push({ idx, shard, snapshot: shard.searcher(r.sreq.stats), shardIndex: s.shardIndex });
  }
  return { warnings, opts, parsed, shards, targets };
}

/**
 * DfsPhase: the scoring statistics each shard's query reads, recorded by running it over the
 * shard's own statistics (no aggregations, nothing kept).
 */
function dfsPhase(r: QueryRequest, host: SearchHost): DfsReply {
  const { opts, parsed, shards, targets } = prepareShards(r, host);
  const sreq = { ...r.sreq, aggs: null, suggest: null };
  const bare = { ...parsed, aggs: null, suggest: null };
  const tables: [number, StatsTable][] = [];
  for (const t of targets) {
    const table = emptyStatsTable();
    const plan = {
      ...planSearch([t], sreq, opts, []),
      globalStats: recordStats(shardStats(t.snapshot), table),
    };
    const q = runQueryPhase([t], sreq, bare, opts, plan, new Set(), 0);
    if (q.failures.length === 0) tables.push([t.shardIndex, table]);
  }
  return { tables, failed: shards.map((s) => s.shardIndex) };
}

/** The query phase over the shards asked for; errors are per shard, as ES reports them. */
function queryPhase(
  r: QueryRequest,
  host: SearchHost,
): {
  shards: ShardQueryReply[];
  warnings: string[];
  results: Map<number, ShardResult>;
  /** Each shard's hits in merge order (scrolls page through them). */
  ordered: Map<number, CollectedHit[]>;
  context: Omit<SearchContext, 'results' | 'timer' | 'scroll'>;
} {
  const { warnings, opts, parsed, shards, targets } = prepareShards(r, host);
  const planned = planSearch(targets, r.sreq, opts, warnings);
  // dfs_query_then_fetch: every shard scores with the statistics of all (the coordinator's sum)
  const plan = r.dfs ? { ...planned, globalStats: tableStats(r.dfs) } : planned;
  const q = runQueryPhase(targets, r.sreq, parsed, opts, plan, new Set(), r.skipHits);
  const results = new Map<number, ShardResult>();
  const ordered = new Map<number, CollectedHit[]>();
  for (const res of q.results) results.set(res.target.shardIndex, res);
  for (const t of targets) {
    const res = results.get(t.shardIndex);
    if (!res) {
      const f = q.failures.find((x) => x.index === t.idx.name && x.shard === t.shard.id);
      const error = f?.error ?? new EsError('no_shard_available_action_exception', null, 503);
      shards.push({ shardIndex: t.shardIndex, ok: false, error: serializeError(error) });
      continue;
    }
    try {
      const aggs =
        res.aggs && parsed.aggs
          ? encodeShardAggs(res.aggs, parsed.aggs, (hits, o) =>
              fetchTopHits(hits, o, () => t, plan, parsed, opts),
            )
          : null;
      let hits = res.top.hits;
      if (r.scroll) {
        // a scroll pages through the shard's hits in the coordinator's merge order
        const keys = res.sortKeys && !plan.scoreOnlySort ? res.sortKeys : null;
        const order = hitOrder(keys);
        hits = [...hits].sort((a, b) => order(a, t, b, t));
        ordered.set(t.shardIndex, hits);
        hits = hits.slice(0, plan.from + plan.size);
      }
      shards.push({
        shardIndex: t.shardIndex,
        ok: true,
        canMatch: r.canMatch ? shardCanMatch(parsed.query, t.snapshot, plan.qctx(t.idx)) : true,
        totalHits: res.top.totalHits,
        maxScore: res.top.maxScore,
        terminatedEarly: res.top.terminatedEarly,
        hits: wireHits(hits),
        hitsFrom: res.hitsFrom,
        timedOut: res.timedOut,
        aggs,
        suggest: parsed.suggest
          ? encodeSuggest(res.suggest ?? suggestShard(parsed.suggest, t, plan.qctx(t.idx)))
          : null,
      });
    } catch (e) {
      results.delete(t.shardIndex);
      shards.push({ shardIndex: t.shardIndex, ok: false, error: serializeError(toEsError(e)) });
    }
  }
  return { shards, warnings, results, ordered, context: { req: r.sreq, parsed, opts, plan } };
}

/**
 * The shard request cache on the shards' node, as on a lone node (ES caches on the node holding
 * the shard): keyed by the request, a hit valid only for the same terms lookup values, which
 * the coordinating node read for this request.
 */
function cacheRunner(r: QueryRequest, host: SearchHost): Pick<ExecuteOptions, 'shardRunner'> {
  const policy = r.opts.requestCache;
  if (policy === undefined || r.dfs || !host.requestCache) return {};
  const values = new Map<string, readonly unknown[] | null>();
  for (const [key, o] of r.lookups ?? []) if (!('error' in o)) values.set(key, o.values);
  const runner = cachedShardRunner(
    host.requestCache(),
    policy,
    requestCacheKey(r.sreq, r.opts.typedKeys),
    () => [...values].map(([key, v]) => ({ key, values: v })),
    (l) => values.get(l.key) ?? null,
  );
  return runner ? { shardRunner: runner } : {};
}

/** The lookups the coordinating node read, as the shards' query lowering asks for them. */
function primedLookups(ls: NonNullable<QueryRequest['lookups']>): ExecuteOptions['termsLookup'] {
  const once = termsLookupOnce(() => {
    throw new EsError('illegal_state_exception', 'terms lookup not read by the coordinating node', 500); // prettier-ignore
  });
  for (const [k, o] of decodeLookups(ls)) once.prime(k, o);
  return once.lookup;
}

/** The fetch of the page's hits of each shard from its kept results. */
function fetchPhase(c: SearchContext, r: FetchRequest): FetchReply {
  const warnings: string[] = [];
  const all = [...c.results.values()];
  const keys = all.find((x) => x.sortKeys)?.sortKeys ?? null;
  const fo = searchFetchOptions(
    c.req,
    c.parsed,
    keys,
    c.plan.qctx,
    c.plan.globalStats,
    c.opts,
    warnings,
    all,
  );
  const shards: ShardFetchReply[] = r.shards.map((s) => {
    try {
      const res = c.results.get(s.shardIndex);
      if (!res) throw new EsError('illegal_state_exception', 'no results kept for shard', 500);
      // a scroll page's hits are among the shard's next page of hits after its cursor
      const ordered = c.scroll?.hits.get(s.shardIndex);
      const from = c.scroll?.cursors.get(s.shardIndex) ?? 0;
      const window = ordered?.slice(from, from + Math.max(c.plan.size, s.docs.length));
      let byDoc = new Map((window ?? res.top.hits).map((h) => [h.globalDoc, h]));
      if (window && !s.docs.every((d) => byDoc.has(d)))
        byDoc = new Map(res.top.hits.map((h) => [h.globalDoc, h]));
      const hits = s.docs.map((d): MergedHit => {
        const h = byDoc.get(d) as (MergedHit & { rescored?: boolean[] }) | undefined;
        if (!h) throw new EsError('illegal_state_exception', `no hit [${d}] kept`, 500);
        const m: MergedHit = { ...h, target: res.target };
        return m;
      });
      return { shardIndex: s.shardIndex, ok: true, hits: encodeRendered(fetchHits(hits, fo, warnings)) as unknown[] }; // prettier-ignore
    } catch (e) {
      return { shardIndex: s.shardIndex, ok: false, error: serializeError(toEsError(e)) };
    }
  });
  return { shards, warnings };
}
