/**
 * The Elasticsearch SQL token vocabulary (SqlBase.g4 lexer rules, ES 7.10), for Chevrotain.
 * Keywords are case-insensitive (ES upper-cases the stream: CaseInsensitiveStream) and carry
 * `longer_alt: Identifier`; the `nonReserved` keywords also carry the `NonReserved` category so
 * the parser accepts them wherever an identifier is allowed. Every token records its ANTLR token
 * type and display name so syntax errors can list expected tokens the way ANTLR does.
 */
import { createToken, Lexer } from '../chevrotain.js';
import type { CustomPatternMatcherFunc, TokenType } from 'chevrotain';

/** ANTLR facts about a token: its token type (vocabulary order) and how ANTLR displays it. */
export interface AntlrInfo {
  readonly type: number;
  readonly display: string;
}

const antlrInfo = new Map<TokenType, AntlrInfo>();

/** ANTLR display name and token type of a Chevrotain token type (EOF is type -1). */
export function antlrInfoOf(tokenType: TokenType): AntlrInfo | undefined {
  return antlrInfo.get(tokenType);
}

// ---------------------------------------------------------------------------------------------
// Categories (no pattern of their own).

/** SqlBase.g4 `nonReserved`: keywords usable as identifiers. */
export const NonReserved = createToken({ name: 'NonReserved', pattern: Lexer.NA });

/**
 * DEVIATION: every token SqlBase.g4's `identifier` accepts (IDENTIFIER, quoted, backquoted,
 * DIGIT_IDENTIFIER, nonReserved keywords) shares this category, so an identifier is one
 * CONSUME instead of three nested rules (quoteIdentifier, unquoteIdentifier, nonReserved).
 */
export const IdentifierToken = createToken({ name: 'IdentifierToken', pattern: Lexer.NA });

/**
 * DEVIATION: AND/OR, and the arithmetic and comparison operators, share a category each so the
 * parser reads `a op b op c` as one flat list; the AST builder applies SqlBase.g4's precedence.
 */
export const LogicalOperator = createToken({ name: 'LogicalOperator', pattern: Lexer.NA });
export const BinaryOperator = createToken({ name: 'BinaryOperator', pattern: Lexer.NA });

// ---------------------------------------------------------------------------------------------
// Identifiers first: keywords reference Identifier as their longer alternative.

// SqlBase.g4: IDENTIFIER : (LETTER | '_') (LETTER | DIGIT | '_' | '@')*
export const Identifier = createToken({
  name: 'Identifier',
  pattern: /[A-Za-z_][A-Za-z0-9_@]*/,
  categories: [IdentifierToken],
});

// ---------------------------------------------------------------------------------------------
// Keywords, in SqlBase.g4 order (which is also ANTLR's token type order).

// SqlBase.g4 `nonReserved` rule: these keywords also work as identifiers.
const NON_RESERVED = new Set([
  'ANALYZE',
  'ANALYZED',
  'CATALOGS',
  'COLUMNS',
  'CURRENT_DATE',
  'CURRENT_TIME',
  'CURRENT_TIMESTAMP',
  'DAY',
  'DEBUG',
  'EXECUTABLE',
  'EXPLAIN',
  'FIRST',
  'FORMAT',
  'FULL',
  'FUNCTIONS',
  'GRAPHVIZ',
  'HOUR',
  'INTERVAL',
  'LAST',
  'LIMIT',
  'MAPPED',
  'MINUTE',
  'MONTH',
  'OPTIMIZED',
  'PARSED',
  'PHYSICAL',
  'PIVOT',
  'PLAN',
  'QUERY',
  'RLIKE',
  'SCHEMAS',
  'SECOND',
  'SHOW',
  'SYS',
  'TABLES',
  'TEXT',
  'TOP',
  'TYPE',
  'TYPES',
  'VERIFY',
  'YEAR',
]);

/** Keywords that SqlBase.g4 accepts as identifiers (its `nonReserved` rule). */
export const nonReservedKeywords: ReadonlySet<string> = NON_RESERVED;

const keywordTokens: TokenType[] = [];

function keyword(word: string, categories: TokenType[] = []): TokenType {
  const name = word
    .toLowerCase()
    .split('_')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
  const token = createToken({
    name,
    pattern: new RegExp(word, 'i'),
    longer_alt: Identifier,
    categories: NON_RESERVED.has(word) ? [NonReserved, IdentifierToken, ...categories] : categories,
  });
  keywordTokens.push(token);
  return token;
}

/**
 * Quarry's keywords beyond Elasticsearch SQL (OFFSET, FETCH FIRST, UNION, ...). They lex as
 * identifiers would (`IdentifierToken`), so `offset` stays a valid column name, and carry no
 * ANTLR vocabulary entry, so the `expecting {...}` lists of ES's syntax errors are unchanged.
 */
export const ExtensionKeyword = createToken({ name: 'ExtensionKeyword', pattern: Lexer.NA });
const extensionTokens: TokenType[] = [];
function extensionKeyword(word: string): TokenType {
  const name = word.charAt(0) + word.slice(1).toLowerCase();
  const token = createToken({
    name,
    pattern: new RegExp(word, 'i'),
    longer_alt: Identifier,
    categories: [ExtensionKeyword, IdentifierToken],
  });
  extensionTokens.push(token);
  return token;
}
export const Offset = extensionKeyword('OFFSET');
export const Fetch = extensionKeyword('FETCH');
export const Next = extensionKeyword('NEXT');
export const Rows = extensionKeyword('ROWS');
export const Row = extensionKeyword('ROW');
export const Only = extensionKeyword('ONLY');
export const Union = extensionKeyword('UNION');

// Literal tokens of the parser rules come first in ANTLR's vocabulary (T__0..T__3).
export const LeftParen = createToken({ name: 'LeftParen', pattern: '(' });
export const RightParen = createToken({ name: 'RightParen', pattern: ')' });
export const Comma = createToken({ name: 'Comma', pattern: ',' });
export const Colon = createToken({ name: 'Colon', pattern: ':' });

export const All = keyword('ALL');
export const Analyze = keyword('ANALYZE');
export const Analyzed = keyword('ANALYZED');
export const And = keyword('AND', [LogicalOperator]);
export const Any = keyword('ANY');
export const As = keyword('AS');
export const Asc = keyword('ASC');
export const Between = keyword('BETWEEN');
export const By = keyword('BY');
export const Case = keyword('CASE');
export const Cast = keyword('CAST');
export const Catalog = keyword('CATALOG');
export const Catalogs = keyword('CATALOGS');
export const Columns = keyword('COLUMNS');
export const Convert = keyword('CONVERT');
export const CurrentDate = keyword('CURRENT_DATE');
export const CurrentTime = keyword('CURRENT_TIME');
export const CurrentTimestamp = keyword('CURRENT_TIMESTAMP');
export const Day = keyword('DAY');
export const Days = keyword('DAYS');
export const Debug = keyword('DEBUG');
export const Desc = keyword('DESC');
export const Describe = keyword('DESCRIBE');
export const Distinct = keyword('DISTINCT');
export const Else = keyword('ELSE');
export const End = keyword('END');
export const Escape = keyword('ESCAPE');
export const Executable = keyword('EXECUTABLE');
export const Exists = keyword('EXISTS');
export const Explain = keyword('EXPLAIN');
export const Extract = keyword('EXTRACT');
export const False = keyword('FALSE');
export const First = keyword('FIRST');
export const For = keyword('FOR');
export const Format = keyword('FORMAT');
export const From = keyword('FROM');
export const Frozen = keyword('FROZEN');
export const Full = keyword('FULL');
export const Functions = keyword('FUNCTIONS');
export const Graphviz = keyword('GRAPHVIZ');
export const Group = keyword('GROUP');
export const Having = keyword('HAVING');
export const Hour = keyword('HOUR');
export const Hours = keyword('HOURS');
export const In = keyword('IN');
export const Include = keyword('INCLUDE');
export const Inner = keyword('INNER');
export const Interval = keyword('INTERVAL');
export const Is = keyword('IS');
export const Join = keyword('JOIN');
export const Last = keyword('LAST');
export const Left = keyword('LEFT');
export const Like = keyword('LIKE');
export const Limit = keyword('LIMIT');
export const Mapped = keyword('MAPPED');
export const Match = keyword('MATCH');
export const Minute = keyword('MINUTE');
export const Minutes = keyword('MINUTES');
export const Month = keyword('MONTH');
export const Months = keyword('MONTHS');
export const Natural = keyword('NATURAL');
export const Not = keyword('NOT');
export const Null = keyword('NULL');
export const Nulls = keyword('NULLS');
export const On = keyword('ON');
export const Optimized = keyword('OPTIMIZED');
export const Or = keyword('OR', [LogicalOperator]);
export const Order = keyword('ORDER');
export const Outer = keyword('OUTER');
export const Parsed = keyword('PARSED');
export const Physical = keyword('PHYSICAL');
export const Pivot = keyword('PIVOT');
export const Plan = keyword('PLAN');
export const Right = keyword('RIGHT');
export const Rlike = keyword('RLIKE');
export const Query = keyword('QUERY');
export const Schemas = keyword('SCHEMAS');
export const Second = keyword('SECOND');
export const Seconds = keyword('SECONDS');
export const Select = keyword('SELECT');
export const Show = keyword('SHOW');
export const Sys = keyword('SYS');
export const Table = keyword('TABLE');
export const Tables = keyword('TABLES');
export const Text = keyword('TEXT');
export const Then = keyword('THEN');
export const True = keyword('TRUE');
export const To = keyword('TO');
export const Top = keyword('TOP');
export const Type = keyword('TYPE');
export const Types = keyword('TYPES');
export const Using = keyword('USING');
export const Verify = keyword('VERIFY');
export const When = keyword('WHEN');
export const Where = keyword('WHERE');
export const With = keyword('WITH');
export const Year = keyword('YEAR');
export const Years = keyword('YEARS');

// ---------------------------------------------------------------------------------------------
// ODBC escape sequences. SqlBase.g4: ESC_START : '{' (WS)* ; X_ESC : ESC_START 'X'

const escape = (name: string, word: string) =>
  createToken({ name, pattern: new RegExp(`\\{[ \\r\\n\\t]*${word}`, 'i'), line_breaks: true });

export const EscapeEsc = escape('EscapeEsc', 'ESCAPE');
export const FunctionEsc = escape('FunctionEsc', 'FN');
export const LimitEsc = escape('LimitEsc', 'LIMIT');
export const DateEsc = escape('DateEsc', 'D');
export const TimeEsc = escape('TimeEsc', 'T');
export const TimestampEsc = escape('TimestampEsc', 'TS');
export const GuidEsc = escape('GuidEsc', 'GUID');
export const EscStart = createToken({
  name: 'EscStart',
  pattern: /\{[ \r\n\t]*/,
  line_breaks: true,
});
export const EscEnd = createToken({ name: 'EscEnd', pattern: '}' });

// ---------------------------------------------------------------------------------------------
// Operators.

export const Eq = createToken({ name: 'Eq', pattern: '=', categories: [BinaryOperator] });
export const NullEq = createToken({ name: 'NullEq', pattern: '<=>', categories: [BinaryOperator] });
export const Neq = createToken({ name: 'Neq', pattern: /<>|!=/, categories: [BinaryOperator] });
export const Lt = createToken({ name: 'Lt', pattern: '<', categories: [BinaryOperator] });
export const Lte = createToken({ name: 'Lte', pattern: '<=', categories: [BinaryOperator] });
export const Gt = createToken({ name: 'Gt', pattern: '>', categories: [BinaryOperator] });
export const Gte = createToken({ name: 'Gte', pattern: '>=', categories: [BinaryOperator] });
export const Plus = createToken({ name: 'Plus', pattern: '+', categories: [BinaryOperator] });
export const Minus = createToken({ name: 'Minus', pattern: '-', categories: [BinaryOperator] });
export const Asterisk = createToken({
  name: 'Asterisk',
  pattern: '*',
  categories: [BinaryOperator],
});
export const Slash = createToken({ name: 'Slash', pattern: '/', categories: [BinaryOperator] });
export const Percent = createToken({ name: 'Percent', pattern: '%', categories: [BinaryOperator] });
export const CastOp = createToken({ name: 'CastOp', pattern: '::' });
export const Concat = createToken({ name: 'Concat', pattern: '||' });
export const Dot = createToken({ name: 'Dot', pattern: '.' });
export const Param = createToken({ name: 'Param', pattern: '?' });

// ---------------------------------------------------------------------------------------------
// Literals and identifiers.

/**
 * `q ( ~q | q q )* q`, scanned with indexOf: a backtracking RegExp overflows V8's regexp stack on a
 * literal of a few megabytes (a 500 `Maximum call stack size exceeded` on a 10 MB string).
 */
function quotedMatcher(q: string): CustomPatternMatcherFunc {
  return (text, offset) => {
    if (text[offset] !== q) return null;
    for (let i = text.indexOf(q, offset + 1); i >= 0; i = text.indexOf(q, i + 2)) {
      if (text[i + 1] !== q) return [text.substring(offset, i + 1)];
    }
    return null;
  };
}

// SqlBase.g4: STRING : '\'' ( ~'\'' | '\'\'' )* '\''
export const StringLiteral = createToken({
  name: 'StringLiteral',
  pattern: quotedMatcher("'"),
  line_breaks: true,
  start_chars_hint: ["'"],
});

/*
 * INTEGER_VALUE, DECIMAL_VALUE and DIGIT_IDENTIFIER overlap; ANTLR takes the longest match and
 * breaks ties by rule order (INTEGER_VALUE, DECIMAL_VALUE, ..., DIGIT_IDENTIFIER). Chevrotain takes
 * the first pattern that matches, so the three share one scanner that applies ANTLR's rule.
 */
const isDigit = (c: number) => c >= 48 && c <= 57;
const isIdentChar = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || isDigit(c) || c === 95 || c === 64;

function digitsEnd(text: string, i: number): number {
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i;
}

// fragment EXPONENT : 'E' [+-]? DIGIT+ ; returns the position after it, or `i` when absent
function exponentEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c !== 69 && c !== 101) return i;
  let j = i + 1;
  const s = text.charCodeAt(j);
  if (s === 43 || s === 45) j++;
  const end = digitsEnd(text, j);
  return end > j ? end : i;
}

type NumberKind = 'integer' | 'decimal' | 'digitIdentifier';
let scanText = '';
let scanOffset = -1;
let scanKind: NumberKind | null = null;
let scanLength = 0;

function scanNumber(text: string, offset: number): void {
  if (text === scanText && offset === scanOffset) return;
  scanText = text;
  scanOffset = offset;
  const intEnd = digitsEnd(text, offset);
  const intLen = intEnd - offset;
  let decLen = 0;
  if (intLen > 0) {
    if (text.charCodeAt(intEnd) === 46) {
      const fracEnd = digitsEnd(text, intEnd + 1);
      decLen = exponentEnd(text, fracEnd) - offset;
    } else {
      const expEnd = exponentEnd(text, intEnd);
      if (expEnd > intEnd) decLen = expEnd - offset;
    }
  } else if (text.charCodeAt(offset) === 46 && isDigit(text.charCodeAt(offset + 1))) {
    const fracEnd = digitsEnd(text, offset + 1);
    decLen = exponentEnd(text, fracEnd) - offset;
  }
  let digLen = 0;
  if (intLen > 0) {
    let j = offset + 1;
    while (j < text.length && isIdentChar(text.charCodeAt(j))) j++;
    if (j - offset >= 2) digLen = j - offset;
  }
  // ties go to the rule defined first: INTEGER_VALUE, then DECIMAL_VALUE, then DIGIT_IDENTIFIER
  scanKind = null;
  scanLength = 0;
  if (intLen > 0) [scanKind, scanLength] = ['integer', intLen];
  if (decLen > scanLength) [scanKind, scanLength] = ['decimal', decLen];
  if (digLen > scanLength) [scanKind, scanLength] = ['digitIdentifier', digLen];
}

function numberMatcher(kind: NumberKind): CustomPatternMatcherFunc {
  return (text, offset) => {
    scanNumber(text, offset);
    return scanKind === kind ? [text.substring(offset, offset + scanLength)] : null;
  };
}

const DIGIT_CHARS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

// SqlBase.g4: INTEGER_VALUE : DIGIT+
export const IntegerValue = createToken({
  name: 'IntegerValue',
  pattern: numberMatcher('integer'),
  line_breaks: false,
  start_chars_hint: DIGIT_CHARS,
});
// SqlBase.g4: DECIMAL_VALUE : DIGIT+ DOT DIGIT* | DOT DIGIT+ | DIGIT+ (DOT DIGIT*)? EXPONENT | DOT DIGIT+ EXPONENT
export const DecimalValue = createToken({
  name: 'DecimalValue',
  pattern: numberMatcher('decimal'),
  line_breaks: false,
  start_chars_hint: [...DIGIT_CHARS, '.'],
});
// SqlBase.g4: DIGIT_IDENTIFIER : DIGIT (LETTER | DIGIT | '_' | '@')+
export const DigitIdentifier = createToken({
  name: 'DigitIdentifier',
  pattern: numberMatcher('digitIdentifier'),
  line_breaks: false,
  start_chars_hint: DIGIT_CHARS,
  categories: [IdentifierToken],
});

// SqlBase.g4: TABLE_IDENTIFIER : (LETTER | DIGIT | '_')+
// Never lexed: every input it matches is matched at least as long by INTEGER_VALUE, IDENTIFIER
// or DIGIT_IDENTIFIER, which SqlBase.g4 defines first, so ANTLR never produces it either
// (unquoted index patterns such as logs-* must be double-quoted since ES 6.5, elastic#34176).
export const TableIdentifier = createToken({ name: 'TableIdentifier', pattern: Lexer.NA });

// SqlBase.g4: QUOTED_IDENTIFIER : '"' ( ~'"' | '""' )* '"'
export const QuotedIdentifier = createToken({
  name: 'QuotedIdentifier',
  pattern: quotedMatcher('"'),
  line_breaks: true,
  start_chars_hint: ['"'],
  categories: [IdentifierToken],
});
// SqlBase.g4: BACKQUOTED_IDENTIFIER : '`' ( ~'`' | '``' )* '`'
export const BackquotedIdentifier = createToken({
  name: 'BackquotedIdentifier',
  pattern: quotedMatcher('`'),
  line_breaks: true,
  start_chars_hint: ['`'],
  categories: [IdentifierToken],
});

// ---------------------------------------------------------------------------------------------
// Hidden channel.

// SqlBase.g4: SIMPLE_COMMENT : '--' ~[\r\n]* '\r'? '\n'? -> channel(HIDDEN)
export const SimpleComment = createToken({
  name: 'SimpleComment',
  pattern: /--[^\r\n]*\r?\n?/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});

/*
 * SqlBase.g4: BRACKETED_COMMENT : '/*' (BRACKETED_COMMENT|.)*? '*' '/' -> channel(HIDDEN)
 * Comments nest; a nested opener that never closes is read as plain text instead (ANTLR's
 * non-greedy lexer loop: `/* a /* b *\/` is one comment ending at the first close).
 */
// Position just after the `*\/` closing the comment body that starts at `j`, or -1.
function closeComment(text: string, j: number, memo: Map<number, number>): number {
  const known = memo.get(j);
  if (known !== undefined) return known;
  let end = -1;
  for (let i = j; i < text.length && end < 0; i++) {
    const c = text.charCodeAt(i);
    if (c === 42 && text.charCodeAt(i + 1) === 47) {
      end = i + 2;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const nested = closeComment(text, i + 2, memo);
      // prefer the nested reading; fall back to plain text when the outer comment then never closes
      if (nested > 0) end = closeComment(text, nested, memo);
    }
  }
  memo.set(j, end);
  return end;
}

export const BracketedComment = createToken({
  name: 'BracketedComment',
  pattern: (text, offset) => {
    if (text.charCodeAt(offset) !== 47 || text.charCodeAt(offset + 1) !== 42) return null;
    const end = closeComment(text, offset + 2, new Map());
    return end > 0 ? [text.substring(offset, end)] : null;
  },
  group: Lexer.SKIPPED,
  line_breaks: true,
  start_chars_hint: ['/'],
});

// SqlBase.g4: WS : [ \r\n\t]+ -> channel(HIDDEN)
export const Whitespace = createToken({
  name: 'Whitespace',
  pattern: /[ \r\n\t]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});

// SqlBase.g4: UNRECOGNIZED : . ; ANTLR never fails to lex, the parser reports the odd character
export const Unrecognized = createToken({
  name: 'Unrecognized',
  pattern: /[\u0000-\uffff]/,
  line_breaks: true,
});

// ---------------------------------------------------------------------------------------------
// Lexer order: Chevrotain picks the first match, so longer or more specific patterns come first.

export const lexerTokens: TokenType[] = [
  Whitespace,
  SimpleComment,
  BracketedComment,
  EscapeEsc,
  FunctionEsc,
  LimitEsc,
  TimestampEsc,
  GuidEsc,
  DateEsc,
  TimeEsc,
  EscStart,
  EscEnd,
  StringLiteral,
  QuotedIdentifier,
  BackquotedIdentifier,
  DecimalValue,
  IntegerValue,
  DigitIdentifier,
  NullEq,
  Lte,
  Neq,
  Lt,
  Gte,
  Gt,
  Eq,
  CastOp,
  Colon,
  Concat,
  Plus,
  Minus,
  Asterisk,
  Slash,
  Percent,
  Dot,
  Param,
  LeftParen,
  RightParen,
  Comma,
  // longest keywords first: with longer_alt, `IN` would otherwise shadow `INTERVAL`
  ...[...keywordTokens, ...extensionTokens].sort(
    (a, b) => keywordText(b).length - keywordText(a).length,
  ),
  Identifier,
  Unrecognized,
];

/** Every token type the parser knows (lexed ones plus categories and never-lexed ones). */
export const allTokens: TokenType[] = [
  ...lexerTokens,
  NonReserved,
  IdentifierToken,
  ExtensionKeyword,
  LogicalOperator,
  BinaryOperator,
  TableIdentifier,
];

// ---------------------------------------------------------------------------------------------
// ANTLR vocabulary: token types and display names (SqlBaseLexer.VOCABULARY).

const vocabulary: [TokenType, string][] = [
  [LeftParen, "'('"],
  [RightParen, "')'"],
  [Comma, "','"],
  [Colon, "':'"],
  ...keywordTokens.map((k): [TokenType, string] => [k, `'${keywordText(k)}'`]),
  [EscapeEsc, 'ESCAPE_ESC'],
  [FunctionEsc, 'FUNCTION_ESC'],
  [LimitEsc, 'LIMIT_ESC'],
  [DateEsc, 'DATE_ESC'],
  [TimeEsc, 'TIME_ESC'],
  [TimestampEsc, 'TIMESTAMP_ESC'],
  [GuidEsc, 'GUID_ESC'],
  [EscStart, 'ESC_START'],
  [EscEnd, "'}'"],
  [Eq, "'='"],
  [NullEq, "'<=>'"],
  [Neq, 'NEQ'],
  [Lt, "'<'"],
  [Lte, "'<='"],
  [Gt, "'>'"],
  [Gte, "'>='"],
  [Plus, "'+'"],
  [Minus, "'-'"],
  [Asterisk, "'*'"],
  [Slash, "'/'"],
  [Percent, "'%'"],
  [CastOp, "'::'"],
  [Concat, "'||'"],
  [Dot, "'.'"],
  [Param, "'?'"],
  [StringLiteral, 'STRING'],
  [IntegerValue, 'INTEGER_VALUE'],
  [DecimalValue, 'DECIMAL_VALUE'],
  [Identifier, 'IDENTIFIER'],
  [DigitIdentifier, 'DIGIT_IDENTIFIER'],
  [TableIdentifier, 'TABLE_IDENTIFIER'],
  [QuotedIdentifier, 'QUOTED_IDENTIFIER'],
  [BackquotedIdentifier, 'BACKQUOTED_IDENTIFIER'],
  [SimpleComment, 'SIMPLE_COMMENT'],
  [BracketedComment, 'BRACKETED_COMMENT'],
  [Whitespace, 'WS'],
  [Unrecognized, 'UNRECOGNIZED'],
];
vocabulary.forEach(([token, display], i) => antlrInfo.set(token, { type: i + 1, display }));

function keywordText(token: TokenType): string {
  return (token.PATTERN as RegExp).source;
}

/** Keyword token types, in SqlBase.g4 order. */
export const keywords: readonly TokenType[] = keywordTokens;

/** The keyword tokens that belong to the NonReserved category. */
export const nonReservedTokens: readonly TokenType[] = keywordTokens.filter((k) =>
  NON_RESERVED.has(keywordText(k)),
);
