/**
 * The sorted page read from the segments' cached sort orders (sortedPage) equals the general
 * top-docs collector: same total, same hits (doc ids, segments, sort values) from rank `skip`
 * on, over random multi-valued docs, several segments, deletions, missing values, sort modes and
 * filter-shaped queries; and the per-doc tests (docTest) agree with the queries' Scorers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_DOCS, docTest } from '../../../../src/search/collect/doc-tests.js';
import { sortedPage } from '../../../../src/search/collect/sort-page.js';
import type { SortKey } from '../../../../src/search/collect/sort.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { NO_MORE_DOCS } from '../../../../src/search/query/scorer.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { buildIndex, compileTestQuery, type TestIndex } from '../../dsl/aggs/helpers/shards.js';

interface Case {
  docs: Array<{ k: string[]; s: string | null; v: number | null; m: number[] }>;
  refreshEvery: number;
  deleteEvery: number;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  docs: fc.array(
    fc.record({
      k: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
      s: fc.option(fc.constantFrom('x', 'y', 'z')),
      // few distinct values: many ties, broken by doc id
      v: fc.option(fc.integer({ min: -6, max: 6 })),
      m: fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 3 }),
    }),
    { minLength: 0, maxLength: 90 },
  ),
  refreshEvery: fc.integer({ min: 1, max: 40 }),
  deleteEvery: fc.integer({ min: 0, max: 5 }),
});

function build(c: Case): TestIndex {
  const deletes: string[] = [];
  if (c.deleteEvery > 0)
    for (let i = 0; i < c.docs.length; i += c.deleteEvery) deletes.push(String(i + 1));
  return buildIndex(
    { k: 'keyword', s: 'keyword', v: 'long', m: 'long' },
    c.docs.map((d) => ({
      ...(d.k.length ? { k: d.k } : {}),
      ...(d.s !== null ? { s: d.s } : {}),
      ...(d.v !== null ? { v: d.v } : {}),
      ...(d.m.length ? { m: d.m } : {}),
    })),
    { refreshEvery: c.refreshEvery, deletes },
  );
}

const rangeArb = (field: string) =>
  fc
    .tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 25 }), fc.boolean())
    .map(([lo, w, strict]) => ({
      range: { [field]: strict ? { gt: lo, lt: lo + w } : { gte: lo, lte: lo + w } },
    }));

const leafArb = fc.oneof(
  fc.constant<unknown>({ match_all: {} }),
  fc.constantFrom('x', 'y', 'q').map((t) => ({ term: { s: t } })),
  fc.constantFrom('a', 'b').map((t) => ({ term: { k: t } })),
  fc.constantFrom(-1, 0, 3).map((t) => ({ term: { v: t } })),
  rangeArb('v'),
  rangeArb('m'),
  // `_field_names` has no doc values: its doc set becomes a bitset
  fc.constantFrom('v', 'm', 'k').map((f) => ({ exists: { field: f } })),
);

const queryArb = fc.oneof(
  leafArb,
  fc.tuple(leafArb, leafArb, fc.option(leafArb)).map(([a, b, not]) => ({
    bool: { filter: [a], must: [b], ...(not ? { must_not: not } : {}) },
  })),
  leafArb.map((f) => ({ constant_score: { filter: f } })),
);

const sortKeyArb: fc.Arbitrary<SortKey> = fc.record({
  kind: fc.constant<'field'>('field'),
  field: fc.constantFrom('v', 'm', 'absent'),
  order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  missing: fc.oneof(
    fc.constantFrom<'_last' | '_first'>('_last', '_first'),
    fc.integer({ min: -5, max: 5 }),
  ),
  mode: fc.constantFrom<SortKey['mode']>(null, 'min', 'max', 'sum', 'avg', 'median'),
  valueType: fc.constantFrom<'long' | 'double'>('long', 'double'),
});

describe('sortedPage', () => {
  it('equals the general collector from rank skip on (total, hits, sort values)', () => {
    fc.assert(
      fc.property(
        caseArb,
        queryArb,
        sortKeyArb,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 45 }),
        (c, query, key, numHits, skip) => {
          const idx = build(c);
          const snap = idx.shards[0]!.searcher();
          const q = compileTestQuery(idx, query);
          const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
          const page = sortedPage(snap, q, weight, key, numHits, skip, Infinity);
          expect(page).not.toBeNull();
          const slow = collectTopDocs(snap, weight, {
            numHits,
            sort: [key],
            trackScores: false,
            needsScores: false,
            minScore: null,
            postFilter: null,
            searchAfter: null,
            terminateAfter: 0,
          });
          expect(page!.totalHits).toBe(slow.totalHits);
          expect(page!.skip).toBe(skip);
          const view = (h: (typeof slow.hits)[number]) => [h.globalDoc, h.doc, h.sort, h.score];
          const want = slow.hits.slice(skip);
          expect(page!.hits.map(view)).toEqual(want.map(view));
          for (let i = 0; i < want.length; i++)
            expect(page!.hits[i]!.segment).toBe(want[i]!.segment);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('skips whole blocks of tied values across many segments exactly (every skip)', () => {
    // values tie across segments: the block to skip is the one whose last doc ranks first
    const docs = Array.from({ length: 240 }, (_, i) => ({ v: (i * 7) % 3 }));
    for (const refreshEvery of [7, 13, 40]) {
      const idx = buildIndex({ v: 'long' }, docs, { refreshEvery });
      const snap = idx.shards[0]!.searcher();
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
        const all = collectTopDocs(snap, weight, {
          numHits: 240,
          sort: [key],
          trackScores: false,
          needsScores: false,
          minScore: null,
          postFilter: null,
          searchAfter: null,
          terminateAfter: 0,
        }).hits.map((h) => h.globalDoc);
        for (let skip = 0; skip < 240; skip += 3) {
          const page = sortedPage(snap, q, weight, key, skip + 5, skip)!;
          expect(page.hits.map((h) => h.globalDoc)).toEqual(all.slice(skip, skip + 5));
        }
      }
    }
  });

  it('declines sparse matches (a scan is cheaper than the walk) and non-filter queries', () => {
    const docs = Array.from({ length: 400 }, (_, i) => ({ v: i, s: i % 100 === 0 ? 'x' : 'y' }));
    const idx = buildIndex({ v: 'long', s: 'keyword' }, docs);
    const snap = idx.shards[0]!.searcher();
    const key: SortKey = {
      kind: 'field',
      field: 'v',
      order: 'desc',
      missing: '_last',
      mode: null,
      valueType: 'long',
    };
    const page = (json: unknown, numHits: number) => {
      const q = compileTestQuery(idx, json);
      const w = createWeight(q, { stats: shardStats(snap), needsScores: false });
      return sortedPage(snap, q, w, key, numHits, 0);
    };
    // 4 matches of 400 docs: the walk would visit ~100 docs per hit
    expect(page({ term: { s: 'x' } }, 4)).toBeNull();
    const dense = page({ term: { s: 'y' } }, 3)!;
    expect(dense.totalHits).toBe(396);
    expect(dense.hits.map((h) => h.sort)).toEqual([[399], [398], [397]]);
    // a disjunction has no per-doc test here
    expect(page({ bool: { should: [{ term: { s: 'x' } }, { term: { s: 'y' } }] } }, 3)).toBeNull();
    // keyword keys are not numeric keys
    const q = compileTestQuery(idx, { match_all: {} });
    const w = createWeight(q, { stats: shardStats(snap), needsScores: false });
    expect(sortedPage(snap, q, w, { ...key, field: 's', valueType: 'string' }, 3, 0)).toBeNull();
  });

  it('returns no hits past the matches and an empty page for no matches', () => {
    const idx = buildIndex({ v: 'long' }, [{ v: 1 }, { v: 3 }, { v: 2 }]);
    const snap = idx.shards[0]!.searcher();
    const key: SortKey = {
      kind: 'field',
      field: 'v',
      order: 'asc',
      missing: '_last',
      mode: null,
      valueType: 'long',
    };
    const run = (json: unknown, numHits: number, skip: number) => {
      const q = compileTestQuery(idx, json);
      const w = createWeight(q, { stats: shardStats(snap), needsScores: false });
      return sortedPage(snap, q, w, key, numHits, skip)!;
    };
    const all = run({ match_all: {} }, 10, 1);
    expect(all.totalHits).toBe(3);
    expect(all.hits.map((h) => [h.globalDoc, h.sort])).toEqual([
      [2, [2]],
      [1, [3]],
    ]);
    expect(run({ match_all: {} }, 10, 5).hits).toEqual([]);
    const none = run({ range: { v: { gt: 10 } } }, 10, 0);
    expect(none.totalHits).toBe(0);
    expect(none.hits).toEqual([]);
  });
});

describe('docTest', () => {
  it('accepts exactly the docs the query Scorer matches (deleted docs included)', () => {
    fc.assert(
      fc.property(caseArb, queryArb, (c, query) => {
        const idx = build(c);
        const snap = idx.shards[0]!.searcher();
        const q = compileTestQuery(idx, query);
        const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
        for (const ls of snap.segments) {
          const want: number[] = [];
          const s = weight.scorer(ls);
          if (s) for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) want.push(d);
          const t = docTest(q, ls);
          expect(t).not.toBeNull();
          const got: number[] = [];
          for (let d = 0; d < ls.segment.maxDoc; d++) if (t === ALL_DOCS || t!(d)) got.push(d);
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
  });
});
