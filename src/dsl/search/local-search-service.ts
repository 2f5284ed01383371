/**
 * The search APIs over this node's own shards: the executor, with scroll contexts kept in the
 * node's ScrollService (each a point-in-time hit list paged by `_search/scroll`).
 */
import { EsError } from '../../common/errors.js';
import { formatTimeValue } from '../../common/units.js';
import { executeCount } from './count.js';
import { executeSearch, shardTargets, type ShardTarget } from './execute.js';
import { fetchHits } from './fetch.js';
import { pinScrollViews, type ScrollService } from './scroll.js';
import type { SearchService } from './search-service.js';
import { allShardsFailed } from './shard-failures.js';

export function localSearchService(scrolls: ScrollService, nodeId: () => string): SearchService {
  return {
    async search(r) {
      const out = executeSearch(r.indices, r.req, r.parsed, r.opts);
      const keepAlive = r.opts.scroll ? r.opts.scrollKeepAliveMs : undefined;
      if (keepAlive === undefined) return out;
      // a scroll's first page: the rest of its hits stay here, paged by `_search/scroll`
      const size = r.req.size < 0 ? 10 : r.req.size;
      const hitsObj = out.body.hits as Record<string, unknown>;
      const ctx = scrolls.open({
        hits: out.allHits!,
        pos: size,
        size,
        total: hitsObj.total as number,
        maxScore: hitsObj.max_score as number | null,
        shards: (out.body._shards as { total: number }).total,
        fetch: out.fetch!,
        keepAliveMs: keepAlive,
        release: pinScrollViews(out.allHits!),
      });
      return { ...out, body: { _scroll_id: ctx.id, ...out.body } };
    },

    async count(r) {
      // executeCount reads no shardFilter: the options go as they are (no rest copy)
      return executeCount(shardTargets(r.indices, r.opts.shardFilter), r.query, r.opts);
    },

    async scroll({ scrollId: id, keepAliveMs: keepAlive, maxKeepAliveMs }) {
      const t0 = Date.now();
      if (keepAlive !== null && keepAlive > maxKeepAliveMs) {
        const ctx = scrolls.get(id, null);
        scrolls.clear([id]);
        const reason = `Keep alive for scroll (${formatTimeValue(keepAlive)}) is too large. It must be less than (${formatTimeValue(maxKeepAliveMs)}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`;
        const targets = new Set((ctx.hits as Array<{ target: ShardTarget }>).map((h) => h.target));
        throw allShardsFailed(
          'query',
          [...targets].map((t) => ({
            shard: t.shard.id,
            index: t.idx.name,
            node: nodeId(),
            error: new EsError('query_phase_execution_exception', reason, 500),
          })),
        );
      }
      const ctx = scrolls.get(id, keepAlive);
      const page = ctx.hits.slice(ctx.pos, ctx.pos + ctx.size);
      ctx.pos += page.length;
      const warnings: string[] = [];
      const hits = fetchHits(page, ctx.fetch, warnings);
      return {
        warnings,
        body: {
          _scroll_id: ctx.id,
          took: Date.now() - t0,
          timed_out: false,
          _shards: { total: ctx.shards, successful: ctx.shards, skipped: 0, failed: 0 },
          hits: { total: ctx.total, max_score: ctx.maxScore, hits },
        },
      };
    },

    async clearScroll(ids) {
      const r = scrolls.clear(ids === 'all' ? 'all' : [...ids]);
      return { freed: r.freed, missing: r.missing.length };
    },
  };
}
