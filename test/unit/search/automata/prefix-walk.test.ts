import { describe, expect, it } from 'vitest';
import {
  fuzzyPrefixAutomaton,
  regexPrefixAutomaton,
  type FuzzyPrefixOptions,
  type PrefixAutomaton,
} from '../../../../src/search/automata/prefix-automata.js';
import { prefixRange, walkPrefixes } from '../../../../src/search/automata/prefix-walk.js';
import { compileRegexp } from '../../../../src/search/automata/regexp.js';

const FUZZY: FuzzyPrefixOptions = {
  maxEdits: 1,
  transpositions: true,
  nonFuzzyPrefix: 1,
  minFuzzyLength: 3,
  unicodeAware: false,
};

/** Completion-style terms: `key \0 payload`, sorted. */
const terms = (keys: string[]) => keys.map((k, i) => `${k}\u0000${i}`).sort();

/** The keys of the matched terms with their boost. */
function matched<S>(ts: string[], a: PrefixAutomaton<S>): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const r of walkPrefixes(ts, a))
    for (let i = r.from; i < r.to; i++) out.push([ts[i]!.split('\u0000')[0]!, r.boost]);
  return out;
}

/** Reference: the shortest prefix of `key` the automaton accepts, by stepping it alone. */
function naive<S>(key: string, a: PrefixAutomaton<S>): number {
  let s: S | null = a.start;
  if (a.accept(s) >= 0) return a.accept(s);
  for (const ch of key) {
    s = a.step(s, ch.codePointAt(0)!);
    if (s === null) return -1;
    if (a.accept(s) >= 0) return a.accept(s);
  }
  return -1;
}

/** Optimal string alignment distance. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

const regex = (p: string) => regexPrefixAutomaton(compileRegexp(p));

describe('regex prefix automaton over sorted terms', () => {
  const ts = terms(['lazy dog', 'lazy', 'lady', 'lizard', 'la', 'laser', 'quick fox', 'l9zy']);

  it('matches keys having a prefix in the language', () => {
    expect(matched(ts, regex('l[a-z]zy')).map((m) => m[0])).toEqual(['lazy', 'lazy dog']);
    expect(matched(ts, regex('la')).map((m) => m[0])).toEqual([
      'la',
      'lady',
      'laser',
      'lazy',
      'lazy dog',
    ]);
    expect(matched(ts, regex('l.z')).map((m) => m[0])).toEqual([
      'l9zy',
      'lazy',
      'lazy dog',
      'lizard',
    ]);
    expect(matched(ts, regex('(quick|lazy) (d|f)')).map((m) => m[0])).toEqual([
      'lazy dog',
      'quick fox',
    ]);
    expect(matched(ts, regex('.*')).length).toBe(ts.length);
    expect(matched(ts, regex('x'))).toEqual([]);
  });

  it('carries no boost', () => {
    expect(matched(ts, regex('lazy'))).toEqual([
      ['lazy', 0],
      ['lazy dog', 0],
    ]);
  });

  it('agrees with stepping every key alone', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x7fffffff);
    const alphabet = 'abcd ';
    const keys = Array.from(
      { length: 400 },
      () =>
      Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => alphabet[Math.floor(rnd() * 5)]).join(''), // prettier-ignore
    );
    const ts2 = terms(keys);
    for (const p of ['a[bc]*d', 'b.c', '(ab|ba)+d?', '[^a]b', 'c{2,3}']) {
      const a = regex(p);
      const want = ts2.filter((t) => naive(t.split('\u0000')[0]!, a) >= 0);
      const got = walkPrefixes(ts2, a).flatMap((r) => ts2.slice(r.from, r.to));
      expect(got, p).toEqual(want);
    }
  });
});

describe('fuzzy prefix automaton', () => {
  const ts = terms(['lazy dog', 'lady', 'lizard', 'laser', 'mazy', 'lzay', 'la', 'nope']);

  it('allows one edit after the exact first character', () => {
    const keys = matched(ts, fuzzyPrefixAutomaton('lazu', FUZZY)).map((m) => m[0]);
    // "lazy" is one substitution away; "lady" and "lzay" two
    expect(keys).toEqual(['lazy dog']);
    expect(matched(ts, fuzzyPrefixAutomaton('lzay', FUZZY)).map((m) => m[0])).toEqual([
      'lazy dog',
      'lzay',
    ]);
  });

  it('does not edit the non-fuzzy prefix', () => {
    expect(matched(ts, fuzzyPrefixAutomaton('mazy', FUZZY)).map((m) => m[0])).toEqual(['mazy']);
    const zero = { ...FUZZY, nonFuzzyPrefix: 0 };
    expect(matched(ts, fuzzyPrefixAutomaton('mazy', zero)).map((m) => m[0])).toEqual([
      'lazy dog',
      'mazy',
    ]);
  });

  it('matches prefixes shorter than min_length exactly', () => {
    expect(matched(ts, fuzzyPrefixAutomaton('lz', FUZZY)).map((m) => m[0])).toEqual(['lzay']);
    const short = { ...FUZZY, minFuzzyLength: 2 };
    expect(matched(ts, fuzzyPrefixAutomaton('lz', short)).map((m) => m[0])).toContain('la');
  });

  it('counts a transposition as one edit only with transpositions', () => {
    const keys = (o: FuzzyPrefixOptions) =>
      matched(ts, fuzzyPrefixAutomaton('lzay', o)).map((m) => m[0]);
    expect(keys(FUZZY)).toContain('lazy dog');
    expect(keys({ ...FUZZY, transpositions: false })).toEqual(['lzay']);
  });

  it('boosts by the units the accepted prefix shares with the typed one', () => {
    // the shortest accepted prefix of "lazy dog" for "lazy" is "laz" (one deletion): 3
    expect(matched(terms(['lazy dog']), fuzzyPrefixAutomaton('lazy', FUZZY))).toEqual([
      ['lazy dog', 3],
    ]);
    expect(matched(terms(['lady']), fuzzyPrefixAutomaton('lazy', FUZZY))).toEqual([['lady', 2]]);
    // exact (too short to fuzz): the whole typed prefix
    expect(matched(terms(['lazy']), fuzzyPrefixAutomaton('la', FUZZY))).toEqual([['lazy', 2]]);
  });

  it('measures in UTF-8 bytes unless unicode_aware', () => {
    const ts2 = terms(['café au lait']);
    // "cafx au" is one edit from "café au" in code points but two in bytes
    expect(matched(ts2, fuzzyPrefixAutomaton('cafx au', FUZZY))).toEqual([]);
    expect(
      matched(ts2, fuzzyPrefixAutomaton('cafx au', { ...FUZZY, unicodeAware: true })).length,
    ).toBe(1);
  });

  it('agrees with stepping every key alone', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x7fffffff);
    const keys = Array.from(
      { length: 500 },
      () =>
      Array.from({ length: 1 + Math.floor(rnd() * 7) }, () => 'abc'[Math.floor(rnd() * 3)]).join(''), // prettier-ignore
    );
    const ts2 = terms(keys);
    for (const typed of ['abc', 'cab', 'aaaa', 'bcb', 'ab']) {
      for (const maxEdits of [1, 2]) {
        const a = fuzzyPrefixAutomaton(typed, {
          ...FUZZY,
          maxEdits,
          nonFuzzyPrefix: 0,
          minFuzzyLength: 0,
        });
        const want = ts2
          .map((t) => [t, naive(t.split('\u0000')[0]!, a)] as const)
          .filter(([, b]) => b >= 0);
        const got = walkPrefixes(ts2, a).flatMap((r) =>
          ts2.slice(r.from, r.to).map((t) => [t, r.boost] as const),
        );
        expect(got, `${typed}~${maxEdits}`).toEqual(want);
        // the language: keys with some prefix within maxEdits of the typed text
        const byDistance = ts2.filter((t) => {
          const key = t.split('\u0000')[0]!;
          for (let l = 0; l <= key.length; l++)
            if (osa(key.slice(0, l), typed) <= maxEdits) return true;
          return false;
        });
        expect(
          got.map(([t]) => t),
          `${typed}~${maxEdits}`,
        ).toEqual(byDistance);
      }
    }
  });
});

describe('prefixRange', () => {
  it('is the range of terms starting with the prefix', () => {
    const ts = terms(['ab', 'abc', 'abd', 'b', 'a']);
    const r = prefixRange(ts, 'ab');
    expect(ts.slice(r.from, r.to).map((t) => t.split('\u0000')[0])).toEqual(['ab', 'abc', 'abd']);
    expect(prefixRange(ts, '')).toEqual({ from: 0, to: 5, boost: 0 });
  });
});
