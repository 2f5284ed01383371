/**
 * What a search across nodes does not do yet: refused with a 400 naming the feature, never run
 * with an answer that would silently differ from a lone node's.
 */
import { illegalArgument } from '../../common/errors.js';
import type { ExecuteOptions } from '../../dsl/search/execute.js';
import type { SearchRequest } from '../../dsl/search/request.js';

const notYet = (what: string) =>
  illegalArgument(`${what} is not supported yet when shards are on several nodes`);

/** A `terms` query reading its values from a document (ES TermsLookup). */
function hasTermsLookup(q: unknown): boolean {
  if (Array.isArray(q)) return q.some(hasTermsLookup);
  if (q === null || typeof q !== 'object') return false;
  for (const [k, v] of Object.entries(q)) {
    if (k === 'terms' && v && typeof v === 'object' && !Array.isArray(v)) {
      for (const x of Object.values(v))
        if (x && typeof x === 'object' && !Array.isArray(x) && 'id' in x) return true;
    }
    if (hasTermsLookup(v)) return true;
  }
  return false;
}

/** Throws for the first request feature the distributed search cannot serve. */
export function refuseAcrossNodes(
  req: SearchRequest,
  opts: ExecuteOptions,
  lookupsRead: boolean,
): void {
  // every hit of a by-query scan kept on this node: not across nodes (a scroll keeps them there)
  if (opts.keepAllHits && !opts.scroll) throw notYet('scroll');
  // lookups read beforehand travel with the query; others would find no document there
  if (
    !lookupsRead &&
    (hasTermsLookup(req.query) || hasTermsLookup(req.postFilter) || hasTermsLookup(req.aggs))
  )
    throw notYet('a terms lookup');
}
