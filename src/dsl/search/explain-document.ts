/**
 * `_explain` on one shard (ES TransportExplainAction.shardOperation): how the query scores one
 * document, with the alias filter of the index named in filter context. The seam `DocumentExplainer`
 * says where it runs: a lone node explains on its own shard; a node in a cluster sends it to a
 * started copy of the document's shard (src/cluster/reads/cluster-explain.ts). The query and the
 * alias filter travel as JSON and are parsed where they run.
 */
import type { IndexService } from '../../engine/index-service.js';
import { lookupId } from '../../search/index/segment.js';
import { shardStats } from '../../search/query/stats.js';
import { createWeight } from '../../search/query/weights.js';
import { parseQuery, toSearchQuery } from '../query/index.js';
import { lowerAliasFilter, withFilters } from './alias-filter.js';
import { indexQueryContext, type RequestLimits } from './index-context.js';

export interface ExplainRequest {
  /** The query as the request gave it (the `q` parameter already folded in). */
  readonly query: unknown;
  /** The alias filter of the index expression named, as stored; null: none. */
  readonly aliasFilter: unknown;
  /** Which copy explains it in a cluster (the `preference` parameter). */
  readonly preference?: string;
}

/** Not found: no live document with that id on the shard. */
export type ExplainOutcome =
  | { readonly found: false }
  | { readonly found: true; readonly matched: boolean; readonly explanation: unknown };

export interface DocumentExplainer {
  explain(idx: IndexService, shard: number, id: string, req: ExplainRequest): Promise<ExplainOutcome>; // prettier-ignore
}

/** Explains on this node's copy of `shard`. */
export function explainOnShard(
  idx: IndexService,
  shard: number,
  id: string,
  req: ExplainRequest,
  limits: RequestLimits,
): ExplainOutcome {
  const snap = idx.shard(shard).searcher();
  for (const ls of snap.segments) {
    const d = lookupId(ls.segment, id);
    if (d < 0 || (ls.live && !ls.live.get(d))) continue;
    const qctx = indexQueryContext(idx, Date.now(), limits);
    const query = toSearchQuery(parseQuery(req.query ?? { match_all: {} }, ['query']), qctx);
    const alias = req.aliasFilter ? lowerAliasFilter(parseQuery(req.aliasFilter), qctx) : null;
    const w = createWeight(withFilters(query, alias ? [alias] : []), {
      stats: shardStats(snap),
      needsScores: true,
      segments: snap.segments,
    });
    const e = w.explain(ls, d);
    const s = w.scorer(ls);
    let matched = false;
    if (s) matched = (s.doc < d ? s.advance(d) : s.doc) === d;
    return {
      found: true,
      matched,
      explanation: matched ? e : { value: 0, description: e.description, details: e.details },
    };
  }
  return { found: false };
}

export function localExplainer(limits: () => RequestLimits): DocumentExplainer {
  return {
    explain: async (idx, shard, id, req) => explainOnShard(idx, shard, id, req, limits()),
  };
}
