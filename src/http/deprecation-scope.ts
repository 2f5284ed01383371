/**
 * Which requests collect analysis deprecations (search/analysis/deprecations.ts). Collecting
 * follows the request through an AsyncLocalStorage, which slows every await while it is on; the
 * hot read requests (`_search`, `_count`, `_msearch`, `_sql`) skip it when none of the indices
 * they may read has an analysis component that reports deprecations.
 */
import { analysisSettings, type IndexService } from '../engine/index-service.js';
import type { NodeContext } from '../node-context.js';
import { mayReportDeprecations } from '../search/analysis/deprecations.js';

/** Group 1: the index expression of a search or count (an _msearch line may name any index). */
const READS =
  /^\/(?:([^/]+)\/(?:[^/]+\/)?)?(?:_search|_count)$|^\/(?:[^/]+\/(?:[^/]+\/)?)?_msearch$|^\/(?:_sql|_xpack\/sql)$/;

/** An index expression naming one index as it is (no wildcard, list, exclusion or escape). */
const PLAIN = /^[a-z0-9][^,*%]*$/;

/** Per analysis registry (built once per index from its settings). */
const reporting = new WeakMap<object, boolean>();

function reports(idx: IndexService): boolean {
  let r = reporting.get(idx.analysis);
  if (r === undefined) {
    r = mayReportDeprecations(analysisSettings(idx.meta));
    reporting.set(idx.analysis, r);
  }
  return r;
}

/** Whether `method` `path` runs inside a deprecation collector. */
export function collectsDeprecations(node: NodeContext, method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'POST') return true;
  const m = READS.exec(path);
  if (m === null) return true;
  const name = m[1];
  if (name !== undefined && PLAIN.test(name)) {
    const idx = node.indices.get(name);
    // an alias or a missing index: any index may be read
    if (idx) return reports(idx);
  }
  for (const idx of node.indices.all()) if (reports(idx)) return true;
  return false;
}
