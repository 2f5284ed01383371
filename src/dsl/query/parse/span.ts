/**
 * Span query parsers, ports of ES 6.8 `fromXContent`: span_term, span_multi, span_near (and its
 * span_gap clauses), span_or, span_not, span_first, span_containing, span_within,
 * field_masking_span. Same token handling, same errors and locations.
 */
import { illegalArgument, parsingError } from '../errors.js';
import type {
  FieldMaskingSpanNode,
  MultiTermNode,
  QueryNode,
  SpanContainingNode,
  SpanFirstNode,
  SpanGapNode,
  SpanMultiNode,
  SpanNearNode,
  SpanNotNode,
  SpanOrNode,
  SpanQueryNode,
  SpanTermNode,
  SpanWithinNode,
  TermValue,
} from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import { checkSingleField } from './common.js';
import { parseInnerQuery } from './inner.js';

const SPAN_TYPES: ReadonlySet<string> = new Set<SpanQueryNode['type']>([
  'span_term',
  'span_multi',
  'span_near',
  'span_or',
  'span_not',
  'span_first',
  'span_containing',
  'span_within',
  'field_masking_span',
  'span_gap',
]);

/** `query instanceof SpanQueryBuilder`. */
export const isSpanNode = (q: QueryNode): q is SpanQueryNode => SPAN_TYPES.has(q.type);

/** `query instanceof MultiTermQueryBuilder`. */
const isMultiTermNode = (q: QueryNode): q is MultiTermNode =>
  q.type === 'prefix' ||
  q.type === 'wildcard' ||
  q.type === 'regexp' ||
  q.type === 'fuzzy' ||
  q.type === 'range';

/** A clause that must be a span query (`<what> must be of type span query` otherwise). */
function spanClause(p: XParser, what: string): SpanQueryNode {
  const q = parseInnerQuery(p);
  if (!isSpanNode(q)) throw parsingError(`${what} must be of type span query`, p.location());
  return q;
}

/** A `clauses` array of span queries. */
function spanClauses(p: XParser, name: string): SpanQueryNode[] {
  const out: SpanQueryNode[] = [];
  while (p.nextToken() !== 'END_ARRAY') out.push(spanClause(p, `${name} [clauses]`));
  return out;
}

const unsupported = (name: string, p: XParser, current: string | null) =>
  parsingError(`[${name}] query does not support [${current}]`, p.location());

export function parseSpanTerm(p: XParser): SpanTermNode {
  let queryName: string | null = null;
  let fieldName: string | null = null;
  let value: TermValue | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('span_term', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') current = p.currentName();
        else if (is(current, 'term') || is(current, 'value')) value = p.objectValue();
        else if (is(current, 'boost')) boost = p.floatValue();
        else if (is(current, '_name')) queryName = p.text();
        else throw unsupported('span_term', p, current);
      }
    } else {
      checkSingleField('span_term', p.location(), fieldName, p.currentName());
      fieldName = p.currentName();
      value = p.objectValue();
    }
  }
  // BaseTermQueryBuilder's constructor
  if (fieldName === null || fieldName.length === 0) {
    throw illegalArgument('field name is null or empty');
  }
  if (value === null) throw illegalArgument('value cannot be null');
  return { type: 'span_term', field: fieldName, value, boost, queryName };
}

export function parseSpanMulti(p: XParser): SpanMultiNode {
  let current: string | null = null;
  let match: MultiTermNode | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (!is(current, 'match')) throw unsupported('span_multi', p, current);
      const q = parseInnerQuery(p);
      if (!isMultiTermNode(q)) {
        throw parsingError('[span_multi] [match] must be of type multi term query', p.location());
      }
      match = q;
    } else if (isValueToken(token)) {
      if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else throw unsupported('span_multi', p, current);
    }
  }
  if (match === null) {
    throw parsingError('[span_multi] must have [match] multi term query clause', p.location());
  }
  return { type: 'span_multi', match, boost, queryName };
}

export function parseSpanNear(p: XParser): SpanNearNode {
  let boost = 1;
  let slop = 0;
  let inOrder = true;
  let queryName: string | null = null;
  let clauses: SpanQueryNode[] = [];
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_ARRAY') {
      if (!is(current, 'clauses')) throw unsupported('span_near', p, current);
      clauses = clauses.concat(spanClauses(p, 'span_near'));
    } else if (isValueToken(token)) {
      if (is(current, 'in_order')) inOrder = p.booleanValue();
      else if (is(current, 'slop')) slop = p.intValue();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw unsupported('span_near', p, current);
    } else {
      throw unsupported('span_near', p, current);
    }
  }
  if (clauses.length === 0) throw parsingError('span_near must include [clauses]', p.location());
  return { type: 'span_near', clauses, slop, inOrder, boost, queryName };
}

export function parseSpanOr(p: XParser): SpanOrNode {
  let boost = 1;
  let queryName: string | null = null;
  let clauses: SpanQueryNode[] = [];
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_ARRAY') {
      if (!is(current, 'clauses')) throw unsupported('span_or', p, current);
      clauses = clauses.concat(spanClauses(p, 'span_or'));
    } else if (is(current, 'boost')) {
      boost = p.floatValue();
    } else if (is(current, '_name')) {
      queryName = p.text();
    } else {
      throw unsupported('span_or', p, current);
    }
  }
  if (clauses.length === 0) throw parsingError('span_or must include [clauses]', p.location());
  return { type: 'span_or', clauses, boost, queryName };
}

export function parseSpanNot(p: XParser): SpanNotNode {
  let boost = 1;
  let include: SpanQueryNode | null = null;
  let exclude: SpanQueryNode | null = null;
  let dist: number | null = null;
  let pre: number | null = null;
  let post: number | null = null;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'include')) include = spanClause(p, 'span_not [include]');
      else if (is(current, 'exclude')) exclude = spanClause(p, 'span_not [exclude]');
      else throw unsupported('span_not', p, current);
    } else if (is(current, 'dist')) {
      dist = p.intValue();
    } else if (is(current, 'pre')) {
      pre = p.intValue();
    } else if (is(current, 'post')) {
      post = p.intValue();
    } else if (is(current, 'boost')) {
      boost = p.floatValue();
    } else if (is(current, '_name')) {
      queryName = p.text();
    } else {
      throw unsupported('span_not', p, current);
    }
  }
  if (include === null) {
    throw parsingError('span_not must have [include] span query clause', p.location());
  }
  if (exclude === null) {
    throw parsingError('span_not must have [exclude] span query clause', p.location());
  }
  if (dist !== null && (pre !== null || post !== null)) {
    throw parsingError('span_not can either use [dist] or [pre] & [post] (or none)', p.location());
  }
  // SpanNotQueryBuilder.dist / pre / post: negative values are 0
  const clamp = (v: number) => (v >= 0 ? v : 0);
  return {
    type: 'span_not',
    include,
    exclude,
    pre: clamp(dist ?? pre ?? 0),
    post: clamp(dist ?? post ?? 0),
    boost,
    queryName,
  };
}

export function parseSpanFirst(p: XParser): SpanFirstNode {
  let boost = 1;
  let match: SpanQueryNode | null = null;
  let end: number | null = null;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (!is(current, 'match')) throw unsupported('span_first', p, current);
      match = spanClause(p, 'span_first [match]');
    } else if (is(current, 'boost')) {
      boost = p.floatValue();
    } else if (is(current, 'end')) {
      end = p.intValue();
    } else if (is(current, '_name')) {
      queryName = p.text();
    } else {
      throw unsupported('span_first', p, current);
    }
  }
  if (match === null) {
    throw parsingError('span_first must have [match] span query clause', p.location());
  }
  if (end === null) throw parsingError('span_first must have [end] set for it', p.location());
  if (end < 0) throw illegalArgument('parameter [end] needs to be positive.');
  return { type: 'span_first', match, end, boost, queryName };
}

/** span_containing and span_within: `big` and `little` span clauses. */
function parseBigLittle(p: XParser, name: 'span_containing' | 'span_within') {
  let boost = 1;
  let queryName: string | null = null;
  let big: SpanQueryNode | null = null;
  let little: SpanQueryNode | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'big')) big = spanClause(p, `${name} [big]`);
      else if (is(current, 'little')) little = spanClause(p, `${name} [little]`);
      else throw unsupported(name, p, current);
    } else if (is(current, 'boost')) {
      boost = p.floatValue();
    } else if (is(current, '_name')) {
      queryName = p.text();
    } else {
      throw unsupported(name, p, current);
    }
  }
  return { big, little, boost, queryName };
}

export function parseSpanContaining(p: XParser): SpanContainingNode {
  const { big, little, boost, queryName } = parseBigLittle(p, 'span_containing');
  // SpanContainingQueryBuilder's constructor
  if (big === null) throw illegalArgument('inner clause [big] cannot be null.');
  if (little === null) throw illegalArgument('inner clause [little] cannot be null.');
  return { type: 'span_containing', big, little, boost, queryName };
}

export function parseSpanWithin(p: XParser): SpanWithinNode {
  const { big, little, boost, queryName } = parseBigLittle(p, 'span_within');
  if (big === null) throw parsingError('span_within must include [big]', p.location());
  if (little === null) throw parsingError('span_within must include [little]', p.location());
  return { type: 'span_within', big, little, boost, queryName };
}

export function parseFieldMaskingSpan(p: XParser): FieldMaskingSpanNode {
  let boost = 1;
  let inner: SpanQueryNode | null = null;
  let field: string | null = null;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (!is(current, 'query')) throw unsupported('field_masking_span', p, current);
      inner = spanClause(p, '[field_masking_span] query');
    } else if (is(current, 'boost')) {
      boost = p.floatValue();
    } else if (is(current, 'field')) {
      field = p.text();
    } else if (is(current, '_name')) {
      queryName = p.text();
    } else {
      throw unsupported('field_masking_span', p, current);
    }
  }
  if (inner === null) {
    throw parsingError('field_masking_span must have [query] span query clause', p.location());
  }
  if (field === null) {
    throw parsingError('field_masking_span must have [field] set for it', p.location());
  }
  if (field.length === 0) throw illegalArgument('field name is null or empty');
  return { type: 'field_masking_span', query: inner, field, boost, queryName };
}

/** SpanGapQueryBuilder.fromXContent: `{"span_gap": {"<field>": <width>}}`. */
export function parseSpanGap(p: XParser): SpanGapNode {
  let fieldName: string | null = null;
  let width = 0;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      const current = p.currentName();
      checkSingleField('span_gap', p.location(), fieldName, current);
      fieldName = current;
    } else if (isValueToken(token)) {
      width = p.intValue();
    }
  }
  if (fieldName === null || fieldName.length === 0) {
    throw illegalArgument('[span_gap] field name is null or empty');
  }
  return { type: 'span_gap', field: fieldName, width, boost: 1, queryName: null };
}
