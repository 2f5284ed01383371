/**
 * The parallel aggregation loops (agg-kernels.ts) against a brute-force count over the same
 * docs: terms counts, dense (no missing value) and sparse sums (also of docs without an ordinal),
 * ranges; doc lists and id ranges,
 * with and without deleted docs, slices of any length (the unrolled loops' tails).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runTask, taskSlots, type KernelSpec } from '../../../../src/search/parallel/agg-kernels.js'; // prettier-ignore
import { rangeBounds } from '../../../../src/search/parallel/range-counts.js';

const SIZE = 6; // ordinals -1..4, slot per ordinal + 1

const segArb = fc.array(
  fc.record({
    ord: fc.integer({ min: -1, max: SIZE - 2 }),
    value: fc.option(fc.integer({ min: -1000, max: 200_000 }), { nil: undefined }),
    live: fc.boolean(),
    match: fc.boolean(),
  }),
  { minLength: 1, maxLength: 300 },
);

describe('aggregation kernels', () => {
  it('add up to the brute-force counts and sums', () => {
    fc.assert(
      fc.property(
        segArb,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        (seg, list, deletions, missingOk, a, b) => {
          const n = seg.length;
          const ords = Int32Array.from(seg, (d) => d.ord);
          // dense: every doc has a value
          const values = Float64Array.from(seg, (d) => (d.value === undefined ? (missingOk ? NaN : 7) : d.value)); // prettier-ignore
          const dense = !values.some((v) => v !== v);
          const live = new Uint32Array((n + 31) >>> 5);
          seg.forEach((d, i) => {
            if (!deletions || d.live) live[i >>> 5]! |= 1 << (i & 31);
          });
          const all = Int32Array.from(seg.map((_, i) => i).filter((i) => !list || seg[i]!.match));
          const lo = Math.min(a % (all.length + 1), b % (all.length + 1));
          const hi = Math.max(a % (all.length + 1), b % (all.length + 1));
          const froms = Float64Array.of(-Infinity, 1000, 10000, 100000);
          const tos = Float64Array.of(1000, 10000, 100000, Infinity);
          const specs: KernelSpec[] = [
            { kind: 'terms', ords, size: SIZE, values: null, dense: false },
            { kind: 'terms', ords, size: SIZE, values, dense },
            { kind: 'range', values, bounds: rangeBounds(froms, tos)! },
          ];
          const out = new Float64Array(2 + taskSlots(specs));
          const docs = list ? { kind: 'list' as const, docs: all, from: lo, to: hi } : { kind: 'all' as const, from: lo, to: hi }; // prettier-ignore
          runTask({ docs, live: deletions ? live : null, specs, out: 2 }, out);
          // brute force
          const want = new Float64Array(out.length);
          let off = 2;
          const ids = list ? Array.from(all.subarray(lo, hi)) : Array.from({ length: hi - lo }, (_, i) => lo + i); // prettier-ignore
          const alive = ids.filter((d) => !deletions || seg[d]!.live);
          want[off++] = alive.length;
          for (const d of alive) want[off + ords[d]! + 1]!++;
          off += SIZE;
          for (const d of alive) {
            want[off + ords[d]! + 1]!++;
            if (values[d] !== values[d]) continue;
            // docs without an ordinal: their value count and sum in the last slots
            const at = ords[d]! < 0 ? SIZE - 1 : ords[d]!;
            want[off + SIZE + at]!++;
            want[off + 2 * SIZE + at]! += values[d]!;
          }
          off += 3 * SIZE;
          for (const d of alive) {
            const k = tos.findIndex((t, j) => values[d]! >= froms[j]! && values[d]! < t);
            if (k >= 0) want[off + k]!++;
          }
          expect(Array.from(out)).toEqual(Array.from(want));
        },
      ),
      { numRuns: 300 },
    );
  });
});
