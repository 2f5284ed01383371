/**
 * A page of top docs by one numeric sort key, without scores, read from each segment's cached
 * sort order (sortedDocOrder: the segment's docs by the key, ties by doc id). The segments'
 * orders are merged lazily from the top, each visited doc tested against the query's per-doc
 * filter (doc-tests.ts), so a page costs about (from + size) / selectivity doc visits instead of a
 * pass over every match (what an index sorted by the field gives Lucene). The total comes from
 * the query's cheap per-segment counts. Ranks below `skip` are walked but never materialised.
 */
import { CHECK_INTERVAL, isTimeExceeded, type Deadline } from '../deadline.js';
import type { LiveSegment, ShardSnapshot } from '../index/live-segment.js';
import type { Weight } from '../query/weights.js';
import type { Query } from '../query/query.js';
import { liveCount, filterDocSet } from './doc-sets.js';
import { extendMerged, MAX_MERGED, mergedOrder } from './merged-order.js';
import { ALL_DOCS, docTest, type DocTest } from './doc-tests.js';
import { numericKeyReader, sortedDocOrder, type NumericKeyReader, type SortKey } from './sort.js';
import type { CollectedHit } from './top-docs.js';

export interface SortedPage {
  totalHits: number;
  /** Hits of ranks skip .. numHits-1 of the shard's order, best first. */
  hits: CollectedHit[];
  /** Rank of hits[0]. */
  skip: number;
}

/**
 * How much more a walk may visit than a scan of the matches would touch: walking visits about
 * numHits × maxDoc / matches docs, a scan every match (and a heap offer for each).
 */
const WALK_FACTOR = 4;

/**
 * Ranks `skip` .. `numHits`-1 of the shard's docs matching `query` ordered by `key` (one numeric
 * field key, ties by doc id as TopFieldCollector breaks them), or null when this path does not
 * apply: a key that is no numeric field key, a query without per-doc tests or cheap counts, or
 * matches too sparse for a walk to beat a scan. `opts.after`: search_after's value, the page
 * starting past every doc whose value ranks at or before it (the total still counts them);
 * `opts.maxMerged`: the bound of the kept merged order a page may be read from (0: merge for this
 * request only).
 */
export function sortedPage(
  snapshot: ShardSnapshot,
  query: Query,
  weight: Weight,
  key: SortKey,
  numHits: number,
  skip: number,
  walkFactor = WALK_FACTOR,
  dl: Deadline | null = null,
  opts: { readonly after?: number | null; readonly maxMerged?: number } = {},
): SortedPage | null {
  const after = opts.after ?? null;
  const maxMerged = opts.maxMerged ?? MAX_MERGED;
  if (after !== null && Number.isNaN(after)) return null;
  const segs = snapshot.segments;
  const n = segs.length;
  const readers: NumericKeyReader[] = [];
  const tests: Array<DocTest | null> = [];
  const counts: number[] = [];
  const hits: CollectedHit[] = [];
  let total = 0;
  let maxDoc = 0;
  try {
    for (let si = 0; si < n; si++) {
      dl?.check();
      const ls = segs[si]!;
      const r = numericKeyReader(key, ls);
      if (!r) return null;
      const c = segmentCount(query, weight, ls);
      if (c < 0) return null;
      let t: DocTest | null = null;
      if (c > 0) {
        const dt = docTest(query, ls);
        if (dt === null) return null;
        if (dt !== ALL_DOCS) t = dt;
      }
      readers.push(r);
      tests.push(t);
      counts.push(c);
      total += c;
      maxDoc += ls.segment.maxDoc;
    }
    const want = Math.min(numHits, total);
    if (want > 0 && want * maxDoc > walkFactor * total * total) return null;
    // Pages within the kept merged prefix read it (the visits expected: want × maxDoc / total);
    // deeper ones, or one that runs past it, merge their own way down.
    // A page after a value starts each segment's walk past it (the prefix is from the top).
    const inPrefix = after === null && want > 0 && want * maxDoc <= (maxMerged >> 1) * total;
    if (
      !inPrefix ||
      !walkMerged(segs, key, readers, tests, counts, want, skip, hits, dl, maxMerged)
    ) {
      hits.length = 0;
      walk(segs, key, readers, tests, counts, want, skip, hits, dl, after);
    }
    if (n > 0) dl?.check();
  } catch (e) {
    // the hits so far are the first ranks of the order; the total counts the segments seen
    if (!isTimeExceeded(e)) throw e;
  }
  return { totalHits: total, hits, skip };
}

/** Live matches of `query` in `ls` without iterating them where possible; -1 when unknown. */
function segmentCount(query: Query, weight: Weight, ls: LiveSegment): number {
  const c = weight.count ? weight.count(ls) : -1;
  if (c >= 0) return c;
  const set = filterDocSet(query, ls);
  return set ? liveCount(set, ls.live) : -1;
}

/**
 * Ranks `skip` .. `want`-1 read from the snapshot's kept merged order (merged-order.ts), each
 * doc tested as `walk` tests it; without filters or deletions a position is a rank, so the page
 * starts at `skip` directly. False when the page lies past the order's bound (nothing appended).
 */
function walkMerged(
  segs: readonly LiveSegment[],
  key: SortKey,
  readers: NumericKeyReader[],
  tests: Array<DocTest | null>,
  counts: number[],
  want: number,
  skip: number,
  hits: CollectedHit[],
  dl: Deadline | null,
  maxMerged: number,
): boolean {
  const m = mergedOrder(segs, key, readers);
  const n = segs.length;
  // segments without matches have no test: they are left out by their count
  let dense = true;
  let holes = false;
  for (let si = 0; si < n; si++) {
    if (tests[si] !== null || segs[si]!.live !== null) dense = false;
    if (counts[si] === 0) holes = true;
  }
  dense &&= !holes;
  let rank = dense ? Math.min(skip, want) : 0;
  let i = rank;
  let tick = CHECK_INTERVAL;
  while (rank < want) {
    if (i >= m.length) {
      if (m.complete) break;
      if (m.length >= maxMerged) return false;
      extendMerged(m, i + (want - rank), maxMerged);
      continue;
    }
    if (--tick === 0) {
      tick = CHECK_INTERVAL;
      dl?.check();
    }
    const si = m.seg[i]!;
    const d = m.doc[i]!;
    const p = i++;
    if (!dense) {
      if (counts[si] === 0) continue;
      const live = segs[si]!.live;
      if (live !== null && !live.get(d)) continue;
      const test = tests[si]!;
      if (test !== null && !test(d)) continue;
    }
    if (rank++ >= skip) {
      const ls = segs[si]!;
      hits.push({ segment: ls, doc: d, globalDoc: ls.docBase + d, score: NaN, sort: [m.val[p]!] });
    }
  }
  return true;
}

/**
 * The lazy merge of the segments' orders: a heap of segment cursors keyed by their next hit.
 * Appends ranks `skip` .. `want`-1 to `hits`.
 */
function walk(
  segs: readonly LiveSegment[],
  key: SortKey,
  readers: NumericKeyReader[],
  tests: Array<DocTest | null>,
  counts: number[],
  want: number,
  skip: number,
  hits: CollectedHit[],
  dl: Deadline | null,
  after: number | null,
): void {
  const n = segs.length;
  const neg = key.order === 'desc';
  const orders: Int32Array[] = [];
  const pos = new Int32Array(n);
  // per cursor: its next hit's doc, value, rank key (negated for desc) and shard doc id
  const hDoc = new Int32Array(n);
  const hVal = new Float64Array(n);
  const hKey = new Float64Array(n);
  const hGlobal = new Int32Array(n);
  const heap = new Int32Array(n);
  let size = 0;

  const advance = (si: number): boolean => {
    const order = orders[si]!;
    const live = segs[si]!.live;
    const lw = live === null ? null : live.words;
    const test = tests[si]!;
    let p = pos[si]!;
    while (p < order.length) {
      const d = order[p++]!;
      if (lw !== null && (lw[d >>> 5]! & (1 << (d & 31))) === 0) continue;
      if (test !== null && !test(d)) continue;
      pos[si] = p;
      const v = keyValue(readers[si]!, d);
      hDoc[si] = d;
      hVal[si] = v;
      hKey[si] = neg ? -v : v;
      hGlobal[si] = segs[si]!.docBase + d;
      return true;
    }
    pos[si] = p;
    return false;
  };
  // a before b: smaller key, then smaller shard doc id
  const before = (a: number, b: number): boolean =>
    hKey[a]! < hKey[b]! || (hKey[a] === hKey[b] && hGlobal[a]! < hGlobal[b]!);
  const siftDown = (i: number): void => {
    const x = heap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      let c = l;
      if (l + 1 < size && before(heap[l + 1]!, heap[l]!)) c = l + 1;
      if (!before(heap[c]!, x)) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = x;
  };

  let dense = true;
  for (let si = 0; si < n; si++) {
    orders.push(counts[si]! > 0 && want > 0 ? sortedDocOrder(key, segs[si]!, readers[si]!) : EMPTY);
    if (tests[si] !== null || segs[si]!.live !== null) dense = false;
  }
  if (after !== null) {
    const afterKey = neg ? -after : after;
    for (let si = 0; si < n; si++) pos[si] = firstPast(orders[si]!, readers[si]!, neg, afterKey);
  }
  // Without filters or deletions a segment's positions are its ranks: skip whole blocks.
  const skipped = dense ? skipBlocks(segs, orders, readers, neg, pos, Math.min(skip, want)) : 0;
  for (let si = 0; si < n; si++)
    if (pos[si]! < orders[si]!.length && advance(si)) heap[size++] = si;
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  let tick = CHECK_INTERVAL;
  for (let rank = skipped; rank < want && size > 0; rank++) {
    if (--tick === 0) {
      tick = CHECK_INTERVAL;
      dl?.check();
    }
    const si = heap[0]!;
    if (rank >= skip) {
      hits.push({
        segment: segs[si]!,
        doc: hDoc[si]!,
        globalDoc: hGlobal[si]!,
        score: NaN,
        sort: [hVal[si]!],
      });
    }
    if (!advance(si)) heap[0] = heap[--size]!;
    if (size > 0) siftDown(0);
  }
}

const EMPTY = new Int32Array(0);

/**
 * The first position of `order` whose doc's rank key (the value, negated for desc) is above
 * `afterKey`: the docs search_after leaves out (ties included, as compareSortValues ≤ 0) come
 * before it, the order's keys never decreasing.
 */
function firstPast(order: Int32Array, r: NumericKeyReader, neg: boolean, afterKey: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    const v = keyValue(r, order[m]!);
    if ((neg ? -v : v) <= afterKey) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** The key's value of doc `d` (the single-valued column read in place, without a call). */
function keyValue(r: NumericKeyReader, d: number): number {
  const s = r.single;
  if (s === null) return r.pick(d);
  const v = s[d]!;
  return v === v ? v : r.miss;
}

/**
 * Advances the cursors `pos` past the first `count` ranks of the merged order (or nearly: it
 * stops when fewer than one doc per segment is left to skip) in blocks, for segments whose every
 * doc is a hit. Of the blocks of `step` = remaining / segments docs that follow each cursor, the
 * one whose last doc ranks first holds only ranks to skip: every other segment has fewer than
 * `step` docs ranking before that doc, so at most segments × step ≤ remaining do. Returns the
 * number of ranks skipped.
 */
function skipBlocks(
  segs: readonly LiveSegment[],
  orders: Int32Array[],
  readers: NumericKeyReader[],
  neg: boolean,
  pos: Int32Array,
  count: number,
): number {
  const n = segs.length;
  let left = count;
  for (;;) {
    const step = Math.floor(left / n);
    if (step === 0) break;
    let best = -1;
    let bestKey = 0;
    let bestGlobal = 0;
    for (let si = 0; si < n; si++) {
      const last = pos[si]! + step - 1;
      const order = orders[si]!;
      if (last >= order.length) continue;
      const d = order[last]!;
      const v = keyValue(readers[si]!, d);
      const k = neg ? -v : v;
      const g = segs[si]!.docBase + d;
      if (best < 0 || k < bestKey || (k === bestKey && g < bestGlobal)) {
        best = si;
        bestKey = k;
        bestGlobal = g;
      }
    }
    if (best < 0) break;
    pos[best]! += step;
    left -= step;
  }
  return count - left;
}
