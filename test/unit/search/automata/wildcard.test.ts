import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wildcardMatcher } from '../../../../src/search/automata/wildcard.js';
import { refWildcard } from './reference.js';

const terms = [
  'metal',
  'metals',
  'mXtals',
  'mXtXls',
  'm',
  '',
  'foo*bar',
  'foo?bar',
  'foo\\',
  'a😀b',
];
const matching = (p: string) => terms.filter((t) => wildcardMatcher(p).test(t));

describe('wildcardMatcher (Lucene WildcardQuery)', () => {
  it('* and ? (TestWildcard.testQuestionmark / testAsterisk)', () => {
    expect(matching('m?tal')).toEqual(['metal']);
    expect(matching('metal?')).toEqual(['metals']);
    expect(matching('metals?')).toEqual([]);
    expect(matching('m?t?ls')).toEqual(['metals', 'mXtals', 'mXtXls']);
    expect(matching('meta*')).toEqual(['metal', 'metals']);
    expect(matching('m*tal*')).toEqual(['metal', 'metals', 'mXtals']);
    expect(matching('*tals')).toEqual(['metals', 'mXtals']);
    expect(matching('m*')).toEqual(['metal', 'metals', 'mXtals', 'mXtXls', 'm']);
    expect(matching('*')).toEqual(terms);
    expect(matching('**')).toEqual(terms);
    expect(matching('m**l')).toEqual(['metal']);
    expect(matching('')).toEqual(['']);
    expect(matching('metal')).toEqual(['metal']);
  });
  it('? is one code point', () => {
    expect(matching('a?b')).toEqual(['a😀b']);
    expect(matching('a??b')).toEqual([]);
    expect(wildcardMatcher('😀*').test('😀x')).toBe(true);
  });
  it('escapes (TestWildcard.testEscapes): \\* and \\? are literal, a trailing \\ too', () => {
    expect(matching('foo\\*bar')).toEqual(['foo*bar']);
    expect(matching('foo\\?bar')).toEqual(['foo?bar']);
    expect(matching('foo?bar')).toEqual(['foo*bar', 'foo?bar']);
    expect(matching('foo\\')).toEqual(['foo\\']);
    expect(matching('foo\\\\')).toEqual(['foo\\']);
    expect(matching('\\m*')).toEqual(['metal', 'metals', 'mXtals', 'mXtXls', 'm']);
  });
  it('literal prefix for seeking', () => {
    expect(wildcardMatcher('metal*').prefix).toBe('metal');
    expect(wildcardMatcher('m?tal').prefix).toBe('m');
    expect(wildcardMatcher('*tal').prefix).toBe('');
    expect(wildcardMatcher('fo\\*o*').prefix).toBe('fo*o');
    expect(wildcardMatcher('nowildcard').prefix).toBe('nowildcard');
  });
  it('agrees with a backtracking glob on random patterns and terms', () => {
    const pat = fc.array(fc.constantFrom('a', 'b', '*', '?', '\\', '😀'), { maxLength: 7 });
    const term = fc.array(fc.constantFrom('a', 'b', '*', '?', '\\', '😀'), { maxLength: 7 });
    fc.assert(
      fc.property(pat, fc.array(term, { minLength: 1, maxLength: 10 }), (p, ts) => {
        const pattern = p.join('');
        const m = wildcardMatcher(pattern);
        for (const t of ts.map((x) => x.join(''))) {
          const want = refWildcard(pattern, t);
          expect(m.test(t), `${pattern} on ${t}`).toBe(want);
          if (want) expect(t.startsWith(m.prefix)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
