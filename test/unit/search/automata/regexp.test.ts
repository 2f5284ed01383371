import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regexpMatcher } from '../../../../src/search/automata/regexp.js';
import {
  REGEXP_FLAGS,
  parseRegExp,
  resolveRegexpFlags,
} from '../../../../src/search/automata/regexp-syntax.js';
import { isEsError } from '../../../../src/common/errors.js';
import { refRegexp } from './reference.js';

const err = (f: () => unknown): { type: string; reason: string | null } => {
  try {
    f();
  } catch (e) {
    if (isEsError(e)) return { type: e.type, reason: e.reason };
    throw e;
  }
  throw new Error('expected an error');
};
const iae = (reason: string) => ({ type: 'illegal_argument_exception', reason });

function expectMatches(pattern: string, yes: string[], no: string[], flags?: string | number) {
  const m = regexpMatcher(pattern, flags);
  for (const t of yes) expect(m.test(t), `${pattern} should match ${JSON.stringify(t)}`).toBe(true);
  for (const t of no)
    expect(m.test(t), `${pattern} should not match ${JSON.stringify(t)}`).toBe(false);
}

describe('regexpMatcher: Lucene RegExp syntax', () => {
  it('smoke (TestRegExp.testSmoke)', () => {
    expectMatches('a(b+|c+)d', ['abbbbbd', 'acd'], ['ad', 'abcd', 'xabd']);
  });
  it('anchored whole-term matching', () => {
    expectMatches('ab', ['ab'], ['xab', 'abx', 'a', '']);
    expectMatches('ab.*', ['ab', 'abc'], ['a', 'xab']);
    expectMatches('', [''], ['a']);
    expectMatches('()', [''], ['a']);
  });
  it('operators . ? * + {n} {n,} {n,m} |', () => {
    expectMatches('a.c', ['abc', 'a😀c'], ['ac', 'abbc']);
    expectMatches('ab?c', ['ac', 'abc'], ['abbc']);
    expectMatches('ab*c', ['ac', 'abbbc'], ['adc']);
    expectMatches('ab+c', ['abc', 'abbc'], ['ac']);
    expectMatches('a{2}', ['aa'], ['a', 'aaa']);
    expectMatches('a{2,}', ['aa', 'aaaaa'], ['a']);
    expectMatches('a{2,3}', ['aa', 'aaa'], ['a', 'aaaa']);
    expectMatches('a{3,2}', [], ['', 'aa', 'aaa']); // min > max: empty language
    expectMatches('a{0}', [''], ['a']);
    expectMatches('cat|dog|()', ['cat', 'dog', ''], ['cow']);
    expectMatches('(ab)+', ['ab', 'abab'], ['', 'aba']);
  });
  it('character classes, ranges, negation (not Java regex)', () => {
    expectMatches('[a-c]x', ['ax', 'bx', 'cx'], ['dx', 'x']);
    expectMatches('[^a-c]', ['d', '😀', '-'], ['a', 'c', '', 'dd']);
    expectMatches('[\\-abc]', ['-', 'a'], ['d']);
    expectMatches('[\\]a]', [']', 'a'], ['\\']);
    expectMatches('[.]', ['.'], ['a']);
  });
  it('escapes and quoted literals', () => {
    expectMatches('a\\.b', ['a.b'], ['axb']);
    expectMatches('\\d', ['d'], ['1']); // Lucene 7.7 has no \d class: it is the letter d
    expectMatches('"a.b*"', ['a.b*'], ['ab', 'axbb']);
    expectMatches('a\\*', ['a*'], ['a', 'aa']);
    expectMatches('\\\\', ['\\'], ['']);
  });
  it('optional operators: ~ & # @ <n-m> (flags ALL)', () => {
    expectMatches('~(ab)', ['', 'a', 'abc', 'ba'], ['ab']);
    expectMatches('~(a*)', ['b', 'ab'], ['', 'a', 'aaa']);
    expectMatches('~a*', ['', 'b', 'bb', 'aa'], []); // (~a)*: complement binds tighter
    expectMatches('[a-z]+&~(foo)', ['fo', 'fooo', 'bar'], ['foo', '', 'Foo']);
    expectMatches('@&~(x@)', ['', 'ax', 'yyy'], ['x', 'xa']);
    expectMatches('#|b', ['b'], ['', '#']);
    expectMatches('#*', [''], ['a']);
    expectMatches('@', ['', 'anything'], []);
    expectMatches('<1-10>', ['1', '9', '10', '01', '0010'], ['0', '11', '', 'a', '1a']);
    expectMatches('<01-10>', ['01', '09', '10'], ['1', '010', '11', '00']);
    expectMatches('<5-1>', ['1', '3', '5'], ['0', '6']);
    expectMatches('<0-0>', ['0'], ['00', '1']);
    expectMatches('x<10-200>y', ['x10y', 'x0150y', 'x200y'], ['x9y', 'x201y', 'xy']);
  });
  it('flags switch the optional operators off (they become literal chars)', () => {
    expectMatches('~a', ['~a'], ['b'], 'NONE');
    expectMatches('a&b', ['a&b'], [], 'COMPLEMENT');
    expectMatches('#', ['#'], [''], 0);
    expectMatches('@', ['@'], ['a'], 'INTERSECTION|COMPLEMENT');
    expectMatches('<1-3>', ['<1-3>'], ['2'], 'NONE');
    expectMatches('~a', ['b'], ['a'], 'complement');
    expect(err(() => regexpMatcher('<foo>', 'INTERVAL'))).toEqual(
      iae('interval syntax error at position 4'),
    );
    expect(err(() => regexpMatcher('<1-2>', REGEXP_FLAGS.AUTOMATON))).toEqual(
      iae('illegal identifier at position 4'),
    );
  });
  it('ES RegexpFlag.resolveValue', () => {
    expect(resolveRegexpFlags('')).toBe(0xffff);
    expect(resolveRegexpFlags('ALL')).toBe(0xffff);
    expect(resolveRegexpFlags('NONE')).toBe(0);
    expect(resolveRegexpFlags('INTERSECTION|COMPLEMENT|EMPTY')).toBe(7);
    expect(resolveRegexpFlags('NONE|ANYSTRING')).toBe(8);
    expect(resolveRegexpFlags('INTERVAL|ALL')).toBe(0xffff);
    expect(err(() => resolveRegexpFlags('AUTOMATON'))).toEqual(
      iae('Unknown regexp flag [AUTOMATON]'),
    );
    expect(err(() => resolveRegexpFlags('EMPTY|bogus'))).toEqual(
      iae('Unknown regexp flag [bogus]'),
    );
  });
  it('literal prefix for dictionary seeks', () => {
    expect(regexpMatcher('abc.*').prefix).toBe('abc');
    expect(regexpMatcher('ab(c|d)').prefix).toBe('ab');
    expect(regexpMatcher('"foo"bar+').prefix).toBe('foobar');
    expect(regexpMatcher('ab?').prefix).toBe('a');
    expect(regexpMatcher('ab*').prefix).toBe('a');
    expect(regexpMatcher('.*foo').prefix).toBe('');
    expect(regexpMatcher('😀x.').prefix).toBe('😀x');
    expect(regexpMatcher('abc').prefix).toBe('abc');
  });
});

describe('regexpMatcher: errors (Lucene RegExp messages)', () => {
  const cases: Array<[string, string]> = [
    ['[ab', "expected ']' at position 3"],
    ['a{', 'integer expected at position 2'],
    ['a{2', "expected '}' at position 3"],
    ['a{2,x}', "expected '}' at position 4"],
    ['(a', "expected ')' at position 2"],
    ['"ab', `expected '"' at position 3`],
    ['<1-', "expected '>' at position 3"],
    ['<1-x>', 'interval syntax error at position 4'],
    ['<-1>', 'interval syntax error at position 3'],
    ['<1-2-3>', 'interval syntax error at position 6'],
    ['a)', 'end-of-string expected at position 1'],
    ['[b-a]', 'invalid range: from (98) cannot be > to (97)'],
    ['\\', 'unexpected end-of-string'],
    ['a|\\', 'unexpected end-of-string'],
    ['[', 'unexpected end-of-string'],
    ['cat|', 'unexpected end-of-string'],
    ['[abc-]', 'invalid range: from (99) cannot be > to (93)'],
    ['<foo>', "'foo' not found"],
  ];
  for (const [p, reason] of cases)
    it(p, () => expect(err(() => regexpMatcher(p))).toEqual(iae(reason)));

  it('too complex to determinize (TestRegExp.testDeterminizeTooManyStates)', () => {
    expect(err(() => regexpMatcher('[ac]*a[ac]{50,200}'))).toEqual({
      type: 'too_complex_to_determinize_exception',
      reason: 'Determinizing [ac]*a[ac]{50,200} would result in more than 10000 states.',
    });
    expect(err(() => regexpMatcher('a{50001}', undefined, 50000)).reason).toContain('a{50001}');
    expect(regexpMatcher('a{1000}').test('a'.repeat(1000))).toBe(true);
    expect(err(() => regexpMatcher('(a|b)*a(a|b){4}', undefined, 16)).type).toBe(
      'too_complex_to_determinize_exception',
    );
  });
  // max_determinized_states of 2^31-1 once let this exhaust the heap and kill the process
  it('bounds the work of one compilation whatever limit is asked', () => {
    for (const p of ['a{1,1000}{1,1000}', 'a{1000000}'])
      expect(err(() => regexpMatcher(p, undefined, 2 ** 31 - 1)).type).toBe(
        'too_complex_to_determinize_exception',
      );
    expect(regexpMatcher('[a-z]{1,50}x[0-9]{1,50}', undefined, 2 ** 31 - 1).states).toBe(151);
  });
  it('repeats of empty strings and languages compile (TestRegExp)', () => {
    expectMatches('[^y]*{1,2}', ['', 'abc'], ['y']);
    expectMatches('#+', [], ['']);
    expectMatches('#{2,10}', [], ['']);
    expectMatches('#?', [''], ['a']);
  });
});

// Random expressions over a tiny alphabet, checked against a set-based interpreter of the tree.
const atom = fc.constantFrom(
  'a',
  'b',
  '.',
  '[ab]',
  '[^a]',
  '"ab"',
  '()',
  '#',
  '@',
  '<0-12>',
  '<05-11>',
  '\\a',
  '1',
  '0',
);
const regexArb: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
  re: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc
      .tuple(tie('re'), fc.constantFrom('*', '?', '+', '{0,2}', '{1,}', '{2}'))
      .map(([r, op]) => `(${r})${op}`),
    tie('re').map((r) => `~(${r})`),
    fc.tuple(tie('re'), tie('re')).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie('re'), tie('re')).map(([a, b]) => `(${a}|${b})`),
    fc.tuple(tie('re'), tie('re')).map(([a, b]) => `(${a}&${b})`),
  ),
})).re;
const termArb = fc
  .array(fc.constantFrom('a', 'b', '0', '1', '2'), { maxLength: 6 })
  .map((a) => a.join(''));

describe('regexpMatcher agrees with a brute-force interpreter', () => {
  it('on random expressions and terms', () => {
    fc.assert(
      fc.property(
        regexArb,
        fc.array(termArb, { minLength: 1, maxLength: 12 }),
        (pattern, terms) => {
          const re = parseRegExp(pattern, REGEXP_FLAGS.ALL);
          const m = regexpMatcher(pattern);
          for (const t of terms) {
            const want = refRegexp(re, t);
            expect(m.test(t), `${pattern} on ${JSON.stringify(t)}`).toBe(want);
            if (want) expect(t.startsWith(m.prefix)).toBe(true);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
  it('on every short term for a few fixed expressions', () => {
    const all: string[] = [''];
    for (let len = 1; len <= 5; len++) {
      for (const s of all.filter((x) => x.length === len - 1))
        for (const c of 'ab1') all.push(s + c);
    }
    for (const p of ['(a|b)*a(a|b)', '~(a*b)&(a|b)*', '<1-11>a?', '((ab)?&~())*', '[^b]{1,3}@']) {
      const re = parseRegExp(p, REGEXP_FLAGS.ALL);
      const m = regexpMatcher(p);
      for (const t of all) expect(m.test(t), `${p} on ${t}`).toBe(refRegexp(re, t));
    }
  });
});
