/**
 * The Elasticsearch 6.8 Query DSL: `parseQuery` (syntax, index-independent, ES's parse errors with
 * JSON locations), `toSearchQuery` (per-index lowering to engine queries: analysis, field
 * resolution, value conversion) and `describeQuery` (Lucene-style toString).
 */
import type { Query } from '../../search/query/query.js';
import type { JsonPath } from './errors.js';
import { toFilter, toQuery, wrapFailure } from './lower/lower.js';
import type { IndexQueryContext, LowerState } from './lower/context.js';
import { matchNone } from './lower/build.js';
import type { QueryNode } from './nodes.js';
import { parseQueryJson } from './parse/index.js';
import { renderQuery } from './render.js';

export type * from './nodes.js';
export type { JsonLocation, JsonPath, SourcePosition } from './errors.js';
export type { IndexQueryContext, CompiledScript } from './lower/context.js';
export { errorLocation, resolveErrorLocations } from './errors.js';
export { locateInJson } from './json-location.js';
export { describeQuery } from './describe.js';
export { renderQuery } from './render.js';
export { percolateMatcher, storedQuery, type SlotMatcher } from './lower/percolate.js';
export {
  isPlainQuery,
  DEFAULT_MAX_NESTED_QUERY_DEPTH,
  MAX_NESTED_QUERY_DEPTH_SETTING,
  setMaxNestedQueryDepth,
} from './parse/inner.js';

/**
 * ES 6.8 QueryBuilder parsing. `json` is a query object (`{"match": {...}}`); `path` is where it
 * sits in the request body, so error locations can be resolved against the request text.
 */
export function parseQuery(json: unknown, path: JsonPath = [], maxDepth?: number): QueryNode {
  return parseQueryJson(json, path, maxDepth);
}

export interface LoweredQuery {
  readonly query: Query;
  /** `_name` → engine query, for `matched_queries`. */
  readonly namedQueries: ReadonlyMap<string, Query>;
}

/**
 * ES QueryShardContext.toQuery / toFilter: lowers a parsed query for one index. `filter` lowers it
 * in filter context (post_filter, aggregation filters: no scores, bool should clauses required).
 * Failures other than query_shard / parsing exceptions become ES's "failed to create query".
 */
export function lowerQuery(
  node: QueryNode,
  ctx: IndexQueryContext,
  opts: { filter?: boolean } = {},
): LoweredQuery {
  const st: LowerState = { ctx, filter: false, nestedPath: null, named: new Map() };
  let q: Query | null;
  try {
    q = opts.filter ? toFilter(node, st) : toQuery(node, st);
  } catch (e) {
    wrapFailure(e, st, () => renderQuery(node));
  }
  return { query: q ?? matchNone('No query left after rewrite.'), namedQueries: st.named };
}

/** Lowering (ES QueryBuilder.toQuery) of a parsed query for one index. */
export function toSearchQuery(node: QueryNode, ctx: IndexQueryContext): Query {
  return lowerQuery(node, ctx).query;
}

/** Lowering in filter context (ES QueryBuilder.toFilter). */
export function toSearchFilter(node: QueryNode, ctx: IndexQueryContext): Query {
  return lowerQuery(node, ctx, { filter: true }).query;
}
