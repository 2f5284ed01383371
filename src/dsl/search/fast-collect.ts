/**
 * Dedicated shard collectors for request shapes that do not need the general top-docs loop.
 * Size 0 (ES EmptyTopDocsCollectorContext: only the total and the aggregations): matching docs
 * go to the aggregators in batches, with no per-hit objects and no scoring unless an
 * aggregation reads scores; plain filter queries are read as whole doc sets from the index,
 * other queries iterate their Scorer. Results are exactly those of collectTopDocs.
 */
import type { CollectOptions, ShardTopDocs } from '../../search/collect/top-docs.js';
import { filterDocSet, forEachDocBatch, liveCount } from '../../search/collect/doc-sets.js';
import type { ShardSnapshot } from '../../search/index/live-segment.js';
import type { Query } from '../../search/query/query.js';
import { NO_MORE_DOCS } from '../../search/query/scorer.js';
import type { Weight } from '../../search/query/weights.js';
import type { ShardAggregator } from '../aggs/index.js';

const BATCH = 1024;

/** The shard's top docs when a dedicated collector applies, else null (use collectTopDocs). */
export function fastTopDocs(
  snapshot: ShardSnapshot,
  query: Query,
  weight: Weight,
  agg: ShardAggregator | null,
  o: CollectOptions,
): ShardTopDocs | null {
  // total hits count docs before search_after, so it does not matter here
  if (o.numHits === 0 && o.minScore === null && o.postFilter === null && o.terminateAfter <= 0)
    return collectCountAndAggs(snapshot, query, weight, agg);
  return null;
}

/** Total hits of `query` and, when given, its aggregations collected in batches. */
export function collectCountAndAggs(
  snapshot: ShardSnapshot,
  query: Query,
  weight: Weight,
  agg: ShardAggregator | null,
): ShardTopDocs {
  const docs = new Int32Array(BATCH);
  const scores = agg?.needsScores ? new Float64Array(BATCH) : null;
  const feed = agg ? (d: Int32Array, n: number) => agg.collectBatch(d, n, null) : null;
  let total = 0;
  const segs = snapshot.segments;
  for (let si = 0; si < segs.length; si++) {
    const ls = segs[si]!;
    agg?.onSegment(ls, si);
    const set = scores ? null : filterDocSet(query, ls);
    if (set) {
      total += feed ? forEachDocBatch(set, ls.live, docs, feed) : liveCount(set, ls.live);
      continue;
    }
    const scorer = weight.scorer(ls);
    if (!scorer) continue;
    const live = ls.live;
    let n = 0;
    for (let d = scorer.next(); d !== NO_MORE_DOCS; d = scorer.next()) {
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
  }
  return { totalHits: total, maxScore: NaN, hits: [], terminatedEarly: false };
}
