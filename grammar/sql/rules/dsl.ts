/**
 * The typed view of the Chevrotain DSL that the rule files use. Chevrotain declares its DSL
 * methods `protected`, so rules defined outside the parser class (one file per clause family,
 * prettier-java style) reach them through this interface; `parser.ts` is the only place that
 * casts the parser to it. Also home of the small lookahead helpers the GATEs share.
 */
import { tokenMatcher } from '../../chevrotain.js';
import type {
  CstNode,
  DSLMethodOpts,
  DSLMethodOptsWithErr,
  GrammarAction,
  IOrAlt,
  IToken,
  OrMethodOpts,
  ParserMethod,
  TokenType,
} from 'chevrotain';
import * as t from '../tokens.js';

export type Rule = ParserMethod<[], CstNode>;
type Or = (alts: IOrAlt<unknown>[] | OrMethodOpts<unknown>) => unknown;
type Option = (def: GrammarAction<unknown> | DSLMethodOpts<unknown>) => unknown;
type Many = (def: GrammarAction<unknown> | DSLMethodOpts<unknown>) => void;
type AtLeastOne = (def: GrammarAction<unknown> | DSLMethodOptsWithErr<unknown>) => void;
type Consume = (tokType: TokenType) => IToken;
type Subrule = (rule: Rule) => CstNode;

/** The Chevrotain DSL methods the rules use. */
export interface Dsl {
  RULE(name: string, impl: () => void): Rule;
  CONSUME: Consume;
  CONSUME1: Consume;
  CONSUME2: Consume;
  CONSUME3: Consume;
  SUBRULE: Subrule;
  SUBRULE1: Subrule;
  SUBRULE2: Subrule;
  SUBRULE3: Subrule;
  OR: Or;
  OR1: Or;
  OR2: Or;
  OR3: Or;
  OPTION: Option;
  OPTION1: Option;
  OPTION2: Option;
  OPTION3: Option;
  OPTION4: Option;
  OPTION5: Option;
  MANY: Many;
  MANY1: Many;
  MANY2: Many;
  MANY3: Many;
  MANY4: Many;
  AT_LEAST_ONE: AtLeastOne;
  BACKTRACK(rule: Rule): () => boolean;
  LA(k: number): IToken;
}

/** Every grammar rule, by name (names follow SqlBase.g4 rules and alternative labels). */
export interface SqlRules {
  // statement.ts
  singleStatement: Rule;
  singleExpression: Rule;
  statement: Rule;
  explain: Rule;
  debug: Rule;
  showTables: Rule;
  showColumns: Rule;
  showFunctions: Rule;
  showSchemas: Rule;
  sysTables: Rule;
  sysColumns: Rule;
  sysTypes: Rule;
  // query.ts
  query: Rule;
  queryNoWith: Rule;
  limitClause: Rule;
  queryTerm: Rule;
  orderBy: Rule;
  querySpecification: Rule;
  fromClause: Rule;
  groupBy: Rule;
  groupingElement: Rule;
  groupingExpressions: Rule;
  namedQuery: Rule;
  topClause: Rule;
  setQuantifier: Rule;
  selectItems: Rule;
  selectItem: Rule;
  // query-extensions.ts (beyond Elasticsearch SQL)
  offsetClause: Rule;
  fetchClause: Rule;
  unionClause: Rule;
  // relation.ts
  relation: Rule;
  joinRelation: Rule;
  joinType: Rule;
  joinCriteria: Rule;
  relationPrimary: Rule;
  tableName: Rule;
  aliasedQuery: Rule;
  aliasedRelation: Rule;
  pivotClause: Rule;
  pivotArgs: Rule;
  namedValueExpression: Rule;
  // expression.ts
  booleanExpression: Rule;
  booleanPrimary: Rule;
  logicalNot: Rule;
  exists: Rule;
  stringQuery: Rule;
  matchQuery: Rule;
  multiMatchQuery: Rule;
  matchQueryOptions: Rule;
  predicate: Rule;
  likePattern: Rule;
  pattern: Rule;
  patternEscape: Rule;
  valueExpression: Rule;
  // primary.ts
  primaryExpression: Rule;
  builtinDateTimeFunction: Rule;
  castExpression: Rule;
  castTemplate: Rule;
  convertTemplate: Rule;
  extractExpression: Rule;
  extractTemplate: Rule;
  functionExpression: Rule;
  // window.ts (Quarry extension)
  overClause: Rule;
  partitionBy: Rule;
  functionTemplate: Rule;
  functionName: Rule;
  star: Rule;
  subqueryExpression: Rule;
  parenthesizedExpression: Rule;
  case: Rule;
  whenClause: Rule;
  // literal.ts
  constant: Rule;
  booleanValue: Rule;
  interval: Rule;
  intervalField: Rule;
  dataType: Rule;
  qualifiedName: Rule;
  identifier: Rule;
  tableIdentifier: Rule;
  number: Rule;
  string: Rule;
}

/** What a rule file receives: the DSL plus the (partly defined) rule table. */
export type SqlGrammar = Dsl & SqlRules;

// ---------------------------------------------------------------------------------------------
// Lookahead helpers for GATEs (they reproduce decisions ANTLR makes with unbounded lookahead).

/** Can the token start SqlBase.g4 `identifier` (quoted, unquoted or a nonReserved keyword)? */
export function isIdentifierToken(token: IToken): boolean {
  return tokenMatcher(token, t.IdentifierToken);
}

/** SqlBase.g4 `string`: STRING or PARAM. */
export function isStringToken(token: IToken): boolean {
  return token.tokenType === t.StringLiteral || token.tokenType === t.Param;
}

const intervalFields = new Set<TokenType>([
  t.Year,
  t.Years,
  t.Month,
  t.Months,
  t.Day,
  t.Days,
  t.Hour,
  t.Hours,
  t.Minute,
  t.Minutes,
  t.Second,
  t.Seconds,
]);

/**
 * `INTERVAL` starts an interval literal when a value follows (and, after a sign, a unit);
 * otherwise it is the nonReserved identifier `interval` (ANTLR decides with full lookahead).
 */
export function isIntervalAhead($: Dsl): boolean {
  if ($.LA(1).tokenType !== t.Interval) return false;
  const isValue = (token: IToken) =>
    token.tokenType === t.IntegerValue ||
    token.tokenType === t.DecimalValue ||
    isStringToken(token);
  const sign = $.LA(2).tokenType;
  // `interval - 1` may be the column minus one; a value right after INTERVAL cannot follow a column
  if (sign === t.Plus || sign === t.Minus) {
    return isValue($.LA(3)) && intervalFields.has($.LA(4).tokenType);
  }
  return isValue($.LA(2));
}

/** `a.b.*`: identifiers separated by dots and ending in `.*` (SqlBase.g4 `#star`). */
export function isQualifiedStarAhead($: Dsl): boolean {
  let k = 1;
  while (isIdentifierToken($.LA(k)) && $.LA(k + 1).tokenType === t.Dot) {
    if ($.LA(k + 2).tokenType === t.Asterisk) return true;
    k += 2;
  }
  return false;
}

/**
 * Would `rule` parse from the current token? Chevrotain's BACKTRACK, memoised per start token:
 * nested parentheses would otherwise re-run the same trial at every level (exponential time).
 * Tokens are fresh objects for every parse, so a WeakMap needs no reset.
 */
export function parsesAhead($: Dsl, rule: Rule): boolean {
  let memo = backtrackMemo.get(rule);
  if (memo === undefined) backtrackMemo.set(rule, (memo = new WeakMap()));
  const start = $.LA(1);
  let result = memo.get(start);
  if (result === undefined) {
    result = $.BACKTRACK(rule).call($);
    memo.set(start, result);
  }
  return result;
}

const backtrackMemo = new Map<Rule, WeakMap<IToken, boolean>>();

/**
 * A parenthesised sub-select, or a parenthesised expression/relation? ANTLR prefers the
 * sub-select when both parse (`((SELECT 1))`); `(SELECT` can only be one, `((SELECT 1) x)` is
 * decided by trial parses. When neither parses, the sub-select is where ANTLR reports the error.
 */
export function isSubSelectAhead($: Dsl, subSelect: Rule, other: Rule): boolean {
  if ($.LA(1).tokenType !== t.LeftParen || !isQueryAfterParens($, 2)) return false;
  if ($.LA(2).tokenType !== t.LeftParen) return true;
  return parsesAhead($, subSelect) || !parsesAhead($, other);
}

/** Skips opening parentheses from LA(k) and reports whether a query (SELECT or WITH) follows. */
export function isQueryAfterParens($: Dsl, k = 1): boolean {
  while ($.LA(k).tokenType === t.LeftParen) k++;
  const type = $.LA(k).tokenType;
  return type === t.Select || type === t.With;
}

/**
 * Optional aliases (`AS? identifier`) may be nonReserved keywords that also start the next clause;
 * ANTLR takes the clause when the alias reading cannot continue: `LIMIT 5`, `PIVOT (`,
 * `FULL OUTER JOIN`.
 */
const unionFollowers = new Set([t.Select, t.All, t.Distinct, t.LeftParen]);

export function isAliasAhead($: Dsl): boolean {
  const la1 = $.LA(1);
  if (la1.tokenType === t.As) return true;
  if (!isIdentifierToken(la1)) return false;
  const la2 = $.LA(2).tokenType;
  if (la1.tokenType === t.Limit) return la2 !== t.IntegerValue && la2 !== t.All;
  if (la1.tokenType === t.Pivot) return la2 !== t.LeftParen;
  if (la1.tokenType === t.Full) return la2 !== t.Outer;
  // Quarry's extensions: `OFFSET 5`, `FETCH FIRST`, `UNION [ALL] SELECT` start a clause
  if (la1.tokenType === t.Offset) return la2 !== t.IntegerValue;
  if (la1.tokenType === t.Fetch) return la2 !== t.First && la2 !== t.Next;
  if (la1.tokenType === t.Union) return !unionFollowers.has(la2);
  return true;
}
