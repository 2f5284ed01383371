/**
 * Queries on a `constant_keyword` field (ES 7.10 ConstantKeywordFieldType): every document of the
 * index holds the mapping's value, so term, terms, prefix, wildcard, regexp, range and exists
 * match all documents or none, scored as match_all; with no value set they match nothing.
 */
import type { Query } from '../../../search/query/query.js';
import { regexpMatcher } from '../../../search/automata/regexp.js';
import type { QueryNode } from '../nodes.js';
import { matchAll, matchNone } from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper } from './fields.js';
import { valueText } from './numbers.js';
import { simpleMatch } from './term-queries.js';

/** Java String.compareTo on UTF-16 units, as BytesRef order agrees for these values. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function matches(node: QueryNode, value: string): boolean | undefined {
  switch (node.type) {
    case 'term':
      return valueText(node.value) === value;
    case 'terms':
      return node.values === null ? undefined : node.values.some((v) => valueText(v) === value);
    case 'prefix':
      return value.startsWith(node.value);
    case 'wildcard':
      return simpleMatch(node.value, value);
    case 'regexp':
      return regexpMatcher(node.value, node.flags, node.maxDeterminizedStates).test(value);
    case 'range': {
      if (node.from !== null) {
        const c = cmp(valueText(node.from), value);
        if (c > 0 || (c === 0 && !node.includeLower)) return false;
      }
      if (node.to !== null) {
        const c = cmp(value, valueText(node.to));
        if (c > 0 || (c === 0 && !node.includeUpper)) return false;
      }
      return true;
    }
    case 'exists':
      return true;
    default:
      return undefined;
  }
}

const HANDLED: ReadonlySet<string> = new Set([
  'term',
  'terms',
  'prefix',
  'wildcard',
  'regexp',
  'range',
  'exists',
]);

/** The query when `node` is a term-level query on a constant_keyword field; undefined otherwise. */
export function constantKeywordQuery(node: QueryNode, st: LowerState): Query | undefined {
  const field = (node as { field?: unknown }).field;
  if (typeof field !== 'string') return undefined;
  const f = fieldMapper(st.ctx, field)?.mapping;
  if (!f || f.keywordFamily !== 'constant_keyword') return undefined;
  const value = f.constantValue;
  if (!HANDLED.has(node.type)) return undefined;
  const hit = value !== undefined && matches(node, value);
  if (hit === undefined) return undefined;
  return hit ? matchAll() : matchNone(`constant_keyword [${f.path}] does not match`);
}
