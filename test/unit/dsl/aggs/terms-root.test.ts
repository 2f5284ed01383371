/**
 * The top-level terms aggregation counts (and, with a lone avg/sum over a column without missing
 * values, sums) per segment ordinal and makes the buckets when the segment is done
 * (TermsAggregator.collectRoot): the result must be that of the per-doc path (the same terms
 * under a `filter` aggregation) over random multi-segment shards with deletions, missing keys
 * and values, and sums that stop being exact part way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, json, search } from './helpers/shards.js';
import { keyedDocs } from './helpers/keyed-docs.js';

const KEYS = ['US', 'DE', 'FR', 'GB', 'JP', 'CN'];

describe('terms at the top level', () => {
  it('gives what the per-doc path gives', () => {
    fc.assert(
      fc.property(
        keyedDocs(KEYS),
        fc.boolean(),
        fc.constantFrom('avg', 'sum', 'none'),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (rows, everyValue, sub, refreshEvery, deleteEvery, size, huge) => {
          const docs = rows.map((r, i) => ({
            ...(r.k === undefined ? {} : { k: r.k }),
            // a value near 2^53 late in the shard makes the sums inexact from there on
            ...(r.v === undefined && !everyValue ? {} : { v: huge && i === rows.length - 1 ? 2 ** 53 - 5 : (r.v ?? 1) }), // prettier-ignore
          }));
          const deletes = deleteEvery === 0 ? [] : rows.map((_, i) => String(i + 1)).filter((_, i) => i % deleteEvery === 1); // prettier-ignore
          const index = buildIndex({ k: 'keyword', v: 'long' }, docs, { refreshEvery, deletes });
          const terms = {
            terms: { field: 'k', size },
            ...(sub === 'none' ? {} : { aggs: { m: { [sub]: { field: 'v' } } } }),
          };
          const root = json(search(index, { t: terms })) as any;
          const wrapped = json(search(index, { f: { filter: { match_all: {} }, aggs: { t: terms } } })) as any; // prettier-ignore
          expect(root.t).toEqual(wrapped.f.t);
        },
      ),
      { numRuns: 150 },
    );
  });
});
