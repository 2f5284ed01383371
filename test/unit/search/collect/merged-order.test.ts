/**
 * The snapshot's kept merged sort order (merged-order.ts) and the pages read from it: the merged
 * order is every doc by (key, shard doc id) however it is extended, and sortedPage read from it
 * (kept across requests, bounded so that deep pages fall back mid-walk, or not used at all)
 * equals the general top-docs collector, over random docs in many segments, deletions before
 * and after the order is kept, missing values, asc/desc, sort modes, filters, from and size, and
 * search_after.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendMerged, mergedOrder } from '../../../../src/search/collect/merged-order.js';
import { sortedPage } from '../../../../src/search/collect/sort-page.js';
import { numericKeyReader, type SortKey } from '../../../../src/search/collect/sort.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import type { ShardSnapshot } from '../../../../src/search/index/live-segment.js';
import type { Query } from '../../../../src/search/query/query.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { buildIndex, compileTestQuery, type TestIndex } from '../../dsl/aggs/helpers/shards.js';

interface Doc {
  s: string | null;
  v: number | null;
  m: number[];
}

const docArb: fc.Arbitrary<Doc> = fc.record({
  s: fc.option(fc.constantFrom('x', 'y', 'z')),
  // few distinct values: many ties across segments, broken by shard doc id
  v: fc.option(fc.integer({ min: -5, max: 5 })),
  m: fc.array(fc.integer({ min: -9, max: 9 }), { maxLength: 3 }),
});

const sortKeyArb: fc.Arbitrary<SortKey> = fc.record({
  kind: fc.constant<'field'>('field'),
  field: fc.constantFrom('v', 'm', 'absent'),
  order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  missing: fc.oneof(
    fc.constantFrom<'_last' | '_first'>('_last', '_first'),
    fc.integer({ min: -3, max: 3 }),
  ),
  mode: fc.constantFrom<SortKey['mode']>(null, 'min', 'max', 'sum', 'avg'),
  valueType: fc.constantFrom<'long' | 'double'>('long', 'double'),
});

const queryArb = fc.oneof(
  fc.constant<unknown>({ match_all: {} }),
  fc.constant<unknown>({ match_all: {} }),
  fc.constantFrom('x', 'y').map((t) => ({ term: { s: t } })),
  fc
    .tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: 0, max: 8 }))
    .map(([lo, w]) => ({ range: { v: { gte: lo, lte: lo + w } } })),
  fc.constantFrom('v', 'm').map((f) => ({ bool: { filter: [{ exists: { field: f } }] } })),
);

/** A page request: query, key, from, size and the merged order's bound for it. */
const pageArb = fc.record({
  query: queryArb,
  key: sortKeyArb,
  numHits: fc.integer({ min: 1, max: 60 }),
  skip: fc.integer({ min: 0, max: 60 }),
  maxMerged: fc.oneof(fc.constant(undefined), fc.constant(0), fc.integer({ min: 1, max: 30 })),
  // search_after (the page then starts at rank 0): values, ties, missing substitutes, -0
  after: fc.option(
    fc.oneof(
      fc.integer({ min: -10, max: 10 }),
      fc.constantFrom(-0, 0.5, 9223372036854775807, -9223372036854775808, Infinity, -Infinity),
    ),
    { freq: 2 },
  ),
});

const caseArb = fc.record({
  docs: fc.array(docArb, { minLength: 0, maxLength: 120 }),
  refreshEvery: fc.integer({ min: 1, max: 30 }),
  deleteEvery: fc.integer({ min: 0, max: 6 }),
  laterDeletes: fc.array(fc.integer({ min: 1, max: 120 }), { maxLength: 8 }),
  pages: fc.array(pageArb, { minLength: 1, maxLength: 6 }),
});

function build(docs: Doc[], refreshEvery: number, deleteEvery: number): TestIndex {
  const deletes: string[] = [];
  if (deleteEvery > 0)
    for (let i = 0; i < docs.length; i += deleteEvery) deletes.push(String(i + 1));
  return buildIndex(
    { s: 'keyword', v: 'long', m: 'long' },
    docs.map((d) => ({
      ...(d.s !== null ? { s: d.s } : {}),
      ...(d.v !== null ? { v: d.v } : {}),
      ...(d.m.length ? { m: d.m } : {}),
    })),
    { refreshEvery, deletes },
  );
}

function slowPage(
  snap: ShardSnapshot,
  q: Query,
  key: SortKey,
  numHits: number,
  after: number | null = null,
) {
  const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
  return collectTopDocs(snap, weight, {
    numHits,
    sort: [key],
    trackScores: false,
    needsScores: false,
    minScore: null,
    postFilter: null,
    searchAfter: after === null ? null : [after],
    terminateAfter: 0,
  });
}

describe('merged sort order', () => {
  it('is every doc by (key, shard doc id), extended in any steps', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 100 }),
        fc.integer({ min: 1, max: 25 }),
        sortKeyArb,
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        (docs, refreshEvery, key, steps) => {
          const idx = build(docs, refreshEvery, 0);
          const snap = idx.shards[0]!.searcher();
          const readers = snap.segments.map((ls) => numericKeyReader(key, ls)!);
          const m = mergedOrder(snap.segments, key, readers);
          let upTo = 0;
          for (const s of steps) extendMerged(m, (upTo += s));
          extendMerged(m, snap.maxDoc);
          expect(m.complete).toBe(true);
          expect(m.length).toBe(snap.maxDoc);
          // every doc by its key value (negated for desc), then by shard doc id
          const neg = key.order === 'desc';
          const all = snap.segments.flatMap((ls, si) =>
            Array.from({ length: ls.segment.maxDoc }, (_, d) => {
              const v = readers[si]!.pick(d);
              return { si, d, v, k: neg ? -v : v, g: ls.docBase + d };
            }),
          );
          all.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.g - b.g));
          const got = Array.from({ length: m.length }, (_, i) => [m.seg[i], m.doc[i], m.val[i]]);
          expect(got).toEqual(all.map((e) => [e.si, e.d, e.v]));
          // the same order is kept for the snapshot and key
          expect(mergedOrder(snap.segments, key, readers)).toBe(m);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('pages read from it equal the general collector, before and after more deletions', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const idx = build(c.docs, c.refreshEvery, c.deleteEvery);
        const check = (snap: ShardSnapshot) => {
          for (const p of c.pages) {
            const q = compileTestQuery(idx, p.query);
            const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
            const skip = p.after === null ? p.skip : 0;
            const opts = { maxMerged: p.maxMerged, after: p.after };
            const page = sortedPage(snap, q, weight, p.key, p.numHits, skip, Infinity, null, opts);
            expect(page).not.toBeNull();
            const slow = slowPage(snap, q, p.key, p.numHits, p.after);
            expect(page!.totalHits).toBe(slow.totalHits);
            const view = (h: (typeof slow.hits)[number]) => [h.globalDoc, h.doc, h.sort];
            const want = slow.hits.slice(skip);
            expect(page!.hits.map(view)).toEqual(want.map(view));
            for (let i = 0; i < want.length; i++)
              expect(page!.hits[i]!.segment).toBe(want[i]!.segment);
          }
        };
        const shard = idx.shards[0]!;
        check(shard.searcher());
        // pages again on the same snapshot: read from the order kept by the first ones
        check(shard.searcher());
        for (const d of c.laterDeletes) if (d <= c.docs.length) shard.delete(String(d));
        shard.refresh();
        check(shard.searcher());
      }),
      { numRuns: 300 },
    );
  });

  it('reads a deep page of a dense match_all from its rank, across many segments', () => {
    const docs = Array.from({ length: 3000 }, (_, i) => ({ v: (i * 7919) % 501 }));
    const idx = buildIndex({ v: 'long' }, docs, { refreshEvery: 97 });
    const snap = idx.shards[0]!.searcher();
    expect(snap.segments.length).toBeGreaterThan(2);
    const q = compileTestQuery(idx, { match_all: {} });
    const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
    for (const order of ['asc', 'desc'] as const) {
      const key: SortKey = {
        kind: 'field',
        field: 'v',
        order,
        missing: '_last',
        mode: null,
        valueType: 'long',
      };
      const all = slowPage(snap, q, key, 3000).hits.map((h) => [h.globalDoc, h.sort![0]]);
      for (const from of [2990, 0, 1500, 10, 2999]) {
        const page = sortedPage(snap, q, weight, key, from + 10, from)!;
        expect(page.totalHits).toBe(3000);
        expect(page.hits.map((h) => [h.globalDoc, h.sort![0]])).toEqual(all.slice(from, from + 10));
      }
    }
  });
  it('falls back to a merge of its own when the matches lie past the kept bound', () => {
    // the matches are the last 50 docs of the ascending order: expected within the bound
    // (10 × 200 docs / 50 matches = 40 visits), found only past it
    const docs = Array.from({ length: 200 }, (_, i) => ({ v: i, s: i >= 150 ? 'x' : 'y' }));
    const idx = buildIndex({ v: 'long', s: 'keyword' }, docs, { refreshEvery: 30 });
    const snap = idx.shards[0]!.searcher();
    const q = compileTestQuery(idx, { term: { s: 'x' } });
    const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
    const key: SortKey = {
      kind: 'field',
      field: 'v',
      order: 'asc',
      missing: '_last',
      mode: null,
      valueType: 'long',
    };
    for (const maxMerged of [100, 0, undefined]) {
      const page = sortedPage(snap, q, weight, key, 12, 2, Infinity, null, { maxMerged })!;
      expect(page.totalHits).toBe(50);
      expect(page.hits.map((h) => h.sort![0])).toEqual([
        152, 153, 154, 155, 156, 157, 158, 159, 160, 161,
      ]);
    }
  });
});
