/**
 * Describes a Chevrotain syntax error the way ES's ANTLR 4.5 parser words it:
 * `mismatched input 'X' expecting {...}`, `extraneous input 'X' expecting {...}`,
 * `missing 'X' at 'Y'` or `no viable alternative at input '...'`. Expected sets are the
 * full-context tokens that may follow the input read so far (Chevrotain content assist), shown
 * and ordered like ANTLR's vocabulary. Which wording ANTLR picks depends on where its generated
 * code re-synchronises (loops and non-LL(1) decisions) versus matches a token or switches on
 * LA(1); the tables below record that per rule of SqlBase.g4's generated parser.
 */
import { EOF, tokenMatcher } from '../chevrotain.js';
import type { IRecognitionException, IToken, TokenType } from 'chevrotain';
import { antlrInfoOf, allTokens } from './tokens.js';
import * as t from './tokens.js';
import { sqlParser } from './parser.js';

export interface SyntaxErrorInfo {
  /** Offset of the offending token (the input length for end of input). */
  readonly offset: number;
  /** Index of the offending token in the token list (its length for end of input). */
  readonly tokenIndex: number;
  readonly message: string;
  /** The ANTLR exception ES reports as `caused_by`, or null (ANTLR reports none). */
  readonly cause: 'input_mismatch_exception' | 'no_viable_alt_exception' | null;
}

/** ANTLR's getTokenErrorDisplay: the text quoted, with \n, \r and \t escaped. */
export function tokenDisplay(token: IToken | undefined): string {
  if (token === undefined || token.tokenType === EOF) return "'<EOF>'";
  return `'${escapeWhitespace(token.image)}'`;
}

function escapeWhitespace(text: string): string {
  return text.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

function fakeToken(type: TokenType): IToken {
  return { tokenType: type, tokenTypeIdx: type.tokenTypeIdx!, image: '', startOffset: 0 } as IToken;
}

// Every concrete token a grammar terminal stands for (categories expand to their members).
const concrete = new Map<TokenType, TokenType[]>();
function concreteTypes(type: TokenType): TokenType[] {
  if (type === EOF) return [EOF];
  let types = concrete.get(type);
  if (!types) {
    types = allTokens.filter((c) => antlrInfoOf(c) && tokenMatcher(fakeToken(c), type));
    concrete.set(type, types);
  }
  return types;
}

const order = (type: TokenType) => (type === EOF ? -1 : antlrInfoOf(type)!.type);

/** The tokens that may come next after `preceding` (full context), in ANTLR order. */
export function expectedTokens(preceding: IToken[], startRule: string): TokenType[] {
  const found = new Set<TokenType>();
  for (const next of sqlParser().nextTokenTypes(startRule as 'singleStatement', preceding)) {
    for (const type of concreteTypes(next)) found.add(type);
  }
  return [...found].sort((a, b) => order(a) - order(b));
}

/** ANTLR's IntervalSet.toString(vocabulary). */
export function formatExpected(types: readonly TokenType[]): string {
  const names = types.map((type) => (type === EOF ? '<EOF>' : antlrInfoOf(type)!.display));
  return names.length === 1 ? names[0]! : `{${names.join(', ')}}`;
}

function matchesAny(token: IToken | undefined, types: readonly TokenType[]): boolean {
  const type = token?.tokenType ?? EOF;
  return types.some((e) =>
    e === EOF ? type === EOF : token !== undefined && tokenMatcher(token, e),
  );
}

// Rules whose failing decision ANTLR precedes with a sync (adaptivePredict decisions).
const SYNCED_RULES = new Set([
  'statement',
  'booleanExpression',
  'booleanPrimary',
  'relationPrimary',
  'groupingExpressions',
  'predicate',
  'castExpression',
  'tableIdentifier',
]);

// Rules whose failing choice is a token set ANTLR matches inline (`(A | B)`), recovering like
// a failed match.
const TOKEN_SET_RULES = new Set([
  'intervalField',
  'booleanValue',
  'setQuantifier',
  'string',
  'limitClause',
  'explain',
  'debug',
  'showColumns',
  'orderBy',
]);

// Tokens that can only continue a finished phrase; when the expected set has one, ANTLR has
// passed a loop or decision that re-synchronises and reports the whole set.
const CONTINUATIONS = new Set<TokenType>([
  EOF,
  t.Comma,
  t.CastOp,
  t.And,
  t.Or,
  t.Slash,
  t.Percent,
  t.Eq,
  t.NullEq,
  t.Neq,
  t.Lt,
  t.Lte,
  t.Gt,
  t.Gte,
]);

interface Context {
  affordable: boolean;
  readonly text: string;
  readonly tokens: IToken[];
  readonly startRule: string;
  readonly index: number;
  readonly offset: number;
  readonly offending: IToken | undefined;
}

/** Describes the first syntax error of a failed parse of `tokens`. */
export function describeSyntaxError(
  text: string,
  tokens: IToken[],
  error: IRecognitionException,
  startRule = 'singleStatement',
): SyntaxErrorInfo {
  const atEnd = error.token.tokenType === EOF;
  const index = atEnd ? tokens.length : tokens.indexOf(error.token);
  const c: Context = {
    affordable: true,
    text,
    tokens,
    startRule,
    index,
    offset: atEnd ? text.length : error.token.startOffset,
    offending: tokens[index],
  };
  // the token(s) Chevrotain wanted, as named in its message (first token of each sequence)
  const wanted = [...error.message.matchAll(/(?:-->\s*|\[)(\w+)/g)].map((m) =>
    m[1] === 'EOF' ? EOF : allTokens.find((x) => x.name === m[1]),
  );
  const known = [...new Set(wanted.flatMap((w) => (w === undefined ? [] : concreteTypes(w))))].sort(
    (a, b) => order(a) - order(b),
  );
  // content assist grows with input length and nesting: past a budget, use Chevrotain's own
  // expected tokens (the message then lists fewer tokens than ES's)
  const affordable = index <= 1000 && parenDepth(tokens, index) <= 48;
  c.affordable = affordable;
  const possible = affordable ? expectedTokens(tokens.slice(0, index), startRule) : known;
  const expected = committedExpected(c, possible);
  const rule = error.context.ruleStack[error.context.ruleStack.length - 1] ?? '';

  if (error.name === 'NoViableAltException') {
    if (TOKEN_SET_RULES.has(rule) && known.length > 0) return matchFailure(c, known);
    const start = rule === 'predicate' ? predicateStart(tokens, index) : index;
    // ANTLR never re-synchronises at the end of input (DefaultErrorStrategy.sync)
    if (SYNCED_RULES.has(rule) && start === index && !atEnd && !matchesAny(c.offending, expected)) {
      return syncFailure(c, expected);
    }
    return noViableAlternative(c, start);
  }
  if (error.name === 'EarlyExitException' && known.length > 0) return matchFailure(c, known);
  // an identifier is an LL(1) switch in ANTLR (no viable alternative), one token here
  if (
    error.name === 'MismatchedTokenException' &&
    /-->\s*IdentifierToken\s*<--/.test(error.message)
  ) {
    return noViableAlternative(c, index);
  }
  if (error.name === 'MismatchedTokenException' && known[0] !== undefined) {
    // at the end of input ANTLR only fails matches; elsewhere a passed loop re-synchronises
    // first; commands end with LL(1) optionals only, which never re-synchronise
    if (
      known[0] === EOF
        ? isLoopFreeCommand(tokens)
        : atEnd || !expected.some((e) => CONTINUATIONS.has(e))
    ) {
      return matchFailure(c, [known[0]]);
    }
  }
  return atEnd ? noViableAlternative(c, index) : syncFailure(c, expected);
}

// ANTLR predicts a predicate (`NOT? BETWEEN ... | NOT? IN (...) | ... | IS NOT? NULL`) as one
// decision from its first token.
const PREDICATE_KEYWORDS = new Set<TokenType>([t.Between, t.In, t.Like, t.Rlike, t.Is]);
function predicateStart(tokens: IToken[], index: number): number {
  let k = index;
  // at the end of input `index` is one past the last token
  const type = (i: number) => tokens[i]?.tokenType;
  while (k > 0 && !PREDICATE_KEYWORDS.has(type(k)!) && type(k) !== t.Not) {
    if (index - k > 3) return index;
    k--;
  }
  if (tokens[k - 1]?.tokenType === t.Not) k--;
  return k;
}

function isLoopFreeCommand(tokens: IToken[]): boolean {
  const first = tokens[0]?.tokenType;
  const isCommand = first === t.Show || first === t.Sys || first === t.Describe || first === t.Desc;
  return isCommand && !tokens.some((x) => x.tokenType === t.Comma);
}

/**
 * ANTLR computes expected tokens from the state it committed to, while content assist still
 * offers every reading of the input. After `name` followed by something else, ANTLR read `name`
 * as a column or table, so `(` (a call), `.` (a qualified name) and `:` (a catalog) are gone;
 * after `INTERVAL`, `TOP` or `LIMIT` followed by no value they are plain identifiers; after
 * GROUP BY it has passed the optional ALL/DISTINCT.
 */
function committedExpected(c: Context, expected: TokenType[]): TokenType[] {
  const previous = c.tokens[c.index - 1];
  const next = c.offending;
  if (previous === undefined || (next !== undefined && matchesAny(next, expected))) return expected;
  const dropped = new Set<TokenType>();
  if (isName(previous)) [t.LeftParen, t.Dot, t.Colon].forEach((x) => dropped.add(x));
  const type = previous.tokenType;
  if (type === t.Interval) {
    [t.Param, t.StringLiteral, t.IntegerValue, t.DecimalValue].forEach((x) => dropped.add(x));
  }
  if (type === t.Top || type === t.Limit) [t.IntegerValue, t.All].forEach((x) => dropped.add(x));
  if (type === t.By) [t.All, t.Distinct].forEach((x) => dropped.add(x));
  return dropped.size === 0 ? expected : expected.filter((e) => !dropped.has(e));
}

/**
 * DefaultErrorStrategy.sync: at a loop's back edge the token is reported extraneous outright;
 * elsewhere single-token deletion is tried, else an input mismatch over the set.
 */
function syncFailure(c: Context, expected: TokenType[]): SyntaxErrorInfo {
  const shown = tokenDisplay(c.offending);
  const previous = c.tokens[c.index - 1];
  // ORDER BY x DESC: ANTLR skipped the optional NULLS (no re-sync) before the list loop
  if (previous?.tokenType === t.Asc || previous?.tokenType === t.Desc) {
    expected = expected.filter((e) => e !== t.Nulls);
  }
  if (c.offending !== undefined && atLoopBackEdge(c)) {
    return info(c, `extraneous input ${shown} expecting ${formatExpected(expected)}`, null);
  }
  if (c.offending !== undefined && matchesAny(c.tokens[c.index + 1], expected)) {
    return info(c, `extraneous input ${shown} expecting ${formatExpected(expected)}`, null);
  }
  return info(
    c,
    `mismatched input ${shown} expecting ${formatExpected(expected)}`,
    'input_mismatch_exception',
  );
}

const isName = (token: IToken | undefined) =>
  token !== undefined &&
  (token.tokenType === t.Identifier ||
    token.tokenType === t.QuotedIdentifier ||
    tokenMatcher(token, t.NonReserved) ||
    tokenMatcher(token, t.ExtensionKeyword));

const ENDS_VALUE = new Set<TokenType>([
  t.RightParen,
  t.IntegerValue,
  t.DecimalValue,
  t.StringLiteral,
  t.Null,
  t.True,
  t.False,
  t.Asterisk,
  t.Identifier,
  t.QuotedIdentifier,
]);

/**
 * Is ANTLR re-synchronising at the back edge of a loop after the last token? That is the case
 * after a string (the `STRING+` loop), and after an item of a comma list (select list, ORDER BY)
 * that does not end with an expression (an alias, ASC/DESC) when it is not the list's first.
 */
function atLoopBackEdge(c: Context): boolean {
  const previous = c.tokens[c.index - 1];
  if (previous === undefined) return false;
  if (previous.tokenType === t.StringLiteral) return true;
  const beforePrevious = c.tokens[c.index - 2];
  const alias =
    isName(previous) &&
    beforePrevious !== undefined &&
    (beforePrevious.tokenType === t.As ||
      ENDS_VALUE.has(beforePrevious.tokenType) ||
      isName(beforePrevious));
  const ordering = previous.tokenType === t.Asc || previous.tokenType === t.Desc;
  return (alias || ordering) && commasInCurrentList(c.tokens, c.index) > 0;
}

// Commas between the start of the current list (SELECT, BY or an open parenthesis) and `index`.
function commasInCurrentList(tokens: IToken[], index: number): number {
  let depth = 0;
  let commas = 0;
  for (let k = index - 1; k >= 0; k--) {
    const type = tokens[k]!.tokenType;
    if (type === t.RightParen) depth++;
    else if (type === t.LeftParen) {
      if (depth-- === 0) return commas;
    } else if (depth === 0) {
      if (type === t.Comma) commas++;
      else if (type === t.Select || type === t.By) return commas;
    }
  }
  return commas;
}

/** DefaultErrorStrategy.recoverInline after a failed match of `wanted`. */
function matchFailure(c: Context, wanted: TokenType[]): SyntaxErrorInfo {
  const shown = tokenDisplay(c.offending);
  if (c.offending !== undefined && matchesAny(c.tokens[c.index + 1], wanted)) {
    return info(c, `extraneous input ${shown} expecting ${formatExpected(wanted)}`, null);
  }
  // single-token insertion: the offending token fits right after the missing one
  const withMissing = [...c.tokens.slice(0, c.index), fakeToken(wanted[0]!)];
  const insertable = c.affordable && wanted[0] !== EOF;
  if (insertable && matchesAny(c.offending, expectedTokens(withMissing, c.startRule))) {
    return info(c, `missing ${formatExpected(wanted)} at ${shown}`, null);
  }
  return info(
    c,
    `mismatched input ${shown} expecting ${formatExpected(wanted)}`,
    'input_mismatch_exception',
  );
}

/**
 * A failed prediction: ANTLR reports the input from the decision's first token to the first
 * token no alternative accepts.
 */
function noViableAlternative(c: Context, startIndex: number): SyntaxErrorInfo {
  let offending = c.index;
  for (let k = c.index; c.affordable && k < c.tokens.length && k < c.index + 16; k++) {
    if (!matchesAny(c.tokens[k], expectedTokens(c.tokens.slice(0, k), c.startRule))) break;
    offending = k + 1;
  }
  const start = c.tokens[startIndex];
  const stop = c.tokens[offending];
  const input =
    start === undefined
      ? '<EOF>'
      : c.text.substring(
          start.startOffset,
          stop === undefined ? c.text.length : stop.endOffset! + 1,
        );
  return {
    offset: stop === undefined ? c.text.length : stop.startOffset,
    tokenIndex: offending,
    message: `no viable alternative at input '${escapeWhitespace(input)}'`,
    cause: 'no_viable_alt_exception',
  };
}

function info(c: Context, message: string, cause: SyntaxErrorInfo['cause']): SyntaxErrorInfo {
  return { offset: c.offset, tokenIndex: c.index, message, cause };
}

// The deepest parenthesis nesting before `index`.
function parenDepth(tokens: IToken[], index: number): number {
  let depth = 0;
  let max = 0;
  for (let k = 0; k < index; k++) {
    const type = tokens[k]!.tokenType;
    if (type === t.LeftParen) max = Math.max(max, ++depth);
    else if (type === t.RightParen) depth--;
  }
  return max;
}
