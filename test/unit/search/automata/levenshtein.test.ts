import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzyBoost, fuzzyMatcher } from '../../../../src/search/automata/levenshtein.js';
import { isEsError } from '../../../../src/common/errors.js';
import { refFuzzy } from './reference.js';

describe('fuzzyMatcher (Lucene FuzzyQuery / LevenshteinAutomata)', () => {
  it('edit distances with and without transpositions', () => {
    const m = fuzzyMatcher('foobar', 2);
    expect(m.test('foobar')).toBe(0);
    expect(m.test('fobar')).toBe(1);
    expect(m.test('foobarx')).toBe(1);
    expect(m.test('fooxar')).toBe(1);
    expect(m.test('ofobar')).toBe(1); // transposition
    expect(m.test('ofobra')).toBe(2);
    expect(m.test('fo')).toBe(-1);
    expect(m.test('barfoo')).toBe(-1);
    expect(fuzzyMatcher('foobar', 2, 0, false).test('ofobar')).toBe(2);
    expect(fuzzyMatcher('abc', 1, 0, true).test('bac')).toBe(1);
    expect(fuzzyMatcher('abc', 1, 0, false).test('bac')).toBe(-1);
  });
  it('optimal string alignment: no edit inside a transposed pair', () => {
    // true Damerau distance of "ca" -> "abc" is 2, OSA (Lucene) is 3
    expect(fuzzyMatcher('ca', 2).test('abc')).toBe(-1);
    expect(fuzzyMatcher('ca', 2).test('ac')).toBe(1);
  });
  it('counts code points, not UTF-16 units', () => {
    const m = fuzzyMatcher('a😀b', 1);
    expect(m.test('ab')).toBe(1);
    expect(m.test('a😁b')).toBe(1);
    expect(m.test('a😀😀b')).toBe(1);
    expect(fuzzyMatcher('😀', 0).test('😀')).toBe(0);
    // an astral char after the pruning point: the length bound must use code points
    expect(fuzzyMatcher('bac', 2, 0, false).test('aac😀')).toBe(2);
    const sorted = fuzzyMatcher('bac', 2);
    expect(['aab', 'aac', 'aac😀', 'aacc'].map((c) => sorted.test(c))).toEqual([2, 1, 2, 2]);
  });
  it('prefix length (FuzzyTermsEnum realPrefixLength)', () => {
    const m = fuzzyMatcher('foobar', 1, 3);
    expect(m.prefix).toBe('foo');
    expect(m.test('foobax')).toBe(1);
    expect(m.test('xoobar')).toBe(-1);
    expect(m.test('fo')).toBe(-1);
    // a prefix longer than the term is the whole term
    const whole = fuzzyMatcher('ab', 2, 10);
    expect(whole.prefix).toBe('ab');
    expect(whole.test('ab')).toBe(0);
    expect(whole.test('abcd')).toBe(2);
    expect(whole.test('a')).toBe(-1);
  });
  it('maxEdits 0 is an exact match', () => {
    const m = fuzzyMatcher('abc', 0);
    expect(m.test('abc')).toBe(0);
    expect(m.test('abd')).toBe(-1);
    expect(fuzzyMatcher('', 1).test('a')).toBe(1);
    expect(fuzzyMatcher('', 1).test('')).toBe(0);
    expect(fuzzyMatcher('', 1).test('ab')).toBe(-1);
  });
  it('argument checks (FuzzyQuery constructor)', () => {
    const reason = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        if (isEsError(e)) return `${e.type}: ${e.reason}`;
      }
      return 'no error';
    };
    expect(reason(() => fuzzyMatcher('a', 3))).toBe(
      'illegal_argument_exception: maxEdits must be between 0 and 2',
    );
    expect(reason(() => fuzzyMatcher('a', -1))).toBe(
      'illegal_argument_exception: maxEdits must be between 0 and 2',
    );
    expect(reason(() => fuzzyMatcher('a', 1, -1))).toBe(
      'illegal_argument_exception: prefixLength cannot be negative.',
    );
  });
  it('boost = 1 - ed / min(candidate length, term length), in float', () => {
    expect(fuzzyBoost(0, 3, 5)).toBe(1);
    expect(fuzzyBoost(1, 5, 6)).toBe(Math.fround(0.8));
    expect(fuzzyBoost(2, 3, 6)).toBe(Math.fround(1 - Math.fround(2 / 3)));
    expect(fuzzyBoost(1, 1, 2)).toBe(0);
    expect(fuzzyBoost(2, 1, 3)).toBe(-1);
    const m = fuzzyMatcher('foobar', 2);
    expect(m.boost('fobar', m.test('fobar'))).toBe(Math.fround(0.8));
    expect(m.boost('a😀', 2)).toBe(0);
  });
});

describe('fuzzyMatcher agrees with a full DP', () => {
  const word = fc
    .array(fc.constantFrom('a', 'b', 'c', '😀'), { maxLength: 7 })
    .map((a) => a.join(''));
  it('on random terms, candidates, distances, prefixes and transposition settings', () => {
    fc.assert(
      fc.property(
        word,
        fc.array(word, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (term, cands, k, p, tr) => {
          const m = fuzzyMatcher(term, k, p, tr);
          for (const c of cands)
            expect(m.test(c), `${term}~${k} on ${c}`).toBe(refFuzzy(term, c, k, p, tr));
        },
      ),
      { numRuns: 6000 },
    );
  });
  it('over a sorted dictionary, reusing rows across shared prefixes', () => {
    fc.assert(
      fc.property(
        word,
        fc.uniqueArray(word, { maxLength: 80 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (term, dict, k, p, tr) => {
          const m = fuzzyMatcher(term, k, p, tr);
          for (const c of [...dict].sort())
            expect(m.test(c), `${term}~${k} on ${c}`).toBe(refFuzzy(term, c, k, p, tr));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
