/**
 * Facts about a segment's numeric doc values computed once per (immutable) column and cached:
 * whether every value is an integer and the largest magnitude, which tell when plain floating
 * point sums are exact (and so equal to ES's Kahan-compensated sums).
 */

/** 2^53: integers below it, and sums of them that stay below it, are exact doubles. */
export const EXACT_INT_LIMIT = 9007199254740992;

const cache = new WeakMap<Float64Array, number>();

/**
 * The largest |v| of the column's values (NaN = missing is skipped) when all of them are
 * integers, else -1 (fractions, infinities).
 */
export function integralMaxAbs(values: Float64Array): number {
  let m = cache.get(values);
  if (m !== undefined) return m;
  m = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== v) continue;
    const a = v < 0 ? -v : v;
    if (Math.floor(a) !== a || a >= EXACT_INT_LIMIT) {
      m = -1;
      break;
    }
    if (a > m) m = a;
  }
  cache.set(values, m);
  return m;
}

const missing = new WeakMap<Float64Array, boolean>();

/** Whether the column has a missing value (NaN) for some doc. */
export function hasMissing(values: Float64Array): boolean {
  let m = missing.get(values);
  if (m !== undefined) return m;
  m = false;
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== values[i]) {
      m = true;
      break;
    }
  }
  missing.set(values, m);
  return m;
}
