/**
 * ES 6.8 MatchQuery (index/search/MatchQuery.java) over Lucene's QueryBuilder: analysis of the
 * query text with the field's search (quote) analyzer, then a term, synonym, boolean, phrase,
 * multi-phrase or phrase-prefix query by token and position counts; fuzziness, leniency,
 * cutoff_frequency (common terms) and zero_terms_query. `newTermQuery` is overridable so
 * multi_match cross_fields can blend terms across fields.
 */
import type { Analyzer } from '../../../search/analysis/index.js';
import type { MultiTermRewrite, Query } from '../../../search/query/query.js';
import { EsError } from '../../../common/errors.js';
import { minShouldMatch } from '../../min-should-match.js';
import { exceptionSummary } from '../errors.js';
import type { Fuzziness, TermValue } from '../nodes.js';
import { analyzeTokens, groupByPosition, type QueryToken } from './analysis.js';
import { BoolBuilder, boolClauses, matchAll, matchNone, withDisplay, type Occur } from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper, type MappedField } from './fields.js';
import { fuzzyQuery } from './multi-term.js';
import { valueText } from './numbers.js';
import { termQuery } from './term-queries.js';

export type MatchType = 'boolean' | 'phrase' | 'phrase_prefix';
export type ZeroTerms = 'none' | 'all' | 'null';

export interface MatchSettings {
  occur: 'should' | 'must';
  /** The `analyzer` parameter, resolved. */
  analyzer: Analyzer | null;
  phraseSlop: number;
  fuzziness: Fuzziness | null;
  fuzzyPrefixLength: number;
  maxExpansions: number;
  transpositions: boolean;
  fuzzyRewrite: MultiTermRewrite | undefined;
  lenient: boolean;
  zeroTerms: ZeroTerms;
  cutoffFrequency: number | null;
}

export const defaultMatchSettings = (): MatchSettings => ({
  occur: 'should',
  analyzer: null,
  phraseSlop: 0,
  fuzziness: null,
  fuzzyPrefixLength: 0,
  maxExpansions: 50,
  transpositions: true,
  fuzzyRewrite: undefined,
  lenient: false,
  zeroTerms: 'none',
  cutoffFrequency: null,
});

/** Queries.newLenientFieldQuery. */
export function lenientFieldQuery(field: string, e: EsError): Query {
  return matchNone(`failed [${field}] query, caused by ${exceptionSummary(e)}`);
}

/** MatchQuery.zeroTermsQuery. */
export function zeroTermsQuery(zt: ZeroTerms): Query | null {
  if (zt === 'null') return null;
  if (zt === 'none') return matchNone('Matching no documents because no terms present');
  return matchAll();
}

/** Lucene BooleanQuery (no BoostQuery around it): what maybeApplyMinimumShouldMatch accepts. */
export const isBoolean = (q: Query | null): q is Extract<Query, { kind: 'Bool' }> =>
  q !== null && q.kind === 'Bool' && q.boost === 1;

/** Queries.applyMinimumShouldMatch / maybeApplyMinimumShouldMatch. */
export function maybeApplyMinimumShouldMatch(
  st: LowerState,
  q: Query | null,
  spec: string | null,
): Query | null {
  if (spec === null || q === null) return q;
  if (isBoolean(q)) {
    const optional = boolClauses(q).filter(([o]) => o === 'should').length;
    const msm = minShouldMatch(spec, optional);
    if (msm <= 0) return q;
    return BoolBuilder.from(q, st.ctx.maxClauseCount).minShouldMatch(msm).build();
  }
  if (q.kind === 'CommonTerms') {
    const out = { ...q, lowFreqMinShouldMatch: (n: number) => minShouldMatch(spec, n) };
    return withDisplay(out, commonTermsDisplay(out));
  }
  return q;
}

/**
 * CommonTermsQuery.toString. ES keeps minimum_should_match as a spec string, so Lucene's float
 * fields stay 0 and the `~(...)` suffix never prints.
 */
export function commonTermsDisplay(q: Extract<Query, { kind: 'CommonTerms' }>): string {
  return q.terms.map((t) => `${q.field}:${t}`).join(', ');
}

/**
 * The analysis-driven query construction of one field (ES MatchQuery.MatchQueryBuilder). Blended
 * cross-field building overrides the term, synonym and phrase hooks.
 */
export class FieldQueryBuilder {
  constructor(
    protected readonly st: LowerState,
    readonly analyzer: Analyzer,
    readonly field: MappedField,
    protected readonly s: MatchSettings,
  ) {}

  /** ES MatchQueryBuilder.newTermQuery: fuzziness, leniency. */
  newTermQuery(term: string): Query {
    try {
      if (this.s.fuzziness !== null) {
        return fuzzyQuery(
          this.st,
          this.field,
          term,
          this.s.fuzziness,
          this.s.fuzzyPrefixLength,
          this.s.maxExpansions,
          this.s.transpositions,
          this.s.fuzzyRewrite,
        );
      }
      return termQuery(this.st, this.field, term);
    } catch (e) {
      if (this.s.lenient && e instanceof EsError) return lenientFieldQuery(this.field.name, e);
      throw e;
    }
  }

  /** Lucene SynonymQuery. */
  newSynonymQuery(terms: string[]): Query {
    const f = this.field.name;
    return withDisplay(
      { kind: 'Synonym', field: f, terms, boost: 1 },
      `Synonym(${terms.map((t) => `${f}:${t}`).join(' ')})`,
    );
  }

  private checkForPositions(): void {
    const m = this.field.mapping;
    const io = m ? m.indexOptions : 'docs';
    if (!m || m.type !== 'text' || (io !== 'positions' && io !== 'offsets')) {
      throw new EsError(
        'illegal_state_exception',
        `field:[${this.field.name}] was indexed without position data; cannot run PhraseQuery`,
        500,
      );
    }
  }

  /** MappedFieldType.phraseQuery / multiPhraseQuery: only string fields. */
  private phraseOf(tokens: readonly QueryToken[], slop: number, prefix: boolean): Query {
    const m = this.field.mapping;
    if (!m || (m.type !== 'text' && m.type !== 'keyword')) {
      throw new EsError(
        'illegal_argument_exception',
        prefix
          ? `Attempted to build a phrase prefix query with multiple terms against non-text field [${this.field.name}]`
          : `Attempted to build a phrase query with multiple terms against non-text field [${this.field.name}]`,
        400,
      );
    }
    const groups = groupByPosition(tokens);
    const terms = groups.map((g) => g.map((t) => t.term));
    const positions = groups.map((g) => g[0]!.position);
    const field = this.field.name;
    if (prefix) {
      return withDisplay(
        {
          kind: 'PhrasePrefix',
          field,
          terms,
          positions,
          slop,
          maxExpansions: this.s.maxExpansions,
          boost: 1,
        },
        phrasePrefixDisplay(field, terms, slop),
      );
    }
    return withDisplay(
      { kind: 'Phrase', field, terms, positions, slop, boost: 1 },
      phraseDisplay(field, terms, positions, slop),
    );
  }

  /** MatchQuery.analyzePhrase / analyzeMultiPhrase with their exception handling. */
  analyzePhrase(tokens: readonly QueryToken[], slop: number): Query {
    try {
      this.checkForPositions();
      return this.phraseOf(tokens, slop, false);
    } catch (e) {
      return this.phraseFailure(e);
    }
  }

  private phraseFailure(e: unknown): Query {
    if (!(e instanceof EsError)) throw e;
    if (e.type === 'illegal_state_exception') {
      if (this.s.lenient) return lenientFieldQuery(this.field.name, e);
      throw e;
    }
    if (e.type === 'illegal_argument_exception') {
      if (!this.s.lenient) this.st.ctx.deprecation?.(e.reason ?? '');
      return lenientFieldQuery(this.field.name, e);
    }
    throw e;
  }

  analyzePhrasePrefix(tokens: readonly QueryToken[], slop: number, positionCount: number): Query {
    try {
      if (positionCount > 1) this.checkForPositions();
      return this.phraseOf(tokens, slop, true);
    } catch (e) {
      return this.phraseFailure(e);
    }
  }

  /** Lucene QueryBuilder.analyzeMultiBoolean. */
  analyzeMultiBoolean(tokens: readonly QueryToken[], occur: Occur): Query {
    const b = new BoolBuilder(this.st.ctx.maxClauseCount);
    for (const group of groupByPosition(tokens)) {
      if (group.length === 1) b.add(this.newTermQuery(group[0]!.term), occur);
      else b.add(this.newSynonymQuery(group.map((t) => t.term)), occur);
    }
    return b.build();
  }

  /** MatchQueryBuilder.createFieldQuery(TokenStream, ...). */
  createFieldQuery(text: string, type: MatchType, occur: Occur, slop: number): Query | null {
    const tokens = analyzeTokens(this.analyzer, text);
    if (tokens.length === 0) return null;
    const positionCount = tokens[tokens.length - 1]!.position + 1;
    if (tokens.length === 1) {
      if (type === 'phrase_prefix') return this.analyzePhrasePrefix(tokens, slop, positionCount);
      return this.newTermQuery(tokens[0]!.term);
    }
    if (type === 'phrase' && positionCount > 1) return this.analyzePhrase(tokens, slop);
    if (type === 'phrase_prefix') return this.analyzePhrasePrefix(tokens, slop, positionCount);
    // several tokens at a single position: synonyms
    if (positionCount === 1) return this.newSynonymQuery(tokens.map((t) => t.term));
    return this.analyzeMultiBoolean(tokens, occur);
  }
}

/** Lucene PhraseQuery / MultiPhraseQuery toString. */
export function phraseDisplay(
  field: string,
  terms: string[][],
  positions: number[],
  slop: number,
): string {
  const multi = terms.some((t) => t.length > 1);
  let out = `${field}:"`;
  if (!multi) {
    // PhraseQuery prints every position from 0, `?` for gaps (removed stop words)
    const abs: (string | undefined)[] = [];
    for (let i = 0; i < terms.length; i++) abs[positions[i]!] = terms[i]![0]!;
    out += Array.from(abs, (p) => p ?? '?').join(' ');
  } else {
    let last = -1;
    for (let i = 0; i < terms.length; i++) {
      if (i !== 0) {
        out += ' ';
        for (let j = 1; j < positions[i]! - last; j++) out += '? ';
      }
      const t = terms[i]!;
      out += t.length > 1 ? `(${t.join(' ')})` : t[0]!;
      last = positions[i]!;
    }
  }
  out += '"';
  if (slop !== 0) out += `~${slop}`;
  return out;
}

/** ES MultiPhrasePrefixQuery toString. */
function phrasePrefixDisplay(field: string, terms: string[][], slop: number): string {
  let out = `${field}:"`;
  terms.forEach((t, i) => {
    const last = i === terms.length - 1;
    if (t.length > 1) {
      out += '(';
      out += t.join(last ? '* ' : ' ');
      out += last ? '*)' : ') ';
    } else {
      out += t[0]! + (last ? '*' : ' ');
    }
  });
  out += '"';
  if (slop !== 0) out += `~${slop}`;
  return out;
}

/** Whether ES would search this field with Lucene.KEYWORD_ANALYZER (non-tokenized, indexed). */
function keywordAnalyzed(f: MappedField): boolean {
  if (f.meta) return true;
  const m = f.mapping!;
  if (m.type === 'text') return false;
  if (m.type === 'keyword') return !m.splitQueriesOnWhitespace;
  return m.index;
}

/** The analyzer MatchQuery uses for a field (search or search-quote analyzer). */
export function analyzerFor(st: LowerState, f: MappedField, quoted: boolean): Analyzer {
  return st.ctx.searchAnalyzer(f.mapping!, quoted);
}

/** MatchQuery.parse(type, fieldName, value). */
export function matchQuery(
  st: LowerState,
  type: MatchType,
  fieldName: string,
  value: TermValue,
  s: MatchSettings,
): Query | null {
  const f = fieldMapper(st.ctx, fieldName);
  if (!f) return matchNone(`unmapped fields [${fieldName}]`);
  const quoted = type === 'phrase' || type === 'phrase_prefix';
  const text = valueText(value);
  if (s.analyzer === null && keywordAnalyzed(f) && type !== 'phrase_prefix') {
    return new FieldQueryBuilder(st, keywordStandIn, f, s).newTermQuery(text);
  }
  const analyzer =
    s.analyzer ?? (f.meta || keywordAnalyzed(f) ? keywordStandIn : analyzerFor(st, f, quoted));
  return parseInternal(st, type, new FieldQueryBuilder(st, analyzer, f, s), text, s);
}

/** MatchQuery.parseInternal. */
export function parseInternal(
  st: LowerState,
  type: MatchType,
  builder: FieldQueryBuilder,
  text: string,
  s: MatchSettings,
): Query | null {
  let q: Query | null;
  if (type === 'boolean') {
    q = builder.createFieldQuery(text, 'boolean', s.occur, 0);
    if (s.cutoffFrequency !== null && isBoolean(q)) q = toCommonTerms(q, s);
  } else if (type === 'phrase') {
    q = builder.createFieldQuery(text, 'phrase', 'must', s.phraseSlop);
  } else {
    q = builder.createFieldQuery(text, 'phrase_prefix', s.occur, s.phraseSlop);
  }
  return q ?? zeroTermsQuery(s.zeroTerms);
}

/** MatchQuery.boolToExtendedCommonTermsQuery: only when every clause is a plain term query. */
function toCommonTerms(q: Extract<Query, { kind: 'Bool' }>, s: MatchSettings): Query {
  const clauses = boolClauses(q);
  const terms: string[] = [];
  let field: string | null = null;
  for (const [, c] of clauses) {
    if (c.kind !== 'Term' || c.boost !== 1) return q;
    field = c.field;
    terms.push(c.term);
  }
  const out: Query = {
    kind: 'CommonTerms',
    field: field!,
    terms,
    cutoff: s.cutoffFrequency!,
    highFreqOccur: s.occur,
    lowFreqOccur: s.occur,
    lowFreqMinShouldMatch: () => 0,
    highFreqMinShouldMatch: () => 0,
    boost: 1,
  };
  return withDisplay(out, commonTermsDisplay(out));
}

/** Lucene's KeywordAnalyzer: the whole text as one token. */
export const keywordStandIn: Analyzer = {
  name: '_keyword',
  positionIncrementGap: 0,
  analyze(text, sink, positionBase = 0, offsetBase = 0) {
    sink(text, positionBase, offsetBase, offsetBase + text.length, 'word');
    return positionBase + 1;
  },
};
