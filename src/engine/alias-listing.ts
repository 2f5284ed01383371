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
