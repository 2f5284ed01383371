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
import { K1, type Bm25 } from './bm25.js';
import { gallop } from '../index/gallop.js';

const f = Math.fround;

/** Receives `n` docs (increasing) and their scores; the arrays are reused after it returns. */
export type BatchSink = (docs: Int32Array, scores: Float64Array, n: number) => void;

export interface BulkScorer {
  /** Scores every match, in doc order, in batches. */
  run(sink: BatchSink): void;
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
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}
let spare: Scratch | null = null;

function takeScratch(): Scratch {
  const s = spare ?? {
    acc: new Float64Array(WINDOW),
    seen: new Int32Array(WINDOW >>> 5),
    docs: new Int32Array(WINDOW),
    scores: new Float64Array(WINDOW),
  };
  spare = null;
  return s;
}

/** Returns the buffers (acc and seen are all zero again). */
function giveScratch(s: Scratch): void {
  spare = s;
}

/** One scoring term of a bulk scorer: its postings range and BM25 weight. */
export interface BulkTerm {
  readonly inv: InvertedField;
  readonly ord: number;
  readonly bm25: Bm25;
}

/** A single term: BM25 of each posting. */
class TermBulk implements BulkScorer {
  constructor(private readonly t: BulkTerm) {}
  run(sink: BatchSink): void {
    const { inv, ord, bm25 } = this.t;
    const { docs, freqs, norms } = inv;
    const cache = bm25.cache;
    const wv = bm25.weightValue;
    const scratch = takeScratch();
    const outDocs = scratch.docs;
    const outScores = scratch.scores;
    const e = inv.termStart[ord + 1]!;
    for (let p = inv.termStart[ord]!; p < e;) {
      const be = p + WINDOW < e ? p + WINDOW : e;
      let m = 0;
      for (; p < be; p++, m++) {
        const d = docs[p]!;
        const fr = freqs !== null ? freqs[p]! : 1;
        const nc = norms !== null ? cache[norms[d]!]! : K1;
        outDocs[m] = d;
        outScores[m] = f(f(wv * fr) / f(fr + nc));
      }
      sink(outDocs, outScores, m);
    }
    giveScratch(scratch);
  }
}

/** A disjunction of terms: per window of docs, each clause adds its scores into accumulators. */
class DisjunctionBulk implements BulkScorer {
  constructor(private readonly terms: readonly BulkTerm[]) {}
  run(sink: BatchSink): void {
    const terms = this.terms;
    const n = terms.length;
    const pos = new Int32Array(n);
    const ends = new Int32Array(n);
    for (let c = 0; c < n; c++) {
      const t = terms[c]!;
      pos[c] = t.inv.termStart[t.ord]!;
      ends[c] = t.inv.termStart[t.ord + 1]!;
    }
    const scratch = takeScratch();
    const { acc, seen } = scratch;
    const outDocs = scratch.docs;
    const outScores = scratch.scores;
    for (;;) {
      let base = 0x7fffffff;
      for (let c = 0; c < n; c++) {
        if (pos[c]! < ends[c]!) {
          const d = terms[c]!.inv.docs[pos[c]!]!;
          if (d < base) base = d;
        }
      }
      if (base === 0x7fffffff) break;
      const limit = base + WINDOW;
      for (let c = 0; c < n; c++) {
        const { inv, bm25 } = terms[c]!;
        const { docs, freqs, norms } = inv;
        const cache = bm25.cache;
        const wv = bm25.weightValue;
        const e = ends[c]!;
        let p = pos[c]!;
        for (; p < e; p++) {
          const d = docs[p]!;
          if (d >= limit) break;
          const fr = freqs !== null ? freqs[p]! : 1;
          const nc = norms !== null ? cache[norms[d]!]! : K1;
          const j = d - base;
          // DisjunctionScorer: sum = 0, then += each clause's float score in clause order
          acc[j]! += f(f(wv * fr) / f(fr + nc));
          seen[j >>> 5]! |= 1 << (j & 31);
        }
        pos[c] = p;
      }
      let m = 0;
      for (let w = 0; w < seen.length; w++) {
        let bits = seen[w]!;
        if (bits === 0) continue;
        seen[w] = 0;
        while (bits !== 0) {
          const t = bits & -bits;
          const j = (w << 5) + 31 - Math.clz32(t);
          outDocs[m] = base + j;
          outScores[m++] = f(acc[j]!);
          acc[j] = 0;
          bits ^= t;
        }
      }
      sink(outDocs, outScores, m);
    }
    giveScratch(scratch);
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
    const { docs, freqs, norms } = inv;
    const positions = inv.positions!;
    const posOff = positionOffsets(inv)!;
    const offs = Int32Array.from(this.offsets);
    const pos = new Int32Array(n);
    const ends = new Int32Array(n);
    const ptr = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      pos[k] = inv.termStart[ords[k]!]!;
      ends[k] = inv.termStart[ords[k]! + 1]!;
    }
    let lead = 0;
    for (let k = 1; k < n; k++) if (ends[k]! - pos[k]! < ends[lead]! - pos[lead]!) lead = k;
    const scratch = takeScratch();
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
        if (p >= e) break outer;
        if (docs[p] !== d) continue outer;
      }
      // Positions: as PhraseScorer.exactFreq, slot 0 anchors each candidate start.
      for (let k = 0; k < n; k++) ptr[k] = posOff[pos[k]!]!;
      const s0 = ptr[0]!;
      const e0 = s0 + (freqs !== null ? freqs[pos[0]!]! : 1);
      const off0 = offs[0]!;
      let freq = 0;
      scan: for (let p = s0; p < e0; p++) {
        const start = positions[p]! - off0;
        for (let k = 1; k < n; k++) {
          const want = start + offs[k]!;
          const e = posOff[pos[k]!]! + (freqs !== null ? freqs[pos[k]!]! : 1);
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
      outScores[m++] = bm25.score(freq, norms !== null ? norms[d]! : -1);
      if (m === WINDOW) {
        sink(outDocs, outScores, m);
        m = 0;
      }
    }
    if (m > 0) sink(outDocs, outScores, m);
    giveScratch(scratch);
  }
}

/** Keeps the docs whose single numeric value passes every check (ranges over doc values). */
class FilteredBulk implements BulkScorer {
  constructor(
    private readonly inner: BulkScorer,
    private readonly checks: readonly RangeCheck[],
  ) {}
  run(sink: BatchSink): void {
    const checks = this.checks;
    this.inner.run((docs, scores, n) => {
      let m = 0;
      outer: for (let i = 0; i < n; i++) {
        const d = docs[i]!;
        for (let c = 0; c < checks.length; c++) {
          const r = checks[c]!;
          const v = r.values[d]!;
          // NaN (no value) fails every comparison
          if (!(r.includeLo ? v >= r.lo : v > r.lo) || !(r.includeHi ? v <= r.hi : v < r.hi))
            continue outer;
        }
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

export function filteredBulk(inner: BulkScorer, checks: readonly RangeCheck[]): BulkScorer {
  return checks.length === 0 ? inner : new FilteredBulk(inner, checks);
}
