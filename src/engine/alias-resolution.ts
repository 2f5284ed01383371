/**
 * What the aliases named by a search's index expression add to each concrete index: the alias
 * filter (ES IndexNameExpressionResolver.filteringAliases + ShardSearchRequest.parseAliasFilter)
 * and the search routing (IndexNameExpressionResolver.resolveSearchRouting). Both start from
 * ES's expression resolution under lenient expand-open options, which keeps exactly named aliases
 * as they are and, for filtering only, keeps the aliases a wildcard matches as aliases too.
 */
import { resolveDateMathExpression } from './date-math-index.js';
import type { AliasMeta } from './index-meta.js';
import { isWildcard, simpleMatch } from './index-names.js';

export interface AliasedIndex {
  readonly name: string;
  readonly closed: boolean;
  readonly aliases: Readonly<Record<string, AliasMeta>>;
}

/** ES AliasFilter: the filtering aliases of one concrete index and their combined filter. */
export interface AliasFilter {
  readonly aliases: readonly string[];
  /** A query object: the only alias's filter, or a bool `should` of all of them. */
  readonly filter: unknown;
}

/**
 * ES IndexNameExpressionResolver.resolveExpressions (date math, then WildcardExpressionResolver
 * under IndicesOptions.lenientExpandOpen): existing index and alias names are kept as written,
 * unknown names too (lenient), wildcards expand to open index names and, with `preserveAliases`
 * (filtering), to the names of the aliases they match, or else to those aliases' open indices.
 * `-name` after a wildcard removes a name. No expression, `_all` or `*` alone: every open index.
 * As in Quarry's concrete resolution (index-names.ts), `+name` is `name` and `_all` in a list is `*`.
 */
export function resolveExpressions(
  expressions: readonly string[],
  indices: readonly AliasedIndex[],
  preserveAliases: boolean,
  now: number = Date.now(),
): Set<string> {
  const exprs = expressions.map((e) => resolveDateMathExpression(e, now));
  if (exprs.length === 0 || (exprs.length === 1 && (exprs[0] === '_all' || exprs[0] === '*')))
    return new Set(indices.filter((i) => !i.closed).map((i) => i.name));
  const indexNames = new Set(indices.map((i) => i.name));
  const aliasIndices = new Map<string, AliasedIndex[]>();
  for (const i of indices)
    for (const a of Object.keys(i.aliases))
      aliasIndices.set(a, [...(aliasIndices.get(a) ?? []), i]);
  const result = new Set<string>();
  let wildcardSeen = false;
  for (let e of exprs) {
    if (e.length === 0) continue;
    if (indexNames.has(e) || aliasIndices.has(e)) {
      result.add(e);
      continue;
    }
    let add = true;
    if (e.startsWith('-') && wildcardSeen) {
      add = false;
      e = e.slice(1);
    } else if (e.startsWith('+')) e = e.slice(1);
    if (e === '_all') e = '*';
    if (!isWildcard(e)) {
      if (add) result.add(e);
      else result.delete(e);
      continue;
    }
    const expanded: string[] = [];
    for (const i of indices) if (!i.closed && simpleMatch(e, i.name)) expanded.push(i.name);
    for (const [alias, targets] of aliasIndices) {
      if (!simpleMatch(e, alias)) continue;
      if (preserveAliases) expanded.push(alias);
      else for (const i of targets) if (!i.closed) expanded.push(i.name);
    }
    for (const x of expanded) {
      if (add) result.add(x);
      else result.delete(x);
    }
    wildcardSeen = true;
  }
  return result;
}

/**
 * ES IndexNameExpressionResolver.filteringAliases (indexAliases with
 * AliasMetaData::filteringRequired): the aliases of `index` among the resolved expressions,
 * or null (no filter) when nothing was resolved, when the index itself was named or matched, or
 * when any of its aliases among them has no filter. Sorted by name (ES's order follows its hash
 * maps).
 */
export function filteringAliases(
  index: AliasedIndex,
  resolved: ReadonlySet<string>,
): string[] | null {
  if (resolved.size === 0 || resolved.has(index.name)) return null;
  const names: string[] = [];
  for (const alias of Object.keys(index.aliases).sort()) {
    if (!resolved.has(alias)) continue;
    if (index.aliases[alias]!.filter === undefined || index.aliases[alias]!.filter === null)
      return null;
    names.push(alias);
  }
  return names.length === 0 ? null : names;
}

/**
 * ES IndicesService.buildAliasFilter / ShardSearchRequest.parseAliasFilter: one alias's filter as
 * it is, several combined as a bool of `should` clauses (any of them matches).
 */
export function aliasFilterFor(
  index: AliasedIndex,
  resolved: ReadonlySet<string>,
): AliasFilter | null {
  const aliases = filteringAliases(index, resolved);
  if (aliases === null) return null;
  const filters = aliases.map((a) => index.aliases[a]!.filter);
  return {
    aliases,
    filter: filters.length === 1 ? filters[0] : { bool: { should: filters } },
  };
}

/** An alias's `search_routing` values (ES AliasMetaData.searchRoutingValues: comma-separated). */
function searchRoutingValues(a: AliasMeta): string[] {
  return a.search_routing === undefined ? [] : a.search_routing.split(',').filter((s) => s);
}

/**
 * ES IndexNameExpressionResolver.resolveSearchRouting: the routing values per concrete index.
 * An index reached through aliases with `search_routing` only gets their values (intersected
 * with the `routing` parameter; an empty intersection leaves the index unrouted, as in ES); one
 * also named itself, matched by a wildcard or reached through an alias without search routing
 * gets the parameter's values. null: no index is routed (every shard is searched).
 */
export function resolveSearchRouting(
  expressions: readonly string[],
  indices: readonly AliasedIndex[],
  routing: string | undefined,
  now: number = Date.now(),
): Map<string, Set<string>> | null {
  const param = routing === undefined ? null : routing.split(',').filter((s) => s);
  const resolved = resolveExpressions(expressions, indices, false, now);
  const routings = new Map<string, Set<string>>();
  if (resolved.size === 0) {
    // resolveSearchRoutingAllIndices
    if (param === null) return null;
    for (const i of indices) routings.set(i.name, new Set(param));
    return routings;
  }
  const byAlias = new Map<string, Array<[string, AliasMeta]>>();
  for (const i of indices)
    for (const [a, meta] of Object.entries(i.aliases))
      byAlias.set(a, [...(byAlias.get(a) ?? []), [i.name, meta]]);
  const unrouted = new Set<string>();
  const plain = (index: string) => {
    if (unrouted.has(index)) return;
    unrouted.add(index);
    if (param !== null) routings.set(index, new Set(param));
    else routings.delete(index);
  };
  for (const e of resolved) {
    const members = byAlias.get(e);
    if (!members) {
      plain(e);
      continue;
    }
    for (const [index, meta] of members) {
      if (unrouted.has(index)) continue;
      const values = searchRoutingValues(meta);
      if (values.length === 0) {
        plain(index);
        continue;
      }
      const r = routings.get(index) ?? new Set<string>();
      for (const v of values) r.add(v);
      if (param !== null) for (const v of [...r]) if (!param.includes(v)) r.delete(v);
      if (r.size === 0) routings.delete(index);
      else routings.set(index, r);
    }
  }
  return routings.size === 0 ? null : routings;
}
