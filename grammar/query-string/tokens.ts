/**
 * Token vocabulary of Lucene's classic query syntax (Lucene 7.7 `QueryParser.jj`), the language of
 * the `query_string` query and of URI search `q=`. Token types carry the JavaCC kind number and
 * image so error messages can be rendered exactly as JavaCC's `ParseException` renders them.
 * Matching is done by `lexer.ts` (JavaCC longest-match with lexical states), not by Chevrotain.
 */
import { Lexer, createToken, type TokenType } from '../chevrotain.js';

/** JavaCC token kinds, in `QueryParserConstants` order (kinds 1-7 are private regexes). */
export const Kind = {
  EOF: 0,
  AND: 8,
  OR: 9,
  NOT: 10,
  PLUS: 11,
  MINUS: 12,
  BAREOPER: 13,
  LPAREN: 14,
  RPAREN: 15,
  COLON: 16,
  STAR: 17,
  CARAT: 18,
  QUOTED: 19,
  TERM: 20,
  FUZZY_SLOP: 21,
  PREFIXTERM: 22,
  WILDTERM: 23,
  REGEXPTERM: 24,
  RANGEIN_START: 25,
  RANGEEX_START: 26,
  NUMBER: 27,
  RANGE_TO: 28,
  RANGEIN_END: 29,
  RANGEEX_END: 30,
  RANGE_QUOTED: 31,
  RANGE_GOOP: 32,
} as const;

/** `QueryParserConstants.tokenImage`: how JavaCC names each kind in "Was expecting" lists. */
export const TOKEN_IMAGE: readonly string[] = [
  '<EOF>',
  '<_NUM_CHAR>',
  '<_ESCAPED_CHAR>',
  '<_TERM_START_CHAR>',
  '<_TERM_CHAR>',
  '<_WHITESPACE>',
  '<_QUOTED_CHAR>',
  '<token of kind 7>',
  '<AND>',
  '<OR>',
  '<NOT>',
  '"+"',
  '"-"',
  '<BAREOPER>',
  '"("',
  '")"',
  '":"',
  '"*"',
  '"^"',
  '<QUOTED>',
  '<TERM>',
  '<FUZZY_SLOP>',
  '<PREFIXTERM>',
  '<WILDTERM>',
  '<REGEXPTERM>',
  '"["',
  '"{"',
  '<NUMBER>',
  '"TO"',
  '"]"',
  '"}"',
  '<RANGE_QUOTED>',
  '<RANGE_GOOP>',
];

const tok = (name: string, kind: number): TokenType => {
  const t = createToken({ name, pattern: Lexer.NA });
  KIND_OF.set(t, kind);
  BY_KIND[kind] = t;
  return t;
};

const KIND_OF = new Map<TokenType, number>();
const BY_KIND: TokenType[] = [];

export const And = tok('And', Kind.AND);
export const Or = tok('Or', Kind.OR);
export const Not = tok('Not', Kind.NOT);
export const Plus = tok('Plus', Kind.PLUS);
export const Minus = tok('Minus', Kind.MINUS);
export const BareOper = tok('BareOper', Kind.BAREOPER);
export const LParen = tok('LParen', Kind.LPAREN);
export const RParen = tok('RParen', Kind.RPAREN);
export const Colon = tok('Colon', Kind.COLON);
export const Star = tok('Star', Kind.STAR);
export const Carat = tok('Carat', Kind.CARAT);
export const Quoted = tok('Quoted', Kind.QUOTED);
export const Term = tok('Term', Kind.TERM);
export const FuzzySlop = tok('FuzzySlop', Kind.FUZZY_SLOP);
export const PrefixTerm = tok('PrefixTerm', Kind.PREFIXTERM);
export const WildTerm = tok('WildTerm', Kind.WILDTERM);
export const RegexpTerm = tok('RegexpTerm', Kind.REGEXPTERM);
export const RangeInStart = tok('RangeInStart', Kind.RANGEIN_START);
export const RangeExStart = tok('RangeExStart', Kind.RANGEEX_START);
export const NumberTok = tok('Number', Kind.NUMBER);
export const RangeTo = tok('RangeTo', Kind.RANGE_TO);
export const RangeInEnd = tok('RangeInEnd', Kind.RANGEIN_END);
export const RangeExEnd = tok('RangeExEnd', Kind.RANGEEX_END);
export const RangeQuoted = tok('RangeQuoted', Kind.RANGE_QUOTED);
export const RangeGoop = tok('RangeGoop', Kind.RANGE_GOOP);
/**
 * Stands where the lexer failed (JavaCC `TokenMgrError`). No rule accepts it, so the parser stops
 * there; the lexical error is reported only if parsing reaches it, as JavaCC lexes lazily.
 */
export const LexError = createToken({ name: 'LexError', pattern: Lexer.NA });

export const allTokens: TokenType[] = [...BY_KIND.filter(Boolean), LexError];

/** JavaCC kind of a token type (`undefined` for `LexError`). */
export const kindOf = (t: TokenType): number | undefined => KIND_OF.get(t);
/** Token type of a JavaCC kind. */
export const typeOfKind = (kind: number): TokenType => {
  const t = BY_KIND[kind];
  if (!t) throw new Error(`no token of kind ${kind}`);
  return t;
};
