/**
 * Property test: composite buckets over two sources (keyword and numeric, multi-valued, with
 * missing_bucket) spread over shards, segments and deletions agree with a naive grouping of the
 * same documents, page by page through `after_key`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, json, search } from './helpers/shards.js';

interface Doc {
  k: string[];
  v: number[];
}

const caseArb = fc.record({
  docs: fc.array(
    fc.record({
      k: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 2 }),
      v: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 50 },
  ),
  shards: fc.integer({ min: 1, max: 3 }),
  refreshEvery: fc.integer({ min: 1, max: 15 }),
  deleteEvery: fc.integer({ min: 0, max: 6 }),
  size: fc.integer({ min: 1, max: 7 }),
  vDesc: fc.boolean(),
});

type Key = [string | null, number];

describe('composite agrees with a naive grouping', () => {
  it('keyword (missing_bucket) × numeric desc/asc, paged by after_key', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const deletes: string[] = [];
        if (c.deleteEvery > 0)
          for (let i = 0; i < c.docs.length; i += c.deleteEvery) deletes.push(String(i + 1));
        const idx = buildIndex(
          { k: 'keyword', v: 'long' },
          c.docs.map((d) => ({
            ...(d.k.length ? { k: d.k } : {}),
            ...(d.v.length ? { v: d.v } : {}),
          })),
          { shards: c.shards, refreshEvery: c.refreshEvery, deletes },
        );
        const live = c.docs.filter((_, i) => !deletes.includes(String(i + 1)));
        const counts = new Map<string, number>();
        for (const d of live) {
          if (d.v.length === 0) continue;
          const ks = d.k.length ? [...new Set(d.k)] : [null];
          for (const k of ks)
            for (const v of new Set(d.v)) {
              const id = JSON.stringify([k, v]);
              counts.set(id, (counts.get(id) ?? 0) + 1);
            }
        }
        const mul = c.vDesc ? -1 : 1;
        const want = [...counts.entries()]
          .map(([id, n]) => [JSON.parse(id) as Key, n] as const)
          .sort(([a], [b]) =>
            a[0] === b[0]
              ? (a[1] - b[1]) * mul
              : a[0] === null
                ? -1
                : b[0] === null
                  ? 1
                  : a[0] < b[0]
                    ? -1
                    : 1,
          )
          .map(([k, n]) => [k[0], k[1], n]);
        const got: unknown[] = [];
        let after: Record<string, unknown> | undefined;
        for (let page = 0; page < 100; page++) {
          const r = json(
            search(idx, {
              g: {
                composite: {
                  size: c.size,
                  sources: [
                    { k: { terms: { field: 'k', missing_bucket: true } } },
                    { v: { terms: { field: 'v', order: c.vDesc ? 'desc' : 'asc' } } },
                  ],
                  ...(after ? { after } : {}),
                },
              },
            }),
          ) as {
            g: {
              buckets: Array<{ key: { k: string | null; v: number }; doc_count: number }>;
              after_key?: Record<string, unknown>;
            };
          };
          for (const b of r.g.buckets) got.push([b.key.k, b.key.v, b.doc_count]);
          if (r.g.buckets.length < c.size || !r.g.after_key) break;
          after = r.g.after_key;
        }
        expect(got).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });
});
