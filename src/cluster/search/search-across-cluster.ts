/**
 * Query-then-fetch across the nodes of a cluster (ES TransportSearchAction +
 * SearchQueryThenFetchAsyncAction on the coordinating node): one active copy per shard chosen by
 * `preference`, the query phase on this node's shards directly and on the others through one
 * `[phase/query]` request per node, the reduce here, the fetch of the page's hits from the nodes
 * that hold them, then the response built by the same code as a lone node's. A node that fails
 * moves its shards on to their next copy; a shard left without one is a shard failure.
 * dfs_query_then_fetch first sums the statistics the shards' queries read (`[phase/dfs]`);
 * suggestions come back with the query phase; collapse inner_hits run one search per group
 * through here again; a scroll keeps a context on every node of its shards, this one's too,
 * named by the scroll id (its pages: scroll-across-cluster.ts).
 */
import type { SearchRun } from '../../dsl/search/search-service.js';
import { EsError, toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import { decodeShardAggs } from '../../dsl/aggs/shard-result-wire.js';
import { canRewriteToMatchNone, shardCanMatch } from '../../dsl/search/can-match.js';
import {
  buildSearchResponse,
  checkFetchPhase,
  checkQueryPhase,
  executeSearch,
  expandFailure,
  groupSearches,
  groupSearchOptions,
  parseSearch,
  planSearch,
  reduceHits,
  runQueryPhase,
  setGroupHits,
  shardTargets,
  type ExecuteOptions,
  type MergedHit,
  type ParsedSearch,
  type QueryResult,
  type SearchOutcome,
  type ShardTarget,
} from '../../dsl/search/execute.js';
import { fetchHits } from '../../dsl/search/fetch.js';
import { searchFetchOptions } from '../../dsl/search/fetch-options.js';
import type { ShardResult } from '../../dsl/search/query-phase.js';
import type { SearchRequest } from '../../dsl/search/request.js';
import type { ShardFailure } from '../../dsl/search/shard-failures.js';
import { resolveSort } from '../../dsl/search/sort-keys.js';
import { deserializeError } from '../transport/errors.js';
import { markScriptDoubles } from '../../dsl/script/script-double.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import type { ClusterState } from '../state.js';
import { selectShardCopies, type RoundRobin } from './copy-selection.js';
import { refuseAcrossNodes } from './unsupported.js';
import { sumStatsTables, tableStats, type StatsTable } from '../../search/query/stats-table.js';
import { encodeScrollId, type ContextRef } from './scroll-id.js';
import { DEFAULT_CONTEXT_KEEP_ALIVE_MS, type ShardSearchService } from './shard-search-service.js';
import { randomUUID } from 'node:crypto';
import {
  decodeRendered,
  decodeSuggest,
  DFS_ACTION,
  encodeLookups,
  FETCH_ACTION,
  FREE_CONTEXT_ACTION,
  pack,
  QUERY_ACTION,
  unpack,
  wireOptions,
  SCROLL_QUERY_ACTION,
  type DfsReply,
  type FetchReply,
  type FetchRequest,
  type QueryReply,
  type ScrollQueryRequest,
  type QueryRequest,
  type ShardQueryReply,
} from './wire.js';

export interface ClusterSearchDeps {
  state(): ClusterState;
  readonly localNodeId: string;
  readonly transport: Transport;
  readonly roundRobin: RoundRobin;
  /** How long a node may take to answer one phase (default 30s). */
  readonly requestTimeoutMs?: number;
  /** This node's shard-side search actions, called directly (scroll contexts live there). */
  readonly local?: ShardSearchService;
}

export interface ClusterSearchRequest extends SearchRun {
  /**
   * What runs when every shard is read on this node (default: the lone node's executor), over
   * the shards `shardFilter` keeps.
   */
  readonly runLocally?: (shardFilter: ExecuteOptions['shardFilter']) => SearchOutcome;
}

const DEFAULT_PRE_FILTER_SHARD_SIZE = 128;

/** A shard of the request and the copies to try for it. */
interface Planned {
  target: ShardTarget;
  nodes: readonly string[];
}

export async function searchAcrossCluster(
  deps: ClusterSearchDeps,
  r: ClusterSearchRequest,
): Promise<SearchOutcome> {
  const { req, parsed, opts } = r;
  const state = deps.state();
  const local = deps.localNodeId;
  const all = shardTargets(r.indices, opts.shardFilter);
  const copies = selectShardCopies(
    state,
    local,
    all.map((t) => ({ index: t.idx.name, shard: t.shard.id })),
    r.preference,
    deps.roundRobin,
  );
  const kept = new Set(copies.map((c) => `${c.index}\u0000${c.shard}`));
  const targets = all
    .filter((t) => kept.has(`${t.idx.name}\u0000${t.shard.id}`))
    .map((t, i) => ({ ...t, shardIndex: i }));
  const planned: Planned[] = targets.map((t, i) => ({ target: t, nodes: copies[i]!.nodes }));
  // a scroll keeps its shards' contexts where any node can reach them, this one's too
  const scroll = opts.scroll === true && deps.local !== undefined;
  // every shard read here: the lone node's executor, as it is
  if (!scroll && planned.every((p) => p.nodes[0] === local)) {
    const base = opts.shardFilter;
    const shardFilter =
      targets.length === all.length
        ? base
        : (idx: IndexService, shard: number) =>
            (base ? base(idx, shard) : true) && kept.has(`${idx.name}\u0000${shard}`);
    const localOpts = shardFilter ? { ...opts, shardFilter } : opts;
    return r.runLocally
      ? r.runLocally(shardFilter)
      : executeSearch(r.indices, req, parsed, localOpts);
  }
  refuseAcrossNodes(req, opts, r.termsLookups !== undefined);

  const warnings: string[] = [];
  const planned0 = planSearch(targets, req, opts, warnings);
  // dfs_query_then_fetch: the shards' statistics first, summed, then every shard scores with them
  const dfs =
    opts.searchType === 'dfs_query_then_fetch' ? await dfsPhase(deps, state, r, planned) : null;
  const plan = dfs ? { ...planned0, globalStats: tableStats(dfs) } : planned0;
  const threshold = opts.preFilterShardSize ?? DEFAULT_PRE_FILTER_SHARD_SIZE;
  const canMatch =
    opts.searchType === 'query_then_fetch' &&
    threshold < targets.length &&
    canRewriteToMatchNone(req.query === null ? null : parsed.query, req.aggs, req.suggest);
  const skipHits =
    targets.length === 1 && !opts.keepAllHits && !req.collapse && req.rescore.length === 0
      ? plan.from
      : 0;
  const fetching = plan.size > 0;

  // ---- query phase
  const results: (QueryResult | undefined)[] = [];
  const localResults = new Map<number, ShardResult>();
  const failures: (ShardFailure | undefined)[] = [];
  const matches: boolean[] = targets.map(() => true);
  const contexts = new Map<string, ContextRef>(); // context id -> where it is
  const contextOf = new Map<number, string>(); // shard index -> its context's id
  const owner = new Map<number, string>(); // shard index -> node id that answered
  const scrollId = scroll ? randomUUID() : null;
  let unavailable = 0;
  let pending = planned.filter((p) => {
    if (p.nodes.length > 0) return true;
    unavailable++;
    return false;
  });
  for (let attempt = 0; pending.length > 0; attempt++) {
    const byNode = new Map<string, Planned[]>();
    const retry: Planned[] = [];
    for (const p of pending) {
      const node = p.nodes[attempt];
      if (node === undefined) continue;
      const l = byNode.get(node);
      if (l) l.push(p);
      else byNode.set(node, [p]);
    }
    const lastTry = (p: Planned) => attempt + 1 >= p.nodes.length;
    const mine = scroll ? undefined : byNode.get(local);
    if (mine) {
      byNode.delete(local);
      const ts = mine.map((p) => p.target);
      const q = runQueryPhase(ts, req, parsed, opts, plan, new Set(), skipHits);
      unavailable += q.unavailable;
      for (const res of q.results) {
        results[res.target.shardIndex] = res;
        failures[res.target.shardIndex] = undefined;
        localResults.set(res.target.shardIndex, res);
        owner.set(res.target.shardIndex, local);
        if (canMatch)
          matches[res.target.shardIndex] = shardCanMatch(
            parsed.query,
            res.target.snapshot,
            plan.qctx(res.target.idx),
          );
      }
      for (const f of q.failures) {
        const p = mine.find((x) => x.target.idx.name === f.index && x.target.shard.id === f.shard)!;
        // ES onShardFailure: the shard moves on to its next copy; the last failure is reported
        failures[p.target.shardIndex] = f;
        if (!lastTry(p)) retry.push(p);
      }
    }
    await Promise.all(
      [...byNode].map(async ([nodeId, ps]) => {
        const request: QueryRequest = {
          // ES SQL's Double params keep their type across the wire
          sreq: markScriptDoubles(req),
          ...(r.maxAggDepth !== undefined ? { maxAggDepth: r.maxAggDepth } : {}),
          opts: wireOptions(opts),
          shards: ps.map((p) => ({
            index: p.target.idx.name,
            shard: p.target.shard.id,
            shardIndex: p.target.shardIndex,
          })),
          skipHits,
          canMatch,
          keepContext: fetching,
          ...(r.termsLookups ? { lookups: encodeLookups(r.termsLookups) } : {}),
          ...(dfs ? { dfs } : {}),
          ...(scrollId !== null
            ? {
                scroll: {
                  id: scrollId,
                  keepAliveMs: opts.scrollKeepAliveMs ?? DEFAULT_CONTEXT_KEEP_ALIVE_MS,
                },
              }
            : {}),
        };
        let reply: QueryReply;
        try {
          reply = await callNode<QueryReply>(deps, state, nodeId, QUERY_ACTION, request);
        } catch (e) {
          // the node is gone or failed: its shards move on to their next copy
          const error = toEsError(e);
          for (const p of ps) {
            failures[p.target.shardIndex] = failure(p.target, nodeId, error);
            if (!lastTry(p)) retry.push(p);
          }
          return;
        }
        const contextId = reply.contextId;
        if (contextId) contexts.set(contextId, { nodeId, contextId, shards: 0 });
        for (const w of reply.warnings) if (!warnings.includes(w)) warnings.push(w);
        const byIndex = new Map(ps.map((p) => [p.target.shardIndex, p]));
        for (const s of reply.shards) {
          const p = byIndex.get(s.shardIndex)!;
          const t = p.target;
          if (!s.ok) {
            failures[t.shardIndex] = failure(t, nodeId, deserializeError(s.error));
            if (!lastTry(p)) retry.push(p);
            continue;
          }
          failures[t.shardIndex] = undefined;
          results[t.shardIndex] = { ...remoteResult(t, s, parsed, plan.sortSpecs, opts), nodeId }; // prettier-ignore
          owner.set(t.shardIndex, nodeId);
          if (contextId) {
            contextOf.set(t.shardIndex, contextId);
            contexts.get(contextId)!.shards++;
          }
          matches[t.shardIndex] = s.canMatch;
        }
      }),
    );
    pending = retry;
  }

  // ---- can_match: results of shards that cannot match are dropped (one always stays)
  const skipped = new Set<number>();
  if (canMatch) {
    for (const t of targets)
      if (results[t.shardIndex] && !matches[t.shardIndex]) skipped.add(t.shardIndex);
    if (skipped.size === targets.length) skipped.delete(0);
    for (const i of skipped) {
      results[i] = undefined;
      failures[i] = undefined;
    }
  }
  const query = {
    results: results.filter((x): x is QueryResult => x !== undefined),
    failures: failures.filter((x): x is ShardFailure => x !== undefined),
    unavailable,
  };
  try {
    checkQueryPhase(targets.length, query, plan.allowPartial);
  } catch (e) {
    freeContexts(deps, state, contexts.values());
    throw e;
  }
  // a scroll whose first page fails keeps no context behind
  let answered = false;
  try {
    const reduced = reduceHits(query.results, req, plan, opts);

    // ---- fetch phase
    const fetched = new Map<MergedHit, unknown>();
    const fetchFailures: ShardFailure[] = [];
    const byShard = new Map<number, MergedHit[]>();
    for (const h of reduced.page) {
      const l = byShard.get(h.target.shardIndex);
      if (l) l.push(h);
      else byShard.set(h.target.shardIndex, [h]);
    }
    const localPage = [...byShard].filter(([i]) => localResults.has(i));
    if (localPage.length > 0) {
      const fo = searchFetchOptions(
        req,
        parsed,
        reduced.keys,
        plan.qctx,
        plan.globalStats,
        opts,
        warnings,
        [...localResults.values()],
      );
      for (const [, hs] of localPage) {
        try {
          const out = fetchHits(hs, fo, warnings);
          hs.forEach((h, i) => fetched.set(h, out[i]));
        } catch (e) {
          const t = hs[0]!.target;
          fetchFailures.push(failure(t, local, toEsError(e)));
        }
      }
    }
    // by context: a node asked twice (a shard moved on to it) holds two
    const remotePage = new Map<string, [number, MergedHit[]][]>();
    for (const [i, hs] of byShard) {
      if (localResults.has(i)) continue;
      const ctx = contextOf.get(i)!;
      const l = remotePage.get(ctx);
      if (l) l.push([i, hs]);
      else remotePage.set(ctx, [[i, hs]]);
    }
    await Promise.all(
      [...remotePage].map(async ([contextId, shards]) => {
        const { nodeId } = contexts.get(contextId)!;
        let reply: FetchReply;
        try {
          const request: FetchRequest = {
            contextId,
            shards: shards.map(([shardIndex, hs]) => ({
              shardIndex,
              docs: hs.map((h) => h.globalDoc),
            })),
          };
          reply = await callNode<FetchReply>(deps, state, nodeId, FETCH_ACTION, request);
        } catch (e) {
          const error = toEsError(e);
          for (const [, hs] of shards) fetchFailures.push(failure(hs[0]!.target, nodeId, error));
          return;
        }
        for (const w of reply.warnings) if (!warnings.includes(w)) warnings.push(w);
        const hitsOf = new Map(shards);
        for (const s of reply.shards) {
          const hs = hitsOf.get(s.shardIndex)!;
          if (!s.ok) {
            fetchFailures.push(failure(hs[0]!.target, nodeId, deserializeError(s.error)));
            continue;
          }
          hs.forEach((h, i) => fetched.set(h, decodeRendered(s.hits[i])));
        }
      }),
    );
    // a search's contexts are freed by their fetch; those with no hit on the page here
    if (scrollId === null)
      freeContexts(
        deps,
        state,
        [...contexts.values()].filter((c) => !remotePage.has(c.contextId)),
      );
    // failures in shard order, as the lone node's loop reports them
    fetchFailures.sort((a, b) => shardOrderOf(targets, a) - shardOrderOf(targets, b));
    query.failures.push(...fetchFailures);
    const hits = reduced.page.filter((h) => fetched.has(h)).map((h) => fetched.get(h) as Record<string, unknown>); // prettier-ignore
    checkFetchPhase(targets.length, query.failures, plan.allowPartial);
    if (req.collapse && req.collapse.innerHits.length > 0 && hits.length > 0)
      await expandCollapsed(deps, r, hits, warnings);
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
    answered = true;
    if (scrollId === null) return { body, warnings, sortKeys: reduced.keys };
    const id = encodeScrollId({ id: scrollId, shards: targets.length, contexts: [...contexts.values()] }); // prettier-ignore
    return { body: { _scroll_id: id, ...body }, warnings, sortKeys: reduced.keys };
  } finally {
    if (scrollId !== null && !answered) freeContexts(deps, state, contexts.values());
  }
}

/**
 * DfsPhase on the first copy of every shard (the query phase's first try): each node records
 * the statistics its shards' query reads; a shard that fails here adds none (its query fails).
 */
async function dfsPhase(
  deps: ClusterSearchDeps,
  state: ClusterState,
  r: ClusterSearchRequest,
  planned: Planned[],
): Promise<StatsTable> {
  const byNode = new Map<string, Planned[]>();
  for (const p of planned) {
    const node = p.nodes[0];
    if (node === undefined) continue;
    const l = byNode.get(node);
    if (l) l.push(p);
    else byNode.set(node, [p]);
  }
  const tables = new Map<number, StatsTable>();
  await Promise.all(
    [...byNode].map(async ([nodeId, ps]) => {
      const request: QueryRequest = {
        sreq: markScriptDoubles(r.req),
        ...(r.maxAggDepth !== undefined ? { maxAggDepth: r.maxAggDepth } : {}),
        opts: wireOptions(r.opts),
        shards: ps.map((p) => ({
          index: p.target.idx.name,
          shard: p.target.shard.id,
          shardIndex: p.target.shardIndex,
        })),
        skipHits: 0,
        canMatch: false,
        keepContext: false,
        ...(r.termsLookups ? { lookups: encodeLookups(r.termsLookups) } : {}),
      };
      try {
        const reply = await callNode<DfsReply>(deps, state, nodeId, DFS_ACTION, request);
        for (const [i, t] of reply.tables) tables.set(i, t);
      } catch {
        // the node failed: its shards' query phase moves on or reports it
      }
    }),
  );
  // summed in shard order, as combinedStats sums a lone node's shards
  return sumStatsTables(planned.flatMap((p) => tables.get(p.target.shardIndex) ?? []));
}

/** ExpandSearchPhase: each group's inner search runs across the cluster as any search does. */
async function expandCollapsed(
  deps: ClusterSearchDeps,
  r: ClusterSearchRequest,
  hits: Record<string, unknown>[],
  warnings: string[],
): Promise<void> {
  const opts = groupSearchOptions(r.opts);
  for (const g of groupSearches(r.req, hits)) {
    let out: SearchOutcome;
    try {
      out = await searchAcrossCluster(deps, {
        indices: r.indices,
        req: g.sub,
        parsed: parseSearch(g.sub),
        opts,
        ...(r.preference !== undefined ? { preference: r.preference } : {}),
        ...(r.termsLookups ? { termsLookups: r.termsLookups } : {}),
      });
    } catch (e) {
      throw expandFailure(e);
    }
    warnings.push(...out.warnings);
    setGroupHits(g, out);
  }
}

function shardOrderOf(targets: ShardTarget[], f: ShardFailure): number {
  return targets.findIndex((t) => t.idx.name === f.index && t.shard.id === f.shard);
}

const failure = (t: ShardTarget, node: string, error: EsError): ShardFailure => ({
  shard: t.shard.id,
  index: t.idx.name,
  node,
  error,
});

export function peerOf(state: ClusterState, nodeId: string): TransportPeer {
  const n = state.nodes.get(nodeId);
  if (!n)
    throw new EsError('node_not_connected_exception', `[${nodeId}] node not in the cluster`, 500);
  return { id: n.id, name: n.name, transportAddress: n.transportAddress };
}

/** ES SearchTransportService.sendFreeContext: fire and forget. */
export function freeContexts(
  deps: ClusterSearchDeps,
  state: ClusterState,
  contexts: Iterable<ContextRef>,
): void {
  for (const { nodeId, contextId } of contexts) {
    if (nodeId === deps.localNodeId && deps.local) {
      deps.local.free(contextId);
      continue;
    }
    try {
      deps.transport
        .send(peerOf(state, nodeId), FREE_CONTEXT_ACTION, { contextId }, { timeoutMs: 10_000 })
        .catch(() => undefined);
    } catch {
      // the node left: its contexts expire there
    }
  }
}

/**
 * One search action on a node: this node's own through its service directly, another's over
 * the transport with the request and reply in the frame's attachment.
 */
export async function callNode<T>(
  deps: ClusterSearchDeps,
  state: ClusterState,
  nodeId: string,
  action: string,
  request: unknown,
): Promise<T> {
  if (nodeId === deps.localNodeId && deps.local) {
    const l = deps.local;
    switch (action) {
      case QUERY_ACTION:
        return l.query(request as QueryRequest) as T;
      case DFS_ACTION:
        return l.dfs(request as QueryRequest) as T;
      case FETCH_ACTION:
        return l.fetch(request as FetchRequest) as T;
      case SCROLL_QUERY_ACTION:
        return l.scrollQuery(request as ScrollQueryRequest) as T;
    }
  }
  const out = await deps.transport.send(
    peerOf(state, nodeId),
    action,
    {},
    { timeoutMs: deps.requestTimeoutMs ?? 30_000, attachment: pack(request) },
  );
  return unpack<T>(out.attachment);
}

/** A shard's query result from another node, in the coordinator's terms. */
function remoteResult(
  t: ShardTarget,
  s: Extract<ShardQueryReply, { ok: true }>,
  parsed: ParsedSearch,
  sortSpecs: SearchRequest['sort'] | null,
  opts: ExecuteOptions,
): QueryResult {
  const hits = s.hits.map((h) => {
    const c = { globalDoc: h.globalDoc, score: h.score, sort: h.sort ?? null, doc: -1 };
    if (h.collapseValue !== undefined) (c as CollectedHit).collapseValue = h.collapseValue as CollectedHit['collapseValue']; // prettier-ignore
    return c as unknown as CollectedHit;
  });
  return {
    target: t,
    top: {
      totalHits: s.totalHits,
      maxScore: s.maxScore,
      terminatedEarly: s.terminatedEarly,
      hits,
    },
    aggs: s.aggs !== null && parsed.aggs ? decodeShardAggs(s.aggs, parsed.aggs, t.shard) : null,
    // the same index here has the same mapping: its sort keys compare the shard's values
    sortKeys: sortSpecs ? resolveSort(sortSpecs, t.idx, [], opts.scriptMethods) : null,
    hitsFrom: s.hitsFrom,
    timedOut: s.timedOut,
    ...(s.suggest ? { suggest: decodeSuggest(s.suggest) } : {}),
  };
}
