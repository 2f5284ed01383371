/**
 * The size-0 collector (collectCountAndAggs: doc sets in batches, root fast paths of terms and
 * fused exact sums) gives the same total and the same aggregations as the general top-docs
 * collector, and the root fast paths give the same buckets as the general (nested) collection.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createShardAggregator,
  parseAggregations,
  reduceAggregations,
  type ShardAggResult,
} from '../../../../src/dsl/aggs/index.js';
import {
  collectByNumericField,
  collectCountAndAggs,
} from '../../../../src/dsl/search/fast-collect.js';
import type { SortKey } from '../../../../src/search/collect/sort.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import {
  buildIndex,
  compileTestQuery,
  json,
  shardContext,
  type TestIndex,
} from '../aggs/helpers/shards.js';

function run(idx: TestIndex, aggsJson: unknown, query: unknown, fast: boolean) {
  const nodes = parseAggregations(aggsJson, { warnings: [] });
  let total = 0;
  const results: ShardAggResult[] = idx.shards.map((shard, s) => {
    const agg = createShardAggregator(nodes, shardContext(idx, s));
    const snap = shard.searcher();
    const q = compileTestQuery(idx, query);
    const weight = createWeight(q, { stats: shardStats(snap), needsScores: agg.needsScores });
    const top = fast
      ? collectCountAndAggs(snap, q, weight, agg)
      : collectTopDocs(snap, weight, {
          numHits: 0,
          sort: null,
          trackScores: false,
          needsScores: agg.needsScores,
          minScore: null,
          postFilter: null,
          searchAfter: null,
          terminateAfter: 0,
          onSegment: (ls, si) => agg.onSegment(ls, si),
          onMatch: (_ls, _si, d, sc) => agg.collect(d, agg.needsScores ? sc.score() : NaN),
        });
    total += top.totalHits;
    return agg.finish();
  });
  const aggs = reduceAggregations(nodes, results, { maxBuckets: -1, warnings: [] });
  return { total, aggs: json(aggs) as Record<string, unknown> };
}

const valueArb = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  // large integers: the running bound passes 2^53, plain sums would round, Kahan's do not
  fc.integer({ min: -(2 ** 20), max: 2 ** 20 }).map((x) => 2 ** 52 + x * 2047 + 1),
  fc.integer({ min: -400, max: 400 }).map((x) => x / 8 + 0.1),
);

interface Case {
  docs: Array<{ k: string[]; s: string | null; v: number | null; m: number[] }>;
  shards: number;
  refreshEvery: number;
  deleteEvery: number;
  fractions: boolean;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  docs: fc.array(
    fc.record({
      k: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 2 }),
      s: fc.option(fc.constantFrom('x', 'y', 'z', 'w')),
      v: fc.option(valueArb),
      m: fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 80 },
  ),
  shards: fc.integer({ min: 1, max: 2 }),
  refreshEvery: fc.integer({ min: 1, max: 30 }),
  deleteEvery: fc.integer({ min: 0, max: 6 }),
  fractions: fc.boolean(),
});

function build(c: Case): TestIndex {
  const deletes: string[] = [];
  if (c.deleteEvery > 0)
    for (let i = 0; i < c.docs.length; i += c.deleteEvery) deletes.push(String(i + 1));
  return buildIndex(
    { k: 'keyword', s: 'keyword', v: c.fractions ? 'double' : 'long', m: 'long' },
    c.docs.map((d) => ({
      ...(d.k.length ? { k: d.k } : {}),
      ...(d.s !== null ? { s: d.s } : {}),
      ...(d.v !== null ? { v: c.fractions ? d.v : Math.trunc(d.v) } : {}),
      ...(d.m.length ? { m: d.m } : {}),
    })),
    { shards: c.shards, refreshEvery: c.refreshEvery, deletes },
  );
}

const queryArb = fc.oneof(
  fc.constant<unknown>({ match_all: {} }),
  fc.constantFrom('x', 'y', 'q').map((t) => ({ term: { s: t } })),
  fc
    .tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 20 }))
    .map(([lo, w]) => ({ range: { m: { gte: lo, lte: lo + w } } })),
  fc.constantFrom('a', 'b').map((t) => ({
    bool: { filter: [{ term: { k: t } }], must_not: [{ term: { s: 'x' } }] },
  })),
  // not a doc set: iterated through the Scorer
  fc.constant<unknown>({ bool: { should: [{ term: { k: 'a' } }, { term: { s: 'y' } }] } }),
);

const AGGS = {
  s_avg: { terms: { field: 's', size: 10 }, aggs: { a: { avg: { field: 'v' } } } },
  s_sum: { terms: { field: 's', size: 2, shard_size: 2 }, aggs: { a: { sum: { field: 'v' } } } },
  s_count: { terms: { field: 's', size: 3 } },
  s_excl: {
    terms: { field: 's', size: 10, exclude: ['y'] },
    aggs: { a: { avg: { field: 'v' } } },
  },
  k_count: { terms: { field: 'k', size: 10 } },
  k_avg: { terms: { field: 'k', size: 10 }, aggs: { a: { avg: { field: 'v' } } } },
  avg: { avg: { field: 'v' } },
  ranges: {
    range: { field: 'v', ranges: [{ to: 0 }, { from: 0, to: 100 }, { from: 50 }] },
  },
};

describe('size 0 collection', () => {
  it('equals the general collector (total and aggregations)', () => {
    fc.assert(
      fc.property(caseArb, queryArb, (c, query) => {
        const idx = build(c);
        const fast = run(idx, AGGS, query, true);
        const slow = run(idx, AGGS, query, false);
        expect(fast.total).toBe(slow.total);
        expect(fast.aggs).toEqual(slow.aggs);
        const count = run(idx, {}, query, true);
        expect(count.total).toBe(slow.total);
      }),
      { numRuns: 150 },
    );
  });

  it('without aggregations, counts through the weights as the general collector counts', () => {
    // no aggregator at all: the per-segment counts of the weights (postings, points)
    const numeric = fc.oneof(
      queryArb,
      fc.integer({ min: -20, max: 20 }).map((t) => ({ term: { m: t } })),
      fc.integer({ min: -20, max: 20 }).map((t) => ({ terms: { m: [t, t + 1] } })),
    );
    fc.assert(
      fc.property(caseArb, numeric, (c, query) => {
        const idx = build(c);
        const slow = run(idx, {}, query, false);
        let total = 0;
        for (const shard of idx.shards) {
          const snap = shard.searcher();
          const q = compileTestQuery(idx, query);
          const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
          total += collectCountAndAggs(snap, q, weight, null).totalHits;
        }
        expect(total).toBe(slow.total);
      }),
      { numRuns: 150 },
    );
  });

  it('root collection (terms fast paths) equals the nested (general) collection', () => {
    fc.assert(
      fc.property(caseArb, queryArb, (c, query) => {
        const idx = build(c);
        const { s_avg, s_sum, s_count, s_excl, k_avg, ranges } = AGGS;
        const disjoint = {
          range: { field: 'v', ranges: [{ to: -5 }, { from: 0, to: 100 }, { from: 100 }] },
        };
        const inner = { s_avg, s_sum, s_count, s_excl, k_avg, ranges, disjoint };
        const r = run(
          idx,
          { ...inner, nested: { filter: { match_all: {} }, aggs: inner } },
          query,
          true,
        ).aggs;
        const nested = r.nested as Record<string, unknown>;
        for (const name of Object.keys(inner)) expect(r[name]).toEqual(nested[name]);
      }),
      { numRuns: 150 },
    );
  });
});

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

describe('sorted by one numeric field', () => {
  it('equals the general collector (hits, sort values, total)', () => {
    fc.assert(
      fc.property(
        caseArb,
        queryArb,
        sortKeyArb,
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(0, 1_000_000),
        (c, query, key, numHits, orderMinDocs) => {
          const idx = build(c);
          for (const shard of idx.shards) {
            const snap = shard.searcher();
            const q = compileTestQuery(idx, query);
            const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
            const fast = collectByNumericField(snap, q, weight, key, numHits, orderMinDocs)!;
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
            expect(fast.totalHits).toBe(slow.totalHits);
            const view = (h: (typeof slow.hits)[number]) => [h.globalDoc, h.doc, h.sort, h.score];
            expect(fast.hits.map(view)).toEqual(slow.hits.map(view));
            for (let i = 0; i < fast.hits.length; i++)
              expect(fast.hits[i]!.segment).toBe(slow.hits[i]!.segment);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes numHits as large as scrolls ask for (queue grows with its entries)', () => {
    const key: SortKey = {
      kind: 'field',
      field: 'v',
      order: 'desc',
      missing: '_last',
      mode: null,
      valueType: 'long',
    };
    const docs = Array.from({ length: 700 }, (_, i) => ({ v: (i * 37) % 101 }));
    for (const d of [[], docs]) {
      const idx = buildIndex({ v: 'long' }, d, { refreshEvery: 300 });
      const snap = idx.shards[0]!.searcher();
      const q = compileTestQuery(idx, { match_all: {} });
      const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
      const r = collectByNumericField(snap, q, weight, key, Number.MAX_SAFE_INTEGER)!;
      expect(r.totalHits).toBe(d.length);
      const want = d
        .map((x, i) => [x.v, i] as const)
        .sort((a, b) => b[0] - a[0] || a[1] - b[1])
        .map(([v, i]) => [i, v]);
      expect(r.hits.map((h) => [h.globalDoc, h.sort![0]])).toEqual(want);
    }
  });

  it('does not apply to keyword keys', () => {
    const idx = buildIndex({ s: 'keyword' }, [{ s: 'a' }]);
    const snap = idx.shards[0]!.searcher();
    const q = compileTestQuery(idx, { match_all: {} });
    const weight = createWeight(q, { stats: shardStats(snap), needsScores: false });
    const key: SortKey = {
      kind: 'field',
      field: 's',
      order: 'asc',
      missing: '_last',
      mode: null,
      valueType: 'string',
    };
    expect(collectByNumericField(snap, q, weight, key, 10)).toBeNull();
  });
});
