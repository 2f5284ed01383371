/**
 * Dedicated shard collectors for request shapes that do not need the general top-docs loop.
 * Size 0 (ES EmptyTopDocsCollectorContext: only the total and the aggregations): matching docs
 * go to the aggregators in batches, with no per-hit objects and no scoring unless an
 * aggregation reads scores. Sorted by one numeric field without scores: a lazy merge of the
 * segments' cached sort orders tested per doc (sort-page.ts), else a bounded heap over the sort
 * column or a walk of each segment's order. Plain filter queries are read as
 * whole doc sets from the index, other queries iterate their Scorer. Results are exactly those
 * of collectTopDocs.
 */
import type { CollectedHit, CollectOptions, ShardTopDocs } from '../../search/collect/top-docs.js';
import {
  docSetBits,
  filterDocSet,
  forEachDocBatch,
  liveCount,
  type DocSet,
} from '../../search/collect/doc-sets.js';
import {
  numericKeyReader,
  sortedDocOrder,
  type NumericKeyReader,
  type SortKey,
} from '../../search/collect/sort.js';
import { sortedPage } from '../../search/collect/sort-page.js';
import type { LiveSegment, ShardSnapshot } from '../../search/index/live-segment.js';
import type { Query } from '../../search/query/query.js';
import { NO_MORE_DOCS } from '../../search/query/scorer.js';
import type { Weight } from '../../search/query/weights.js';
import { CHECK_INTERVAL, isTimeExceeded, type Deadline } from '../../search/deadline.js';
import type { ShardAggregator } from '../aggs/index.js';

const BATCH = 1024;

/** Top docs of which the first `hitsFrom` ranks were left out (the caller does not read them). */
export interface FastTopDocs extends ShardTopDocs {
  hitsFrom: number;
}

/**
 * The shard's top docs when a dedicated collector applies, else null (use collectTopDocs).
 * `skip`: ranks the caller will not read (a single shard's page starts at `from`); a collector
 * may leave them out of `hits` and say so in `hitsFrom`.
 */
export function fastTopDocs(
  snapshot: ShardSnapshot,
  query: Query,
  weight: Weight,
  agg: ShardAggregator | null,
  o: CollectOptions,
  skip = 0,
): FastTopDocs | null {
  // total hits count docs before search_after, so it does not matter here
  if (o.numHits === 0 && o.minScore === null && o.postFilter === null && o.terminateAfter <= 0)
    return {
      ...collectCountAndAggs(snapshot, query, weight, agg, o.deadline ?? null),
      hitsFrom: 0,
    };
  if (
    agg === null &&
    o.numHits > 0 &&
    o.sort !== null &&
    o.sort.length === 1 &&
    !o.trackScores &&
    o.minScore === null &&
    o.postFilter === null &&
    (o.searchAfter === null ||
      (o.searchAfter.length === 1 && typeof o.searchAfter[0] === 'number')) &&
    o.terminateAfter <= 0 &&
    !o.groupBy
  ) {
    const key = o.sort[0]!;
    const dl = o.deadline ?? null;
    const after = o.searchAfter === null ? null : (o.searchAfter[0] as number);
    const page = sortedPage(snapshot, query, weight, key, o.numHits, skip, undefined, dl, {
      after,
    });
    // the other paths take no search_after
    if (!page && after !== null) return null;
    if (page) {
      const { totalHits, hits, skip: hitsFrom } = page;
      return { totalHits, maxScore: NaN, hits, terminatedEarly: false, hitsFrom };
    }
    const top = collectByNumericField(snapshot, query, weight, key, o.numHits, undefined, dl);
    return top ? { ...top, hitsFrom: 0 } : null;
  }
  return null;
}

/**
 * Total hits of `query` and, when given, its aggregations collected in batches. With a deadline,
 * collection stops at the first check past it (per segment, per batch, every CHECK_INTERVAL
 * docs of a scorer) and the total and aggregations cover the same docs.
 */
export function collectCountAndAggs(
  snapshot: ShardSnapshot,
  query: Query,
  weight: Weight,
  agg: ShardAggregator | null,
  dl: Deadline | null = null,
): ShardTopDocs {
  const docs = new Int32Array(BATCH);
  const scores = agg?.needsScores ? new Float64Array(BATCH) : null;
  let total = 0;
  // docs counted in `total` but not yet given to the aggregations
  let n = 0;
  // docs of the current doc set given to the aggregations (not yet in `total`)
  let fed = 0;
  const feed = agg
    ? (d: Int32Array, m: number) => {
        dl?.check();
        agg.collectBatch(d, m, null);
        fed += m;
      }
    : null;
  const segs = snapshot.segments;
  try {
    for (let si = 0; si < segs.length; si++) {
      dl?.check();
      const ls = segs[si]!;
      agg?.onSegment(ls, si);
      // Without aggregations only the total is read: the weight's cheap per-segment count
      // (postings lengths, points counts) where it has one, as `_count` counts, instead of
      // materialising the matches (a size-0 search on a frequent numeric term read ~500k docs).
      if (!agg && weight.count) {
        const c = weight.count(ls);
        if (c >= 0) {
          total += c;
          continue;
        }
      }
      const set = scores ? null : filterDocSet(query, ls);
      if (set) {
        if (feed) {
          forEachDocBatch(set, ls.live, docs, feed);
          total += fed;
          fed = 0;
        } else total += liveCount(set, ls.live);
        continue;
      }
      const scorer = weight.scorer(ls);
      if (!scorer) continue;
      const live = ls.live;
      let tick = CHECK_INTERVAL;
      for (let d = scorer.next(); d !== NO_MORE_DOCS; d = scorer.next()) {
        if (--tick === 0) {
          tick = CHECK_INTERVAL;
          dl?.check();
        }
        if (live !== null && !live.get(d)) continue;
        total++;
        if (!agg) continue;
        docs[n] = d;
        if (scores) scores[n] = scorer.score();
        if (++n === BATCH) {
          agg.collectBatch(docs, n, scores);
          n = 0;
        }
      }
      if (n > 0) agg!.collectBatch(docs, n, scores);
      n = 0;
    }
    if (segs.length > 0) dl?.check();
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
    if (n > 0) agg!.collectBatch(docs, n, scores);
    total += fed;
  }
  return { totalHits: total, maxScore: NaN, hits: [], terminatedEarly: false };
}

/** Segments at least this big walk their cached sort order instead of scanning the matches. */
const ORDER_MIN_DOCS = 8192;

/**
 * Top `numHits` docs by one numeric field key (TopFieldCollector with a single SortField, no
 * scores), ties by doc id; null when the key is not a numeric field key. Large segments with
 * dense matches walk the segment's docs in sort order and stop at the first doc that cannot
 * enter the queue; others offer every match to a bounded heap.
 */
export function collectByNumericField(
  snapshot: ShardSnapshot,
  query: Query,
  weight: Weight,
  key: SortKey,
  numHits: number,
  orderMinDocs = ORDER_MIN_DOCS,
  dl: Deadline | null = null,
): ShardTopDocs | null {
  const segs = snapshot.segments;
  const readers: NumericKeyReader[] = [];
  for (const ls of segs) {
    const r = numericKeyReader(key, ls);
    if (!r) return null;
    readers.push(r);
  }
  const q = new SortQueue(numHits);
  const neg = key.order === 'desc';
  const batch = new Int32Array(BATCH);
  let total = 0;
  try {
    for (let si = 0; si < segs.length; si++) {
      dl?.check();
      const ls = segs[si]!;
      const set = filterDocSet(query, ls) ?? scorerDocs(weight, ls, dl);
      if (!set) continue;
      const count = liveCount(set, ls.live);
      total += count;
      if (count === 0) continue;
      const r = readers[si]!;
      const base = ls.docBase;
      const maxDoc = ls.segment.maxDoc;
      if (maxDoc >= orderMinDocs && count * 32 >= maxDoc) {
        const order = sortedDocOrder(key, ls, r);
        const bits = docSetBits(set, maxDoc);
        const live = ls.live;
        let taken = 0;
        for (let i = 0; i < order.length && taken < numHits; i++) {
          if ((i & (CHECK_INTERVAL - 1)) === CHECK_INTERVAL - 1) dl?.check();
          const d = order[i]!;
          if ((bits !== null && !bits.get(d)) || (live !== null && !live.get(d))) continue;
          const v = r.pick(d);
          // every later doc of this segment ranks below this one
          if (!q.offer(neg ? -v : v, v, base + d, si, d)) break;
          taken++;
        }
        continue;
      }
      const single = r.single;
      const miss = r.miss;
      forEachDocBatch(set, ls.live, batch, (docs, n) => {
        dl?.check();
        for (let i = 0; i < n; i++) {
          const d = docs[i]!;
          let v = single ? single[d]! : r.pick(d);
          if (v !== v) v = miss;
          q.offer(neg ? -v : v, v, base + d, si, d);
        }
      });
    }
    if (segs.length > 0) dl?.check();
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
  }
  return { totalHits: total, maxScore: NaN, hits: q.sorted(segs), terminatedEarly: false };
}

/** The live and deleted docs a Scorer matches in `ls`, as a doc set (null: none). */
function scorerDocs(weight: Weight, ls: LiveSegment, dl: Deadline | null): DocSet | null {
  const s = weight.scorer(ls);
  if (!s) return null;
  let out = new Int32Array(64);
  let n = 0;
  for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
    if ((n & (CHECK_INTERVAL - 1)) === CHECK_INTERVAL - 1) dl?.check();
    if (n === out.length) {
      const g = new Int32Array(n * 2);
      g.set(out);
      out = g;
    }
    out[n++] = d;
  }
  return { kind: 'list', docs: out.subarray(0, n) };
}

/**
 * Bounded heap of (key, globalDoc) in parallel typed arrays; smaller keys rank first (desc sorts
 * store the negated value), ties by doc id. The root is the worst entry kept.
 */
class SortQueue {
  private keys: Float64Array;
  private vals: Float64Array;
  private gdocs: Int32Array;
  private segs: Int32Array;
  private docs: Int32Array;
  private size = 0;

  constructor(private readonly max: number) {
    // numHits may be huge (scrolls, by-query requests): grow with the entries instead
    const cap = Math.min(max, 256);
    this.keys = new Float64Array(cap);
    this.vals = new Float64Array(cap);
    this.gdocs = new Int32Array(cap);
    this.segs = new Int32Array(cap);
    this.docs = new Int32Array(cap);
  }

  private grow(): void {
    const cap = Math.min(this.max, this.keys.length * 2);
    const g = <T extends Float64Array | Int32Array>(a: T, b: T): T => (b.set(a), b);
    this.keys = g(this.keys, new Float64Array(cap));
    this.vals = g(this.vals, new Float64Array(cap));
    this.gdocs = g(this.gdocs, new Int32Array(cap));
    this.segs = g(this.segs, new Int32Array(cap));
    this.docs = g(this.docs, new Int32Array(cap));
  }

  private worse(i: number, j: number): boolean {
    const a = this.keys[i]!;
    const b = this.keys[j]!;
    return a > b || (a === b && this.gdocs[i]! > this.gdocs[j]!);
  }

  private swap(i: number, j: number): void {
    const { keys, vals, gdocs, segs, docs } = this;
    let t = keys[i]!;
    keys[i] = keys[j]!;
    keys[j] = t;
    t = vals[i]!;
    vals[i] = vals[j]!;
    vals[j] = t;
    let u = gdocs[i]!;
    gdocs[i] = gdocs[j]!;
    gdocs[j] = u;
    u = segs[i]!;
    segs[i] = segs[j]!;
    segs[j] = u;
    u = docs[i]!;
    docs[i] = docs[j]!;
    docs[j] = u;
  }

  private set(i: number, k: number, v: number, g: number, si: number, d: number): void {
    this.keys[i] = k;
    this.vals[i] = v;
    this.gdocs[i] = g;
    this.segs[i] = si;
    this.docs[i] = d;
  }

  /** Adds the entry when it ranks among the best `max`; false when it does not. */
  offer(k: number, v: number, g: number, si: number, d: number): boolean {
    if (this.size < this.max) {
      if (this.size === this.keys.length) this.grow();
      let i = this.size++;
      this.set(i, k, v, g, si, d);
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return true;
    }
    const top = this.keys[0]!;
    if (k > top || (k === top && g > this.gdocs[0]!)) return false;
    this.set(0, k, v, g, si, d);
    const n = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let c = l;
      if (l + 1 < n && this.worse(l + 1, l)) c = l + 1;
      if (!this.worse(c, i)) break;
      this.swap(i, c);
      i = c;
    }
    return true;
  }

  /** The entries best first, as hits. */
  sorted(segs: readonly LiveSegment[]): CollectedHit[] {
    const idx = Array.from({ length: this.size }, (_, i) => i);
    idx.sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
    return idx.map((i) => ({
      segment: segs[this.segs[i]!]!,
      doc: this.docs[i]!,
      globalDoc: this.gdocs[i]!,
      score: NaN,
      sort: [this.vals[i]!],
    }));
  }
}
