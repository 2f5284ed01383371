/**
 * The can_match pre-filter phase (ES CanMatchPreFilterSearchPhase, SearchService.canMatch): when a
 * search hits more shards than `pre_filter_shard_size`, shards whose rewritten query is
 * `match_none` are skipped. Only the rewrites ES 6.8 makes count: a `range` over a date field with
 * no value in range on the shard (or an unmapped field), and `bool` / `constant_score` around one.
 */
import type { Query } from '../../search/query/query.js';
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import { toSearchQuery, type IndexQueryContext, type QueryNode } from '../query/index.js';

/** SearchService.canRewriteToMatchNone: a real query, no suggest, no aggs that need every doc. */
export function canRewriteToMatchNone(
  query: QueryNode | null,
  aggs: unknown | null,
  suggest: unknown | null,
): boolean {
  if (query === null || query.type === 'match_all' || suggest !== null) return false;
  return aggs === null || !mustVisitAllDocs(aggs);
}

/** AggregatorFactories.Builder.mustVisitAllDocs: a top-level global or min_doc_count 0 terms agg. */
function mustVisitAllDocs(aggs: unknown): boolean {
  if (!aggs || typeof aggs !== 'object') return false;
  for (const def of Object.values(aggs as Record<string, unknown>)) {
    if (!def || typeof def !== 'object') continue;
    const d = def as Record<string, unknown>;
    if ('global' in d) return true;
    const terms = d.terms as Record<string, unknown> | undefined;
    if (terms && typeof terms === 'object' && Number(terms.min_doc_count) === 0) return true;
  }
  return false;
}

/** True unless the query rewrites to match_none on this shard (Rewriteable.rewrite). */
export function shardCanMatch(
  node: QueryNode,
  snapshot: ShardSnapshot,
  ctx: IndexQueryContext,
): boolean {
  switch (node.type) {
    case 'match_none':
      return false;
    case 'bool':
      for (const c of [...node.must, ...node.filter])
        if (!shardCanMatch(c, snapshot, ctx)) return false;
      return true;
    case 'constant_score':
      return shardCanMatch(node.filter, snapshot, ctx);
    case 'range':
      return rangeCanMatch(node, snapshot, ctx);
    default:
      return true;
  }
}

/** RangeQueryBuilder.doRewrite: DISJOINT (→ match_none) for unmapped fields and dates out of range. */
function rangeCanMatch(
  node: Extract<QueryNode, { type: 'range' }>,
  snapshot: ShardSnapshot,
  ctx: IndexQueryContext,
): boolean {
  const f = ctx.field(node.field);
  if (!f) return false;
  if (f.type !== 'date') return true; // MappedFieldType.isFieldWithinQuery: INTERSECTS
  let q: Query;
  try {
    q = toSearchQuery(node, ctx);
  } catch {
    return true; // a failing can_match counts as a possible match
  }
  while (q.kind === 'ConstantScore') q = q.inner;
  if (q.kind === 'MatchNone') return false;
  if (q.kind !== 'NumericRange') return true;
  let min = Infinity;
  let max = -Infinity;
  for (const ls of snapshot.segments) {
    const pts = ls.segment.fields.get(f.path)?.points;
    if (!pts || pts.values.length === 0) continue;
    min = Math.min(min, pts.values[0]!);
    max = Math.max(max, pts.values[pts.values.length - 1]!);
  }
  if (min === Infinity) return false; // no points: nothing matches
  const lo = q.includeLo ? q.lo : q.lo + 1;
  const hi = q.includeHi ? q.hi : q.hi - 1;
  return !(max < lo || min > hi);
}
