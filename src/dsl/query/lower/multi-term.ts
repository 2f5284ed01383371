/**
 * Multi-term queries per field type (ES StringFieldType / MappedFieldType / IndexFieldType):
 * prefix, wildcard, regexp and fuzzy, with ES's "Can only use ... on keyword and text fields"
 * errors, and the `rewrite` parameter (ES QueryParsers.parseRewriteMethod).
 */
import { fuzzyMatcher } from '../../../search/automata/levenshtein.js';
import { regexpMatcher } from '../../../search/automata/regexp.js';
import { wildcardMatcher } from '../../../search/automata/wildcard.js';
import type { MultiTermRewrite, Query, TermMatcher } from '../../../search/query/query.js';
import { illegalArgument } from '../errors.js';
import { javaParseInt } from '../java.js';
import type { Fuzziness, TermValue } from '../nodes.js';
import { asDistance } from '../../../search/automata/fuzziness.js';
import { matchAll, matchNone, withDisplay } from './build.js';
import type { LowerState } from './context.js';
import { failIfNotIndexed, isStringType, shardError, type MappedField } from './fields.js';
import { valueText } from './numbers.js';
import { indexedString, simpleMatch } from './term-queries.js';

/** QueryParsers.parseRewriteMethod; null keeps the query's default rewrite. */
export function parseRewrite(st: LowerState, text: string | null): MultiTermRewrite | undefined {
  if (text === null) return undefined;
  const max = st.ctx.maxClauseCount;
  switch (text) {
    case 'constant_score':
    case 'scoring_boolean':
    case 'constant_score_boolean':
      return { method: text, maxClauseCount: max };
  }
  const firstDigit = text.search(/[0-9]/);
  if (firstDigit >= 0) {
    const size = javaParseInt(text.slice(firstDigit));
    switch (text.slice(0, firstDigit)) {
      case 'top_terms_':
        return { method: 'top_terms', size, maxClauseCount: max };
      case 'top_terms_boost_':
        return { method: 'top_terms_boost', size, maxClauseCount: max };
      case 'top_terms_blended_freqs_':
        return { method: 'top_terms_blended_freqs', size, maxClauseCount: max };
    }
  }
  throw illegalArgument(`Failed to parse rewrite_method [${text}]`);
}

function multiTerm(
  field: string,
  matcher: TermMatcher,
  display: string,
  rewrite: MultiTermRewrite | undefined,
): Query {
  const q: Query = { kind: 'MultiTerm', field, matcher, boost: 1, describe: display };
  if (rewrite && rewrite.method !== 'constant_score') q.rewrite = rewrite;
  return withDisplay(q, display);
}

export function prefixMultiTerm(field: string, prefix: string, rewrite?: MultiTermRewrite): Query {
  return multiTerm(
    field,
    { prefix, test: (t) => t.startsWith(prefix) },
    `${field}:${prefix}*`,
    rewrite,
  );
}

export function wildcardMultiTerm(
  field: string,
  pattern: string,
  rewrite?: MultiTermRewrite,
): Query {
  return multiTerm(field, wildcardMatcher(pattern), `${field}:${pattern}`, rewrite);
}

export function regexpMultiTerm(
  field: string,
  pattern: string,
  flags: number,
  maxStates: number,
  rewrite?: MultiTermRewrite,
): Query {
  return multiTerm(
    field,
    regexpMatcher(pattern, flags, maxStates),
    `${field}:/${pattern}/`,
    rewrite,
  );
}

const onlyStrings = (st: LowerState, what: string, f: MappedField) =>
  shardError(
    st,
    `Can only use ${what} queries on keyword and text fields - not on [${f.name}] which is of type [${f.typeName}]`,
  );

/** MappedFieldType.prefixQuery. */
export function prefixQuery(
  st: LowerState,
  f: MappedField,
  value: string,
  rewrite: MultiTermRewrite | undefined,
): Query {
  if (f.meta === '_index') {
    const index = st.ctx.index;
    return index.startsWith(value)
      ? matchAll()
      : matchNone(`The index [${index}] doesn't match the provided prefix [${value}].`);
  }
  if (!isStringType(f)) throw onlyStrings(st, 'prefix', f);
  failIfNotIndexed(f);
  return prefixMultiTerm(f.name, indexedString(st, f, value), rewrite);
}

/** StringFieldType.wildcardQuery: the pattern goes through termQuery's value normalization. */
export function wildcardQuery(
  st: LowerState,
  f: MappedField,
  value: string,
  rewrite: MultiTermRewrite | undefined,
): Query {
  if (f.meta === '_index') {
    const index = st.ctx.index;
    return simpleMatch(value, index)
      ? matchAll()
      : matchNone(`The index [${index}] doesn't match the provided pattern [${value}].`);
  }
  if (!isStringType(f)) throw onlyStrings(st, 'wildcard', f);
  failIfNotIndexed(f);
  return wildcardMultiTerm(f.name, indexedString(st, f, value), rewrite);
}

/** MappedFieldType.regexpQuery. */
export function regexpQuery(
  st: LowerState,
  f: MappedField,
  value: string,
  flags: number,
  maxStates: number,
  rewrite: MultiTermRewrite | undefined,
): Query {
  if (f.meta === '_index') {
    const index = st.ctx.index;
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${value})$`, 'u');
    } catch {
      throw illegalArgument(`Invalid regular expression [${value}]`);
    }
    return re.test(index)
      ? matchAll()
      : matchNone(`The index [${index}] doesn't match the provided pattern [${value}].`);
  }
  if (!isStringType(f)) throw onlyStrings(st, 'regexp', f);
  failIfNotIndexed(f);
  return regexpMultiTerm(f.name, indexedString(st, f, value), flags, maxStates, rewrite);
}

/** Lucene FuzzyQuery construction (argument checks) for a term already normalized. */
export function fuzzyTermQuery(
  field: string,
  term: string,
  maxEdits: number,
  prefixLength: number,
  maxExpansions: number,
  transpositions: boolean,
  rewrite: MultiTermRewrite | undefined,
): Query {
  fuzzyMatcher(term, maxEdits, prefixLength, transpositions); // validates like FuzzyQuery
  if (maxExpansions <= 0) throw illegalArgument('maxExpansions must be positive.');
  const q: Query = {
    kind: 'Fuzzy',
    field,
    term,
    maxEdits,
    prefixLength,
    maxExpansions,
    transpositions,
    boost: 1,
  };
  if (rewrite) q.rewrite = rewrite;
  return withDisplay(q, `${field}:${term}~${maxEdits}`);
}

/** StringFieldType.fuzzyQuery. */
export function fuzzyQuery(
  st: LowerState,
  f: MappedField,
  value: TermValue,
  fuzziness: Fuzziness,
  prefixLength: number,
  maxExpansions: number,
  transpositions: boolean,
  rewrite: MultiTermRewrite | undefined,
): Query {
  if (!isStringType(f)) {
    throw illegalArgument(
      `Can only use fuzzy queries on keyword and text fields - not on [${f.name}] which is of type [${f.typeName}]`,
    );
  }
  failIfNotIndexed(f);
  const text = valueText(value);
  return fuzzyTermQuery(
    f.name,
    indexedString(st, f, value),
    asDistance(fuzziness, text),
    prefixLength,
    maxExpansions,
    transpositions,
    rewrite,
  );
}
