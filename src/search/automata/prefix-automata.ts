/**
 * Automata the completion suggester runs over a suggestion's analyzed form, stepping one code
 * point at a time and stopping at the first accepting prefix (Lucene's NRT suggester keeps an
 * FST path once the query automaton accepts it; every completion below it matches):
 * - `regexPrefixAutomaton`: Lucene RegexCompletionQuery, a RegExp DFA over code points;
 * - `fuzzyPrefixAutomaton`: Lucene FuzzyCompletionQuery, the typed prefix's first
 *   `nonFuzzyPrefix` units exact and the rest within `maxEdits` (Levenshtein, adjacent
 *   transpositions counting one edit), in UTF-8 bytes or, `unicodeAware`, code points. Its
 *   boost is FuzzyCompletionWeight's: how many leading units the accepted prefix shares with
 *   the typed one.
 */
import type { CompiledRegexp } from './regexp.js';

export interface PrefixAutomaton<S> {
  readonly start: S;
  /** The state after code point `cp`, or null when no continuation can be accepted. */
  step(s: S, cp: number): S | null;
  /** The match boost when `s` accepts, else -1. */
  accept(s: S): number;
}

/** A RegExp's DFA; its matches carry no boost (score = weight). */
export function regexPrefixAutomaton({ dfa, alphabet }: CompiledRegexp): PrefixAutomaton<number> {
  return {
    // an empty automaton (Lucene makeEmpty for an empty regex) matches nothing
    start: dfa.states === 0 ? -1 : 0,
    step: (q, cp) => {
      if (q < 0) return null;
      const t = dfa.table[q * dfa.k + alphabet.classOf(cp)]!;
      return t < 0 ? null : t;
    },
    accept: (q) => (q >= 0 && dfa.accept[q] === 1 ? 0 : -1),
  };
}

/** An empty RegExp matches nothing (RegexCompletionQuery). */
export const EMPTY_PREFIX_AUTOMATON: PrefixAutomaton<number> = {
  start: -1,
  step: () => null,
  accept: () => -1,
};

export interface FuzzyPrefixOptions {
  readonly maxEdits: number;
  readonly transpositions: boolean;
  readonly nonFuzzyPrefix: number;
  readonly minFuzzyLength: number;
  readonly unicodeAware: boolean;
}

/** A fuzzy state: units consumed, the DP rows (fuzzy part), and the shared-prefix count. */
interface FuzzyState {
  readonly pos: number;
  readonly row: Int32Array | null;
  readonly prevRow: Int32Array | null;
  readonly lastUnit: number;
  readonly lcp: number;
  readonly lcpOpen: boolean;
  readonly accepted: boolean;
}

/** The units Lucene measures: UTF-8 bytes, or code points when `unicodeAware`. */
export function measureUnits(cp: number, unicodeAware: boolean, out: number[]): void {
  if (unicodeAware || cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  else
    out.push(
      0xf0 | (cp >> 18),
      0x80 | ((cp >> 12) & 0x3f),
      0x80 | ((cp >> 6) & 0x3f),
      0x80 | (cp & 0x3f),
    );
}

function unitsOf(s: string, unicodeAware: boolean): number[] {
  const out: number[] = [];
  for (const ch of s) measureUnits(ch.codePointAt(0)!, unicodeAware, out);
  return out;
}

export function fuzzyPrefixAutomaton(
  typed: string,
  o: FuzzyPrefixOptions,
): PrefixAutomaton<FuzzyState> {
  const u = unitsOf(typed, o.unicodeAware);
  const k = o.maxEdits;
  // short prefixes are matched exactly (Lucene: length <= nonFuzzyPrefix or < minFuzzyLength)
  const exact = u.length <= o.nonFuzzyPrefix || u.length < o.minFuzzyLength;
  const p = exact ? u.length : o.nonFuzzyPrefix;
  const m = u.length - p;
  const firstRow = (): Int32Array => {
    const r = new Int32Array(m + 1);
    for (let j = 0; j <= m; j++) r[j] = Math.min(j, k + 1);
    return r;
  };
  const accepts = (pos: number, row: Int32Array | null): boolean =>
    exact ? pos === u.length : pos >= p && row !== null && row[m]! <= k;

  const stepUnit = (s: FuzzyState, x: number): FuzzyState | null => {
    const lcpOpen = s.lcpOpen && s.lcp < u.length && u[s.lcp] === x;
    const lcp = lcpOpen ? s.lcp + 1 : s.lcp;
    const pos = s.pos + 1;
    if (s.pos < p) {
      if (u[s.pos] !== x) return null;
      const row = pos === p && !exact ? firstRow() : null;
      return { pos, row, prevRow: null, lastUnit: x, lcp, lcpOpen, accepted: accepts(pos, row) };
    }
    const prev = s.row!;
    const row = new Int32Array(m + 1);
    const i = pos - p; // fuzzy units consumed
    row[0] = Math.min(i, k + 1);
    let min = row[0]!;
    for (let j = 1; j <= m; j++) {
      const cost = u[p + j - 1] === x ? 0 : 1;
      let v = Math.min(prev[j - 1]! + cost, prev[j]! + 1, row[j - 1]! + 1);
      // optimal string alignment: swapping two adjacent units is one edit
      if (
        o.transpositions &&
        i >= 2 &&
        j >= 2 &&
        s.prevRow !== null &&
        x === u[p + j - 2] &&
        s.lastUnit === u[p + j - 1]
      )
        v = Math.min(v, s.prevRow[j - 2]! + 1);
      row[j] = v > k + 1 ? k + 1 : v;
      if (row[j]! < min) min = row[j]!;
    }
    if (min > k) return null;
    return { pos, row, prevRow: prev, lastUnit: x, lcp, lcpOpen, accepted: row[m]! <= k };
  };

  const start: FuzzyState = {
    pos: 0,
    row: p === 0 && !exact ? firstRow() : null,
    prevRow: null,
    lastUnit: -1,
    lcp: 0,
    lcpOpen: true,
    accepted: false,
  };
  const begin: FuzzyState = { ...start, accepted: accepts(0, start.row) };
  const scratch: number[] = [];
  return {
    start: begin,
    step: (s, cp) => {
      if (s.accepted) return s;
      scratch.length = 0;
      measureUnits(cp, o.unicodeAware, scratch);
      let cur: FuzzyState | null = s;
      // a multi-byte character may be accepted part way: the path is kept from there on
      for (const x of scratch) {
        cur = stepUnit(cur, x);
        if (cur === null || cur.accepted) return cur;
      }
      return cur;
    },
    accept: (s) => (s.accepted ? s.lcp : -1),
  };
}
