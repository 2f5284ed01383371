/**
 * SQL's searches on a node of a cluster: query then fetch over the nodes holding the shards, and
 * hit queries paged through the cluster's scrolls (each node keeps its shards' contexts; the
 * cursor's node, which every request with the cursor is passed to, keeps what was consumed).
 */
import type { ClusterSearch } from '../cluster/search/index.js';
import type { SqlSearchBackend } from '../sql/execute/search.js';

export function clusterSqlSearch(cs: ClusterSearch): SqlSearchBackend {
  /** Per open scroll: the total hits and how many pages have handed out so far. */
  const open = new Map<string, { total: number; seen: number }>();
  const hitsOf = (body: Record<string, unknown>) =>
    (body.hits as { total: number; hits: Record<string, unknown>[] }) ?? { total: 0, hits: [] };
  const clear = async (id: string) => {
    open.delete(id);
    return (await cs.clearScroll([id])).freed > 0;
  };
  return {
    search: (indices, req, parsed, opts) =>
      cs.search({ indices: [...indices], req, parsed, opts, maxAggDepth: Infinity }),
    async openScroll(indices, req, parsed, opts, size, keepAliveMs) {
      const out = await cs.search({
        indices: [...indices],
        req: { ...req, size },
        parsed,
        opts: {
          ...opts,
          scroll: true,
          scrollKeepAliveMs: keepAliveMs,
          maxKeepAliveMs: keepAliveMs,
        },
        maxAggDepth: Infinity,
      });
      const id = out.body._scroll_id as string | undefined;
      const { total, hits } = hitsOf(out.body);
      if (id === undefined) return { body: out.body, scrollId: null };
      if (hits.length >= total) {
        await clear(id);
        return { body: out.body, scrollId: null };
      }
      open.set(id, { total, seen: hits.length });
      return { body: out.body, scrollId: id };
    },
    async scrollNext(scrollId, keepAliveMs) {
      const out = await cs.scroll({ scrollId, keepAliveMs, maxKeepAliveMs: keepAliveMs });
      const { hits } = hitsOf(out.body);
      const st = open.get(scrollId);
      if (st) st.seen += hits.length;
      const done = hits.length === 0 || st === undefined || st.seen >= st.total;
      return { hits, done };
    },
    clearScroll: clear,
  };
}
