/**
 * Per-block BM25 score bounds of one term's postings (blocks of 128 postings from the term's
 * first): the best score any doc of a block can get, from the field's block impacts, raised by
 * BOUND_MARGIN so sums of bounds stay above sums of scores whatever the order of float additions.
 * Top-k collection skips blocks whose bound cannot beat the score a hit must beat.
 */
import { blockImpacts, IMPACT_BLOCK_SHIFT, IMPACT_BLOCK_SIZE } from '../index/block-bounds.js';
import type { InvertedField } from '../index/segment.js';
import type { Bm25 } from './bm25.js';
import { BOUND_MARGIN } from './scorer.js';

export function termBlockBounds(inv: InvertedField, term: number, bm25: Bm25): Float64Array {
  const cost = inv.termStart[term + 1]! - inv.termStart[term]!;
  const n = (cost + IMPACT_BLOCK_SIZE - 1) >>> IMPACT_BLOCK_SHIFT;
  const out = new Float64Array(n);
  if (bm25.weightValue <= 0) return out; // negative boosts: scores are <= 0
  const bi = blockImpacts(inv);
  if (bi === null) {
    out.fill(bm25.score(1, -1) * BOUND_MARGIN);
    return out;
  }
  const base = bi.blockBase[term]!;
  const { maxFreq, minNorm } = bi;
  if (inv.norms === null) {
    for (let b = 0; b < n; b++) out[b] = bm25.score(maxFreq[base + b]!, -1) * BOUND_MARGIN;
    return out;
  }
  // The best of the block's (freq, shortest norm) pairs: freq 1, freq 2, freq >= 3 (its max).
  // Scores grow with freq and shrink with the norm, so each pair bounds its docs.
  for (let b = 0, k = 3 * base; b < n; b++, k += 3) {
    const mf = maxFreq[base + b]!;
    let m = bm25.score(1, minNorm[k]!);
    if (mf >= 2) {
      const s2 = bm25.score(2, minNorm[k + 1]!);
      if (s2 > m) m = s2;
    }
    if (mf >= 3) {
      const s3 = bm25.score(mf, minNorm[k + 2]!);
      if (s3 > m) m = s3;
    }
    out[b] = m * BOUND_MARGIN;
  }
  return out;
}
