/**
 * What a percolator field accepts as its document's query (ES 6.8 PercolatorFieldMapper.parse /
 * verifyQuery): a query that parses, without has_child / has_parent and without a range over
 * `now`, which a stored query cannot keep meaning.
 */
import { illegalArgument } from './errors.js';
import type { QueryNode } from './nodes.js';
import { parseQueryJson } from './parse/index.js';

const isQueryNode = (v: unknown): v is QueryNode =>
  v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string' &&
  'queryName' in v; // prettier-ignore

const mentionsNow = (v: unknown) => typeof v === 'string' && v.includes('now');

export function checkPercolatorQuery(json: unknown): void {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isQueryNode(v)) {
      if (v && typeof v === 'object') Object.values(v).forEach(visit);
      return;
    }
    if (v.type === 'has_child' || v.type === 'has_parent')
      throw illegalArgument(`the [${v.type}] query is unsupported inside a percolator query`);
    if (v.type === 'range' && (mentionsNow(v.from) || mentionsNow(v.to)))
      throw illegalArgument(
        'percolator queries containing time range queries based on the current time is unsupported',
      );
    Object.values(v).forEach(visit);
  };
  visit(parseQueryJson(json));
}
