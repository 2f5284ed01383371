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
import { serializeError } from '../transport/errors.js';
import type { Transport } from '../transport/transport.js';
import {
  encodeRendered,
  encodeSuggest,
  FETCH_ACTION,
  FREE_CONTEXT_ACTION,
  pack,
  QUERY_ACTION,
  unpack,
  type FetchReply,
  type FetchRequest,
  type QueryReply,
  type QueryRequest,
  type ShardFetchReply,
  type ShardQueryReply,
} from './wire.js';

/** What this node lends the search actions. */
export interface SearchHost {
  readonly nodeId: string;
  /** The open index of that name here. */
  index(name: string): IndexService | undefined;
  /** This node's request breaker over aggregation buckets, one per request. */
  bucketBreaker?(): RequestLimits['breaker'] | undefined;
  readonly scriptMethods?: ExecuteOptions['scriptMethods'];
}

interface SearchContext {
  readonly req: SearchRequest;
  readonly parsed: ParsedSearch;
  readonly opts: ExecuteOptions;
  readonly plan: SearchPlan;
  readonly results: Map<number, ShardResult>;
  timer: NodeJS.Timeout;
}

/** ES `search.default_keep_alive`. */
export const DEFAULT_CONTEXT_KEEP_ALIVE_MS = 5 * 60_000;

const contextMissing = (id: string) =>
  new EsError('search_context_missing_exception', `No search context found for id [${id}]`, 404);

export interface ShardSearchService {
  /** Search contexts held now (tests, stats). */
  openContexts(): number;
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
    return true;
  };

  transport.registerHandler(QUERY_ACTION, async (rq) => {
    const r = unpack<QueryRequest>(rq.attachment);
    const reply = queryPhase(r, host);
    let contextId: string | null = null;
    if (r.keepContext && reply.results.size > 0) {
      contextId = randomUUID();
      const id = contextId;
      const timer = setTimeout(() => free(id), keepAliveMs);
      timer.unref();
      contexts.set(id, { ...reply.context, results: reply.results, timer });
    }
    const out: QueryReply = { contextId, shards: reply.shards, warnings: reply.warnings };
    return { body: { contextId }, attachment: pack(out) };
  });

  transport.registerHandler(FETCH_ACTION, async (rq) => {
    const r = unpack<FetchRequest>(rq.attachment);
    const c = contexts.get(r.contextId);
    if (!c) throw contextMissing(r.contextId);
    try {
      const out: FetchReply = fetchPhase(c, r);
      return { body: {}, attachment: pack(out) };
    } finally {
      free(r.contextId);
    }
  });

  transport.registerHandler(FREE_CONTEXT_ACTION, async (rq) => {
    const { contextId } = rq.body as { contextId: string };
    return { body: { freed: free(contextId) } };
  });

  return {
    openContexts: () => contexts.size,
    close() {
      for (const id of [...contexts.keys()]) free(id);
    },
  };
}

/** The query phase over the shards asked for; errors are per shard, as ES reports them. */
function queryPhase(
  r: QueryRequest,
  host: SearchHost,
): {
  shards: ShardQueryReply[];
  warnings: string[];
  results: Map<number, ShardResult>;
  context: Omit<SearchContext, 'results' | 'timer'>;
} {
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
    ...(host.scriptMethods ? { scriptMethods: host.scriptMethods } : {}),
    ...(w.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: w.defaultTimeoutMs } : {}),
    ...(w.allowPartialSearchResults !== undefined
      ? { allowPartialSearchResults: w.allowPartialSearchResults }
      : {}),
    ...(aliasFilters.size > 0
      ? { aliasFilters: aliasFilters as NonNullable<ExecuteOptions['aliasFilters']> }
      : {}),
    ...(indexBoosts.size > 0 ? { indexBoosts } : {}),
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
    targets.push({ idx, shard, snapshot: shard.searcher(), shardIndex: s.shardIndex });
  }
  const plan = planSearch(targets, r.sreq, opts, warnings);
  const q = runQueryPhase(targets, r.sreq, parsed, opts, plan, new Set(), r.skipHits);
  const results = new Map<number, ShardResult>();
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
      shards.push({
        shardIndex: t.shardIndex,
        ok: true,
        canMatch: r.canMatch ? shardCanMatch(parsed.query, t.snapshot, plan.qctx(t.idx)) : true,
        totalHits: res.top.totalHits,
        maxScore: res.top.maxScore,
        terminatedEarly: res.top.terminatedEarly,
        hits: res.top.hits.map((h) => ({
          globalDoc: h.globalDoc,
          score: h.score,
          sort: h.sort,
          ...(h.collapseValue !== undefined ? { collapseValue: h.collapseValue } : {}),
        })),
        hitsFrom: res.hitsFrom,
        timedOut: res.timedOut,
        aggs,
        suggest: parsed.suggest
          ? encodeSuggest(suggestShard(parsed.suggest, t, plan.qctx(t.idx)))
          : null,
      });
    } catch (e) {
      results.delete(t.shardIndex);
      shards.push({ shardIndex: t.shardIndex, ok: false, error: serializeError(toEsError(e)) });
    }
  }
  // contexts only hold shards with hits to fetch
  for (const [i, res] of results) if (res.top.hits.length === 0) results.delete(i);
  return { shards, warnings, results, context: { req: r.sreq, parsed, opts, plan } };
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
      const byDoc = new Map(res.top.hits.map((h) => [h.globalDoc, h]));
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
