/**
 * The search engine's query tree (Lucene Query equivalents). The DSL layer builds these from
 * Elasticsearch JSON after analysis and field resolution; `createWeight` turns them into
 * per-segment scorers. Plain data with a `kind` discriminant.
 */
import type { SpanQuery } from './spans/types.js';
import type { RangeRelation } from '../index/range-keys.js';
import type { MltSpec } from './more-like-this.js';

export interface TermMatcher {
  /** Literal prefix every matching term starts with ('' = none). */
  readonly prefix: string;
  test(term: string): boolean;
}

/** How a per-doc numeric script/predicate sees a segment (SQL scripts, doc-value checks). */
export interface DocPredicateFactory {
  forSegment(
    seg: import('../index/live-segment.js').LiveSegment,
  ): ((doc: number) => boolean) | null;
  describe: string;
  /** A score per matching doc instead of the constant boost (percolate); optional. */
  scores?(seg: import('../index/live-segment.js').LiveSegment): (doc: number) => number;
}

export interface FunctionSpec {
  /** Docs the function applies to (null = all). */
  filter: Query | null;
  weight: number;
  /** Per segment: value of the function for a doc (null when the function is just a weight). */
  factory:
    | ((
        seg: import('../index/live-segment.js').LiveSegment,
      ) => (doc: number, score: number) => number)
    | null;
  describe: string;
}

/** A MultiTermQuery rewrite method other than Lucene's default for the query. */
export interface MultiTermRewrite {
  readonly method:
    | 'constant_score'
    | 'scoring_boolean'
    | 'constant_score_boolean'
    | 'top_terms'
    | 'top_terms_boost'
    | 'top_terms_blended_freqs';
  /** top_terms_* size. */
  readonly size?: number;
  readonly maxClauseCount: number;
}

export type ScoreMode = 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
export type BoostMode = 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';

export type Query =
  | { kind: 'MatchAll'; boost: number }
  | { kind: 'MatchNone' }
  | {
      kind: 'Term';
      field: string;
      term: string;
      boost: number;
      /** Blended statistics (fuzzy rewrite): overrides the term's own docFreq/totalTermFreq. */
      stats?: { docFreq: number; totalTermFreq: number };
    }
  | { kind: 'Synonym'; field: string; terms: string[]; boost: number }
  | {
      kind: 'Phrase';
      field: string;
      /** Terms per phrase position (several = any of them, Lucene MultiPhraseQuery). */
      terms: string[][];
      positions: number[];
      slop: number;
      boost: number;
    }
  | {
      kind: 'NumericRange';
      field: string;
      lo: number;
      hi: number;
      includeLo: boolean;
      includeHi: boolean;
      boost: number;
    }
  | { kind: 'NumericSet'; field: string; values: number[]; boost: number }
  /** Lucene RangeFieldQuery: range field values in `relation` to [min, max] (inclusive range-keys). */
  | {
      kind: 'RangeField';
      field: string;
      min: string;
      max: string;
      relation: RangeRelation;
      boost: number;
    }
  | {
      kind: 'TermRange';
      field: string;
      lo: string | null;
      hi: string | null;
      includeLo: boolean;
      includeHi: boolean;
      boost: number;
    }
  | { kind: 'TermSet'; field: string; terms: string[]; boost: number }
  | {
      kind: 'MultiTerm';
      field: string;
      matcher: TermMatcher;
      boost: number;
      describe: string;
      /** Absent: constant score over all matching terms. */
      rewrite?: MultiTermRewrite;
    }
  | {
      kind: 'Fuzzy';
      field: string;
      term: string;
      maxEdits: number;
      prefixLength: number;
      maxExpansions: number;
      transpositions: boolean;
      boost: number;
      /** Absent: top `maxExpansions` terms with blended frequencies. */
      rewrite?: MultiTermRewrite;
    }
  | {
      kind: 'Bool';
      must: Query[];
      should: Query[];
      mustNot: Query[];
      filter: Query[];
      minShouldMatch: number;
      boost: number;
    }
  | { kind: 'ConstantScore'; inner: Query; boost: number }
  | { kind: 'DisMax'; queries: Query[]; tieBreaker: number; boost: number }
  | { kind: 'Ids'; ids: string[]; boost: number }
  | { kind: 'Boosting'; positive: Query; negative: Query; negativeBoost: number; boost: number }
  | {
      kind: 'FunctionScore';
      inner: Query;
      functions: FunctionSpec[];
      scoreMode: ScoreMode;
      boostMode: BoostMode;
      maxBoost: number;
      minScore: number | null;
      boost: number;
    }
  | {
      kind: 'Nested';
      path: string;
      inner: Query;
      scoreMode: 'avg' | 'sum' | 'min' | 'max' | 'none';
      boost: number;
    }
  | JoinQuery
  | { kind: 'Predicate'; factory: DocPredicateFactory; boost: number }
  /** ES MultiPhrasePrefixQuery: the last position's terms are prefixes (rewritten per searcher). */
  | {
      kind: 'PhrasePrefix';
      field: string;
      terms: string[][];
      positions: number[];
      slop: number;
      maxExpansions: number;
      boost: number;
    }
  /** ES BlendedTermQuery (cross_fields): terms over fields with blended statistics. */
  | {
      kind: 'Blended';
      terms: { field: string; term: string; boost: number; omitTf: boolean }[];
      tieBreaker: number;
      /** null: dis_max blend; else the common-terms cutoff frequency. */
      cutoff: number | null;
      boost: number;
    }
  /** Lucene CommonTermsQuery (match `cutoff_frequency`). */
  | {
      kind: 'CommonTerms';
      field: string;
      terms: string[];
      cutoff: number;
      highFreqOccur: 'must' | 'should';
      lowFreqOccur: 'must' | 'should';
      lowFreqMinShouldMatch: (optional: number) => number;
      highFreqMinShouldMatch: (optional: number) => number;
      boost: number;
    }
  /** ES MoreLikeThisQuery: its terms are chosen against the shard's statistics. */
  | { kind: 'MoreLikeThis'; spec: MltSpec; boost: number }
  /** Lucene span queries (spans/types.ts). */
  | SpanQuery;

/**
 * A join within one shard (Lucene JoinUtil over global ordinals, module parent-join): the docs of
 * `from` yield join keys (their `field` value) with scores; the docs of `to` whose `field` value
 * is such a key match, scored from their keys' matches per `scoreMode`, when the number of
 * those matches is within [minMatches, maxMatches].
 */
export interface JoinQuery {
  kind: 'Join';
  from: Query;
  to: Query;
  field: string;
  scoreMode: 'avg' | 'sum' | 'min' | 'max' | 'none';
  minMatches: number;
  maxMatches: number;
  boost: number;
}

export const matchAll = (boost = 1): Query => ({ kind: 'MatchAll', boost });
export const matchNone = (): Query => ({ kind: 'MatchNone' });
export const termQuery = (field: string, term: string, boost = 1): Query => ({
  kind: 'Term',
  field,
  term,
  boost,
});
export const boolQuery = (
  parts: Partial<Omit<Extract<Query, { kind: 'Bool' }>, 'kind'>>,
): Query => ({
  kind: 'Bool',
  must: parts.must ?? [],
  should: parts.should ?? [],
  mustNot: parts.mustNot ?? [],
  filter: parts.filter ?? [],
  minShouldMatch: parts.minShouldMatch ?? 0,
  boost: parts.boost ?? 1,
});
