/**
 * Parsed Query DSL: one plain node per ES 6.8 QueryBuilder, holding exactly the parameters its
 * `fromXContent` keeps (defaults applied). Index-independent; `toSearchQuery` lowers them.
 * `type` is the query's JSON name.
 */

/** A term value as JSON gave it (ES keeps strings as BytesRef, numbers and booleans as is). */
export type TermValue = string | number | boolean;

import type { Fuzziness } from '../../search/automata/fuzziness.js';

/** ES `Fuzziness`: AUTO with its bounds, or a number-ish text (upper-cased as ES keeps it). */
export type { Fuzziness };

export type Operator = 'OR' | 'AND';
export type ZeroTermsQuery = 'none' | 'all';

export interface QueryBase {
  readonly boost: number;
  /** `_name` (matched_queries). */
  readonly queryName: string | null;
}

export interface MatchAllNode extends QueryBase {
  readonly type: 'match_all';
}
export interface MatchNoneNode extends QueryBase {
  readonly type: 'match_none';
}

export interface TermNode extends QueryBase {
  readonly type: 'term';
  readonly field: string;
  readonly value: TermValue;
}

export interface TermsLookupSpec {
  readonly index: string;
  readonly type: string;
  readonly id: string;
  readonly path: string;
  readonly routing: string | null;
}

export interface TermsNode extends QueryBase {
  readonly type: 'terms';
  readonly field: string;
  readonly values: readonly TermValue[] | null;
  readonly lookup: TermsLookupSpec | null;
}

export interface RangeNode extends QueryBase {
  readonly type: 'range';
  readonly field: string;
  readonly from: TermValue | null;
  readonly to: TermValue | null;
  readonly includeLower: boolean;
  readonly includeUpper: boolean;
  readonly timeZone: string | null;
  readonly format: string | null;
  /** intersects | contains | within (lower-cased), null when not given. */
  readonly relation: string | null;
}

export interface ExistsNode extends QueryBase {
  readonly type: 'exists';
  readonly field: string;
}

export interface PrefixNode extends QueryBase {
  readonly type: 'prefix';
  readonly field: string;
  readonly value: string;
  readonly rewrite: string | null;
}

export interface WildcardNode extends QueryBase {
  readonly type: 'wildcard';
  readonly field: string;
  readonly value: string;
  readonly rewrite: string | null;
}

export interface RegexpNode extends QueryBase {
  readonly type: 'regexp';
  readonly field: string;
  readonly value: string;
  readonly flags: number;
  readonly maxDeterminizedStates: number;
  readonly rewrite: string | null;
}

export interface FuzzyNode extends QueryBase {
  readonly type: 'fuzzy';
  readonly field: string;
  readonly value: TermValue;
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
  readonly rewrite: string | null;
}

export interface IdsNode extends QueryBase {
  readonly type: 'ids';
  readonly types: readonly string[];
  readonly ids: readonly string[];
}

export interface TypeNode extends QueryBase {
  readonly type: 'type';
  readonly value: string;
}

export interface MatchNode extends QueryBase {
  readonly type: 'match';
  readonly field: string;
  readonly query: TermValue;
  readonly operator: Operator;
  readonly analyzer: string | null;
  readonly minimumShouldMatch: string | null;
  readonly fuzziness: Fuzziness | null;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  readonly fuzzyRewrite: string | null;
  readonly lenient: boolean;
  readonly cutoffFrequency: number | null;
  readonly zeroTermsQuery: ZeroTermsQuery;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
}

export interface MatchPhraseNode extends QueryBase {
  readonly type: 'match_phrase';
  readonly field: string;
  readonly query: TermValue;
  readonly analyzer: string | null;
  readonly slop: number;
  readonly zeroTermsQuery: ZeroTermsQuery;
}

export interface MatchPhrasePrefixNode extends QueryBase {
  readonly type: 'match_phrase_prefix';
  readonly field: string;
  readonly query: TermValue;
  readonly analyzer: string | null;
  readonly slop: number;
  readonly maxExpansions: number;
}

export interface CommonTermsNode extends QueryBase {
  readonly type: 'common';
  readonly field: string;
  readonly query: TermValue;
  readonly analyzer: string | null;
  readonly cutoffFrequency: number;
  readonly highFreqOperator: Operator;
  readonly lowFreqOperator: Operator;
  readonly lowFreqMinimumShouldMatch: string | null;
  readonly highFreqMinimumShouldMatch: string | null;
}

export type MultiMatchType =
  'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix';

/** Field patterns with boosts, in insertion order (a Java HashMap is rebuilt from it). */
export type FieldBoosts = readonly (readonly [string, number])[];

export interface MultiMatchNode extends QueryBase {
  readonly type: 'multi_match';
  readonly query: TermValue;
  readonly fields: FieldBoosts;
  readonly matchType: MultiMatchType;
  readonly analyzer: string | null;
  readonly slop: number;
  readonly fuzziness: Fuzziness | null;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly operator: Operator;
  readonly minimumShouldMatch: string | null;
  readonly fuzzyRewrite: string | null;
  readonly useDisMax: boolean | null;
  readonly tieBreaker: number | null;
  readonly cutoffFrequency: number | null;
  readonly lenient: boolean | null;
  readonly zeroTermsQuery: ZeroTermsQuery;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
  readonly fuzzyTranspositions: boolean;
}

export interface QueryStringNode extends QueryBase {
  readonly type: 'query_string';
  readonly query: string;
  readonly fields: FieldBoosts | null;
  readonly defaultField: string | null;
  readonly defaultOperator: Operator;
  readonly analyzer: string | null;
  readonly quoteAnalyzer: string | null;
  readonly allowLeadingWildcard: boolean | null;
  readonly maxDeterminizedStates: number;
  readonly enablePositionIncrements: boolean;
  readonly escape: boolean;
  readonly fuzzyPrefixLength: number;
  readonly fuzzyMaxExpansions: number;
  readonly fuzzyRewrite: string | null;
  readonly phraseSlop: number;
  readonly fuzziness: Fuzziness;
  readonly matchType: MultiMatchType;
  readonly tieBreaker: number | null;
  readonly analyzeWildcard: boolean | null;
  readonly rewrite: string | null;
  readonly minimumShouldMatch: string | null;
  readonly quoteFieldSuffix: string | null;
  readonly lenient: boolean | null;
  readonly timeZone: string | null;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
  readonly fuzzyTranspositions: boolean;
}

export interface SimpleQueryStringNode extends QueryBase {
  readonly type: 'simple_query_string';
  readonly query: string;
  readonly fields: FieldBoosts;
  readonly analyzer: string | null;
  readonly defaultOperator: Operator;
  /** Resolved flag bits (-1 = ALL). */
  readonly flags: number;
  readonly lenient: boolean | null;
  readonly analyzeWildcard: boolean;
  readonly minimumShouldMatch: string | null;
  readonly quoteFieldSuffix: string | null;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
  readonly fuzzyPrefixLength: number;
  readonly fuzzyMaxExpansions: number;
  readonly fuzzyTranspositions: boolean;
}

export interface BoolNode extends QueryBase {
  readonly type: 'bool';
  readonly must: readonly QueryNode[];
  readonly mustNot: readonly QueryNode[];
  readonly should: readonly QueryNode[];
  readonly filter: readonly QueryNode[];
  readonly minimumShouldMatch: string | null;
  readonly adjustPureNegative: boolean;
}

export interface ConstantScoreNode extends QueryBase {
  readonly type: 'constant_score';
  readonly filter: QueryNode;
}

export interface DisMaxNode extends QueryBase {
  readonly type: 'dis_max';
  readonly queries: readonly QueryNode[];
  readonly tieBreaker: number;
}

export interface BoostingNode extends QueryBase {
  readonly type: 'boosting';
  readonly positive: QueryNode;
  readonly negative: QueryNode;
  readonly negativeBoost: number;
}

/** ES Script: inline source or stored id, with language, params and options. */
export interface ScriptSpec {
  readonly source: string | null;
  readonly id: string | null;
  readonly lang: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  readonly options: Readonly<Record<string, string>>;
}

export type DecayType = 'gauss' | 'linear' | 'exp';

export type ScoreFunctionNode =
  | { readonly fn: 'weight'; readonly weight: number | null }
  | {
      readonly fn: 'field_value_factor';
      readonly weight: number | null;
      readonly field: string;
      readonly factor: number;
      readonly modifier: FieldValueModifier;
      readonly missing: number | null;
    }
  | {
      readonly fn: 'random_score';
      readonly weight: number | null;
      readonly seed: number | string | null;
      readonly field: string | null;
    }
  | { readonly fn: 'script_score'; readonly weight: number | null; readonly script: ScriptSpec }
  | {
      readonly fn: DecayType;
      readonly weight: number | null;
      readonly field: string;
      /** The field's parameter object (origin, scale, offset, decay), parsed per field type. */
      readonly params: Readonly<Record<string, unknown>>;
      readonly multiValueMode: 'min' | 'max' | 'avg' | 'sum' | 'median';
    };

export type FieldValueModifier =
  'none' | 'log' | 'log1p' | 'log2p' | 'ln' | 'ln1p' | 'ln2p' | 'square' | 'sqrt' | 'reciprocal';

export type ScoreMode = 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
export type BoostMode = 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';

export interface FunctionScoreNode extends QueryBase {
  readonly type: 'function_score';
  readonly query: QueryNode;
  readonly functions: readonly {
    readonly filter: QueryNode | null;
    readonly function: ScoreFunctionNode;
  }[];
  readonly scoreMode: ScoreMode;
  readonly boostMode: BoostMode | null;
  readonly maxBoost: number;
  readonly minScore: number | null;
}

export interface NestedNode extends QueryBase {
  readonly type: 'nested';
  readonly path: string;
  readonly query: QueryNode;
  readonly scoreMode: 'avg' | 'sum' | 'min' | 'max' | 'none';
  readonly ignoreUnmapped: boolean;
  /** `inner_hits` as given (the search layer interprets it). */
  readonly innerHits: Readonly<Record<string, unknown>> | null;
}

/** Module parent-join: parents whose children match (HasChildQueryBuilder). */
export interface HasChildNode extends QueryBase {
  readonly type: 'has_child';
  readonly childType: string;
  readonly query: QueryNode;
  readonly scoreMode: NestedNode['scoreMode'];
  readonly minChildren: number;
  readonly maxChildren: number;
  readonly ignoreUnmapped: boolean;
  readonly innerHits: Readonly<Record<string, unknown>> | null;
}

/** Module parent-join: children whose parent matches (HasParentQueryBuilder). */
export interface HasParentNode extends QueryBase {
  readonly type: 'has_parent';
  readonly parentType: string;
  readonly query: QueryNode;
  readonly score: boolean;
  readonly ignoreUnmapped: boolean;
  readonly innerHits: Readonly<Record<string, unknown>> | null;
}

/** Module parent-join: the children of one parent id (ParentIdQueryBuilder). */
export interface ParentIdNode extends QueryBase {
  readonly type: 'parent_id';
  readonly childType: string;
  readonly id: string;
  readonly ignoreUnmapped: boolean;
}

/** Module percolator: stored queries that match the given documents (PercolateQueryBuilder). */
export interface PercolateNode extends QueryBase {
  readonly type: 'percolate';
  readonly field: string;
  /** `name`: suffixes the `_percolator_document_slot` field of the hits. */
  readonly name: string | null;
  /** `document` / `documents`; null when an indexed document is named instead. */
  readonly documents: readonly Readonly<Record<string, unknown>>[] | null;
  readonly indexed: {
    readonly index: string;
    readonly type: string | null;
    readonly id: string;
    readonly routing: string | null;
    readonly preference: string | null;
    readonly version: number | null;
  } | null;
}

export interface ScriptQueryNode extends QueryBase {
  readonly type: 'script';
  readonly script: ScriptSpec;
}

/** A `like`/`unlike` document of more_like_this (ES MoreLikeThisQueryBuilder.Item). */
export interface MltItem {
  readonly index: string | null;
  readonly type: string | null;
  readonly id: string | null;
  /** An artificial document (instead of `_id`). */
  readonly doc: Record<string, unknown> | null;
  readonly fields: readonly string[] | null;
  readonly routing: string | null;
}

export interface MoreLikeThisNode extends QueryBase {
  readonly type: 'more_like_this';
  readonly fields: readonly string[] | null;
  readonly likeTexts: readonly string[];
  readonly likeItems: readonly MltItem[];
  readonly unlikeTexts: readonly string[];
  readonly unlikeItems: readonly MltItem[];
  readonly maxQueryTerms: number;
  readonly minTermFreq: number;
  readonly minDocFreq: number;
  readonly maxDocFreq: number;
  readonly minWordLength: number;
  readonly maxWordLength: number;
  readonly stopWords: readonly string[] | null;
  readonly analyzer: string | null;
  readonly minimumShouldMatch: string;
  readonly boostTerms: number;
  readonly include: boolean;
  readonly failOnUnsupportedField: boolean;
}

export interface WrapperNode extends QueryBase {
  readonly type: 'wrapper';
  /** The decoded query source (UTF-8 text of the base64 bytes). */
  readonly source: string;
}

export interface GeoDistanceNode extends QueryBase {
  readonly type: 'geo_distance';
  readonly field: string;
  readonly lat: number;
  readonly lon: number;
  /** Meters. */
  readonly distance: number;
  readonly distanceType: 'arc' | 'plane';
  readonly validationMethod: 'strict' | 'ignore_malformed' | 'coerce';
  readonly ignoreUnmapped: boolean;
}

export interface GeoBoundingBoxNode extends QueryBase {
  readonly type: 'geo_bounding_box';
  readonly field: string;
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
  readonly validationMethod: 'strict' | 'ignore_malformed' | 'coerce';
  readonly ignoreUnmapped: boolean;
}

// ---- span queries (ES SpanQueryBuilder) -------------------------------------------------------

export interface SpanTermNode extends QueryBase {
  readonly type: 'span_term';
  readonly field: string;
  readonly value: TermValue;
}

/** The multi-term queries span_multi wraps (ES MultiTermQueryBuilder). */
export type MultiTermNode = PrefixNode | WildcardNode | RegexpNode | FuzzyNode | RangeNode;

export interface SpanMultiNode extends QueryBase {
  readonly type: 'span_multi';
  readonly match: MultiTermNode;
}

export interface SpanNearNode extends QueryBase {
  readonly type: 'span_near';
  readonly clauses: readonly SpanQueryNode[];
  readonly slop: number;
  readonly inOrder: boolean;
}

export interface SpanOrNode extends QueryBase {
  readonly type: 'span_or';
  readonly clauses: readonly SpanQueryNode[];
}

export interface SpanNotNode extends QueryBase {
  readonly type: 'span_not';
  readonly include: SpanQueryNode;
  readonly exclude: SpanQueryNode;
  readonly pre: number;
  readonly post: number;
}

export interface SpanFirstNode extends QueryBase {
  readonly type: 'span_first';
  readonly match: SpanQueryNode;
  readonly end: number;
}

export interface SpanContainingNode extends QueryBase {
  readonly type: 'span_containing';
  readonly big: SpanQueryNode;
  readonly little: SpanQueryNode;
}

export interface SpanWithinNode extends QueryBase {
  readonly type: 'span_within';
  readonly big: SpanQueryNode;
  readonly little: SpanQueryNode;
}

export interface FieldMaskingSpanNode extends QueryBase {
  readonly type: 'field_masking_span';
  readonly query: SpanQueryNode;
  readonly field: string;
}

/** SpanNearQueryBuilder.SpanGapQueryBuilder: only a span_near clause (no boost, no name). */
export interface SpanGapNode extends QueryBase {
  readonly type: 'span_gap';
  readonly field: string;
  readonly width: number;
}

export type SpanQueryNode =
  | SpanTermNode
  | SpanMultiNode
  | SpanNearNode
  | SpanOrNode
  | SpanNotNode
  | SpanFirstNode
  | SpanContainingNode
  | SpanWithinNode
  | FieldMaskingSpanNode
  | SpanGapNode;

export type QueryNode =
  | SpanQueryNode
  | MatchAllNode
  | MatchNoneNode
  | TermNode
  | TermsNode
  | RangeNode
  | ExistsNode
  | PrefixNode
  | WildcardNode
  | RegexpNode
  | FuzzyNode
  | IdsNode
  | TypeNode
  | MatchNode
  | MatchPhraseNode
  | MatchPhrasePrefixNode
  | MultiMatchNode
  | CommonTermsNode
  | QueryStringNode
  | SimpleQueryStringNode
  | BoolNode
  | ConstantScoreNode
  | DisMaxNode
  | BoostingNode
  | FunctionScoreNode
  | NestedNode
  | HasChildNode
  | HasParentNode
  | ParentIdNode
  | PercolateNode
  | ScriptQueryNode
  | WrapperNode
  | MoreLikeThisNode
  | GeoDistanceNode
  | GeoBoundingBoxNode;

export type QueryType = QueryNode['type'];
