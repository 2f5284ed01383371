/**
 * Scorers over postings: a single term (BM25 from freq and norm), and phrases (exact and sloppy,
 * Lucene 7 ExactPhraseScorer / SloppyPhraseScorer frequencies scored by BM25 with summed idf).
 */
import type { InvertedField } from '../index/segment.js';
import type { Bm25 } from './bm25.js';
import { NO_MORE_DOCS, type Scorer } from './scorer.js';

export class TermScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private i: number;
  constructor(
    private readonly inv: InvertedField,
    private readonly start: number,
    private readonly end: number,
    private readonly bm25: Bm25 | null,
    private readonly constant: number,
  ) {
    this.i = start - 1;
    this.cost = end - start;
  }
  next(): number {
    return (this.doc = ++this.i < this.end ? this.inv.docs[this.i]! : NO_MORE_DOCS);
  }
  advance(target: number): number {
    const docs = this.inv.docs;
    let lo = this.i + 1;
    if (lo >= this.end) return (this.doc = NO_MORE_DOCS);
    if (docs[lo]! >= target) {
      this.i = lo;
      return (this.doc = docs[lo]!);
    }
    let step = 1;
    let hi = lo + 1;
    while (hi < this.end && docs[hi]! < target) {
      lo = hi;
      step <<= 1;
      hi = lo + step;
    }
    if (hi > this.end) hi = this.end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    this.i = lo;
    return (this.doc = lo < this.end ? docs[lo]! : NO_MORE_DOCS);
  }
  freq(): number {
    return this.inv.freqs ? this.inv.freqs[this.i]! : 1;
  }
  score(): number {
    if (!this.bm25) return this.constant;
    const norms = this.inv.norms;
    return this.bm25.score(this.freq(), norms ? norms[this.doc]! : -1);
  }
  /** Positions of the current doc (requires positions). */
  positionsOf(out: number[]): void {
    out.length = 0;
    const inv = this.inv;
    if (!inv.positions || !inv.posStart || !inv.freqs) return;
    // Positions of a term are stored in posting order; find this posting's offset.
    let p = this.posCursorFor(this.i);
    const fr = inv.freqs[this.i]!;
    for (let k = 0; k < fr; k++) out.push(inv.positions[p++]!);
  }
  private posIdx = -1;
  private posOff = 0;
  private posCursorFor(i: number): number {
    const inv = this.inv;
    if (this.posIdx < this.start || this.posIdx > i) {
      this.posIdx = this.start;
      // posStart is indexed by term: find the term containing posting `start`.
      this.posOff = this.termPosBase;
    }
    while (this.posIdx < i) this.posOff += inv.freqs![this.posIdx++]!;
    return this.posOff;
  }
  /** Set by the creator: offset into positions of this term's first posting. */
  termPosBase = 0;
}

/** Union of several terms' postings at one phrase position (Lucene MultiPhraseQuery). */
class PositionSource {
  constructor(readonly terms: TermScorer[]) {}
  /** Positions (sorted, unique) of any of the terms in `doc`. */
  positions(doc: number, out: number[]): number[] {
    out.length = 0;
    const tmp: number[] = [];
    for (const t of this.terms) {
      if (t.doc < doc) t.advance(doc);
      if (t.doc !== doc) continue;
      t.positionsOf(tmp);
      for (const p of tmp) out.push(p);
    }
    if (this.terms.length > 1) {
      out.sort((a, b) => a - b);
      let w = 0;
      for (let r = 0; r < out.length; r++) if (r === 0 || out[r] !== out[r - 1]) out[w++] = out[r]!;
      out.length = w;
    }
    return out;
  }
}

export class PhraseScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private readonly sources: PositionSource[];
  private readonly buf: number[][];
  private curFreq = 0;
  constructor(
    private readonly approx: Scorer,
    perPosition: TermScorer[][],
    private readonly offsets: number[],
    private readonly slop: number,
    private readonly bm25: Bm25 | null,
    private readonly norms: Uint8Array | null,
    private readonly constant: number,
  ) {
    this.sources = perPosition.map((ts) => new PositionSource(ts));
    this.buf = perPosition.map(() => []);
    this.cost = approx.cost;
  }
  private confirm(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      const lists = this.sources.map((s, i) => s.positions(doc, this.buf[i]!));
      const freq =
        this.slop === 0
          ? exactFreq(lists, this.offsets)
          : sloppyFreq(lists, this.offsets, this.slop);
      if (freq > 0) {
        this.curFreq = freq;
        return (this.doc = doc);
      }
      doc = this.approx.next();
    }
    return (this.doc = NO_MORE_DOCS);
  }
  next(): number {
    return this.confirm(this.approx.next());
  }
  advance(target: number): number {
    return this.confirm(this.approx.advance(target));
  }
  freq(): number {
    return this.curFreq;
  }
  score(): number {
    if (!this.bm25) return this.constant;
    return this.bm25.score(this.curFreq, this.norms ? this.norms[this.doc]! : -1);
  }
}

/** Number of exact occurrences: positions p with p + offset_i in every list i. */
export function exactFreq(lists: number[][], offsets: number[]): number {
  const first = lists[0]!;
  const ptr = lists.map(() => 0);
  let freq = 0;
  outer: for (const p0 of first) {
    const base = p0 - offsets[0]!;
    for (let i = 1; i < lists.length; i++) {
      const want = base + offsets[i]!;
      const l = lists[i]!;
      while (ptr[i]! < l.length && l[ptr[i]!]! < want) ptr[i]!++;
      if (ptr[i]! >= l.length) break outer;
      if (l[ptr[i]!] !== want) continue outer;
    }
    freq++;
  }
  return freq;
}

/** Lucene SloppyPhraseScorer.phraseFreq (without the repeated-terms refinement). */
export function sloppyFreq(lists: number[][], offsets: number[], slop: number): number {
  const n = lists.length;
  const idx = new Array<number>(n).fill(0);
  const pos = (i: number) => lists[i]![idx[i]!]! - offsets[i]!;
  for (let i = 0; i < n; i++) if (lists[i]!.length === 0) return 0;
  let end = -Infinity;
  for (let i = 0; i < n; i++) end = Math.max(end, pos(i));
  // A tiny priority queue by current position (n is the phrase length).
  const heap = Array.from({ length: n }, (_, i) => i);
  const key = (i: number) => pos(i);
  const popMin = (): number => {
    let best = 0;
    for (let k = 1; k < heap.length; k++)
      if (
        key(heap[k]!) < key(heap[best]!) ||
        (key(heap[k]!) === key(heap[best]!) && heap[k]! < heap[best]!)
      )
        best = k;
    return heap.splice(best, 1)[0]!;
  };
  const topPos = (): number => {
    let m = Infinity;
    for (const i of heap) m = Math.min(m, key(i));
    return m;
  };
  let freq = 0;
  let pp = popMin();
  let matchLength = end - pos(pp);
  let next = topPos();
  const advance = (i: number): boolean => {
    if (idx[i]! + 1 >= lists[i]!.length) return false;
    idx[i]!++;
    if (pos(i) > end) end = pos(i);
    return true;
  };
  while (advance(pp)) {
    if (pos(pp) > next) {
      if (matchLength <= slop) freq += Math.fround(1 / (matchLength + 1));
      heap.push(pp);
      pp = popMin();
      next = topPos();
      matchLength = end - pos(pp);
    } else {
      const ml2 = end - pos(pp);
      if (ml2 < matchLength) matchLength = ml2;
    }
  }
  if (matchLength <= slop) freq += Math.fround(1 / (matchLength + 1));
  return Math.fround(freq);
}
