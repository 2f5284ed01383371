/**
 * Bulk scoring (Lucene BulkScorer, BooleanScorer's windowed accumulators): every match of a
 * segment, in doc order, handed to the collector a batch at a time with its score, straight from
 * the postings arrays: no per-doc virtual calls, and the hit total comes for free. Covers the
 * common text-search shapes: a term, a disjunction of terms (scores summed per window in clause
 * order, as DisjunctionScorer adds them, so float rounding is identical), an exact phrase of
 * single terms, and any of these filtered by single-valued numeric range checks.
 */
import { positionOffsets } from '../index/postings-extras.js';
import type { InvertedField } from '../index/segment.js';
import type { Bm25 } from './bm25.js';
import { gallop, gallopNear } from '../index/gallop.js';
import { popcount, type Bitset } from '../index/bitset.js';
import { IMPACT_BLOCK_SHIFT, IMPACT_BLOCK_SIZE } from '../index/block-bounds.js';
import { termBlockBounds } from './block-score-bounds.js';

const f = Math.fround;

/**
 * The length term of a field without norms is BM25's k1 (float 1.2), written as a literal where
 * it is used: beside a value read from a typed array, a module binding (K1, or a const here) is
 * an unknown value to V8's optimizer, which then keeps the result boxed and allocates a heap
 * number per posting scored (16 bytes a posting: most of a match query's garbage).
 */
export const NO_NORM_K1 = 1.2000000476837158;

/** Receives `n` docs (increasing) and their scores; the arrays are reused after it returns. */
export type BatchSink = (docs: Int32Array, scores: Float64Array, n: number) => void;

/**
 * What a top-k collector shares with a bulk scorer while it runs: the score a hit must beat to
 * enter the top (−Infinity until the top is full; the collector raises it as hits come), the
 * segment's live docs, and the matches the scorer counted without handing them over. A scorer
 * may withhold only docs whose score cannot beat `floor` (the top keeps earlier docs on ties),
 * counting those that are live; handed-over docs the collector filters by liveness itself.
 */
export interface Competition {
  floor: number;
  counted: number;
  readonly live: Bitset | null;
}

export interface BulkScorer {
  /** Scores every match, in doc order, in batches (with `comp`: all but the withheld ones). */
  run(sink: BatchSink, comp?: Competition): void;
}

/** Docs per accumulator window (and the largest batch). */
const WINDOW_SHIFT = 11;
const WINDOW = 1 << WINDOW_SHIFT;

/**
 * Window buffers, allocated once: runs never nest (a sink does not start another run), and
 * fresh large typed arrays per segment and query cost more than the scoring itself.
 */
interface Scratch {
  readonly acc: Float64Array;
  readonly seen: Int32Array;
  /** Bit w: word w of `seen` has a bit set (drains visit only those words). */
  readonly touched: Int32Array;
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  /** Per clause (phrase slot) postings cursor and end, up to CLAUSES of them. */
  readonly pos: Int32Array;
  readonly ends: Int32Array;
  /** Per phrase slot: position offset, position cursor and end. */
  readonly offs: Int32Array;
  readonly ptr: Int32Array;
  readonly pend: Int32Array;
}

const CLAUSES = 16;
let spare: Scratch | null = null;

function takeScratch(): Scratch {
  const s = spare ?? {
    acc: new Float64Array(WINDOW),
    seen: new Int32Array(WINDOW >>> 5),
    touched: new Int32Array(WINDOW >>> 10),
    docs: new Int32Array(WINDOW),
    scores: new Float64Array(WINDOW),
    pos: new Int32Array(CLAUSES),
    ends: new Int32Array(CLAUSES),
    offs: new Int32Array(CLAUSES),
    ptr: new Int32Array(CLAUSES),
    pend: new Int32Array(CLAUSES),
  };
  spare = null;
  return s;
}

/** Returns the buffers (acc, seen and touched are all zero again). */
function giveScratch(s: Scratch): void {
  spare = s;
}

/** One scoring term of a bulk scorer: its postings range and BM25 weight. */
export interface BulkTerm {
  readonly inv: InvertedField;
  readonly ord: number;
  readonly bm25: Bm25;
}

/** Whether doc `d`'s single numeric values pass every range check (NaN, no value, fails). */
function passes(checks: readonly RangeCheck[], d: number): boolean {
  for (let c = 0; c < checks.length; c++) {
    const r = checks[c]!;
    const v = r.values[d]!;
    if (!(r.includeLo ? v >= r.lo : v > r.lo) || !(r.includeHi ? v <= r.hi : v < r.hi))
      return false;
  }
  return true;
}

/** Live docs of postings [p, e) passing the checks (null: none). */
function countPostings(
  docs: Int32Array,
  p: number,
  e: number,
  live: Bitset | null,
  checks: readonly RangeCheck[] | null,
): number {
  if (live === null && checks === null) return e - p;
  let n = 0;
  for (; p < e; p++) {
    const d = docs[p]!;
    if ((live === null || live.get(d)) && (checks === null || passes(checks, d))) n++;
  }
  return n;
}

/**
 * The scorers hold null, not an empty list, for no range checks: an empty array literal has
 * another hidden class than a list of checks, and a kernel optimized on one deoptimized on the
 * other (a match query's code, then a filtered query's).
 */
type Checks = readonly RangeCheck[] | null;

/**
 * A single term: BM25 of each posting (of those passing the range checks), an impact block at a
 * time; under a top-k competition, blocks whose score bound cannot beat the floor are counted.
 *
 * The scorers' loops are small module functions (`scoreTermBlock`, `accumulateClause`,
 * `drainWindow`, ...) rather than one body: V8 optimizes a small hot function within a few calls
 * and compiles it in a few ms, where one large `run` took TurboFan 20-130 ms to compile (on a
 * loaded machine) and ran unoptimized meanwhile: most of a fresh node's first hundred searches.
 */
class TermBulk implements BulkScorer {
  constructor(
    readonly t: BulkTerm,
    private readonly checks: Checks = null,
  ) {}
  run(sink: BatchSink, comp?: Competition): void {
    const { inv, ord, bm25 } = this.t;
    const checks = this.checks;
    const scratch = takeScratch();
    const outDocs = scratch.docs;
    const outScores = scratch.scores;
    const s = inv.termStart[ord]!;
    const e = inv.termStart[ord + 1]!;
    let bounds: Float64Array | null = null;
    let m = 0;
    for (let p = s; p < e;) {
      const be = p + IMPACT_BLOCK_SIZE < e ? p + IMPACT_BLOCK_SIZE : e;
      const competing = comp !== undefined && comp.floor > -Infinity;
      if (competing) {
        bounds ??= termBlockBounds(inv, ord, bm25);
        if (bounds[(p - s) >>> IMPACT_BLOCK_SHIFT]! <= comp.floor) {
          comp.counted += countPostings(inv.docs, p, be, comp.live, checks);
          p = be;
          continue;
        }
      }
      m =
        checks === null
          ? scoreTermBlock(inv, bm25, p, be, outDocs, outScores, m)
          : scoreFilteredTermBlock(inv, bm25, p, be, checks, outDocs, outScores, m);
      p = be;
      // once the top is full, every block's hits go at once (the floor rises with them)
      if (m > WINDOW - IMPACT_BLOCK_SIZE || competing) {
        if (m > 0) sink(outDocs, outScores, m);
        m = 0;
      }
    }
    if (m > 0) sink(outDocs, outScores, m);
    giveScratch(scratch);
  }
}

/**
 * BM25 of postings [p, be) of a term appended to the batch at `m`; returns the batch's new
 * length.
 */
function scoreTermBlock(
  inv: InvertedField,
  bm25: Bm25,
  p: number,
  be: number,
  outDocs: Int32Array,
  outScores: Float64Array,
  m: number,
): number {
  const { docs, freqs, norms } = inv;
  const cache = bm25.cache;
  const wv = bm25.weightValue;
  for (; p < be; p++) {
    const d = docs[p]!;
    const fr = freqs !== null ? freqs[p]! : 1;
    const nc = norms !== null ? cache[norms[d]!]! : 1.2000000476837158; // NO_NORM_K1
    outDocs[m] = d;
    outScores[m++] = f(f(wv * fr) / f(fr + nc));
  }
  return m;
}

/** `scoreTermBlock` of the postings whose docs pass the range checks. */
function scoreFilteredTermBlock(
  inv: InvertedField,
  bm25: Bm25,
  p: number,
  be: number,
  checks: readonly RangeCheck[],
  outDocs: Int32Array,
  outScores: Float64Array,
  m: number,
): number {
  const { docs, freqs, norms } = inv;
  const cache = bm25.cache;
  const wv = bm25.weightValue;
  for (; p < be; p++) {
    const d = docs[p]!;
    if (!passes(checks, d)) continue;
    const fr = freqs !== null ? freqs[p]! : 1;
    const nc = norms !== null ? cache[norms[d]!]! : 1.2000000476837158; // NO_NORM_K1
    outDocs[m] = d;
    outScores[m++] = f(f(wv * fr) / f(fr + nc));
  }
  return m;
}

/**
 * A disjunction of terms: per window of docs, each clause adds its scores into accumulators; then
 * the docs passing the range checks go to the sink. Under a top-k competition, a window whose
 * clauses' block bounds sum to at most the floor is only counted (a bitset union).
 */
class DisjunctionBulk implements BulkScorer {
  constructor(
    readonly terms: readonly BulkTerm[],
    private readonly checks: Checks = null,
  ) {}
  run(sink: BatchSink, comp?: Competition): void {
    const terms = this.terms;
    const checks = this.checks;
    const n = terms.length;
    const scratch = takeScratch();
    const pos = n <= CLAUSES ? scratch.pos : new Int32Array(n);
    const ends = n <= CLAUSES ? scratch.ends : new Int32Array(n);
    for (let c = 0; c < n; c++) {
      const t = terms[c]!;
      pos[c] = t.inv.termStart[t.ord]!;
      ends[c] = t.inv.termStart[t.ord + 1]!;
    }
    let bounds: Float64Array[] | null = null;
    const { acc, seen, touched } = scratch;
    const outDocs = scratch.docs;
    const outScores = scratch.scores;
    for (;;) {
      const base = windowStart(terms, pos, ends);
      if (base < 0) break;
      const limit = base + WINDOW;
      if (comp !== undefined && comp.floor > -Infinity) {
        bounds ??= clauseBlockBounds(terms);
        if (windowBounds(terms, bounds, pos, ends, limit) <= comp.floor) {
          comp.counted += countWindow(terms, checks, seen, touched, pos, ends, base, comp.live);
          continue;
        }
      }
      for (let c = 0; c < n; c++)
        pos[c] = accumulateClause(terms[c]!, pos[c]!, ends[c]!, base, acc, seen, touched);
      const m = drainWindow(acc, seen, touched, base, checks, outDocs, outScores);
      if (m > 0) sink(outDocs, outScores, m);
    }
    giveScratch(scratch);
  }
}

/** The first doc of the next window (the lowest doc left, down to a live-docs word), or -1. */
function windowStart(terms: readonly BulkTerm[], pos: Int32Array, ends: Int32Array): number {
  let base = 0x7fffffff;
  for (let c = 0; c < terms.length; c++) {
    if (pos[c]! < ends[c]!) {
      const d = terms[c]!.inv.docs[pos[c]!]!;
      if (d < base) base = d;
    }
  }
  // windows start on a live-docs word, so a window's seen words are live words
  return base === 0x7fffffff ? -1 : base & ~31;
}

function clauseBlockBounds(terms: readonly BulkTerm[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (let c = 0; c < terms.length; c++) {
    const t = terms[c]!;
    out.push(termBlockBounds(t.inv, t.ord, t.bm25));
  }
  return out;
}

/** The sum of the clauses' score bounds over the window ending at `limit`. */
function windowBounds(
  terms: readonly BulkTerm[],
  bounds: Float64Array[],
  pos: Int32Array,
  ends: Int32Array,
  limit: number,
): number {
  let bound = 0;
  for (let c = 0; c < terms.length; c++)
    bound += windowBound(terms[c]!, bounds[c]!, pos[c]!, ends[c]!, limit);
  return bound;
}

/**
 * Adds clause `t`'s scores of its postings [p, e) below the window's end into the accumulators
 * and marks their docs seen; returns the first posting past the window.
 */
function accumulateClause(
  t: BulkTerm,
  p: number,
  e: number,
  base: number,
  acc: Float64Array,
  seen: Int32Array,
  touched: Int32Array,
): number {
  const { inv, bm25 } = t;
  const { docs, freqs, norms } = inv;
  const cache = bm25.cache;
  const wv = bm25.weightValue;
  const limit = base + WINDOW;
  for (; p < e; p++) {
    const d = docs[p]!;
    if (d >= limit) break;
    const fr = freqs !== null ? freqs[p]! : 1;
    const nc = norms !== null ? cache[norms[d]!]! : 1.2000000476837158; // NO_NORM_K1
    const j = d - base;
    // DisjunctionScorer: sum = 0, then += each clause's float score in clause order
    acc[j]! += f(f(wv * fr) / f(fr + nc));
    const w = j >>> 5;
    seen[w]! |= 1 << (j & 31);
    touched[w >>> 5]! |= 1 << (w & 31);
  }
  return p;
}

/**
 * The window's seen docs (those passing the checks) and their summed scores, in doc order, into
 * the batch; clears the accumulators and marks. Returns the batch's length.
 */
function drainWindow(
  acc: Float64Array,
  seen: Int32Array,
  touched: Int32Array,
  base: number,
  checks: Checks,
  outDocs: Int32Array,
  outScores: Float64Array,
): number {
  let m = 0;
  for (let tw = 0; tw < touched.length; tw++) {
    let words = touched[tw]!;
    touched[tw] = 0;
    while (words !== 0) {
      const tt = words & -words;
      words ^= tt;
      const w = (tw << 5) + 31 - Math.clz32(tt);
      let bits = seen[w]!;
      seen[w] = 0;
      while (bits !== 0) {
        const t = bits & -bits;
        const j = (w << 5) + 31 - Math.clz32(t);
        const d = base + j;
        if (checks === null || passes(checks, d)) {
          outDocs[m] = d;
          outScores[m++] = f(acc[j]!);
        }
        acc[j] = 0;
        bits ^= t;
      }
    }
  }
  return m;
}

/** Live docs of the window [base, base + WINDOW) passing the checks (the union of the clauses). */
function countWindow(
  terms: readonly BulkTerm[],
  checks: Checks,
  seen: Int32Array,
  touched: Int32Array,
  pos: Int32Array,
  ends: Int32Array,
  base: number,
  live: Bitset | null,
): number {
  for (let c = 0; c < terms.length; c++) {
    const docs = terms[c]!.inv.docs;
    const e = ends[c]!;
    let p = pos[c]!;
    for (; p < e; p++) {
      const j = docs[p]! - base;
      if (j >= WINDOW) break;
      const w = j >>> 5;
      seen[w]! |= 1 << (j & 31);
      touched[w >>> 5]! |= 1 << (w & 31);
    }
    pos[c] = p;
  }
  const lw = live === null ? null : live.words;
  const w0 = base >>> 5;
  let count = 0;
  for (let tw = 0; tw < touched.length; tw++) {
    let words = touched[tw]!;
    touched[tw] = 0;
    while (words !== 0) {
      const tt = words & -words;
      words ^= tt;
      const w = (tw << 5) + 31 - Math.clz32(tt);
      let bits = seen[w]!;
      seen[w] = 0;
      if (lw !== null) bits &= lw[w0 + w]!;
      if (checks === null) count += popcount(bits);
      else
        while (bits !== 0) {
          const t = bits & -bits;
          if (passes(checks, base + (w << 5) + 31 - Math.clz32(t))) count++;
          bits ^= t;
        }
    }
  }
  return count;
}

/**
 * The score bound of a clause over the docs [.., limit) from its posting `p`: the largest bound
 * of the impact blocks holding its postings below `limit` (0 when it has none).
 */
function windowBound(
  t: BulkTerm,
  bounds: Float64Array,
  p: number,
  e: number,
  limit: number,
): number {
  const docs = t.inv.docs;
  if (p >= e || docs[p]! >= limit) return 0;
  const s = t.inv.termStart[t.ord]!;
  let b = (p - s) >>> IMPACT_BLOCK_SHIFT;
  let m = 0;
  for (;;) {
    if (bounds[b]! > m) m = bounds[b]!;
    const next = s + (++b << IMPACT_BLOCK_SHIFT);
    if (next >= e || docs[next]! >= limit) return m;
  }
}

/**
 * An exact phrase of single terms (Lucene ExactPhraseScorer): docs holding every term, led by the
 * rarest, whose positions line up at the query's offsets; BM25 of the phrase frequency.
 */
class ExactPhraseBulk implements BulkScorer {
  constructor(
    private readonly inv: InvertedField,
    /** Term ordinal and relative position of each phrase slot, in query order. */
    private readonly ords: readonly number[],
    private readonly offsets: readonly number[],
    private readonly bm25: Bm25,
  ) {}
  run(sink: BatchSink): void {
    const { inv, ords, bm25 } = this;
    const n = ords.length;
    const scratch = takeScratch();
    const big = n > CLAUSES;
    const offs = big ? new Int32Array(n) : scratch.offs;
    const pos = big ? new Int32Array(n) : scratch.pos;
    const ends = big ? new Int32Array(n) : scratch.ends;
    for (let k = 0; k < n; k++) {
      offs[k] = this.offsets[k]!;
      pos[k] = inv.termStart[ords[k]!]!;
      ends[k] = inv.termStart[ords[k]! + 1]!;
    }
    let lead = 0;
    for (let k = 1; k < n; k++) if (ends[k]! - pos[k]! < ends[lead]! - pos[lead]!) lead = k;
    const ptr = big ? new Int32Array(n) : scratch.ptr;
    const pend = big ? new Int32Array(n) : scratch.pend;
    // The kernels stop at a full batch (the sink is called here, never from inside them: a call
    // first reached in optimized code deoptimizes it, and a phrase fills a batch rarely).
    let m: number;
    do {
      m =
        n === 2
          ? this.pair(scratch, pos, ends, lead, offs[1]! - offs[0]!)
          : this.slots(scratch, pos, ends, lead, offs, ptr, pend);
      if (m > 0) sink(scratch.docs, scratch.scores, m);
    } while (m === WINDOW);
    giveScratch(scratch);
  }

  /**
   * Two slots, the second `rel` positions after the first, from the cursors in `pos`: fills the
   * batch and returns its length, WINDOW when full (the cursors then hold where to resume).
   */
  private pair(
    scratch: Scratch,
    pos: Int32Array,
    ends: Int32Array,
    lead: number,
    rel: number,
  ): number {
    const { inv, bm25 } = this;
    const { docs, norms } = inv;
    // Bm25.score inline (as the term scorers): a call returning a double boxes every score
    const cache = bm25.cache;
    const wv = bm25.weightValue;
    const freqs = inv.freqs!;
    const positions = inv.positions!;
    const posOff = positionOffsets(inv)!;
    const outDocs = scratch.docs;
    const outScores = scratch.scores;
    const other = 1 - lead;
    const oe = ends[other]!;
    let op = pos[other]!;
    let m = 0;
    const le = ends[lead]!;
    // lists of like lengths (two common words) mostly step the other cursor by a few docs
    const near = oe - op <= 8 * (le - pos[lead]!);
    for (let lp = pos[lead]!; lp < le; lp++) {
      const d = docs[lp]!;
      op = near ? gallopNear(docs, op, oe, d) : gallop(docs, op, oe, d);
      if (op >= oe) {
        pos[lead] = le;
        break;
      }
      if (docs[op] !== d) continue;
      // Positions: as PhraseScorer.exactFreq, slot 0 anchors each candidate start.
      const i0 = lead === 0 ? lp : op;
      const i1 = lead === 0 ? op : lp;
      const e0 = posOff[i0]! + freqs[i0]!;
      const s1 = posOff[i1]!;
      const e1 = s1 + freqs[i1]!;
      let q = s1;
      let freq = 0;
      for (let p = posOff[i0]!; p < e0; p++) {
        const want = positions[p]! + rel;
        while (q < e1 && positions[q]! < want) q++;
        if (q >= e1) break;
        if (positions[q] === want) freq++;
      }
      if (freq === 0) continue;
      outDocs[m] = d;
      const nc = norms !== null ? cache[norms[d]!]! : 1.2000000476837158; // NO_NORM_K1
      outScores[m++] = f(f(wv * freq) / f(freq + nc));
      if (m === WINDOW) {
        pos[lead] = lp + 1;
        pos[other] = op;
        return m;
      }
    }
    return m;
  }

  /** Any number of slots; as `pair`, fills the batch from the cursors in `pos`. */
  private slots(
    scratch: Scratch,
    pos: Int32Array,
    ends: Int32Array,
    lead: number,
    offs: Int32Array,
    ptr: Int32Array,
    pend: Int32Array,
  ): number {
    const { inv, bm25 } = this;
    const n = this.ords.length;
    const { docs, norms } = inv;
    const cache = bm25.cache;
    const wv = bm25.weightValue;
    const freqs = inv.freqs!;
    const positions = inv.positions!;
    const posOff = positionOffsets(inv)!;
    const outDocs = scratch.docs;
    const outScores = scratch.scores;
    let m = 0;
    const le = ends[lead]!;
    outer: for (let lp = pos[lead]!; lp < le; lp++) {
      const d = docs[lp]!;
      pos[lead] = lp;
      // Every other slot on d (galloping), or the next candidate.
      for (let k = 0; k < n; k++) {
        if (k === lead) continue;
        const e = ends[k]!;
        const p = gallop(docs, pos[k]!, e, d);
        pos[k] = p;
        if (p >= e) {
          pos[lead] = le;
          break outer;
        }
        if (docs[p] !== d) continue outer;
      }
      // Positions: as PhraseScorer.exactFreq, slot 0 anchors each candidate start.
      for (let k = 0; k < n; k++) {
        const i = pos[k]!;
        ptr[k] = posOff[i]!;
        pend[k] = posOff[i]! + freqs[i]!;
      }
      const e0 = pend[0]!;
      const off0 = offs[0]!;
      let freq = 0;
      scan: for (let p = ptr[0]!; p < e0; p++) {
        const start = positions[p]! - off0;
        for (let k = 1; k < n; k++) {
          const want = start + offs[k]!;
          const e = pend[k]!;
          let q = ptr[k]!;
          while (q < e && positions[q]! < want) q++;
          ptr[k] = q;
          if (q >= e) break scan;
          if (positions[q] !== want) continue scan;
        }
        freq++;
      }
      if (freq === 0) continue;
      outDocs[m] = d;
      const nc = norms !== null ? cache[norms[d]!]! : 1.2000000476837158; // NO_NORM_K1
      outScores[m++] = f(f(wv * freq) / f(freq + nc));
      if (m === WINDOW) {
        pos[lead] = lp + 1;
        return m;
      }
    }
    return m;
  }
}

/**
 * Keeps the docs whose single numeric value passes every check (ranges over doc values). It
 * withholds nothing: the inner scorer runs without the competition (its counted docs would not
 * be checked).
 */
class FilteredBulk implements BulkScorer {
  constructor(
    private readonly inner: BulkScorer,
    private readonly checks: readonly RangeCheck[],
  ) {}
  run(sink: BatchSink): void {
    const checks = this.checks;
    this.inner.run((docs, scores, n) => {
      let m = 0;
      for (let i = 0; i < n; i++) {
        const d = docs[i]!;
        if (!passes(checks, d)) continue;
        docs[m] = d;
        scores[m++] = scores[i]!;
      }
      if (m > 0) sink(docs, scores, m);
    });
  }
}

/** A range over a single-valued numeric column (NaN = no value). */
export interface RangeCheck {
  readonly values: Float64Array;
  readonly lo: number;
  readonly hi: number;
  readonly includeLo: boolean;
  readonly includeHi: boolean;
}

export function termBulk(t: BulkTerm): BulkScorer {
  return new TermBulk(t);
}

export function disjunctionBulk(terms: readonly BulkTerm[]): BulkScorer {
  return terms.length === 1 ? new TermBulk(terms[0]!) : new DisjunctionBulk(terms);
}

export function exactPhraseBulk(
  inv: InvertedField,
  ords: readonly number[],
  offsets: readonly number[],
  bm25: Bm25,
): BulkScorer {
  return new ExactPhraseBulk(inv, ords, offsets, bm25);
}

/** `inner` under range checks: terms and disjunctions check before they score or count. */
export function filteredBulk(inner: BulkScorer, checks: readonly RangeCheck[]): BulkScorer {
  if (checks.length === 0) return inner;
  if (inner instanceof TermBulk) return new TermBulk(inner.t, checks);
  if (inner instanceof DisjunctionBulk) return new DisjunctionBulk(inner.terms, checks);
  return new FilteredBulk(inner, checks);
}
