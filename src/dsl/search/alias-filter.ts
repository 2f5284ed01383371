/**
 * Alias filters in the shard query (ES DefaultSearchContext.buildFilteredQuery): a search through
 * filtering aliases runs `+query #aliasFilter` on each shard of their indices, the filter in
 * filter context (QueryBuilder.toFilter), so it restricts hits, counts and aggregations without
 * changing scores; and the shards that aliases' search routing selects. Which filters and
 * routing values apply to an index is decided in engine/alias-resolution.ts.
 */
import { shardForRouting } from '../../common/murmur3.js';
import type { AliasFilter } from '../../engine/alias-resolution.js';
import type { IndexService } from '../../engine/index-service.js';
import { boolQuery, type Query } from '../../search/query/query.js';
import {
  parseQuery,
  toSearchFilter,
  type IndexQueryContext,
  type QueryNode,
} from '../query/index.js';

export type AliasFilters = ReadonlyMap<IndexService, AliasFilter>;

/**
 * The parsed filter of each index (ES IndicesService.buildAliasFilter parses them on the
 * coordinating node, so a filter that does not parse fails the request).
 */
export function parseAliasFilters(
  filters: AliasFilters | undefined,
): ReadonlyMap<IndexService, QueryNode> {
  // most searches name no filtering alias: one shared empty map, not one per request
  if (!filters || filters.size === 0) return NO_FILTERS;
  const out = new Map<IndexService, QueryNode>();
  for (const [idx, f] of filters) out.set(idx, parseQuery(f.filter));
  return out;
}

const NO_FILTERS: ReadonlyMap<IndexService, QueryNode> = new Map();

/** ES buildFilteredQuery: `query` as the one `must` clause, the filters as `filter` clauses. */
export function withFilters(query: Query, filters: readonly Query[]): Query {
  return filters.length === 0 ? query : boolQuery({ must: [query], filter: [...filters] });
}

/** The alias filter of a shard lowered for its index, in filter context (null: none). */
export function lowerAliasFilter(node: QueryNode | null, ctx: IndexQueryContext): Query | null {
  return node === null ? null : toSearchFilter(node, ctx);
}

/**
 * The shards a search routes to (ES OperationRouting.computeTargetedShards): those of the
 * routing values resolved for the index (engine resolveSearchRouting), every shard of an index
 * without any. Undefined when no index is routed.
 */
export function routingShardFilter(
  routings: ReadonlyMap<string, ReadonlySet<string>> | null,
): ((idx: IndexService, shard: number) => boolean) | undefined {
  if (routings === null) return undefined;
  return (idx, shard) => {
    const rs = routings.get(idx.name);
    if (!rs) return true;
    for (const r of rs)
      if (shardForRouting(r, idx.numberOfShards, idx.routingNumShards) === shard) return true;
    return false;
  };
}
