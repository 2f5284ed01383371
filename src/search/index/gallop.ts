/**
 * Galloping search in a sorted doc list: the leap-frogging step of conjunctions and `advance`,
 * cheap when the target is near (doubling steps) and logarithmic when it is far.
 */

/** First index in [lo, end) whose doc is >= target (end when none). */
export function gallop(docs: Int32Array, lo: number, end: number, target: number): number {
  if (lo >= end || docs[lo]! >= target) return lo;
  let step = 1;
  let hi = lo + 1;
  while (hi < end && docs[hi]! < target) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `gallop` for lists of like density (the target is usually a few docs on): the next docs one
 * by one first, where galloping's binary search mispredicts its branches, then `gallop`.
 */
export function gallopNear(docs: Int32Array, lo: number, end: number, target: number): number {
  const near = lo + 8 < end ? lo + 8 : end;
  for (; lo < near; lo++) if (docs[lo]! >= target) return lo;
  return gallop(docs, lo, end, target);
}
