/**
 * What a percolator field accepts as its document's query (ES 6.8 PercolatorFieldMapper.parse /
 * verifyQuery): a query that parses, without has_child / has_parent, without a range over `now`,
 * which a stored query cannot keep meaning, and whose field queries name mapped fields (ES parses
 * it with a QueryShardContext that fails on an unmapped field, as
 * `index.percolator.map_unmapped_fields_as_text` is false by default).
 */
import { EsError } from '../../common/errors.js';
import { illegalArgument } from './errors.js';
import type { QueryNode } from './nodes.js';
import { parseQueryJson } from './parse/index.js';

const isQueryNode = (v: unknown): v is QueryNode =>
  v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string' &&
  'queryName' in v; // prettier-ignore

const mentionsNow = (v: unknown) => typeof v === 'string' && v.includes('now');

/** Queries whose `field` ES resolves with QueryShardContext.fieldMapper (failing when unmapped). */
const FIELD_QUERIES = new Set(['term', 'terms', 'range', 'prefix', 'wildcard', 'regexp', 'fuzzy', 'match', 'match_phrase', 'match_phrase_prefix', 'common']); // prettier-ignore

export function checkPercolatorQuery(
  json: unknown,
  isMapped: ((field: string) => boolean) | null = null,
): void {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isQueryNode(v)) {
      if (v && typeof v === 'object') Object.values(v).forEach(visit);
      return;
    }
    if (v.type === 'has_child' || v.type === 'has_parent')
      throw illegalArgument(`the [${v.type}] query is unsupported inside a percolator query`);
    const field = (v as { field?: unknown }).field;
    if (isMapped && FIELD_QUERIES.has(v.type) && typeof field === 'string' && !field.includes('*') && !isMapped(field)) // prettier-ignore
      throw new EsError('query_shard_exception', `No field mapping can be found for the field with name [${field}]`, 400); // prettier-ignore
    if (v.type === 'range' && (mentionsNow(v.from) || mentionsNow(v.to)))
      throw illegalArgument(
        'percolator queries containing time range queries based on the current time is unsupported',
      );
    Object.values(v).forEach(visit);
  };
  visit(parseQueryJson(json));
}
