/**
 * Property tests: terms, avg/sum/min/max, range and histogram over random multi-valued documents
 * spread over 1-3 shards with several segments and deletions agree with a naive reference
 * computed from the same documents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex, json, search } from './helpers/shards.js';

interface Doc {
  k: string[];
  v: number[];
}

const docArb = fc.record({
  k: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 3 }),
  v: fc.array(
    fc.oneof(
      fc.integer({ min: -50, max: 50 }),
      fc.integer({ min: -100, max: 100 }).map((x) => x / 2),
    ),
    { maxLength: 3 },
  ),
});

const caseArb = fc.record({
  docs: fc.array(docArb, { minLength: 1, maxLength: 60 }),
  shards: fc.integer({ min: 1, max: 3 }),
  refreshEvery: fc.integer({ min: 1, max: 20 }),
  deleteEvery: fc.integer({ min: 0, max: 7 }),
});

interface Case {
  docs: Doc[];
  shards: number;
  refreshEvery: number;
  deleteEvery: number;
}

function build(c: Case) {
  const deletes: string[] = [];
  if (c.deleteEvery > 0)
    for (let i = 0; i < c.docs.length; i += c.deleteEvery) deletes.push(String(i + 1));
  const idx = buildIndex(
    { k: 'keyword', v: 'double' },
    c.docs.map((d) => ({ ...(d.k.length ? { k: d.k } : {}), ...(d.v.length ? { v: d.v } : {}) })),
    { shards: c.shards, refreshEvery: c.refreshEvery, deletes },
  );
  const live: Doc[] = c.docs.filter((_, i) => !deletes.includes(String(i + 1)));
  return { idx, live };
}

const byCountThenKey = (a: [string | number, number], b: [string | number, number]) =>
  b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

describe('aggregations agree with a naive reference', () => {
  it('terms (keyword and numeric keys)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { idx, live } = build(c);
        const r = json(
          search(idx, {
            k: { terms: { field: 'k', size: 100 } },
            v: { terms: { field: 'v', size: 1000 } },
          }),
        ) as Record<string, { buckets: Array<{ key: string | number; doc_count: number }> }>;
        const count = (get: (d: Doc) => Array<string | number>) => {
          const m = new Map<string | number, number>();
          for (const d of live) for (const x of new Set(get(d))) m.set(x, (m.get(x) ?? 0) + 1);
          return [...m.entries()].sort(byCountThenKey);
        };
        expect(r.k!.buckets.map((b) => [b.key, b.doc_count])).toEqual(count((d) => d.k));
        expect(r.v!.buckets.map((b) => [b.key, b.doc_count])).toEqual(count((d) => d.v));
      }),
      { numRuns: 60 },
    );
  });

  it('avg, sum, min, max, value_count, stats', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { idx, live } = build(c);
        const r = json(
          search(idx, {
            avg: { avg: { field: 'v' } },
            sum: { sum: { field: 'v' } },
            min: { min: { field: 'v' } },
            max: { max: { field: 'v' } },
            cnt: { value_count: { field: 'v' } },
            st: { stats: { field: 'v' } },
          }),
        ) as Record<string, Record<string, number | null>>;
        const vals = live.flatMap((d) => d.v);
        const sum = vals.reduce((a, b) => a + b, 0);
        expect(r.cnt!.value).toBe(vals.length);
        expect(r.sum!.value).toBeCloseTo(sum, 9);
        expect(r.st!.count).toBe(vals.length);
        if (vals.length === 0) {
          expect(r.avg!.value).toBeNull();
          expect(r.min!.value).toBeNull();
          expect(r.max!.value).toBeNull();
        } else {
          expect(r.avg!.value).toBeCloseTo(sum / vals.length, 9);
          expect(r.min!.value).toBe(Math.min(...vals));
          expect(r.max!.value).toBe(Math.max(...vals));
          expect(r.st!.min).toBe(Math.min(...vals));
          expect(r.st!.max).toBe(Math.max(...vals));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('range counts a doc once per range holding any of its values', () => {
    const ranges = [{ to: -10 }, { from: -10, to: 10 }, { from: 5 }, { from: 0, to: 0.5 }];
    fc.assert(
      fc.property(caseArb, (c) => {
        const { idx, live } = build(c);
        const r = json(search(idx, { r: { range: { field: 'v', ranges } } })) as {
          r: { buckets: Array<{ key: string; doc_count: number }> };
        };
        const sorted = [...ranges].sort(
          (a, b) =>
            (a.from ?? -Infinity) - (b.from ?? -Infinity) ||
            (a.to ?? Infinity) - (b.to ?? Infinity),
        );
        const expected = sorted.map(
          (rg) =>
            live.filter((d) =>
              d.v.some((x) => x >= (rg.from ?? -Infinity) && x < (rg.to ?? Infinity)),
            ).length,
        );
        expect(r.r.buckets.map((b) => b.doc_count)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('histogram (with and without min_doc_count 0)', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.constantFrom(1, 2.5, 7, 10),
        fc.constantFrom(0, 1),
        (c, interval, minDocCount) => {
          const { idx, live } = build(c);
          const r = json(
            search(idx, { h: { histogram: { field: 'v', interval, min_doc_count: minDocCount } } }),
          ) as {
            h: { buckets: Array<{ key: number; doc_count: number }> };
          };
          const m = new Map<number, number>();
          for (const d of live) {
            for (const k of new Set(d.v.map((x) => Math.floor(x / interval) * interval)))
              m.set(k, (m.get(k) ?? 0) + 1);
          }
          let expected = [...m.entries()].sort((a, b) => a[0] - b[0]);
          if (minDocCount === 0 && expected.length > 0) {
            const filled: Array<[number, number]> = [];
            const first = expected[0]![0];
            const last = expected[expected.length - 1]![0];
            for (let i = 0; first + i * interval <= last + 1e-9; i++) {
              const key = Math.floor((first + i * interval + interval / 2) / interval) * interval;
              filled.push([key, m.get(key) ?? 0]);
            }
            expected = filled;
          }
          expect(r.h.buckets.map((b) => [b.key, b.doc_count])).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  // Single-valued columns take the fast paths (keyword ordinals with an inline avg/sum, disjoint
  // ranges, batched histogram keys); these must agree with the reference too.
  it('single-valued fields: terms with avg/sum sub-aggregations, disjoint ranges, histogram', () => {
    const single = fc.record({
      docs: fc.array(
        fc.record({
          k: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 1 }),
          v: fc.array(
            fc.integer({ min: -100, max: 100 }).map((x) => x / 2),
            { maxLength: 1 },
          ),
        }),
        { minLength: 1, maxLength: 80 },
      ),
      shards: fc.integer({ min: 1, max: 3 }),
      refreshEvery: fc.integer({ min: 1, max: 30 }),
      deleteEvery: fc.integer({ min: 0, max: 7 }),
    });
    const ranges = [{ to: -10 }, { from: -10, to: 0 }, { from: 0.5, to: 20 }, { from: 20 }];
    fc.assert(
      fc.property(single, (c) => {
        const { idx, live } = build(c);
        const r = json(
          search(idx, {
            t: {
              terms: { field: 'k', size: 10 },
              aggs: { a: { avg: { field: 'v' } }, s: { sum: { field: 'v' } } },
            },
            ta: { terms: { field: 'k', size: 10 }, aggs: { a: { avg: { field: 'v' } } } },
            r: { range: { field: 'v', ranges } },
            h: { histogram: { field: 'v', interval: 5 } },
          }),
        ) as {
          t: { buckets: Array<{ key: string; doc_count: number; a: { value: number | null } }> };
          ta: { buckets: Array<{ key: string; doc_count: number; a: { value: number | null } }> };
          r: { buckets: Array<{ doc_count: number }> };
          h: { buckets: Array<{ key: number; doc_count: number }> };
        };
        const groups = new Map<string, number[]>();
        for (const d of live) {
          if (!d.k.length) continue;
          const g = groups.get(d.k[0]!) ?? [];
          g.push(...d.v);
          groups.set(d.k[0]!, g);
        }
        const counts = new Map<string, number>();
        for (const d of live) if (d.k.length) counts.set(d.k[0]!, (counts.get(d.k[0]!) ?? 0) + 1);
        const expected = [...counts.entries()].sort(byCountThenKey).map(([k, n]) => {
          const vs = groups.get(k)!;
          return [k, n, vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : null];
        });
        for (const agg of [r.t, r.ta]) {
          expect(agg.buckets.map((b) => [b.key, b.doc_count, b.a.value])).toEqual(expected);
        }
        expect(r.r.buckets.map((b) => b.doc_count)).toEqual(
          ranges.map(
            (rg) =>
              live.filter((d) =>
                d.v.some((x) => x >= (rg.from ?? -Infinity) && x < (rg.to ?? Infinity)),
              ).length,
          ),
        );
        const hist = new Map<number, number>();
        for (const d of live) {
          for (const x of d.v) {
            const key = Math.floor(x / 5) * 5;
            hist.set(key, (hist.get(key) ?? 0) + 1);
          }
        }
        expect(r.h.buckets.filter((b) => b.doc_count > 0).map((b) => [b.key, b.doc_count])).toEqual(
          [...hist.entries()].sort((a, b) => a[0] - b[0]),
        );
      }),
      { numRuns: 80 },
    );
  });
});
