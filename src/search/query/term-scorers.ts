/**
 * Scorers over postings: a single term (BM25 from freq and norm), and phrases (exact and sloppy,
 * Lucene 7 ExactPhraseScorer / SloppyPhraseScorer frequencies scored by BM25 with summed idf).
 */
import {
  IMPACT_BLOCK_SHIFT as BLOCK_SHIFT,
  IMPACT_BLOCK_SIZE as BLOCK_SIZE,
} from '../index/block-bounds.js';
import { termBlockBounds } from './block-score-bounds.js';
import { positionOffsets } from '../index/postings-extras.js';
import type { InvertedField, PackedInts } from '../index/segment.js';
import type { Bm25 } from './bm25.js';
import { NO_MORE_DOCS, type Scorer } from './scorer.js';
import { gallop } from '../index/gallop.js';

const f = Math.fround;

/** One term's postings (ord `term` of the field) scored by BM25, or with a constant. */
export class TermScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  /** Index of the current posting. */
  i: number;
  readonly start: number;
  readonly end: number;
  private readonly docs: Int32Array;
  private readonly freqs: PackedInts | null;
  private readonly norms: Uint8Array | null;
  /** Per-block score bounds, set on the first pruning request (enables block skipping). */
  private bounds: Float64Array | null = null;
  private boundsCache: Float64Array | null = null;
  private minCompetitive = -Infinity;
  constructor(
    readonly inv: InvertedField,
    readonly term: number,
    private readonly bm25: Bm25 | null,
    private readonly constant: number,
  ) {
    this.start = inv.termStart[term]!;
    this.end = inv.termStart[term + 1]!;
    this.i = this.start - 1;
    this.cost = this.end - this.start;
    this.docs = inv.docs;
    this.freqs = inv.freqs;
    this.norms = inv.norms;
  }
  next(): number {
    let i = ++this.i;
    if (this.bounds !== null && i < this.end) i = this.i = this.skipBlocks(i);
    return (this.doc = i < this.end ? this.docs[i]! : NO_MORE_DOCS);
  }
  advance(target: number): number {
    const docs = this.docs;
    const end = this.end;
    let lo = this.i + 1;
    if (lo >= end) {
      this.i = end;
      return (this.doc = NO_MORE_DOCS);
    }
    lo = gallop(docs, lo, end, target);
    if (this.bounds !== null && lo < end) lo = this.skipBlocks(lo);
    this.i = lo;
    return (this.doc = lo < end ? docs[lo]! : NO_MORE_DOCS);
  }
  freq(): number {
    return this.freqs !== null ? this.freqs[this.i]! : 1;
  }
  score(): number {
    const bm25 = this.bm25;
    if (bm25 === null) return this.constant;
    const freq = this.freqs !== null ? this.freqs[this.i]! : 1;
    // k1 as a literal (see NO_NORM_K1 in bulk-scorers.ts): K1 here would box the score
    const n = this.norms !== null ? bm25.cache[this.norms[this.doc]!]! : 1.2000000476837158;
    return f(f(bm25.weightValue * freq) / f(freq + n));
  }

  /** Upper bound of this term's score in any doc (from its block impacts). */
  maxScore(): number {
    const b = this.blockBounds();
    let m = -Infinity;
    for (let k = 0; k < b.length; k++) if (b[k]! > m) m = b[k]!;
    return m === -Infinity ? 0 : m;
  }
  setMinCompetitiveScore(min: number): void {
    if (this.bm25 === null || min <= this.minCompetitive) return;
    this.minCompetitive = min;
    if (this.bounds === null) this.bounds = this.blockBounds();
  }
  /** Block of the last shallowAdvance, and the target it was asked for. */
  private shallowBlock = 0;
  private shallowTarget = -1;
  /**
   * The last doc of the block holding this term's first posting >= target (NO_MORE_DOCS when
   * there is none), without moving the iterator; `blockMax()` then bounds the score of every
   * doc of that block (Lucene advanceShallow + getMaxScore).
   */
  shallowAdvance(target: number): number {
    const bounds = this.blockBounds();
    const n = bounds.length;
    let b = this.i > this.start ? (this.i - this.start) >>> BLOCK_SHIFT : 0;
    if (target >= this.shallowTarget && this.shallowBlock > b) b = this.shallowBlock;
    this.shallowTarget = target;
    const docs = this.docs;
    const last = this.end - 1;
    for (; b < n; b++) {
      const e = this.start + ((b + 1) << BLOCK_SHIFT) - 1;
      const d = docs[e < last ? e : last]!;
      if (d >= target) {
        this.shallowBlock = b;
        return d;
      }
    }
    this.shallowBlock = n;
    return NO_MORE_DOCS;
  }
  /** Score bound of the block found by the last shallowAdvance (0 past the end). */
  blockMax(): number {
    const bounds = this.boundsCache!;
    return this.shallowBlock < bounds.length ? bounds[this.shallowBlock]! : 0;
  }
  /** First posting at or after `i` in a block whose bound can beat the threshold. */
  private skipBlocks(i: number): number {
    const bounds = this.bounds!;
    const min = this.minCompetitive;
    let b = (i - this.start) >>> BLOCK_SHIFT;
    while (bounds[b]! <= min) {
      i = this.start + (++b << BLOCK_SHIFT);
      if (i >= this.end) return this.end;
    }
    return i;
  }
  private blockBounds(): Float64Array {
    return (this.boundsCache ??= this.computeBounds());
  }
  private computeBounds(): Float64Array {
    const bm25 = this.bm25;
    if (bm25 !== null) return termBlockBounds(this.inv, this.term, bm25);
    const out = new Float64Array((this.cost + BLOCK_SIZE - 1) >>> BLOCK_SHIFT);
    out.fill(this.constant);
    return out;
  }
}

/**
 * Lucene ExactPhraseScorer / SloppyPhraseScorer: docs where the terms occur at the query's
 * relative positions (within `slop` moves), scored by BM25 on the phrase frequency. Every slot
 * (phrase position) reads positions straight from its term iterators, which the approximation
 * (the conjunction of the slots) has already placed on the candidate doc.
 */
export class PhraseScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private curFreq = 0;
  private readonly n: number;
  private readonly positions: PackedInts;
  private readonly posOff: Int32Array;
  /** Per slot: the positions (array, [start, end)) of the current doc, relative offset. */
  private readonly arrs: PackedInts[];
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly ptr: Int32Array;
  private readonly offs: Int32Array;
  /** Scratch for slots with several terms (MultiPhraseQuery): merged sorted unique positions. */
  private readonly scratch: Int32Array[];
  constructor(
    private readonly approx: Scorer,
    private readonly perPosition: TermScorer[][],
    offsets: number[],
    private readonly slop: number,
    private readonly bm25: Bm25 | null,
    private readonly norms: Uint8Array | null,
    private readonly constant: number,
  ) {
    this.cost = approx.cost;
    const inv = perPosition[0]![0]!.inv;
    this.positions = inv.positions!;
    this.posOff = positionOffsets(inv)!;
    this.n = perPosition.length;
    this.arrs = perPosition.map(() => this.positions);
    this.starts = new Int32Array(this.n);
    this.ends = new Int32Array(this.n);
    this.ptr = new Int32Array(this.n);
    this.offs = Int32Array.from(offsets);
    this.scratch = perPosition.map((l) => (l.length > 1 ? new Int32Array(16) : new Int32Array(0)));
  }
  /** Loads the current doc's positions of every slot. */
  private load(doc: number): void {
    const off = this.posOff;
    for (let k = 0; k < this.n; k++) {
      const terms = this.perPosition[k]!;
      if (terms.length === 1) {
        const t = terms[0]!;
        const s = off[t.i]!;
        this.starts[k] = s;
        this.ends[k] = s + t.freq();
        continue;
      }
      let buf = this.scratch[k]!;
      let m = 0;
      for (const t of terms) {
        if (t.doc < doc) t.advance(doc);
        if (t.doc !== doc) continue;
        const s = off[t.i]!;
        const e = s + t.freq();
        if (m + e - s > buf.length) {
          const grown = new Int32Array(Math.max(buf.length * 2, m + e - s));
          grown.set(buf.subarray(0, m));
          buf = this.scratch[k] = grown;
        }
        for (let p = s; p < e; p++) buf[m++] = this.positions[p]!;
      }
      const sorted = buf.subarray(0, m).sort();
      let w = 0;
      for (let r = 0; r < m; r++) if (r === 0 || sorted[r] !== sorted[w - 1]) buf[w++] = sorted[r]!;
      this.arrs[k] = buf;
      this.starts[k] = 0;
      this.ends[k] = w;
    }
  }
  private exactFreq(): number {
    const n = this.n;
    const { arrs, starts, ends, ptr, offs } = this;
    for (let k = 0; k < n; k++) ptr[k] = starts[k]!;
    const a0 = arrs[0]!;
    const off0 = offs[0]!;
    let freq = 0;
    outer: for (let p = starts[0]!, e0 = ends[0]!; p < e0; p++) {
      const base = a0[p]! - off0;
      for (let k = 1; k < n; k++) {
        const want = base + offs[k]!;
        const a = arrs[k]!;
        const e = ends[k]!;
        let q = ptr[k]!;
        while (q < e && a[q]! < want) q++;
        ptr[k] = q;
        if (q >= e) break outer;
        if (a[q] !== want) continue outer;
      }
      freq++;
    }
    return freq;
  }
  private confirm(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      this.load(doc);
      let freq: number;
      if (this.slop === 0) freq = this.exactFreq();
      else {
        const lists: number[][] = [];
        for (let k = 0; k < this.n; k++)
          lists.push(Array.from(this.arrs[k]!.subarray(this.starts[k]!, this.ends[k]!)));
        freq = sloppyFreq(lists, Array.from(this.offs), this.slop);
      }
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
