/**
 * The top-level range aggregation without sub-aggregations counts values below each bound
 * (RangeAggregator.collectRoot) instead of choosing a range per doc: its doc counts must be
 * those of ES's per-value test over random multi-segment shards with deletions, missing and
 * fractional values, overlapping and empty ranges, and equal those of the per-doc path (the same
 * range with a sub-aggregation).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, json, search } from './helpers/shards.js';

const boundArb = fc.option(fc.oneof(fc.integer({ min: -30, max: 30 }), fc.constant(2.5)), { nil: undefined }); // prettier-ignore

describe('range at the top level', () => {
  it('counts what ES counts per range', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.oneof(fc.integer({ min: -40, max: 40 }), fc.double({ min: -40, max: 40, noNaN: true })), { nil: undefined }), { minLength: 1, maxLength: 150 }), // prettier-ignore
        fc.array(fc.record({ from: boundArb, to: boundArb }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 4 }),
        (vals, ranges, refreshEvery, deleteEvery) => {
          const docs = vals.map((v) => (v === undefined ? {} : { v }));
          const deletes = deleteEvery === 0 ? [] : vals.map((_, i) => String(i + 1)).filter((_, i) => i % deleteEvery === 0); // prettier-ignore
          const index = buildIndex({ v: 'double', w: 'long' }, docs, { refreshEvery, deletes });
          const spec = ranges.map((r) => ({
            ...(r.from === undefined ? {} : { from: r.from }),
            ...(r.to === undefined ? {} : { to: r.to }),
          }));
          const plain = json(search(index, { r: { range: { field: 'v', ranges: spec } } })) as any; // prettier-ignore
          const withSub = json(search(index, { r: { range: { field: 'v', ranges: spec }, aggs: { m: { max: { field: 'w' } } } } })) as any; // prettier-ignore
          const liveVals = vals.filter((_, i) => !deletes.includes(String(i + 1)));
          const counts = (plain.r.buckets as Array<{ from?: number; to?: number; doc_count: number }>).map((b) => b.doc_count); // prettier-ignore
          const want = (plain.r.buckets as Array<{ from?: number; to?: number }>).map(
            (b) =>
            liveVals.filter((v) => v !== undefined && v >= (b.from ?? -Infinity) && v < (b.to ?? Infinity)).length, // prettier-ignore
          );
          expect(counts).toEqual(want);
          expect(counts).toEqual(withSub.r.buckets.map((b: { doc_count: number }) => b.doc_count));
        },
      ),
      { numRuns: 150 },
    );
  });
});
