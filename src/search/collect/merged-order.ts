/**
 * A shard snapshot's docs in one numeric sort key's order across all its segments (deleted docs
 * included, ties by shard doc id): the k-way merge of the segments' cached orders
 * (sortedDocOrder), run lazily from the top and kept per snapshot and key. The pages of one sort
 * then read their ranks from the merged prefix instead of merging the segments again per request,
 * as a B-tree index reads its presorted order. At most MAX_MERGED ranks are kept per key.
 */
import type { LiveSegment } from '../index/live-segment.js';
import { sortedDocOrder, type NumericKeyReader, type SortKey } from './sort.js';

/** Ranks kept per snapshot and key (16 bytes each): deeper pages merge per request. */
export const MAX_MERGED = 1 << 16;

/** Keys kept per snapshot; a request with yet another key drops the oldest. */
const MAX_KEYS = 8;

export interface MergedOrder {
  /** Ranks merged so far; merging more only appends. */
  readonly length: number;
  /** Per rank: the doc's segment (index in the snapshot), its doc id there and its key value. */
  readonly seg: Int32Array;
  readonly doc: Int32Array;
  readonly val: Float64Array;
  /** Every doc of every segment is merged. */
  readonly complete: boolean;
}

/** The merge in progress: a heap of segment cursors keyed by their next doc. */
interface MergeState {
  length: number;
  seg: Int32Array;
  doc: Int32Array;
  val: Float64Array;
  complete: boolean;
  readonly segs: readonly LiveSegment[];
  readonly readers: readonly NumericKeyReader[];
  readonly orders: readonly Int32Array[];
  readonly neg: boolean;
  /** Per segment: the position of its cursor's doc in its order. */
  readonly pos: Int32Array;
  /** Per segment: its cursor's rank key (negated for desc), value and shard doc id. */
  readonly hKey: Float64Array;
  readonly hVal: Float64Array;
  readonly hGlobal: Int32Array;
  readonly heap: Int32Array;
  size: number;
}

const cache = new WeakMap<readonly LiveSegment[], Map<string, MergeState>>();

/**
 * The merged order of `segs` (a snapshot's segments, which it is kept with) by `key`, whose
 * per-segment readers are `readers`; nothing is merged until `extendMerged` asks.
 */
export function mergedOrder(
  segs: readonly LiveSegment[],
  key: SortKey,
  readers: readonly NumericKeyReader[],
): MergedOrder {
  let byKey = cache.get(segs);
  if (!byKey) cache.set(segs, (byKey = new Map()));
  // the readers' missing value is the key's, as a number
  const ck = `${key.field}\u0000${key.order}\u0000${key.mode}\u0000${readers[0]?.miss}`;
  const hit = byKey.get(ck);
  if (hit) return hit;
  if (byKey.size >= MAX_KEYS) byKey.delete(byKey.keys().next().value!);
  const state = startMerge(segs, key, readers);
  byKey.set(ck, state);
  return state;
}

function startMerge(
  segs: readonly LiveSegment[],
  key: SortKey,
  readers: readonly NumericKeyReader[],
): MergeState {
  const n = segs.length;
  const s: MergeState = {
    length: 0,
    seg: new Int32Array(0),
    doc: new Int32Array(0),
    val: new Float64Array(0),
    complete: false,
    segs,
    readers,
    orders: segs.map((ls, si) => sortedDocOrder(key, ls, readers[si]!)),
    neg: key.order === 'desc',
    pos: new Int32Array(n),
    hKey: new Float64Array(n),
    hVal: new Float64Array(n),
    hGlobal: new Int32Array(n),
    heap: new Int32Array(n),
    size: 0,
  };
  for (let si = 0; si < n; si++) if (load(s, si)) s.heap[s.size++] = si;
  for (let i = (s.size >> 1) - 1; i >= 0; i--) siftDown(s, i);
  s.complete = s.size === 0;
  return s;
}

/**
 * Merges ranks until `m` holds at least `upTo` (about twice that, to amortise the growth) or
 * every doc, never past `maxMerged`. Runs to its end: a deadline is checked by the reader of
 * the ranks, so the kept state is always whole.
 */
export function extendMerged(m: MergedOrder, upTo: number, maxMerged = MAX_MERGED): void {
  const s = m as MergeState;
  if (s.complete || s.length >= upTo) return;
  const cap = Math.min(maxMerged, Math.max(upTo, 2 * s.length, 256));
  if (cap > s.seg.length) {
    const seg = new Int32Array(cap);
    const doc = new Int32Array(cap);
    const val = new Float64Array(cap);
    seg.set(s.seg.subarray(0, s.length));
    doc.set(s.doc.subarray(0, s.length));
    val.set(s.val.subarray(0, s.length));
    s.seg = seg;
    s.doc = doc;
    s.val = val;
  }
  const { seg, doc, val, heap, pos, orders, hVal } = s;
  let len = s.length;
  while (len < cap && s.size > 0) {
    const si = heap[0]!;
    seg[len] = si;
    doc[len] = orders[si]![pos[si]!]!;
    val[len] = hVal[si]!;
    len++;
    pos[si]!++;
    if (!load(s, si)) heap[0] = heap[--s.size]!;
    if (s.size > 0) siftDown(s, 0);
  }
  s.length = len;
  s.complete = s.size === 0;
}

/** Points segment `si`'s cursor at the doc at its position; false when its order is done. */
function load(s: MergeState, si: number): boolean {
  const order = s.orders[si]!;
  const p = s.pos[si]!;
  if (p >= order.length) return false;
  const d = order[p]!;
  const r = s.readers[si]!;
  const col = r.single;
  let v: number;
  if (col === null) v = r.pick(d);
  else {
    v = col[d]!;
    if (v !== v) v = r.miss;
  }
  s.hVal[si] = v;
  s.hKey[si] = s.neg ? -v : v;
  s.hGlobal[si] = s.segs[si]!.docBase + d;
  return true;
}

/** Cursor a before cursor b: smaller rank key, then smaller shard doc id. */
function before(s: MergeState, a: number, b: number): boolean {
  const ka = s.hKey[a]!;
  const kb = s.hKey[b]!;
  return ka < kb || (ka === kb && s.hGlobal[a]! < s.hGlobal[b]!);
}

function siftDown(s: MergeState, i: number): void {
  const heap = s.heap;
  const size = s.size;
  const x = heap[i]!;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    let c = l;
    if (l + 1 < size && before(s, heap[l + 1]!, heap[l]!)) c = l + 1;
    if (!before(s, heap[c]!, x)) break;
    heap[i] = heap[c]!;
    i = c;
  }
  heap[i] = x;
}
