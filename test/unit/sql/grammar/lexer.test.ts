/**
 * The lexer reproduces SqlBase.g4's longest-match rules: keywords vs identifiers in any case,
 * numbers vs digit identifiers, `.5` decimals, ODBC escape openers, nested comments, and
 * UNRECOGNIZED for any other character.
 */
import { describe, expect, it } from 'vitest';
import { LineIndex, tokenizeSql } from '../../../../grammar/sql/lexer.js';
import * as t from '../../../../grammar/sql/tokens.js';

const lex = (text: string) => tokenizeSql(text).tokens.map((t) => `${t.tokenType.name}:${t.image}`);

describe('SQL lexer', () => {
  it('matches keywords case-insensitively, preferring longer identifiers', () => {
    expect(lex('sElEcT selected Select1 SELECT@x IN INTERVAL intervals')).toEqual([
      'Select:sElEcT',
      'Identifier:selected',
      'Identifier:Select1',
      'Identifier:SELECT@x',
      'In:IN',
      'Interval:INTERVAL',
      'Identifier:intervals',
    ]);
  });

  it('lexes every keyword as itself in any case, and as an identifier when a word goes on', () => {
    // words are lexed as identifiers and looked up as keywords (lexer.ts): the token type and
    // its index (what the parser matches on) must both be the keyword's
    const words = [...t.keywords, t.Offset, t.Fetch, t.Next, t.Rows, t.Row, t.Only, t.Union];
    for (const k of words) {
      const word = (k.PATTERN as RegExp).source;
      const mixed = [...word].map((c, i) => (i % 2 ? c.toLowerCase() : c)).join('');
      for (const text of [word, word.toLowerCase(), mixed]) {
        const [token, ...rest] = tokenizeSql(text).tokens;
        expect(rest).toEqual([]);
        expect(token!.tokenType).toBe(k);
        expect(token!.tokenTypeIdx).toBe(k.tokenTypeIdx);
      }
      for (const tail of ['x', '_', '1', '@']) {
        expect(lex(`${word}${tail}`)).toEqual([`Identifier:${word}${tail}`]);
      }
    }
  });

  it('puts nonReserved keywords in the NonReserved category', () => {
    const [limit, select] = tokenizeSql('LIMIT SELECT').tokens;
    expect(limit!.tokenType.CATEGORIES?.map((c) => c.name)).toContain('NonReserved');
    expect(select!.tokenType.CATEGORIES?.map((c) => c.name) ?? []).not.toContain('NonReserved');
  });

  it('applies ANTLR longest match to numbers and digit identifiers', () => {
    expect(lex('1 1.5 .5 1. 1e10 1.e5 .5e-3 1e10x 1abc 1_000 t.5a')).toEqual([
      'IntegerValue:1',
      'DecimalValue:1.5',
      'DecimalValue:.5',
      'DecimalValue:1.',
      'DecimalValue:1e10',
      'DecimalValue:1.e5',
      'DecimalValue:.5e-3',
      'DigitIdentifier:1e10x',
      'DigitIdentifier:1abc',
      'DigitIdentifier:1_000',
      'Identifier:t',
      'DecimalValue:.5',
      'Identifier:a',
    ]);
  });

  it('lexes operators, longest first', () => {
    expect(lex('<=> <= <> < >= > = != :: : || . ? % / * + -')).toEqual([
      'NullEq:<=>',
      'Lte:<=',
      'Neq:<>',
      'Lt:<',
      'Gte:>=',
      'Gt:>',
      'Eq:=',
      'Neq:!=',
      'CastOp:::',
      'Colon::',
      'Concat:||',
      'Dot:.',
      'Param:?',
      'Percent:%',
      'Slash:/',
      'Asterisk:*',
      'Plus:+',
      'Minus:-',
    ]);
  });

  it('lexes strings and quoted identifiers with doubled quotes', () => {
    expect(lex(`'it''s' "a""b" \`c\`\`d\``)).toEqual([
      "StringLiteral:'it''s'",
      'QuotedIdentifier:"a""b"',
      'BackquotedIdentifier:`c``d`',
    ]);
  });

  it('lexes ODBC escape openers, whitespace allowed after {', () => {
    expect(lex('{fn {ts {t {d {guid {limit {escape { \n d }')).toEqual([
      'FunctionEsc:{fn',
      'TimestampEsc:{ts',
      'TimeEsc:{t',
      'DateEsc:{d',
      'GuidEsc:{guid',
      'LimitEsc:{limit',
      'EscapeEsc:{escape',
      'DateEsc:{ \n d',
      'EscEnd:}',
    ]);
  });

  it('skips comments: -- to the end of line, nested /* */, an unclosed nested opener as text', () => {
    expect(lex('a -- x\nb /* 1 /* 2 */ 3 */ c /* d /* e */ f')).toEqual([
      'Identifier:a',
      'Identifier:b',
      'Identifier:c',
      'Identifier:f',
    ]);
    expect(lex('1--1')).toEqual(['IntegerValue:1']);
    expect(lex('1 /* open')).toEqual([
      'IntegerValue:1',
      'Slash:/',
      'Asterisk:*',
      'Identifier:open',
    ]);
  });

  it('turns every other character into an Unrecognized token instead of failing', () => {
    const result = tokenizeSql("# @ é ' \f");
    expect(result.errors).toEqual([]);
    expect(result.tokens.map((t) => t.tokenType.name)).toEqual(Array(5).fill('Unrecognized'));
  });

  it('records inclusive end offsets', () => {
    const [select, a] = tokenizeSql('SELECT  ab').tokens;
    expect([select!.startOffset, select!.endOffset, a!.startOffset, a!.endOffset]).toEqual([
      0, 5, 8, 9,
    ]);
  });

  it('counts lines at \\n only, as ANTLR does', () => {
    const index = new LineIndex('ab\r\ncd\ref\ngh');
    expect(index.position(0)).toEqual({ line: 1, charPositionInLine: 0 });
    expect(index.position(4)).toEqual({ line: 2, charPositionInLine: 0 });
    expect(index.position(7)).toEqual({ line: 2, charPositionInLine: 3 });
    expect(index.position(10)).toEqual({ line: 3, charPositionInLine: 0 });
  });
});
