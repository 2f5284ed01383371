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
  /** Row i of the DP (after i suffix code points of the last candidate) at `i * width`. */
  private rows: Int32Array;
  private last = new Int32Array(16);
  /** Rows valid for the suffix held in `last`. */
  private validRows = 1;
  /** First valid row whose minimum exceeds maxEdits: every extension of it is rejected. */
  private deadRow = Infinity;
  /** Minimum of the last computed row (set by computeRow). */
  private rowMin = 0;
  /** The term has no surrogates: candidates can be read as UTF-16 units. */
  private readonly bmp: boolean;

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
    this.rows = new Int32Array(this.width * 16);
    this.bmp = term.every((c) => c < 0xd800 || (c > 0xdfff && c <= 0xffff));
    for (let j = 0; j < this.width; j++) this.rows[j] = Math.min(j, this.inf);
  }

  boost(candidate: string, edits: number): number {
    return fuzzyBoost(edits, this.cand.load(candidate), this.term.length);
  }

  test(candidate: string): number {
    return this.bmp ? this.testUtf16(candidate) : this.testCodePoints(candidate);
  }

  /**
   * Fast path for a BMP term: reads the candidate's UTF-16 units directly and falls back to
   * the code point path only when it meets a surrogate (rare in term dictionaries).
   */
  private testUtf16(candidate: string): number {
    const { p, m, maxEdits: k, term } = this;
    const units = candidate.length;
    // code points <= UTF-16 units: too short is decidable before decoding
    if (units < p + m - k) return -1;
    for (let i = 0; i < p; i++) {
      // a surrogate never equals a BMP term char, so a mismatch rejects either way
      if (candidate.charCodeAt(i) !== term[i]) return -1;
    }
    const len = units - p;
    if (m - len > k) return -1;
    if (len - m > k) return hasSurrogate(candidate) ? this.testCodePoints(candidate) : -1;

    let common = 0;
    const max = Math.min(len, this.validRows - 1);
    while (common < max && candidate.charCodeAt(p + common) === this.last[common]) common++;
    // a shared prefix already beyond reach (sorted dictionaries have long runs of these)
    if (this.deadRow <= common) return -1;
    this.truncate(common);
    this.ensureCapacity(len, common);
    const last = this.last;
    for (let i = common + 1; i <= len; i++) {
      const u = candidate.charCodeAt(p + i - 1);
      if (u >= 0xd800 && u <= 0xdfff) return this.testCodePoints(candidate);
      last[i - 1] = u;
      const bound = this.computeRow(i, len);
      this.validRows = i + 1;
      if (this.rowMin > k) {
        this.deadRow = i;
        return -1;
      }
      // the length bound assumed one code point per unit: check the rest has no surrogates
      if (bound > k && !hasSurrogate(candidate, p + i)) return -1;
    }
    const d = this.rows[len * this.width + m]!;
    return d <= k ? d : -1;
  }

  private testCodePoints(candidate: string): number {
    const { p, m, maxEdits: k } = this;
    const n = this.cand.load(candidate);
    const c = this.cand.buf;
    // rows cached from a candidate with surrogates could match lone surrogates: do not keep them
    const keep = !hasSurrogate(candidate);
    if (n < p) return -1;
    for (let i = 0; i < p; i++) if (c[i] !== this.term[i]) return -1;
    const len = n - p;
    if (len - m > k || m - len > k) return -1;

    let common = 0;
    const max = Math.min(len, this.validRows - 1);
    while (common < max && this.last[common] === c[p + common]) common++;
    let d = -1;
    if (this.deadRow > common) {
      this.truncate(common);
      this.ensureCapacity(len, common);
      for (let i = common; i < len; i++) this.last[i] = c[p + i]!;
      let i = common + 1;
      for (; i <= len; i++) {
        const bound = this.computeRow(i, len);
        this.validRows = i + 1;
        if (this.rowMin > k) this.deadRow = i;
        if (bound > k) break;
      }
      if (i > len) d = this.rows[len * this.width + m]!;
    }
    if (!keep) this.truncate(0);
    return d >= 0 && d <= k ? d : -1;
  }

  /** Keeps only the rows of the first `common` suffix code points. */
  private truncate(common: number): void {
    this.validRows = common + 1;
    if (this.deadRow > common) this.deadRow = Infinity;
  }

  /** Room for `len` suffix code points / rows, keeping the first `common` of them. */
  private ensureCapacity(len: number, common: number): void {
    if (this.last.length < len) {
      const grown = new Int32Array(Math.max(len, this.last.length * 2));
      grown.set(this.last.subarray(0, common));
      this.last = grown;
    }
    if (this.rows.length < (len + 1) * this.width) {
      const grown = new Int32Array(Math.max((len + 1) * this.width, this.rows.length * 2));
      grown.set(this.rows.subarray(0, (common + 1) * this.width));
      this.rows = grown;
    }
  }

  /**
   * Fills DP row i (candidate suffix char i-1 against the term suffix) inside the band and
   * returns a lower bound of the final distance: min over cells of value + |remaining lengths|.
   */
  private computeRow(i: number, len: number): number {
    const { s, m, inf, maxEdits: k, rows, width, last } = this;
    const cur = i * width;
    const prev = cur - width;
    const prev2 = prev - width;
    const ch = last[i - 1]!;
    const chPrev = i >= 2 ? last[i - 2]! : -1;
    const tr = this.transpositions && i >= 2;
    const lo = i - k > 1 ? i - k : 1;
    const hi = i + k < m ? i + k : m;
    const rest = len - i - m; // remaining candidate minus remaining term, at column 0
    const c0 = i <= k ? i : inf;
    rows[cur] = c0;
    let min = c0;
    let bound = c0 + (rest < 0 ? -rest : rest);
    if (lo > 1) rows[cur + lo - 1] = inf;
    for (let j = lo; j <= hi; j++) {
      const sj = s[j - 1]!;
      let v = rows[prev + j - 1]! + (sj === ch ? 0 : 1);
      const up = rows[prev + j]! + 1;
      if (up < v) v = up;
      const left = rows[cur + j - 1]! + 1;
      if (left < v) v = left;
      // optimal string alignment: adjacent transposition counts one edit
      if (tr && j >= 2 && sj !== ch && s[j - 2] === ch && sj === chPrev) {
        const t = rows[prev2 + j - 2]! + 1;
        if (t < v) v = t;
      }
      if (v > inf) v = inf;
      rows[cur + j] = v;
      if (v < min) min = v;
      const gap = rest + j;
      const b = v + (gap < 0 ? -gap : gap);
      if (b < bound) bound = b;
    }
    if (hi < m) rows[cur + hi + 1] = inf;
    this.rowMin = min;
    return bound;
  }
}

function hasSurrogate(s: string, from = 0): boolean {
  for (let i = from; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdfff) return true;
  }
  return false;
}
