/**
 * Range counts from the counts below each bound (range-counts.ts) against ES RangeAggregator's
 * per-value test `value >= from && value < to`: overlapping, empty and open ranges, more than
 * four bounds, NaN (missing), infinities and fractions; doc lists and id ranges alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countBelowAll,
  countBelowList,
  rangeBounds,
  rangeCount,
} from '../../../../src/search/parallel/range-counts.js';

const valueArb = fc.oneof(
  fc.integer({ min: -50, max: 50 }),
  fc.double({ min: -60, max: 60, noNaN: true }),
  fc.constantFrom(NaN, Infinity, -Infinity, 0, -0),
);
const boundArb = fc.oneof(fc.integer({ min: -40, max: 40 }), fc.constantFrom(Infinity, -Infinity, 0.5)); // prettier-ignore
const rangeArb = fc.record({ from: boundArb, to: boundArb });

describe('range counts', () => {
  it('count what ES counts per range, for lists and id ranges', () => {
    fc.assert(
      fc.property(
        fc.array(valueArb, { minLength: 1, maxLength: 200 }),
        fc.array(rangeArb, { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 0, max: 3 }),
        (vals, ranges, skip) => {
          const values = Float64Array.from(vals);
          const froms = Float64Array.from(ranges, (r) => r.from);
          const tos = Float64Array.from(ranges, (r) => r.to);
          const b = rangeBounds(froms, tos)!;
          expect(b.bounds.length % 4).toBe(0);
          const docs = Int32Array.from(vals.map((_, i) => i).filter((i) => i % (skip + 1) === 0));
          const fromList = new Float64Array(b.bounds.length);
          // two calls add up
          const mid = docs.length >> 1;
          countBelowList(docs, 0, mid, values, b.bounds, fromList);
          countBelowList(docs, mid, docs.length, values, b.bounds, fromList);
          const fromAll = new Float64Array(b.bounds.length);
          countBelowAll(0, vals.length, values, b.bounds, fromAll);
          ranges.forEach((r, k) => {
            const want = (ds: ArrayLike<number>) =>
              Array.from(ds).filter((d) => vals[d]! >= r.from && vals[d]! < r.to).length;
            expect(rangeCount(b, fromList, k)).toBe(want(docs));
            expect(rangeCount(b, fromAll, k)).toBe(want(vals.map((_, i) => i)));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('has no bounds for NaN bounds', () => {
    expect(rangeBounds(Float64Array.of(NaN), Float64Array.of(1))).toBeNull();
    expect(rangeBounds(Float64Array.of(0), Float64Array.of(NaN))).toBeNull();
  });

  it('leaves −Infinity out of the bounds and pads with it', () => {
    const b = rangeBounds(Float64Array.of(-Infinity, 10, 10), Float64Array.of(10, 20, Infinity))!;
    expect(Array.from(b.bounds)).toEqual([10, 20, Infinity, -Infinity]);
    expect(Array.from(b.lo)).toEqual([-1, 0, 0]);
    expect(Array.from(b.hi)).toEqual([0, 1, 2]);
  });
});
