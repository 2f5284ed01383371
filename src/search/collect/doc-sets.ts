/**
 * The matching docs of plain filter queries as whole doc sets, read straight from the index
 * (Lucene's DocIdSet of a cached filter): a term's postings, a point range's docs, match_all,
 * and conjunctions of those. Collectors that need neither scores nor doc-at-a-time iteration
 * (aggregations of size 0 searches, sorted paging) use them instead of a Scorer. Queries of any
 * other shape return null: the caller then iterates the Scorer.
 */
import { Bitset, popcount } from '../index/bitset.js';
import type { LiveSegment } from '../index/live-segment.js';
import type { InvertedField, PointsIndex, Segment } from '../index/segment.js';
import { termOrd } from '../index/term-lookup.js';
import type { Query } from '../query/query.js';
import { gallop } from '../index/gallop.js';

/** Docs of one segment: every doc, a sorted unique list, or a bitset (with its cardinality). */
export type DocSet =
  | { readonly kind: 'all'; readonly maxDoc: number }
  | { readonly kind: 'list'; readonly docs: Int32Array }
  | { readonly kind: 'bits'; readonly bits: Bitset; readonly count: number };

const EMPTY: DocSet = { kind: 'list', docs: new Int32Array(0) };

export function docSetSize(s: DocSet): number {
  return s.kind === 'all' ? s.maxDoc : s.kind === 'list' ? s.docs.length : s.count;
}

/** The docs matching `q` in `ls` (deleted docs included), or null for unsupported queries. */
export function filterDocSet(q: Query, ls: LiveSegment): DocSet | null {
  const seg = ls.segment;
  switch (q.kind) {
    case 'MatchAll':
      return { kind: 'all', maxDoc: seg.maxDoc };
    case 'MatchNone':
      return EMPTY;
    case 'Term': {
      const inv = inverted(seg, q.field);
      if (!inv) return EMPTY;
      const t = termOrd(inv, q.term);
      if (t < 0) return EMPTY;
      return { kind: 'list', docs: inv.docs.subarray(inv.termStart[t]!, inv.termStart[t + 1]!) };
    }
    case 'NumericRange':
      return pointRange(seg, q.field, q.lo, q.hi, q.includeLo, q.includeHi);
    case 'ConstantScore':
      return filterDocSet(q.inner, ls);
    case 'Bool': {
      if (q.should.length > 0 || q.minShouldMatch > 0) return null;
      const req = [...q.must, ...q.filter];
      if (req.length === 0) return null;
      let acc: DocSet | null = null;
      for (const c of req) {
        const s = filterDocSet(c, ls);
        if (!s) return null;
        acc = acc ? intersect(acc, s, seg.maxDoc) : s;
      }
      for (const c of q.mustNot) {
        const s = filterDocSet(c, ls);
        if (!s) return null;
        acc = subtract(acc!, s, seg.maxDoc);
      }
      return acc;
    }
    default:
      return null;
  }
}

function inverted(seg: Segment, field: string): InvertedField | null {
  return field === '_field_names' ? seg.fieldNames : (seg.fields.get(field)?.inverted ?? null);
}

/** First index in the sorted `v` whose value is >= x (or > x when `strict`). */
function lowerBound(v: Float64Array, x: number, strict: boolean): number {
  let l = 0;
  let h = v.length;
  while (l < h) {
    const m = (l + h) >>> 1;
    if (strict ? v[m]! <= x : v[m]! < x) l = m + 1;
    else h = m;
  }
  return l;
}

const ascending = new WeakMap<PointsIndex, boolean>();

/**
 * Whether the docs of every value of `pts` strictly ascend (no doc repeats a value), checked once
 * per (immutable) points index: an exact-value query then needs no scan of its docs.
 */
function valueRunsAscend(pts: PointsIndex): boolean {
  let r = ascending.get(pts);
  if (r !== undefined) return r;
  const v = pts.values;
  const docs = pts.docs;
  r = true;
  for (let i = 1; i < v.length; i++) {
    if (v[i] === v[i - 1] && docs[i]! <= docs[i - 1]!) {
      r = false;
      break;
    }
  }
  ascending.set(pts, r);
  return r;
}

/**
 * Docs of a point range. Points are sorted by (value, doc), so the docs of one value are already
 * in doc order (Lucene's PointRangeQuery on an exact value); a wider range is turned into a
 * bitset (dense) or a sorted list (sparse).
 */
function pointRange(
  seg: Segment,
  field: string,
  lo: number,
  hi: number,
  incLo: boolean,
  incHi: boolean,
): DocSet {
  const pts = seg.fields.get(field)?.points;
  if (!pts) return EMPTY;
  const v = pts.values;
  const a = lowerBound(v, lo, !incLo);
  const b = lowerBound(v, hi, incHi);
  if (b <= a) return EMPTY;
  const docs = pts.docs;
  if (v[a] === v[b - 1]) {
    // One value: increasing docs unless a multi-valued doc repeats the value.
    if (valueRunsAscend(pts)) return { kind: 'list', docs: docs.subarray(a, b) };
    let sorted = true;
    for (let i = a + 1; i < b; i++) {
      if (docs[i]! <= docs[i - 1]!) {
        sorted = false;
        break;
      }
    }
    if (sorted) return { kind: 'list', docs: docs.subarray(a, b) };
  }
  const n = b - a;
  if (n * 16 >= seg.maxDoc) {
    const bits = new Bitset(seg.maxDoc);
    const w = bits.words;
    for (let i = a; i < b; i++) {
      const d = docs[i]!;
      w[d >>> 5]! |= 1 << (d & 31);
    }
    return { kind: 'bits', bits, count: bits.cardinality() };
  }
  const out = docs.slice(a, b);
  out.sort();
  let k = 1;
  for (let r = 1; r < out.length; r++) if (out[r] !== out[k - 1]) out[k++] = out[r]!;
  return { kind: 'list', docs: k === out.length ? out : out.subarray(0, k) };
}

function toBits(s: DocSet, maxDoc: number): Bitset {
  if (s.kind === 'bits') return s.bits;
  if (s.kind === 'all') return Bitset.full(maxDoc);
  const bits = new Bitset(maxDoc);
  const w = bits.words;
  const d = s.docs;
  for (let i = 0; i < d.length; i++) w[d[i]! >>> 5]! |= 1 << (d[i]! & 31);
  return bits;
}

function listFromBits(bits: Bitset): DocSet {
  return { kind: 'list', docs: bits.toArray() };
}

/** Keeps the docs of the list `docs` that `keep` says (in order). */
function filterList(docs: Int32Array, keep: (d: number) => boolean): DocSet {
  const out = new Int32Array(docs.length);
  let k = 0;
  for (let i = 0; i < docs.length; i++) if (keep(docs[i]!)) out[k++] = docs[i]!;
  return { kind: 'list', docs: out.subarray(0, k) };
}

function intersect(a: DocSet, b: DocSet, maxDoc: number): DocSet {
  if (a.kind === 'all') return b;
  if (b.kind === 'all') return a;
  if (a.kind === 'list' && b.kind === 'list')
    return { kind: 'list', docs: intersectLists(a.docs, b.docs) };
  if (a.kind === 'list') return filterList(a.docs, (d) => (b as { bits: Bitset }).bits.get(d));
  if (b.kind === 'list') return filterList(b.docs, (d) => a.bits.get(d));
  const bits = a.bits.clone();
  bits.and(b.bits);
  return { kind: 'bits', bits, count: bits.cardinality() };
}

function subtract(a: DocSet, b: DocSet, maxDoc: number): DocSet {
  if (b.kind === 'all') return EMPTY;
  if (b.kind === 'list' && b.docs.length === 0) return a;
  if (a.kind === 'list') {
    const bb = toBits(b, maxDoc);
    return filterList(a.docs, (d) => !bb.get(d));
  }
  const bits = a.kind === 'bits' ? a.bits.clone() : Bitset.full(maxDoc);
  bits.andNot(toBits(b, maxDoc));
  const count = bits.cardinality();
  return count * 16 >= maxDoc ? { kind: 'bits', bits, count } : listFromBits(bits);
}

/** Sorted intersection, galloping through the longer list. */
function intersectLists(x: Int32Array, y: Int32Array): Int32Array {
  const [s, l] = x.length <= y.length ? [x, y] : [y, x];
  const out = new Int32Array(s.length);
  let k = 0;
  let j = 0;
  for (let i = 0; i < s.length && j < l.length; i++) {
    const d = s[i]!;
    j = gallop(l, j, l.length, d);
    if (j < l.length && l[j] === d) out[k++] = d;
  }
  return out.subarray(0, k);
}

/**
 * Calls `fn(docs, n)` with the live docs of `set` in increasing order, `batch.length` at a time
 * (lists without deletions are passed as views, without copying). Returns the number of docs.
 */
export function forEachDocBatch(
  set: DocSet,
  live: Bitset | null,
  batch: Int32Array,
  fn: (docs: Int32Array, n: number) => void,
): number {
  const cap = batch.length;
  let n = 0;
  let total = 0;
  if (set.kind === 'list') {
    const docs = set.docs;
    if (live === null) {
      for (let s = 0; s < docs.length; s += cap) {
        const m = Math.min(cap, docs.length - s);
        fn(docs.subarray(s, s + m), m);
      }
      return docs.length;
    }
    const lw = live.words;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      if ((lw[d >>> 5]! & (1 << (d & 31))) === 0) continue;
      batch[n++] = d;
      if (n === cap) {
        fn(batch, n);
        total += n;
        n = 0;
      }
    }
  } else if (set.kind === 'all' && live === null) {
    const max = set.maxDoc;
    for (let s = 0; s < max; s += cap) {
      const m = Math.min(cap, max - s);
      for (let i = 0; i < m; i++) batch[i] = s + i;
      fn(batch, m);
    }
    return max;
  } else {
    const w = set.kind === 'bits' ? set.bits.words : null;
    const lw = live?.words ?? null;
    const nw = set.kind === 'bits' ? w!.length : (set.maxDoc + 31) >>> 5;
    const lastBits = set.kind === 'all' ? set.maxDoc & 31 : 0;
    for (let wi = 0; wi < nw; wi++) {
      let word = w ? w[wi]! : wi === nw - 1 && lastBits ? (1 << lastBits) - 1 : -1;
      if (lw) word &= lw[wi]!;
      while (word !== 0) {
        const t = word & -word;
        batch[n++] = (wi << 5) + 31 - Math.clz32(t);
        word ^= t;
        if (n === cap) {
          fn(batch, n);
          total += n;
          n = 0;
        }
      }
    }
  }
  if (n > 0) fn(batch, n);
  return total + n;
}

/** Number of live docs of `set`. */
export function liveCount(set: DocSet, live: Bitset | null): number {
  if (live === null) return docSetSize(set);
  const lw = live.words;
  if (set.kind === 'all') return live.cardinality();
  if (set.kind === 'bits') {
    const w = set.bits.words;
    let n = 0;
    for (let i = 0; i < w.length; i++) n += popcount(w[i]! & lw[i]!);
    return n;
  }
  let n = 0;
  const docs = set.docs;
  for (let i = 0; i < docs.length; i++) if (lw[docs[i]! >>> 5]! & (1 << (docs[i]! & 31))) n++;
  return n;
}

/** Membership test of a doc set (bitsets for lists are built once by the caller's request). */
export function docSetBits(set: DocSet, maxDoc: number): Bitset | null {
  return set.kind === 'all' ? null : toBits(set, maxDoc);
}
