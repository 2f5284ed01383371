/**
 * Which segments to merge after a refresh (ES 6.8's default, Lucene TieredMergePolicy): a shard
 * may hold `segmentsPerTier` segments per size tier (tiers grow by `maxMergeAtOnce` from the
 * floor), and when it holds more, the `maxMergeAtOnce` adjacent-in-size segments whose merge is
 * least skewed are merged. Segments of similar size merge together, so during a bulk load each
 * document is rewritten O(log(docs / refresh size)) times with a factor of 10, and segments below
 * the floor count as floor-sized, so tiny refreshes pile up and merge in one go.
 */

export interface MergePolicyOptions {
  /** index.merge.policy.segments_per_tier */
  segmentsPerTier: number;
  /** index.merge.policy.max_merge_at_once */
  maxMergeAtOnce: number;
  /** index.merge.policy.floor_segment in (estimated) bytes */
  floorSegmentBytes: number;
}

/** ES MergePolicyConfig defaults: segments_per_tier 10, max_merge_at_once 10, floor_segment 2mb. */
export const DEFAULT_MERGE_POLICY: MergePolicyOptions = {
  segmentsPerTier: 10,
  maxMergeAtOnce: 10,
  floorSegmentBytes: 2 * 1024 * 1024,
};

/** One segment as the policy sees it: its size in bytes and the live fraction of it. */
export interface MergeInput {
  readonly bytes: number;
  /** Live docs / maxDoc, in (0, 1]. */
  readonly liveRatio: number;
}

/**
 * The indexes (into `segs`) of the segments to merge next, or null when the shard is within its
 * budget. Call again after applying a merge: more than one may be due.
 */
export function findMerge(
  segs: readonly MergeInput[],
  opts: MergePolicyOptions = DEFAULT_MERGE_POLICY,
): number[] | null {
  const { segmentsPerTier, maxMergeAtOnce, floorSegmentBytes } = opts;
  if (segs.length <= segmentsPerTier || segs.length < maxMergeAtOnce) return null;
  const live = segs.map((s) => s.bytes * s.liveRatio);
  const floored = live.map((b) => Math.max(b, floorSegmentBytes));
  // Largest first, as Lucene sorts its eligible segments.
  const order = segs.map((_, i) => i).sort((a, b) => live[b]! - live[a]! || a - b);
  let total = 0;
  let minSize = Infinity;
  for (let i = 0; i < segs.length; i++) {
    total += live[i]!;
    if (floored[i]! < minSize) minSize = floored[i]!;
  }
  // Segments the index may hold: segmentsPerTier per tier, tiers from the smallest (floored) up.
  let levelSize = minSize;
  let bytesLeft = total;
  let allowed = 0;
  for (;;) {
    const atLevel = bytesLeft / levelSize;
    if (atLevel < segmentsPerTier) {
      allowed += Math.ceil(atLevel);
      break;
    }
    allowed += segmentsPerTier;
    bytesLeft -= segmentsPerTier * levelSize;
    levelSize *= maxMergeAtOnce;
  }
  allowed = Math.max(allowed, segmentsPerTier);
  if (segs.length <= allowed) return null;
  let best: number[] | null = null;
  let bestScore = Infinity;
  for (let start = 0; start + maxMergeAtOnce <= order.length; start++) {
    const cand = order.slice(start, start + maxMergeAtOnce);
    let flooredSum = 0;
    let liveSum = 0;
    let rawSum = 0;
    for (const i of cand) {
      flooredSum += floored[i]!;
      liveSum += live[i]!;
      rawSum += segs[i]!.bytes;
    }
    // Lucene TieredMergePolicy.score: prefer even merges (low skew), slightly prefer smaller
    // ones, and strongly prefer merges that reclaim deletes.
    const skew = floored[cand[0]!]! / flooredSum;
    const nonDelRatio = rawSum > 0 ? liveSum / rawSum : 1;
    const score = skew * Math.pow(Math.max(liveSum, 1), 0.05) * nonDelRatio * nonDelRatio;
    if (score < bestScore) {
      bestScore = score;
      best = cand;
    }
  }
  return best;
}
