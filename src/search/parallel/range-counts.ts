/**
 * Doc counts of numeric ranges [from, to) over a single-valued column, without deciding a range
 * per doc: per doc, one comparison with each distinct bound (the number of values below it), so
 * the loop has no branches and no stores; a range's count is then below(to) − below(from)
 * (ES RangeAggregator counts `value >= from && value < to`, and NaN, a missing value, is below
 * nothing). The same loops serve the serial range aggregation and the parallel tasks.
 */

/** Bounds of a set of ranges: the distinct bounds and, per range, which bound is its from and to. */
export interface RangeBounds {
  /** Sorted distinct bounds (−Infinity left out: nothing is below it), padded to a multiple of
   * 4 with −Infinity (a bound nothing is below). */
  readonly bounds: Float64Array;
  /** Per range: the index of its from and to in `bounds`, −1 for −Infinity. */
  readonly lo: Int32Array;
  readonly hi: Int32Array;
}

/** The bounds of ranges [froms[k], tos[k]); null when some bound is NaN. */
export function rangeBounds(froms: Float64Array, tos: Float64Array): RangeBounds | null {
  const all: number[] = [];
  for (let k = 0; k < froms.length; k++) {
    if (froms[k] !== froms[k] || tos[k] !== tos[k]) return null;
    all.push(froms[k]!, tos[k]!);
  }
  const distinct = [...new Set(all.filter((b) => b !== -Infinity))].sort((a, b) => a - b);
  const bounds = new Float64Array(Math.max(4, (distinct.length + 3) & ~3)).fill(-Infinity);
  bounds.set(distinct);
  const at = (b: number) => (b === -Infinity ? -1 : distinct.indexOf(b));
  return {
    bounds,
    lo: Int32Array.from(froms, at),
    hi: Int32Array.from(tos, at),
  };
}

/** Adds to `below[j]` the number of values of docs[from..to) below `bounds[j]`. */
export function countBelowList(
  docs: Int32Array,
  from: number,
  to: number,
  values: Float64Array,
  bounds: Float64Array,
  below: Float64Array,
): void {
  for (let g = 0; g < bounds.length; g += 4) {
    const b0 = bounds[g]!;
    const b1 = bounds[g + 1]!;
    const b2 = bounds[g + 2]!;
    const b3 = bounds[g + 3]!;
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    for (let i = from; i < to; i++) {
      const v = values[docs[i]!]!;
      c0 += Number(v < b0);
      c1 += Number(v < b1);
      c2 += Number(v < b2);
      c3 += Number(v < b3);
    }
    below[g]! += c0;
    below[g + 1]! += c1;
    below[g + 2]! += c2;
    below[g + 3]! += c3;
  }
}

/** countBelowList over every doc of [from, to). */
export function countBelowAll(
  from: number,
  to: number,
  values: Float64Array,
  bounds: Float64Array,
  below: Float64Array,
): void {
  for (let g = 0; g < bounds.length; g += 4) {
    const b0 = bounds[g]!;
    const b1 = bounds[g + 1]!;
    const b2 = bounds[g + 2]!;
    const b3 = bounds[g + 3]!;
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    for (let d = from; d < to; d++) {
      const v = values[d]!;
      c0 += Number(v < b0);
      c1 += Number(v < b1);
      c2 += Number(v < b2);
      c3 += Number(v < b3);
    }
    below[g]! += c0;
    below[g + 1]! += c1;
    below[g + 2]! += c2;
    below[g + 3]! += c3;
  }
}

/** Range k's count from the counts below each bound (0 for an empty range, from >= to). */
export function rangeCount(r: RangeBounds, below: Float64Array, k: number): number {
  const lo = r.lo[k]!;
  const hi = r.hi[k]!;
  const c = (hi < 0 ? 0 : below[hi]!) - (lo < 0 ? 0 : below[lo]!);
  return c > 0 ? c : 0;
}
