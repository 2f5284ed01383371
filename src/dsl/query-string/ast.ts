/**
 * The plain AST both query-string languages (`query_string` / URI `q=` and
 * `simple_query_string`) parse into. Leaves hold unanalyzed text: the engine analyzes (or
 * normalizes) it per target field the way Elasticsearch's `QueryStringQueryParser` /
 * `SimpleQueryStringQueryParser` do. `field: null` means "the default field(s)".
 *
 * Per-field work left to the engine (ES 6.8 / Lucene 7.7): Term and Phrase text is analyzed
 * (`match` / `match_phrase` like); fuzzy Term, Prefix, Regexp and Range bounds are only
 * normalized (`Analyzer.normalize`); Wildcard text is normalized between its `*`, `?` and
 * escaped chars (Lucene `analyzeWildcard`). Field names may be patterns (`city.*`, `*`).
 */

export type Occur = 'must' | 'should' | 'must_not';

export interface QsClause {
  readonly occur: Occur;
  readonly node: QsNode;
  /**
   * Set on a run of whitespace-separated plain terms (Lucene `MultiTerm`, splitOnWhitespace=false).
   * The node is a `Term` whose text holds all the words. Lucene `addMultiTermClauses`: when the
   * analyzed query is a BooleanQuery, its clauses are added to this clause list one by one with
   * this clause's occur (this matters for `minimum_should_match`); otherwise it is one clause.
   */
  readonly splice?: true;
}

export interface TermNode {
  readonly kind: 'Term';
  readonly field: string | null;
  /** Unescaped text; may hold several words (see `QsClause.splice`). Analyzed like `match`. */
  readonly text: string;
  readonly boost?: number;
  /**
   * Fuzzy query (`term~`, `term~1`): the text is normalized, not analyzed. `'AUTO'` means the
   * request's `fuzziness` setting applies (ES default `AUTO`), to be resolved against `text` with
   * `asDistance` (src/search/automata/fuzziness.ts).
   */
  readonly fuzzy?: { readonly edits: number | 'AUTO' };
  readonly quoted?: false;
}

export interface PhraseNode {
  readonly kind: 'Phrase';
  readonly field: string | null;
  readonly text: string;
  /** Explicit `"..."~N`; absent means the request's `phrase_slop` (default 0). */
  readonly slop?: number;
  readonly boost?: number;
}

/** `foo*`: `text` is the literal, unescaped prefix (normalized, not analyzed). */
export interface PrefixNode {
  readonly kind: 'Prefix';
  readonly field: string | null;
  readonly text: string;
  readonly boost?: number;
}

/** `f?o*bar`: `text` keeps its `\` escapes (WildcardQuery syntax). */
export interface WildcardNode {
  readonly kind: 'Wildcard';
  readonly field: string | null;
  readonly text: string;
  readonly boost?: number;
}

/** `/ab.+/`: `text` is the Lucene RegExp source between the slashes, flags ALL. */
export interface RegexpNode {
  readonly kind: 'Regexp';
  readonly field: string | null;
  readonly text: string;
  readonly boost?: number;
}

export interface RangeNode {
  readonly kind: 'Range';
  readonly field: string | null;
  readonly lower: string | null;
  readonly upper: string | null;
  readonly includeLower: boolean;
  readonly includeUpper: boolean;
  readonly boost?: number;
}

export interface ExistsNode {
  readonly kind: 'Exists';
  /** May be a pattern (`city.*`), resolved like ES `ExistsQueryBuilder.newFilter`. */
  readonly field: string;
  readonly boost?: number;
}

export interface MatchAllNode {
  readonly kind: 'MatchAll';
  readonly boost?: number;
}

/** Matches nothing (ES `MatchNoDocsQuery`: empty query string, lenient failures). */
export interface MatchNoneNode {
  readonly kind: 'MatchNone';
}

/**
 * Lucene BooleanQuery. Never empty. A Bool of only `must_not` clauses gets a `must` MatchAll
 * clause, as ES `Queries.fixNegativeQueryIfNeeded` adds one in `getBooleanQuery`.
 */
export interface BoolNode {
  readonly kind: 'Bool';
  readonly clauses: readonly QsClause[];
  readonly boost?: number;
}

export type QsNode =
  | TermNode
  | PhraseNode
  | PrefixNode
  | WildcardNode
  | RegexpNode
  | RangeNode
  | ExistsNode
  | MatchAllNode
  | MatchNoneNode
  | BoolNode;

/** The leaves that analysis can turn into no query at all (ES returns null for them). */
export type QsAnalyzedLeaf = TermNode | PhraseNode | PrefixNode;

/** Lucene's BoostQuery nesting multiplies boosts (float arithmetic). */
export function withBoost<T extends QsNode>(node: T, boost: number): T {
  if (node.kind === 'MatchNone') return node;
  const prev = (node as { boost?: number }).boost;
  const b = prev === undefined ? Math.fround(boost) : Math.fround(prev * boost);
  return { ...node, boost: b };
}
