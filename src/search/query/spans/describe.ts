/**
 * Lucene 7.7's `toString()` of span queries (ES prints them in `_validate/query?explain` and in
 * explanations): `spanNear([f:a, f:b], 1, true)`, `spanOr([...])`, `mask(f:a) as g`, ...
 */
import { javaFloatToString } from '../../../mapping/java-numbers.js';
import type { SpanQuery } from './types.js';

/** SpanBoostQuery.toString around a clause with a boost. */
export function spanWithBoost(q: SpanQuery): string {
  const text = spanToString(q);
  return q.boost === 1 ? text : `(${text})^${javaFloatToString(q.boost)}`;
}

const list = (clauses: readonly SpanQuery[]): string => clauses.map(spanWithBoost).join(', ');

/** The query's own toString (its boost left to the caller). */
export function spanToString(q: SpanQuery): string {
  switch (q.kind) {
    case 'SpanTerm':
      return `${q.field}:${q.term}`;
    case 'SpanPrefixTerm':
      return `${q.field}:${q.prefix}`;
    case 'SpanMultiTerm':
      return `SpanMultiTermQueryWrapper(${q.display})`;
    case 'SpanNear':
      return `spanNear([${list(q.clauses)}], ${q.slop}, ${q.inOrder})`;
    case 'SpanGap':
      // SpanGapQuery.toString(field) prints its argument, the empty default field
      return `SpanGap(:${q.width})`;
    case 'SpanOr':
      return `spanOr([${list(q.clauses)}])`;
    case 'SpanNot':
      return `spanNot(${spanWithBoost(q.include)}, ${spanWithBoost(q.exclude)}, ${q.pre}, ${q.post})`;
    case 'SpanFirst':
      return `spanFirst(${spanWithBoost(q.match)}, ${q.end})`;
    case 'SpanContaining':
      return `SpanContaining(${spanWithBoost(q.big)}, ${spanWithBoost(q.little)})`;
    case 'SpanWithin':
      return `SpanWithin(${spanWithBoost(q.big)}, ${spanWithBoost(q.little)})`;
    case 'SpanMask':
      return `mask(${spanWithBoost(q.inner)}) as ${q.field}`;
    case 'SpanNone':
      return `SpanMatchNoDocsQuery("${q.reason}")`;
  }
}
