/**
 * The pages of a scroll across nodes and its clearing (ES SearchScrollQueryThenFetchAsyncAction,
 * TransportClearScrollAction). Each node named in the scroll id answers its shards' next hits
 * from its context; the coordinator merges them, takes a page and fetches its hits from the
 * contexts that hold them, which moves those shards' cursors on. Any node can serve any page.
 */
import type { ScrollPageRequest } from '../../dsl/search/search-service.js';
import { EsError, toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import { isScoreOnlySort, type MergedHit, type ShardTarget } from '../../dsl/search/execute.js';
import { mergeShardHits } from '../../dsl/search/merge-hits.js';
import {
  allShardsFailed,
  failureJson,
  type ShardFailure,
} from '../../dsl/search/shard-failures.js';
import { resolveSort } from '../../dsl/search/sort-keys.js';
import { deserializeError } from '../transport/errors.js';
import { callNode, peerOf, type ClusterSearchDeps } from './search-across-cluster.js';
import { decodeScrollId, type ContextRef } from './scroll-id.js';
import {
  CLEAR_SCROLLS_ACTION,
  decodeRendered,
  FETCH_ACTION,
  FREE_CONTEXT_ACTION,
  SCROLL_QUERY_ACTION,
  type FetchReply,
  type FetchRequest,
  type ScrollQueryReply,
  type ScrollQueryRequest,
} from './wire.js';

export type { ScrollPageRequest } from '../../dsl/search/search-service.js';

export interface ScrollHost {
  /** The open index of that name on this node (every node opens every index). */
  index(name: string): IndexService | undefined;
  readonly scriptMethods?: Record<string, (...a: unknown[]) => unknown>;
}

/** The lone node's answer to a scroll id it does not know. */
const missing = (id: string) =>
  new EsError('search_context_missing_exception', `No search context found for id [${id}]`, 404);

export async function scrollAcrossCluster(
  deps: ClusterSearchDeps,
  host: ScrollHost,
  r: ScrollPageRequest,
): Promise<{ body: Record<string, unknown>; warnings: string[] }> {
  const t0 = Date.now();
  const sid = decodeScrollId(r.scrollId);
  if (!sid) throw missing('-1');
  const state = deps.state();
  const warnings: string[] = [];

  // ---- query: every context's next hits
  const request = (c: ContextRef): ScrollQueryRequest => ({
    contextId: c.contextId,
    keepAliveMs: r.keepAliveMs,
    maxKeepAliveMs: r.maxKeepAliveMs,
  });
  const replies = await Promise.all(
    sid.contexts.map(async (c) => {
      try {
        const reply = await callNode<ScrollQueryReply>(deps, state, c.nodeId, SCROLL_QUERY_ACTION, request(c)); // prettier-ignore
        return { c, reply };
      } catch (e) {
        return { c, error: toEsError(e) };
      }
    }),
  );
  const failures: ShardFailure[] = [];
  const contextErrors = replies.flatMap((x) => (x.error ? [x.error] : []));
  if (sid.contexts.length > 0 && contextErrors.length === sid.contexts.length) {
    // every context is gone: a lone node's missing scroll
    const first = contextErrors[0]!;
    if (first.type === 'search_context_missing_exception') throw missing(sid.id);
    throw allShardsFailed(
      'query',
      replies.map((x) => ({ shard: -1, index: '', node: x.c.nodeId, error: x.error! })),
    );
  }
  let size = 10;
  let sort: ScrollQueryReply['sort'] = null;
  let total = 0;
  let maxScore = NaN;
  const shardHits: { target: ShardTarget; hits: CollectedHit[]; hitsFrom: number }[] = [];
  const contextOf = new Map<number, ContextRef>();
  for (const x of replies) {
    if (x.error) {
      for (let i = 0; i < x.c.shards; i++)
        failures.push({ shard: -1, index: '', node: x.c.nodeId, error: x.error });
      continue;
    }
    size = x.reply!.size;
    sort = x.reply!.sort;
    for (const s of x.reply!.shards) {
      if (!s.ok) {
        failures.push({ shard: s.shard, index: s.index, node: x.c.nodeId, error: deserializeError(s.error) }); // prettier-ignore
        continue;
      }
      const idx = host.index(s.index);
      if (!idx) {
        failures.push({ shard: s.shard, index: s.index, node: x.c.nodeId, error: missing(sid.id) }); // prettier-ignore
        continue;
      }
      const shard = idx.shard(s.shard);
      const target: ShardTarget = { idx, shard, snapshot: shard.searcher(), shardIndex: s.shardIndex }; // prettier-ignore
      total += s.totalHits;
      if (!Number.isNaN(s.maxScore) && (Number.isNaN(maxScore) || s.maxScore > maxScore))
        maxScore = s.maxScore;
      contextOf.set(s.shardIndex, x.c);
      shardHits.push({
        target,
        hitsFrom: 0,
        hits: s.hits.map((h) => {
          const c = { globalDoc: h.globalDoc, score: h.score, sort: h.sort ?? null, doc: -1 };
          if (h.collapseValue !== undefined) (c as CollectedHit).collapseValue = h.collapseValue as CollectedHit['collapseValue']; // prettier-ignore
          return c as unknown as CollectedHit;
        }),
      });
    }
  }
  if (shardHits.length === 0 && failures.length > 0) throw allShardsFailed('query', failures);

  // ---- the page, in the first page's order
  const specs = sort && sort.length > 0 ? sort : null;
  const first = shardHits[0]?.target.idx;
  const keys =
    specs && first && !isScoreOnlySort(specs)
      ? resolveSort(specs, first, [], host.scriptMethods)
      : null;
  const page = mergeShardHits(shardHits, keys, 0, size);

  // ---- fetch from the contexts, which moves their cursors on
  const byContext = new Map<ContextRef, Map<number, MergedHit[]>>();
  for (const h of page) {
    const c = contextOf.get(h.target.shardIndex)!;
    let m = byContext.get(c);
    if (!m) byContext.set(c, (m = new Map()));
    const l = m.get(h.target.shardIndex);
    if (l) l.push(h);
    else m.set(h.target.shardIndex, [h]);
  }
  const fetched = new Map<MergedHit, Record<string, unknown>>();
  await Promise.all(
    [...byContext].map(async ([c, shards]) => {
      const req: FetchRequest = {
        contextId: c.contextId,
        shards: [...shards].map(([shardIndex, hs]) => ({
          shardIndex,
          docs: hs.map((h) => h.globalDoc),
        })),
      };
      let reply: FetchReply;
      try {
        reply = await callNode<FetchReply>(deps, state, c.nodeId, FETCH_ACTION, req);
      } catch (e) {
        const error = toEsError(e);
        for (const hs of shards.values()) failures.push(failureOf(hs[0]!.target, c.nodeId, error)); // prettier-ignore
        return;
      }
      for (const w of reply.warnings) if (!warnings.includes(w)) warnings.push(w);
      for (const s of reply.shards) {
        const hs = shards.get(s.shardIndex)!;
        if (!s.ok) {
          failures.push(failureOf(hs[0]!.target, c.nodeId, deserializeError(s.error)));
          continue;
        }
        hs.forEach((h, i) => fetched.set(h, decodeRendered(s.hits[i]) as Record<string, unknown>)); // prettier-ignore
      }
    }),
  );
  const hits = page.filter((h) => fetched.has(h)).map((h) => fetched.get(h)!);
  return {
    body: {
      _scroll_id: r.scrollId,
      took: Date.now() - t0,
      timed_out: false,
      _shards: {
        total: sid.shards,
        successful: sid.shards - failures.length,
        skipped: 0,
        failed: failures.length,
        ...(failures.length > 0 ? { failures: failures.map(failureJson) } : {}),
      },
      hits: { total, max_score: Number.isNaN(maxScore) ? null : maxScore, hits },
    },
    warnings,
  };
}

const failureOf = (t: ShardTarget, node: string, error: EsError): ShardFailure => ({
  shard: t.shard.id,
  index: t.idx.name,
  node,
  error,
});

/**
 * Clear-scroll: each id's contexts freed where they are (an id none of whose contexts remain
 * is missing), or with `_all` every node's scroll contexts; counts scrolls as a lone node does.
 */
export async function clearScrollsAcrossCluster(
  deps: ClusterSearchDeps,
  ids: readonly string[] | 'all',
): Promise<{ freed: number; missing: number }> {
  const state = deps.state();
  if (ids === 'all') {
    const scrolls = new Set<string>();
    await Promise.all(
      [...state.nodes.keys()].map(async (nodeId) => {
        if (nodeId === deps.localNodeId && deps.local) {
          for (const s of deps.local.clearScrolls()) scrolls.add(s);
          return;
        }
        try {
          const out = await deps.transport.send(peerOf(state, nodeId), CLEAR_SCROLLS_ACTION, {}, { timeoutMs: 10_000 }); // prettier-ignore
          for (const s of (out.body as { scrolls: string[] }).scrolls) scrolls.add(s);
        } catch {
          // a node that left holds no context any more
        }
      }),
    );
    return { freed: scrolls.size, missing: 0 };
  }
  let freed = 0;
  let notFound = 0;
  for (const text of ids) {
    const sid = decodeScrollId(text);
    const done = sid
      ? await Promise.all(
          sid.contexts.map(async (c) => {
            if (c.nodeId === deps.localNodeId && deps.local) return deps.local.free(c.contextId);
            try {
              const out = await deps.transport.send(peerOf(state, c.nodeId), FREE_CONTEXT_ACTION, { contextId: c.contextId }, { timeoutMs: 10_000 }); // prettier-ignore
              return (out.body as { freed: boolean }).freed;
            } catch {
              return false;
            }
          }),
        )
      : [];
    if (done.some((x) => x)) freed++;
    else notFound++;
  }
  return { freed, missing: notFound };
}
