/**
 * Lucene-style `Query.toString()` of engine queries, as ES prints them in `_validate/query?explain`
 * and explanations: `+a:b -c:d (e:f)~1`, `(x)^2.0`, `f:"a b"~2`, `f:[1 TO 5]`, `ConstantScore(..)`.
 * Queries built by lowering carry their exact Lucene display; others are printed from their shape.
 */
import type { Query } from '../../search/query/query.js';
import { spanToString } from '../../search/query/spans/describe.js';
import { isSpanQuery } from '../../search/query/spans/types.js';
import { javaFloatToString } from './java.js';
import { boolClauses, displayOf } from './lower/build.js';

const OCCUR_PREFIX = { must: '+', must_not: '-', should: '', filter: '#' } as const;

function withBoost(text: string, boost: number): string {
  return boost === 1 ? text : `(${text})^${javaFloatToString(boost)}`;
}

function numberText(v: number): string {
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return Number.isInteger(v) ? String(v) : String(v);
}

const isBool = (q: Query): boolean => q.kind === 'Bool' && q.boost === 1;

/** Lucene toString of `q` (no default field: every field is printed). */
export function describeQuery(q: Query): string {
  const display = displayOf(q);
  if (display !== undefined) return withBoost(display, 'boost' in q ? q.boost : 1);
  if (isSpanQuery(q)) return withBoost(spanToString(q), q.boost);
  switch (q.kind) {
    case 'MatchAll':
      return withBoost('*:*', q.boost);
    case 'MatchNone':
      return 'MatchNoDocsQuery("")';
    case 'Term':
      return withBoost(`${q.field}:${q.term}`, q.boost);
    case 'Synonym':
      return withBoost(`Synonym(${q.terms.map((t) => `${q.field}:${t}`).join(' ')})`, q.boost);
    case 'Phrase': {
      const body = q.terms.map((t) => (t.length > 1 ? `(${t.join(' ')})` : t[0])).join(' ');
      return withBoost(`${q.field}:"${body}"${q.slop ? `~${q.slop}` : ''}`, q.boost);
    }
    case 'PhrasePrefix': {
      const body = q.terms.map((t) => (t.length > 1 ? `(${t.join(' ')})` : t[0])).join(' ');
      return withBoost(`${q.field}:"${body}*"${q.slop ? `~${q.slop}` : ''}`, q.boost);
    }
    case 'NumericRange':
      return withBoost(
        `${q.field}:${q.includeLo ? '[' : '{'}${numberText(q.lo)} TO ${numberText(q.hi)}${q.includeHi ? ']' : '}'}`,
        q.boost,
      );
    case 'NumericSet':
      return withBoost(`${q.field}:{${q.values.map(numberText).join(' ')}}`, q.boost);
    case 'TermRange':
      return withBoost(
        `${q.field}:${q.includeLo ? '[' : '{'}${q.lo ?? '*'} TO ${q.hi ?? '*'}${q.includeHi ? ']' : '}'}`,
        q.boost,
      );
    case 'MoreLikeThis':
      return withBoost('like:', q.boost);
    case 'RangeField':
      return withBoost(`${q.field}:<ranges:[${q.min} : ${q.max}]>`, q.boost);
    case 'TermSet':
      return withBoost(q.terms.map((t) => `${q.field}:${t}`).join(' '), q.boost);
    case 'MultiTerm':
      return withBoost(q.describe, q.boost);
    case 'Fuzzy':
      return withBoost(`${q.field}:${q.term}~${q.maxEdits}`, q.boost);
    case 'Bool': {
      const clauses = boolClauses(q);
      let out = '';
      const parens = q.minShouldMatch > 0;
      if (parens) out += '(';
      out += clauses
        .map(([occur, c]) => {
          const inner = describeQuery(c);
          return OCCUR_PREFIX[occur] + (isBool(c) ? `(${inner})` : inner);
        })
        .join(' ');
      if (parens) out += ')';
      if (q.minShouldMatch > 0) out += `~${q.minShouldMatch}`;
      return withBoost(out, q.boost);
    }
    case 'ConstantScore':
      return withBoost(`ConstantScore(${describeQuery(q.inner)})`, q.boost);
    case 'DisMax': {
      const body = q.queries
        .map((c) => (isBool(c) ? `(${describeQuery(c)})` : describeQuery(c)))
        .join(' | ');
      return withBoost(
        `(${body})${q.tieBreaker !== 0 ? `~${javaFloatToString(q.tieBreaker)}` : ''}`,
        q.boost,
      );
    }
    case 'Ids':
      return withBoost(`_id:(${[...q.ids].sort().join(' ')})`, q.boost);
    case 'Boosting':
      return withBoost(`${describeQuery(q.positive)}/${describeQuery(q.negative)}`, q.boost);
    case 'FunctionScore':
      return withBoost(
        `function score (${describeQuery(q.inner)}, functions: [${q.functions
          .map(
            (f) =>
              `{${f.filter ? `filter(${describeQuery(f.filter)}), ` : ''}function [${f.describe}]}`,
          )
          .join('')}])`,
        q.boost,
      );
    case 'Nested':
      return withBoost(`ToParentBlockJoinQuery (${describeQuery(q.inner)})`, q.boost);
    case 'Join':
      return withBoost(`LateParsingQuery {joinField=${q.field}}`, q.boost);
    case 'Predicate':
      return withBoost(q.factory.describe, q.boost);
    case 'Blended':
      return withBoost(
        `blended(terms:[${q.terms
          .map(
            (t) => `${t.field}:${t.term}${t.boost !== 1 ? `^${javaFloatToString(t.boost)}` : ''}`,
          )
          .join(', ')}])`,
        q.boost,
      );
    case 'CommonTerms':
      return withBoost(q.terms.map((t) => `${q.field}:${t}`).join(', '), q.boost);
  }
}
