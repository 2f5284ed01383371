/**
 * The URI parameters of a search (`q`, `from`, `size`, `sort`, `_source`, ...) folded into its
 * body request, as ES RestSearchAction.parseSearchRequest does; by-query requests share it.
 */
import { illegalArgument } from '../common/errors.js';
import { sourceFilterFromParams } from '../common/source-filter.js';
import { parseSortParam, type SearchRequest } from '../dsl/search/request.js';
import { searchTimeoutMs } from '../dsl/search/search-timeout.js';

/** URI parameters folded into the body request (ES RestSearchAction.parseSearchRequest). */
export function applyUriParams(req: SearchRequest, get: (n: string) => string | undefined): void {
  const q = get('q');
  if (q !== undefined) {
    const qs: Record<string, unknown> = { query: q };
    const df = get('df');
    if (df !== undefined) qs.default_field = df;
    const an = get('analyzer');
    if (an !== undefined) qs.analyzer = an;
    const aw = get('analyze_wildcard');
    if (aw !== undefined) qs.analyze_wildcard = aw === 'true' || aw === '';
    const op = get('default_operator');
    if (op !== undefined) qs.default_operator = op;
    const le = get('lenient');
    if (le !== undefined) qs.lenient = le === 'true' || le === '';
    req.query = { query_string: qs };
  }
  const num = (n: string) => intParam(get, n);
  const from = num('from');
  if (from !== undefined) req.from = from;
  const size = num('size');
  if (size !== undefined) req.size = size;
  const timeout = get('timeout');
  if (timeout !== undefined) req.timeoutMs = searchTimeoutMs(timeout, 'timeout');
  const ta = num('terminate_after');
  if (ta !== undefined) req.terminateAfter = ta;
  const b = (n: string) => {
    const v = get(n);
    return v === undefined ? undefined : v === '' || v === 'true';
  };
  if (b('explain') !== undefined) req.explain = b('explain')!;
  if (b('version') !== undefined) req.version = b('version')!;
  if (b('seq_no_primary_term') !== undefined) req.seqNoPrimaryTerm = b('seq_no_primary_term')!;
  if (b('track_scores') !== undefined) req.trackScores = b('track_scores')!;
  if (b('track_total_hits') !== undefined) req.trackTotalHits = b('track_total_hits')!;
  const sort = get('sort');
  if (sort !== undefined) req.sort = parseSortParam(sort);
  if (
    get('_source') !== undefined ||
    get('_source_includes') !== undefined ||
    get('_source_include') !== undefined ||
    get('_source_excludes') !== undefined ||
    get('_source_exclude') !== undefined
  ) {
    req.source = sourceFilterFromParams(get);
    req.sourceGiven = true;
  }
  const sf = get('stored_fields');
  if (sf !== undefined) req.storedFields = sf.split(',');
  const stats = get('stats');
  if (stats !== undefined) req.stats = stats.split(',').filter((g) => g !== '');
  const dvf = get('docvalue_fields');
  if (dvf !== undefined)
    req.docvalueFields = dvf.split(',').map((field) => ({ field, format: null }));
}

/** An integer parameter read through `get` (ES RestRequest.paramAsInt's error). */
export function intParam(get: (n: string) => string | undefined, n: string): number | undefined {
  const v = get(n);
  if (v === undefined) return undefined;
  const x = Number(v);
  if (!Number.isInteger(x))
    throw illegalArgument(`Failed to parse int parameter [${n}] with value [${v}]`);
  return x;
}
