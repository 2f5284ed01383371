/**
 * Fuzzy term matching as Lucene 7.7 `FuzzyQuery`/`FuzzyTermsEnum`: a candidate matches when it
 * starts with the term's first `prefixLength` code points and the rest is within `maxEdits` of
 * the term's rest (Levenshtein, or optimal-string-alignment with `transpositions`, counted in
 * code points). A banded DP (width 2k+1) with early exit is kept per candidate position, so over
 * a sorted dictionary only the rows after the common prefix with the previous term are computed.
 *
 * Scoring (Lucene 7 FuzzyTermsEnum.next): every term within the distance is accepted with boost
 *   ed == 0 ? 1 : 1 - ed / min(codePointCount(candidate), codePointCount(term))   (float math)
 * (which can be 0 or negative for short terms), and the default rewrite
 * (TopTermsBlendedFreqScoringRewrite, ES `max_expansions` default 50) keeps the best-boosted
 * terms, ties going to the smaller term, blending their document frequencies.
 */
import { illegalArgument } from '../../common/errors.js';
import { CodePointBuffer, codePoints, fromCodePoints } from './code-points.js';

/** Lucene `LevenshteinAutomata.MAXIMUM_SUPPORTED_DISTANCE`. */
export const MAX_EDITS = 2;

export interface FuzzyMatcher {
  /** Every matching term starts with this (the first `prefixLength` code points). */
  readonly prefix: string;
  readonly maxEdits: number;
  /** Edit distance of `candidate` (after the prefix), or -1 when it does not match. */
  test(candidate: string): number;
  /** Lucene's per-term boost for a matched candidate at distance `edits`. */
  boost(candidate: string, edits: number): number;
}

/** Lucene FuzzyTermsEnum boost: 1 for the term itself, else 1 - ed / min(lengths). */
export function fuzzyBoost(edits: number, candidateLength: number, termLength: number): number {
  if (edits === 0) return 1;
  return Math.fround(1 - Math.fround(edits / Math.min(candidateLength, termLength)));
}

export function fuzzyMatcher(
  term: string,
  maxEdits: number,
  prefixLength = 0,
  transpositions = true,
): FuzzyMatcher {
  // Lucene FuzzyQuery constructor checks
  if (!Number.isInteger(maxEdits) || maxEdits < 0 || maxEdits > MAX_EDITS) {
    throw illegalArgument(`maxEdits must be between 0 and ${MAX_EDITS}`);
  }
  if (prefixLength < 0) throw illegalArgument('prefixLength cannot be negative.');
  return new BandedMatcher(codePoints(term), maxEdits, prefixLength, transpositions);
}

class BandedMatcher implements FuzzyMatcher {
  readonly prefix: string;
  private readonly p: number;
  /** The term after the prefix (DP columns). */
  private readonly s: Int32Array;
  private readonly m: number;
  private readonly width: number;
  private readonly inf: number;
  private readonly cand = new CodePointBuffer();
  /** rows[i] = DP row after i suffix code points of the last candidate. */
  private rows: Int32Array[] = [];
  private last = new Int32Array(16);
  /** Rows of `rows` valid for the suffix in `last`. */
  private validRows = 0;

  constructor(
    private readonly term: Int32Array,
    readonly maxEdits: number,
    prefixLength: number,
    private readonly transpositions: boolean,
  ) {
    this.p = Math.min(prefixLength, term.length);
    this.prefix = fromCodePoints(term, 0, this.p);
    this.s = term.subarray(this.p);
    this.m = this.s.length;
    this.width = this.m + 1;
    this.inf = maxEdits + 1;
    const row0 = new Int32Array(this.width);
    for (let j = 0; j < this.width; j++) row0[j] = Math.min(j, this.inf);
    this.rows.push(row0);
    this.validRows = 1;
  }

  boost(candidate: string, edits: number): number {
    return fuzzyBoost(edits, this.cand.load(candidate), this.term.length);
  }

  test(candidate: string): number {
    const n = this.cand.load(candidate);
    const c = this.cand.buf;
    const { p, m, maxEdits: k } = this;
    if (n < p) return -1;
    for (let i = 0; i < p; i++) if (c[i] !== this.term[i]) return -1;
    const len = n - p;
    if (len - m > k || m - len > k) return -1;

    // reuse the rows of the common prefix with the previous candidate's suffix
    let common = 0;
    const max = Math.min(len, this.validRows - 1);
    while (common < max && this.last[common] === c[p + common]) common++;
    if (this.last.length < len) {
      const grown = new Int32Array(Math.max(len, this.last.length * 2));
      grown.set(this.last.subarray(0, common));
      this.last = grown;
    }
    for (let i = common; i < len; i++) this.last[i] = c[p + i]!;
    this.validRows = common + 1;

    for (let i = common + 1; i <= len; i++) {
      if (this.computeRow(i) > k) return -1;
      this.validRows = i + 1;
    }
    const d = this.rows[len]![m]!;
    return d <= k ? d : -1;
  }

  /** DP row i (candidate suffix char i-1 against the term suffix); returns the row minimum. */
  private computeRow(i: number): number {
    while (this.rows.length <= i) this.rows.push(new Int32Array(this.width));
    const cur = this.rows[i]!;
    const prev = this.rows[i - 1]!;
    const prev2 = i >= 2 ? this.rows[i - 2]! : undefined;
    const { s, m, inf, maxEdits: k } = this;
    const ch = this.last[i - 1]!;
    const chPrev = i >= 2 ? this.last[i - 2]! : -1;
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    cur[0] = i <= k ? i : inf;
    if (lo > 1) cur[lo - 1] = inf;
    let min = cur[0]!;
    for (let j = lo; j <= hi; j++) {
      const sj = s[j - 1]!;
      let v = prev[j - 1]! + (sj === ch ? 0 : 1);
      const up = prev[j]! + 1;
      if (up < v) v = up;
      const left = cur[j - 1]! + 1;
      if (left < v) v = left;
      // optimal string alignment: adjacent transposition counts one edit
      if (this.transpositions && prev2 && j >= 2 && sj !== ch && s[j - 2] === ch && sj === chPrev) {
        const t = prev2[j - 2]! + 1;
        if (t < v) v = t;
      }
      if (v > inf) v = inf;
      cur[j] = v;
      if (v < min) min = v;
    }
    if (hi < m) cur[hi + 1] = inf;
    return min;
  }
}
