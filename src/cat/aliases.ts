/** `_cat/aliases` rows (ES 6.8 RestAliasAction): one per alias of each index. */
import type { FoundAliases } from '../engine/alias-listing.js';
import type { Cell } from './table.js';

const orDash = (s: string | undefined): string => (s !== undefined && s.length > 0 ? s : '-');

export function aliasRows(found: readonly FoundAliases[]): Cell[][] {
  const rows: Cell[][] = [];
  for (const { index, aliases } of found) {
    for (const [alias, meta] of aliases) {
      rows.push([
        alias,
        index,
        meta.filter !== undefined ? '*' : '-',
        orDash(meta.index_routing),
        orDash(meta.search_routing),
      ]);
    }
  }
  return rows;
}
