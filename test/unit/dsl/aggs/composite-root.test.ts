/**
 * A top-level composite with one `terms` source over a single-valued keyword counts (and, with a
 * lone avg/sum whose sums are exact, sums) per segment ordinal and makes the buckets when the
 * segment is done (CompositeAggregator.collectRoot): every page must be that of the per-doc path
 * (collect() for every batch) over random multi-segment shards with deletions, missing keys and values, `after` paging and
 * `missing_bucket`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, json, search } from './helpers/shards.js';
import { keyedDocs } from './helpers/keyed-docs.js';

const KEYS = ['US', 'DE', 'FR', 'GB', 'JP', 'CN', 'BR', 'IN'];
const SUBS = ['avg', 'sum', 'min', 'max', 'value_count', 'none', 'avg+sum'] as const;

function subAggs(sub: (typeof SUBS)[number]): Record<string, unknown> {
  if (sub === 'none') return {};
  if (sub === 'avg+sum') return { aggs: { a: { avg: { field: 'v' } }, s: { sum: { field: 'v' } } } }; // prettier-ignore
  return { aggs: { m: { [sub]: { field: 'v' } } } };
}

describe('composite at the top level', () => {
  it('pages through what the per-doc path gives', () => {
    fc.assert(
      fc.property(
        keyedDocs(KEYS),
        fc.boolean(),
        fc.constantFrom(...SUBS),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('asc', 'desc'),
        (rows, everyValue, sub, refreshEvery, deleteEvery, size, missingBucket, huge, order) => {
          const docs = rows.map((r, i) => ({
            ...(r.k === undefined ? {} : { k: r.k }),
            // a value near 2^53 late in the shard makes the sums inexact from there on
            ...(r.v === undefined && !everyValue ? {} : { v: huge && i === rows.length - 1 ? 2 ** 53 - 5 : (r.v ?? 1) }), // prettier-ignore
          }));
          const deletes = deleteEvery === 0 ? [] : rows.map((_, i) => String(i + 1)).filter((_, i) => i % deleteEvery === 1); // prettier-ignore
          const index = buildIndex({ k: 'keyword', v: 'long' }, docs, { refreshEvery, deletes });
          let after: Record<string, unknown> | undefined;
          for (let page = 0; page < 20; page++) {
            const composite = {
              composite: {
                size,
                sources: [{ c: { terms: { field: 'k', missing_bucket: missingBucket, order } } }],
                ...(after ? { after } : {}),
              },
              ...subAggs(sub),
            };
            const root = json(search(index, { g: composite })) as any;
            const perDoc = json(search(index, { g: composite }, { perDoc: true })) as any;
            expect(JSON.stringify(root.g)).toBe(JSON.stringify(perDoc.g));
            if (!root.g.after_key) break;
            after = root.g.after_key;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
