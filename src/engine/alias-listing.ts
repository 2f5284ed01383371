/**
 * Which aliases of which indices a get-aliases request names (ES 6.8 MetaData.findAliases): alias
 * patterns matched against every alias of the given concrete indices, each index's aliases by
 * name, indices without a match left out.
 */
import type { AliasMeta } from './index-meta.js';
import { simpleMatch } from './index-names.js';

/** An index as alias listings see it. */
export interface IndexAliasesView {
  readonly name: string;
  readonly aliases: Readonly<Record<string, AliasMeta>>;
}

export interface FoundAliases {
  readonly index: string;
  /** Sorted by alias name. */
  readonly aliases: ReadonlyArray<readonly [string, AliasMeta]>;
}

/** ES MetaData.matchAllAliases: no names, or `_all` among them. */
export const matchesAllAliases = (names: readonly string[]): boolean =>
  names.length === 0 || names.includes('_all');

export function findAliases(
  indices: readonly IndexAliasesView[],
  names: readonly string[],
): FoundAliases[] {
  const all = matchesAllAliases(names);
  const out: FoundAliases[] = [];
  for (const index of indices) {
    const picked = Object.entries(index.aliases)
      .filter(([a]) => all || names.some((n) => simpleMatch(n, a)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (picked.length > 0) out.push({ index: index.name, aliases: picked });
  }
  return out;
}

/** ES AliasMetaData.Builder.toXContent: the body of one alias. */
export function aliasJson(meta: AliasMeta): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (meta.filter !== undefined) o.filter = meta.filter;
  if (meta.index_routing !== undefined) o.index_routing = meta.index_routing;
  if (meta.search_routing !== undefined) o.search_routing = meta.search_routing;
  if (meta.is_write_index !== undefined) o.is_write_index = meta.is_write_index;
  return o;
}

const isPattern = (s: string) => s.includes('*');

/**
 * The requested alias names that ES 6.8 RestGetAliasesAction reports missing: names without
 * wildcards, not `_all`, not excluded by a later `-pattern` (after the first wildcard), and not
 * among the returned aliases. Sorted, as ES's TreeSet.
 */
export function missingAliases(
  requested: readonly string[],
  returned: ReadonlySet<string>,
): string[] {
  let firstWildcard = requested.findIndex(isPattern);
  if (firstWildcard < 0) firstWildcard = requested.length;
  const missing = new Set<string>();
  requested.forEach((name, i) => {
    if (name === '_all' || isPattern(name) || (i > firstWildcard && name.startsWith('-'))) return;
    for (let j = Math.max(i + 1, firstWildcard); j < requested.length; j++) {
      const ex = requested[j]!;
      if (ex.startsWith('-') && (simpleMatch(ex.slice(1), name) || ex.slice(1) === '_all')) return;
    }
    if (!returned.has(name)) missing.add(name);
  });
  return [...missing].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * GET [/{index}]/_alias[/{name}] (ES 6.8 TransportGetAliasesAction + RestGetAliasesAction) over
 * the concrete indices of the request. `names` undefined: no `{name}` in the path. With names,
 * only indices holding a matching alias are shown and unmatched plain names make it a 404 whose
 * body still lists what was found.
 */
export function getAliasesResponse(
  concrete: readonly IndexAliasesView[],
  names: readonly string[] | undefined,
): { status: number; body: Record<string, unknown> } {
  // ES paramAsStringArrayOrEmptyIfAll: `_all` or `*` alone means every alias
  const requested =
    names === undefined || (names.length === 1 && (names[0] === '_all' || names[0] === '*'))
      ? []
      : names;
  const found = findAliases(concrete, requested);
  const byIndex = new Map(found.map((f) => [f.index, f.aliases]));
  const returned = new Set(found.flatMap((f) => f.aliases.map(([a]) => a)));
  const missing = missingAliases(requested, returned);
  const body: Record<string, unknown> = {};
  if (missing.length > 0) {
    body.error = `${missing.length === 1 ? 'alias' : 'aliases'} [${missing.join(',')}] missing`;
    body.status = 404;
  }
  for (const index of concrete) {
    const aliases = byIndex.get(index.name);
    // ES postProcess lists every index when no alias was asked for; with names, only holders
    if (names !== undefined && aliases === undefined) continue;
    const json: Record<string, unknown> = {};
    for (const [a, meta] of aliases ?? []) json[a] = aliasJson(meta);
    body[index.name] = { aliases: json };
  }
  return { status: missing.length > 0 ? 404 : 200, body };
}
