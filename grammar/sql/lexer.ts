/**
 * The Elasticsearch SQL lexer: one shared Chevrotain `Lexer` over the SqlBase.g4 vocabulary.
 * Whitespace and comments are skipped (ANTLR's hidden channel); every other character becomes a
 * token, the unknown ones `Unrecognized` (SqlBase.g4 UNRECOGNIZED), so lexing never fails and the
 * parser reports odd characters the way ES does. Positions are offsets only: line and column are
 * derived on demand with ANTLR's rule that only `\n` starts a new line.
 */
import { Lexer } from '../chevrotain.js';
import type { ILexingResult, TokenType } from 'chevrotain';
import { Identifier, lexerTokens } from './tokens.js';

/**
 * Keywords by their upper-case text. A keyword token (`longer_alt: Identifier`) wins exactly
 * when IDENTIFIER's longest match at that offset is the keyword's text, in any case: a keyword
 * matched as a prefix of a longer identifier gives way to it, and nothing else lexed before the
 * keywords starts with a letter or `_`. So words are lexed once as identifiers and then looked
 * up here, instead of Chevrotain trying every keyword pattern sharing the word's first letter.
 */
const keywordByText = new Map<string, TokenType>();
for (const tt of lexerTokens) {
  if (tt.LONGER_ALT === Identifier) keywordByText.set((tt.PATTERN as RegExp).source, tt);
}
const longestKeyword = Math.max(...[...keywordByText.keys()].map((k) => k.length));

const sqlLexer = new Lexer(
  lexerTokens.filter((tt) => tt.LONGER_ALT !== Identifier),
  { positionTracking: 'onlyOffset', ensureOptimizations: true },
);

/**
 * Chevrotain's `tokenize` without its first step, a check that the definition had no errors
 * (through lodash's generic `isEmpty`, a tenth of lexing a statement once a large search has
 * left the caches cold): the constructor above already threw on any.
 */
const lexerInternals = sqlLexer as unknown as {
  readonly defaultMode: string;
  tokenizeInternal(text: string, mode: string): ILexingResult;
};
const lexText = (text: string): ILexingResult =>
  lexerInternals.tokenizeInternal(text, lexerInternals.defaultMode);

/**
 * Splits SQL text into tokens (hidden tokens dropped). Never reports errors (see header).
 * Identifiers that spell a keyword become that keyword (see keywordByText). Chevrotain's
 * offset-only tracking records start offsets; end offsets (inclusive, which CST node locations
 * are built from) are added here.
 */
export function tokenizeSql(text: string): ILexingResult {
  const result = lexText(text);
  for (const token of result.tokens) {
    const image = token.image;
    token.endOffset = token.startOffset + image.length - 1;
    if (token.tokenType === Identifier && image.length <= longestKeyword) {
      const keyword = keywordByText.get(image.toUpperCase());
      if (keyword !== undefined) {
        token.tokenType = keyword;
        token.tokenTypeIdx = keyword.tokenTypeIdx!;
      }
    }
  }
  return result;
}

/** 1-based line and 0-based character position in that line, as ANTLR counts them. */
export interface LinePosition {
  readonly line: number;
  readonly charPositionInLine: number;
}

/** Maps offsets to ANTLR line positions for one input text. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      this.starts.push(i + 1);
    }
  }

  position(offset: number): LinePosition {
    const starts = this.starts;
    if (starts.length === 1) return { line: 1, charPositionInLine: offset };
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, charPositionInLine: offset - starts[lo]! };
  }
}
