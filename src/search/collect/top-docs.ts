/**
 * Collecting matches of a shard snapshot: total hits, max score, and the top N docs by score or
 * by sort keys (Lucene TopScoreDocCollector / TopFieldCollector), with post filters, min_score,
 * search_after and terminate_after. Ties break on doc id, as in Lucene.
 */
import { CHECK_INTERVAL, isTimeExceeded, type Deadline } from '../deadline.js';
import type { LiveSegment, ShardSnapshot } from '../index/live-segment.js';
import { NO_MORE_DOCS, type Scorer } from '../query/scorer.js';
import type { Weight } from '../query/weights.js';
import type { Competition } from '../query/bulk-scorers.js';
import { compileSort, type SortKey, type SortValue, compareSortValues } from './sort.js';
import { GroupQueue, type GroupReader, type GroupValue } from './collapse.js';

export interface CollectedHit {
  segment: LiveSegment;
  doc: number;
  /** Shard-level doc id (segment docBase + doc). */
  globalDoc: number;
  score: number;
  sort: SortValue[] | null;
  /** The collapse group of the hit (field collapsing only). */
  collapseValue?: GroupValue;
}

export interface ShardTopDocs {
  totalHits: number;
  maxScore: number;
  hits: CollectedHit[];
  terminatedEarly: boolean;
}

export interface CollectOptions {
  /** from + size */
  numHits: number;
  sort: SortKey[] | null;
  /** Compute scores even when sorting by fields (track_scores). */
  trackScores: boolean;
  needsScores: boolean;
  minScore: number | null;
  postFilter: Weight | null;
  searchAfter: SortValue[] | null;
  terminateAfter: number;
  /** Called for every matching doc before post_filter (aggregations). */
  onMatch?: (ls: LiveSegment, segIndex: number, doc: number, scorer: Scorer) => void;
  onSegment?: (ls: LiveSegment, segIndex: number) => void;
  /** Field collapsing: keep the top `numHits` groups by their best hit. */
  groupBy?: GroupReader;
  /** The search `timeout`: collection stops at the first check past it (deadline.ts). */
  deadline?: Deadline | null;
  /**
   * Segments hold their docs in `sort` order (index sorting) and the total is not wanted: each
   * segment stops after `numHits` hits (Lucene's early terminating TopFieldCollector).
   */
  earlyTerminate?: boolean;
}

/** A bounded heap of the best hits seen so far; `worse(a, b)` is true when a ranks below b. */
class HitQueue {
  private readonly h: CollectedHit[] = [];
  constructor(
    private readonly max: number,
    private readonly worse: (a: CollectedHit, b: CollectedHit) => boolean,
  ) {}
  get size(): number {
    return this.h.length;
  }
  /** The worst hit kept (when full). */
  top(): CollectedHit | undefined {
    return this.h[0];
  }
  offer(x: CollectedHit): void {
    const h = this.h;
    if (this.max <= 0) return;
    if (h.length < this.max) {
      h.push(x);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(h[i]!, h[p]!)) break;
        [h[i], h[p]] = [h[p]!, h[i]!];
        i = p;
      }
      return;
    }
    if (!this.worse(h[0]!, x)) return;
    h[0] = x;
    let i = 0;
    const n = h.length;
    while (true) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(h[l]!, h[m]!)) m = l;
      if (r < n && this.worse(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
  /** Best first. */
  sorted(): CollectedHit[] {
    return [...this.h].sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
  }
}

/** Largest window the score-ordered collector keeps in typed arrays. */
const MAX_TYPED_HITS = 100_000;

export function collectTopDocs(
  snapshot: ShardSnapshot,
  weight: Weight,
  opts: CollectOptions,
): ShardTopDocs {
  if (
    opts.sort === null &&
    opts.needsScores &&
    opts.minScore === null &&
    opts.postFilter === null &&
    opts.searchAfter === null &&
    opts.terminateAfter <= 0 &&
    !opts.onMatch &&
    !opts.groupBy &&
    opts.numHits <= MAX_TYPED_HITS
  )
    return collectByScore(snapshot, weight, opts);
  const byScore = opts.sort === null;
  const worse = byScore
    ? (a: CollectedHit, b: CollectedHit) =>
        a.score < b.score || (a.score === b.score && a.globalDoc > b.globalDoc)
    : (a: CollectedHit, b: CollectedHit) => {
        const c = compareSortValues(opts.sort!, a.sort!, b.sort!);
        return c > 0 || (c === 0 && a.globalDoc > b.globalDoc);
      };
  const groups = opts.groupBy ? new GroupQueue(opts.numHits, worse) : null;
  const queue = new HitQueue(groups ? 0 : opts.numHits, worse);
  let total = 0;
  let maxScore = -Infinity;
  let terminated = false;
  const wantScore = opts.needsScores && (byScore || opts.trackScores || opts.minScore !== null);
  // sort values that read the score (`_score` keys, scripts using `_score`) need it computed
  const sortScores =
    opts.needsScores && !!opts.sort?.some((k) => k.kind === 'score' || k.needsScore === true);
  const segs = snapshot.segments;
  const dl = opts.deadline ?? null;
  let tick = CHECK_INTERVAL;
  const earlyStop =
    opts.earlyTerminate === true && opts.sort !== null && !opts.onMatch && !groups
      ? opts.numHits
      : Infinity;
  try {
    outer: for (let si = 0; si < segs.length; si++) {
      // ES CancellableBulkScorer: a check before each segment, then every few thousand docs
      dl?.check();
      const ls = segs[si]!;
      opts.onSegment?.(ls, si);
      const scorer = weight.scorer(ls);
      if (!scorer) continue;
      const live = ls.live;
      const post = opts.postFilter ? opts.postFilter.scorer(ls) : null;
      if (opts.postFilter && !post && !opts.onMatch) continue;
      const keys = opts.sort ? compileSort(opts.sort, ls) : null;
      const group = opts.groupBy ? opts.groupBy(ls) : null;
      let segHits = 0;
      for (let d = scorer.next(); d !== NO_MORE_DOCS; d = scorer.next()) {
        if (--tick === 0) {
          tick = CHECK_INTERVAL;
          dl?.check();
        }
        if (live !== null && !live.get(d)) continue;
        let score = NaN;
        if (wantScore || sortScores || opts.minScore !== null) {
          score = scorer.score();
          if (opts.minScore !== null && score < opts.minScore) continue;
        }
        opts.onMatch?.(ls, si, d, scorer);
        if (opts.postFilter) {
          if (!post) continue;
          let pd = post.doc;
          if (pd < d) pd = post.advance(d);
          if (pd !== d) continue;
        }
        total++;
        if (wantScore && score > maxScore) maxScore = score;
        const hit: CollectedHit = {
          segment: ls,
          doc: d,
          globalDoc: ls.docBase + d,
          score: wantScore ? score : NaN,
          sort: keys ? keys.map((k) => k.value(d, score)) : null,
        };
        if (opts.searchAfter && opts.sort) {
          if (compareSortValues(opts.sort, hit.sort!, opts.searchAfter) <= 0) {
            continue;
          }
        }
        if (groups) groups.offer(hit, group!(d));
        else queue.offer(hit);
        // later docs of a sorted segment cannot compete
        if (++segHits >= earlyStop) break;
        if (opts.terminateAfter > 0 && total >= opts.terminateAfter) {
          terminated = true;
          break outer;
        }
      }
    }
    // and one after the last segment (a deadline passed in the last stretch counts), unless
    // terminate_after stopped the collection first (ES: EarlyTerminationException skips it)
    if (!terminated && segs.length > 0) dl?.check();
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
  }
  return {
    totalHits: total,
    maxScore: maxScore === -Infinity ? NaN : maxScore,
    hits: groups ? groups.sorted() : queue.sorted(),
    terminatedEarly: terminated,
  };
}

/**
 * Lucene TopScoreDocCollector without per-hit objects: the best `numHits` (score desc, then
 * doc asc) in a typed-array heap. Weights that score in bulk (terms, disjunctions of terms,
 * exact phrases, those under range filters) hand over every match in batches, which also gives
 * the exact total; terms and disjunctions count, without scoring, the impact blocks and windows
 * whose score bounds cannot beat the worst kept hit. Otherwise, when a segment's total is known from `Weight.count`, the scorer
 * is told the score to beat so it can skip docs that cannot compete (Lucene 8 style pruning,
 * with the exact hit count ES 6.8 reports). With `numHits` 0 nothing is scored and maxScore is
 * NaN (ES reports 0 for size 0, see execute.ts).
 */
function collectByScore(
  snapshot: ShardSnapshot,
  weight: Weight,
  opts: CollectOptions,
): ShardTopDocs {
  const k = opts.numHits;
  const heap = takeHeap(k);
  try {
    return collectIntoHeap(snapshot, weight, opts, heap);
  } finally {
    giveHeap(heap);
  }
}

/** The arrays of a top-k heap (at least k long: only the first k are used). */
interface Heap {
  readonly score: Float64Array;
  readonly doc: Int32Array;
  readonly seg: Int32Array;
}

/** Heaps of up to this many hits are kept for the next collection (a page of a few hits). */
const SPARE_HEAP_HITS = 256;
let spareHeap: Heap | null = null;

/** A heap for `k` hits: the spare one when it fits and is free (a nested collection makes its own). */
function takeHeap(k: number): Heap {
  if (k <= SPARE_HEAP_HITS && spareHeap !== null) {
    const h = spareHeap;
    spareHeap = null;
    return h;
  }
  const n = k <= SPARE_HEAP_HITS ? SPARE_HEAP_HITS : k;
  return { score: new Float64Array(n), doc: new Int32Array(n), seg: new Int32Array(n) };
}

function giveHeap(h: Heap): void {
  if (h.score.length === SPARE_HEAP_HITS) spareHeap = h;
}

/**
 * Places a hit at the root of the heap's first `n` entries and sifts it down: the heap keeps the
 * worst hit (lowest score, then highest doc) at its root.
 */
function siftDown(heap: Heap, n: number, score: number, g: number, si: number): void {
  const { score: hScore, doc: hDoc, seg: hSeg } = heap;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    let m = l;
    const r = l + 1;
    if (r < n && (hScore[r]! < hScore[l]! || (hScore[r] === hScore[l] && hDoc[r]! > hDoc[l]!)))
      m = r;
    const ms = hScore[m]!;
    if (!(ms < score || (ms === score && hDoc[m]! > g))) break;
    hScore[i] = ms;
    hDoc[i] = hDoc[m]!;
    hSeg[i] = hSeg[m]!;
    i = m;
  }
  hScore[i] = score;
  hDoc[i] = g;
  hSeg[i] = si;
}

function collectIntoHeap(
  snapshot: ShardSnapshot,
  weight: Weight,
  opts: CollectOptions,
  heap: Heap,
): ShardTopDocs {
  const k = opts.numHits;
  const hScore = heap.score;
  const hDoc = heap.doc;
  const hSeg = heap.seg;
  let size = 0;
  let total = 0;
  let maxScore = -Infinity;
  /** Replaces the worst kept hit (the heap is full and `score` beats it). */
  const replaceTop = (score: number, g: number, si: number): void =>
    siftDown(heap, k, score, g, si);
  /** Adds a hit while the heap is not full. */
  const push = (score: number, g: number, si: number): void => {
    // sift up: the root is the worst hit (lowest score, then highest doc)
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const ps = hScore[p]!;
      if (!(score < ps || (score === ps && g > hDoc[p]!))) break;
      hScore[i] = ps;
      hDoc[i] = hDoc[p]!;
      hSeg[i] = hSeg[p]!;
      i = p;
    }
    hScore[i] = score;
    hDoc[i] = g;
    hSeg[i] = si;
  };
  const segs = snapshot.segments;
  const dl = opts.deadline ?? null;
  let tick = CHECK_INTERVAL;
  try {
    for (let si = 0; si < segs.length; si++) {
      dl?.check();
      const ls = segs[si]!;
      opts.onSegment?.(ls, si);
      const live = ls.live;
      const base = ls.docBase;
      // Bulk scoring: every match with its score, in batches, but those that cannot beat the
      // worst kept hit, which the scorer only counts: the exact total comes with it.
      const bulk = k > 0 && weight.bulk ? weight.bulk(ls) : null;
      if (bulk) {
        const comp: Competition = { floor: size === k ? hScore[0]! : -Infinity, counted: 0, live };
        try {
          bulk.run((docs, scores, n) => {
            // a batch is at most one window (2048 docs): one check each
            dl?.check();
            for (let j = 0; j < n; j++) {
              const d = docs[j]!;
              if (live !== null && !live.get(d)) continue;
              total++;
              const score = scores[j]!;
              if (score > maxScore) maxScore = score;
              // later docs lose ties, so only a strictly higher score replaces the worst
              if (size === k) {
                if (score > hScore[0]!) replaceTop(score, base + d, si);
              } else push(score, base + d, si);
            }
            if (size === k) comp.floor = hScore[0]!;
          }, comp);
        } finally {
          // a timeout in the sink keeps what was counted before it
          total += comp.counted;
        }
        continue;
      }
      const known = weight.count ? weight.count(ls) : -1;
      if (known >= 0 && k === 0) {
        total += known;
        continue;
      }
      const scorer = weight.scorer(ls);
      if (!scorer) continue;
      const prune = known >= 0 && scorer.setMinCompetitiveScore !== undefined;
      if (prune) {
        total += known;
        if (size === k) scorer.setMinCompetitiveScore!(hScore[0]!);
      }
      for (let d = scorer.next(); d !== NO_MORE_DOCS; d = scorer.next()) {
        if (--tick === 0) {
          tick = CHECK_INTERVAL;
          dl?.check();
        }
        if (live !== null && !live.get(d)) continue;
        if (!prune) total++;
        if (k === 0) continue;
        const score = scorer.score();
        if (score > maxScore) maxScore = score;
        const g = base + d;
        if (size < k) {
          push(score, g, si);
          if (size === k && prune) scorer.setMinCompetitiveScore!(hScore[0]!);
          continue;
        }
        // later docs lose ties, so only a strictly higher score replaces the worst
        if (!(score > hScore[0]!)) continue;
        replaceTop(score, g, si);
        if (prune) scorer.setMinCompetitiveScore!(hScore[0]!);
      }
    }
    if (segs.length > 0) dl?.check();
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
  }
  const hitAt = (i: number): CollectedHit => {
    const ls = segs[hSeg[i]!]!;
    return {
      segment: ls,
      doc: hDoc[i]! - ls.docBase,
      globalDoc: hDoc[i]!,
      score: hScore[i]!,
      sort: null,
    };
  };
  let nan = false;
  for (let i = 0; i < size; i++) if (Number.isNaN(hScore[i]!)) nan = true;
  let hits: CollectedHit[];
  if (!nan) {
    // the heap orders as the hits do (score desc, then doc asc), worst at the root: taking the
    // root until none is left lists them worst first, with no sort and no index array
    hits = [];
    for (let n = size; n > 0; n--) {
      hits.push(hitAt(0));
      // the last kept hit takes the root's place in the heap of n - 1
      const m = n - 1;
      siftDown(heap, m, hScore[m]!, hDoc[m]!, hSeg[m]!);
    }
    hits.reverse();
  } else {
    // NaN scores order no heap: the comparator's order, as before
    const order: number[] = [];
    for (let i = 0; i < size; i++) order.push(i);
    order.sort((a, b) => hScore[b]! - hScore[a]! || hDoc[a]! - hDoc[b]!);
    hits = order.map(hitAt);
  }
  if (size > 0 && hits[0]!.score > maxScore) maxScore = hits[0]!.score;
  return {
    totalHits: total,
    maxScore: maxScore === -Infinity ? NaN : maxScore,
    hits,
    terminatedEarly: false,
  };
}

/**
 * Counts matches without scoring (the `_count` API). With a deadline, counting stops at the
 * first check past it and returns the count so far (`dl.failedChecks` tells).
 */
export function countDocs(
  snapshot: ShardSnapshot,
  weight: Weight,
  dl: Deadline | null = null,
): number {
  let total = 0;
  try {
    for (const ls of snapshot.segments) {
      dl?.check();
      if (weight.count) {
        const n = weight.count(ls);
        if (n >= 0) {
          total += n;
          continue;
        }
      }
      const s = weight.scorer(ls);
      if (!s) continue;
      const live = ls.live;
      let tick = CHECK_INTERVAL;
      for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
        if (--tick === 0) {
          tick = CHECK_INTERVAL;
          dl?.check();
        }
        if (live === null || live.get(d)) total++;
      }
    }
    if (snapshot.segments.length > 0) dl?.check();
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
  }
  return total;
}
