/**
 * Numeric range matching over a field's points (sorted (value, doc) pairs: a range is one
 * contiguous slice), materialised only when iterated: a sorted doc list when the slice is
 * small or holds one value (already in doc order), a bitset when large. When a conjunction is
 * led by a much cheaper clause it checks the doc values instead (Lucene IndexOrDocValuesQuery).
 */
import { Bitset, popcount } from '../index/bitset.js';
import type { LiveSegment } from '../index/live-segment.js';
import type { NumericColumn, PointsIndex } from '../index/segment.js';
import { ArrayScorer, BitsetScorer, NO_MORE_DOCS, type Scorer } from './scorer.js';

/** Below this many points a range sorts its doc ids; above, it fills a bitset. */
const SORT_LIMIT = 2048;

export interface RangeBounds {
  readonly lo: number;
  readonly hi: number;
  readonly includeLo: boolean;
  readonly includeHi: boolean;
}

/** The slice [from, to) of points whose value is in the range. */
export function pointsSlice(pts: PointsIndex, r: RangeBounds): [number, number] {
  const from = pointsFrom(pts, r);
  return [from, pointsTo(pts, r, from)];
}

/** The first point whose value is not below the range. */
export function pointsFrom(pts: PointsIndex, r: RangeBounds): number {
  const v = pts.values;
  let l = 0;
  let h = v.length;
  while (l < h) {
    const m = (l + h) >>> 1;
    if (r.includeLo ? v[m]! < r.lo : v[m]! <= r.lo) l = m + 1;
    else h = m;
  }
  return l;
}

/** The first point at or after `from` whose value is above the range. */
export function pointsTo(pts: PointsIndex, r: RangeBounds, from: number): number {
  const v = pts.values;
  let l = from;
  let h = v.length;
  while (l < h) {
    const m = (l + h) >>> 1;
    if (r.includeHi ? v[m]! <= r.hi : v[m]! < r.hi) l = m + 1;
    else h = m;
  }
  return l;
}

/** Sorted unique docs of a points slice. */
export function sliceDocs(pts: PointsIndex, from: number, to: number): Int32Array {
  const docs = pts.docs.slice(from, to);
  // One value: the pairs are already in doc order.
  if (pts.values[from] !== pts.values[to - 1]) docs.sort();
  let w = docs.length > 0 ? 1 : 0;
  for (let r = 1; r < docs.length; r++) if (docs[r] !== docs[w - 1]) docs[w++] = docs[r]!;
  return w === docs.length ? docs : docs.slice(0, w);
}

export function sliceBitset(pts: PointsIndex, from: number, to: number, maxDoc: number): Bitset {
  const b = new Bitset(maxDoc);
  const w = b.words;
  const docs = pts.docs;
  for (let i = from; i < to; i++) {
    const d = docs[i]!;
    w[d >>> 5]! |= 1 << (d & 31);
  }
  return b;
}

/** Live docs in a points slice; `single` when every doc has at most one value. */
export function countSlice(
  pts: PointsIndex,
  from: number,
  to: number,
  single: boolean,
  ls: LiveSegment,
): number {
  const live = ls.live;
  if (single) {
    if (live === null) return to - from;
    const lw = live.words;
    const docs = pts.docs;
    let n = 0;
    for (let i = from; i < to; i++) {
      const d = docs[i]!;
      n += (lw[d >>> 5]! >>> (d & 31)) & 1;
    }
    return n;
  }
  const w = sliceBitset(pts, from, to, ls.segment.maxDoc).words;
  let n = 0;
  if (live === null) for (let i = 0; i < w.length; i++) n += popcount(w[i]!);
  else {
    const lw = live.words;
    for (let i = 0; i < w.length; i++) n += popcount(w[i]! & lw[i]!);
  }
  return n;
}

export class NumericRangeScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private iter: Scorer | null = null;
  verify?: (doc: number) => boolean;
  constructor(
    private readonly pts: PointsIndex,
    private readonly from: number,
    private readonly to: number,
    private readonly maxDoc: number,
    private readonly value: number,
    r: RangeBounds,
    column: NumericColumn | null,
  ) {
    this.cost = to - from;
    if (column) this.verify = docValuesCheck(this, column, r);
  }
  private materialize(): Scorer {
    const n = this.to - this.from;
    const { pts, from, to } = this;
    this.iter =
      n <= SORT_LIMIT || pts.values[from] === pts.values[to - 1]
        ? new ArrayScorer(sliceDocs(pts, from, to), this.value)
        : new BitsetScorer(sliceBitset(pts, from, to, this.maxDoc), this.value, n);
    if (this.doc >= 0 && this.doc !== NO_MORE_DOCS) this.iter.advance(this.doc);
    return this.iter;
  }
  next(): number {
    const it = this.iter ?? this.materialize();
    return (this.doc = it.doc <= this.doc ? it.next() : it.doc);
  }
  advance(target: number): number {
    const it = this.iter ?? this.materialize();
    return (this.doc = it.doc < target ? it.advance(target) : it.doc);
  }
  score(): number {
    return this.value;
  }
}

function docValuesCheck(
  s: NumericRangeScorer,
  col: NumericColumn,
  r: RangeBounds,
): (doc: number) => boolean {
  const { lo, hi, includeLo, includeHi } = r;
  const inRange = (v: number) => (includeLo ? v >= lo : v > lo) && (includeHi ? v <= hi : v < hi);
  if (col.single) {
    const single = col.single;
    return (doc) => {
      // NaN (no value) fails both comparisons
      if (!inRange(single[doc]!)) return false;
      s.doc = doc;
      return true;
    };
  }
  const offsets = col.offsets!;
  const values = col.values!;
  return (doc) => {
    for (let i = offsets[doc]!, e = offsets[doc + 1]!; i < e; i++) {
      if (inRange(values[i]!)) {
        s.doc = doc;
        return true;
      }
    }
    return false;
  };
}
