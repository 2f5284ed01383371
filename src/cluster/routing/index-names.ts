/** Index names as the cluster state knows them. */
import { indexNotFoundFor } from '../../engine/documents.js';
import { simpleMatch } from '../../engine/index-names.js';
import type { ClusterState } from '../state.js';

/** Index names of the cluster state an expression names (names, wildcards, `_all`). */
export function clusterIndexNames(state: ClusterState, expr: string): string[] {
  const all = [...state.metadata.indices.keys()].sort();
  if (expr === '_all' || expr === '*') return all;
  const out = new Set<string>();
  for (const part of expr.split(',')) {
    const hits = all.filter((n) => simpleMatch(part, n));
    if (hits.length === 0 && !part.includes('*')) throw indexNotFoundFor(part);
    for (const h of hits) out.add(h);
  }
  return [...out];
}
