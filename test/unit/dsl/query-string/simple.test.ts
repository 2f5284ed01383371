import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SQS_FLAGS,
  parseSimpleQueryString,
  resolveSimpleQueryStringFlags,
  type SimpleQueryStringOptions,
} from '../../../../src/dsl/query-string/simple.js';
import type { QsNode } from '../../../../src/dsl/query-string/ast.js';
import { ALL, B, F, NONE, P, PFX, T, errorOf, mn, mu, sh } from './helpers.js';

// Expectations are Lucene TestSimpleQueryParser's (default operator MUST, whitespace analyzer:
// a leaf of only whitespace analyzes to nothing), before lower-casing.
const blank = (leaf: { text: string }): boolean => leaf.text.trim() === '';
const parse = (q: string, o: Partial<SimpleQueryStringOptions> = {}): QsNode =>
  parseSimpleQueryString(q, { defaultOperator: 'AND', isEmpty: blank, ...o });
const NOT = (node: QsNode): QsNode => B(mn(node), sh(ALL));
const P0 = (text: string): QsNode => P(text, null, { slop: 0 });

describe('parseSimpleQueryString (TestSimpleQueryParser)', () => {
  const cases: Array<[string, QsNode]> = [
    ['foobar', T('foobar')],
    ['foobar~2', F('foobar', 2)],
    ['foobar~', T('foobar')],
    ['foobar~a', T('foobar')],
    ['foobar~1a', T('foobar')],
    ['foobar~0', T('foobar')],
    ['foo~21 bar', B(mu(F('foo', 2)), mu(T('bar')))],
    ['"foo bar"', P0('foo bar')],
    ['"foo bar"~2', P('foo bar', null, { slop: 2 })],
    ['"foo bar"~10', P('foo bar', null, { slop: 10 })],
    ['"foo bar"~', P0('foo bar')],
    ['"foo bar"~a', P0('foo bar')],
    ['"foo bar"~1a', P0('foo bar')],
    ['"foo bar"~-1', P0('foo bar')],
    ['"foo bar"~12 baz', B(mu(P('foo bar', null, { slop: 12 })), mu(T('baz')))],
    ['foobar*', PFX('foobar')],
    ['foo+bar', B(mu(T('foo')), mu(T('bar')))],
    ['"foo bar"+"star wars"', B(mu(P0('foo bar')), mu(P0('star wars')))],
    ['foo bar', B(mu(T('foo')), mu(T('bar')))],
    ['foo|bar', B(sh(T('foo')), sh(T('bar')))],
    ['foo||bar', B(sh(T('foo')), sh(T('bar')))],
    ['"foo bar"|"star wars"', B(sh(P0('foo bar')), sh(P0('star wars')))],
    ['-foo', NOT(T('foo'))],
    ['-(foo)', NOT(T('foo'))],
    ['---foo', NOT(T('foo'))],
    ['--foo', T('foo')],
    ['st*ar*', PFX('st*ar')],
    ['st*ar\\\\**', PFX('st*ar\\*')],
    ['sT*Ar\\\\\\*', T('sT*Ar\\*')],
    ['star\n', T('star')],
    ['star(', T('star')],
    ['star)', T('star')],
    ['star"', T('star')],
    ['\t \r\n\nstar   \n \r \t ', T('star')],
    ['- + "" - star \\', T('star')],
    ['star wars', B(mu(T('star')), mu(T('wars')))],
    ['     star +    wars   ', B(mu(T('star')), mu(T('wars')))],
    ['  |     star + + |   wars   \\', B(mu(T('star')), mu(T('wars')))],
    ['     star |    wars   ', B(sh(T('star')), sh(T('wars')))],
    ['  +     star | + +   wars   \\', B(sh(T('star')), sh(T('wars')))],
    ['- -star -', NOT(T('star'))],
    ['"star wars\\ "', P0('star wars ')],
    ['"" | "star wars"', P0('star wars')],
    ['          "star wars"        ""\\', P0('star wars')],
    ['(star))', T('star')],
    ['((star)', T('star')],
    ['     -()(star)        \n\n\r     ', T('star')],
    ['| + - ( + - |      star    \n      ) \n', T('star')],
    ['star wars empire', B(mu(T('star')), mu(T('wars')), mu(T('empire')))],
    [' | --star wars empire \n\\', B(mu(T('star')), mu(T('wars')), mu(T('empire')))],
    ['star|wars|empire', B(sh(T('star')), sh(T('wars')), sh(T('empire')))],
    ['star|wars empire', B(mu(B(sh(T('star')), sh(T('wars')))), mu(T('empire')))],
    ['star| + wars + ----empire |', B(mu(B(sh(T('star')), sh(T('wars')))), mu(T('empire')))],
    ['star wars | empire', B(sh(B(mu(T('star')), mu(T('wars')))), sh(T('empire')))],
    ['star + | wars | ----empire +', B(sh(B(mu(T('star')), mu(T('wars')))), sh(T('empire')))],
    [
      'star + | wars | ----empire | + --strikes \\',
      B(sh(B(mu(T('star')), mu(T('wars')))), sh(T('empire')), sh(T('strikes'))),
    ],
    [
      'star wars | empire | strikes back',
      B(
        mu(B(sh(B(mu(T('star')), mu(T('wars')))), sh(T('empire')), sh(T('strikes')))),
        mu(T('back')),
      ),
    ],
    [
      '(star + | wars |) | ----empire | + --(strikes + | --back) \\',
      B(
        sh(B(mu(T('star')), mu(T('wars')))),
        sh(T('empire')),
        sh(B(mu(T('strikes')), mu(T('back')))),
      ),
    ],
    [
      '(star wars) | (empire | (strikes back -jarjar))',
      B(
        sh(B(mu(T('star')), mu(T('wars')))),
        sh(B(sh(T('empire')), sh(B(mu(T('strikes')), mu(T('back')), mu(NOT(T('jarjar'))))))),
      ),
    ],
    [
      '(star + | wars |) | --(--empire | + --(strikes + | --back + -jarjar) "" ) "',
      B(
        sh(B(mu(T('star')), mu(T('wars')))),
        sh(B(sh(T('empire')), sh(B(mu(T('strikes')), mu(T('back')), mu(NOT(T('jarjar'))))))),
      ),
    ],
    [
      'star (wars | (empire | strikes back jar\\+\\|jar))',
      B(
        mu(T('star')),
        mu(
          B(
            sh(T('wars')),
            sh(B(mu(B(sh(T('empire')), sh(T('strikes')))), mu(T('back')), mu(T('jar+|jar')))),
          ),
        ),
      ),
    ],
  ];
  for (const [q, ast] of cases) it(JSON.stringify(q), () => expect(parse(q)).toEqual(ast));

  it('matches nothing when nothing is left (testGarbageEmpty)', () => {
    for (const q of ['', '  ', '\\ ', '\\ \\ ', '""', '" "', '" "|" "', '(" "|" ")', '" " " "']) {
      expect(parse(q)).toEqual(NONE);
    }
  });

  it('"*" alone matches everything', () => {
    expect(parse('*')).toEqual(ALL);
    expect(parse('  * ')).toEqual(ALL);
    expect(parse('**')).toEqual(PFX('*'));
  });

  it('default operator OR (testORImplicit)', () => {
    expect(parse('foo bar', { defaultOperator: 'OR' })).toEqual(B(sh(T('foo')), sh(T('bar'))));
  });

  it('a "~N" after a phrase eats the next operator character, as in Lucene', () => {
    expect(parse('"a b"~2|c')).toEqual(B(mu(P('a b', null, { slop: 2 })), mu(T('c'))));
  });
});

describe('parseSimpleQueryString: disabled operators (testDisable*)', () => {
  // as a non-negative mask: ES reads any negative `flags` number as ALL
  const ALL_BUT = (f: number) => 0x3ff & ~f;
  const kw = (q: string, flags: number) =>
    parseSimpleQueryString(q, { defaultOperator: 'OR', flags });
  it('each operator can be switched off', () => {
    expect(kw('"test"', ALL_BUT(SQS_FLAGS.PHRASE))).toEqual(T('"test"'));
    expect(kw('test*', ALL_BUT(SQS_FLAGS.PREFIX))).toEqual(T('test*'));
    expect(kw('foo+bar', ALL_BUT(SQS_FLAGS.AND))).toEqual(T('foo+bar'));
    expect(kw('+foo+bar', ALL_BUT(SQS_FLAGS.AND))).toEqual(T('+foo+bar'));
    expect(kw('foo|bar', ALL_BUT(SQS_FLAGS.OR))).toEqual(T('foo|bar'));
    expect(kw('|foo|bar', ALL_BUT(SQS_FLAGS.OR))).toEqual(T('|foo|bar'));
    expect(kw('-foo', ALL_BUT(SQS_FLAGS.NOT))).toEqual(T('-foo'));
    expect(kw('(foo)', ALL_BUT(SQS_FLAGS.PRECEDENCE))).toEqual(T('(foo)'));
    expect(kw(')foo(', ALL_BUT(SQS_FLAGS.PRECEDENCE))).toEqual(T(')foo('));
    expect(kw('foo\\bar', ALL_BUT(SQS_FLAGS.ESCAPE))).toEqual(T('foo\\bar'));
    expect(kw('(foo\\bar)', ALL_BUT(SQS_FLAGS.ESCAPE))).toEqual(T('foo\\bar'));
    expect(kw('"foo\\bar"', ALL_BUT(SQS_FLAGS.ESCAPE))).toEqual(P0('foo\\bar'));
    expect(kw('foo foo', ALL_BUT(SQS_FLAGS.WHITESPACE))).toEqual(T('foo foo'));
    expect(kw(' foo foo\n ', ALL_BUT(SQS_FLAGS.WHITESPACE))).toEqual(T(' foo foo\n '));
    expect(kw('foo~1', ALL_BUT(SQS_FLAGS.FUZZY))).toEqual(T('foo~1'));
    expect(parse('"foo bar"~2', { flags: ALL_BUT(SQS_FLAGS.NEAR) })).toEqual(
      B(mu(P0('foo bar')), mu(T('~2'))),
    );
  });
  it('flag strings (ES SimpleQueryStringFlag.resolveFlags)', () => {
    expect(resolveSimpleQueryStringFlags('')).toBe(-1);
    expect(resolveSimpleQueryStringFlags('ALL')).toBe(-1);
    expect(resolveSimpleQueryStringFlags('none')).toBe(0);
    expect(resolveSimpleQueryStringFlags('OR|AND|PREFIX')).toBe(1 | 4 | 8);
    expect(resolveSimpleQueryStringFlags('OR||AND')).toBe(5);
    expect(resolveSimpleQueryStringFlags('AND|NONE|OR')).toBe(0);
    expect(resolveSimpleQueryStringFlags('slop')).toBe(SQS_FLAGS.NEAR);
    expect(errorOf(() => resolveSimpleQueryStringFlags('AND|FOO'))).toEqual({
      root_cause: [
        { type: 'illegal_argument_exception', reason: 'Unknown simple_query_string flag [FOO]' },
      ],
      type: 'illegal_argument_exception',
      reason: 'Unknown simple_query_string flag [FOO]',
    });
    expect(parse('foo|bar', { flags: 'AND' })).toEqual(T('foo|bar'));
    expect(parse('foo bar', { flags: 'NONE' })).toEqual(T('foo bar'));
    // a negative numeric `flags` means ALL (SimpleQueryStringBuilder.fromXContent)
    expect(parse('foo|bar -baz', { flags: -5 })).toEqual(
      B(mu(B(sh(T('foo')), sh(T('bar')))), mu(NOT(T('baz')))),
    );
  });
});

describe('parseSimpleQueryString never throws (testRandomQueries)', () => {
  it('on random text from a syntax-heavy alphabet, with any flags', () => {
    const alphabet = fc.constantFrom(...'a1|& ()"-~*+\\');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 20 }),
        fc.integer({ min: -1, max: 1024 }),
        (cs, flags) => {
          const node = parseSimpleQueryString(cs.join(''), { defaultOperator: 'AND', flags });
          expect(['Term', 'Phrase', 'Prefix', 'Bool', 'MatchAll', 'MatchNone']).toContain(
            node.kind,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
  it('on random unicode text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(() => parseSimpleQueryString(s, { defaultOperator: 'OR' })).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
