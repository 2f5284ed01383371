/**
 * Parallel size-0 aggregations (parallel-aggs.ts) against the serial collector (fast-collect.ts):
 * the same aggregations over the same random multi-segment shards with deletions, through both
 * paths, must give exactly the same total and the same reduced JSON; shapes the parallel path
 * does not support (fractional sums, min, sub-aggregations of ranges, non-filter queries) must
 * leave it (null) so the serial path runs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createShardAggregator,
  parseAggregations,
  reduceAggregations,
} from '../../../../src/dsl/aggs/index.js';
import { collectCountAndAggs } from '../../../../src/dsl/search/fast-collect.js';
import { parallelCountAndAggs } from '../../../../src/dsl/search/parallel-aggs.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { matchAll } from '../../../../src/search/query/query.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { Deadline } from '../../../../src/search/deadline.js';
import {
  configureSearchWorkers,
  parallelMinDocs,
  searchJobStats,
  searchWorkerCount,
  searchWorkersReady,
  setSearchWorkersOnly,
} from '../../../../src/search/parallel/search-pool.js';
import { buildIndex, compileTestQuery, json, shardContext, type TestIndex } from '../aggs/helpers/shards.js'; // prettier-ignore

beforeAll(async () => {
  configureSearchWorkers(1, 0);
  await searchWorkersReady(1);
}, 120_000);
afterAll(() => configureSearchWorkers(0));

const MAPPING = { country: 'keyword', size: 'long', frac: 'double', status: 'keyword', code: 'integer' } as const; // prettier-ignore

/** Both paths over shard 0; `par` is null when the parallel path declined. */
function both(index: TestIndex, aggs: unknown, query?: unknown) {
  const run = (parallel: boolean) => {
    const warnings: string[] = [];
    const nodes = parseAggregations(aggs, { warnings });
    const agg = createShardAggregator(nodes, shardContext(index, 0, { warnings }));
    const snap = index.shards[0]!.searcher();
    const q = query ? compileTestQuery(index, query) : matchAll();
    const top = parallel
      ? parallelCountAndAggs(snap, q, agg)
      : collectCountAndAggs(snap, q, createWeight(q, { stats: shardStats(snap), needsScores: false }), agg); // prettier-ignore
    if (!top) return null;
    const r = agg.finish();
    const out = reduceAggregations(nodes, [r], { maxBuckets: -1, warnings, shardOrder: () => 0 });
    return { total: top.totalHits, aggs: json(out) };
  };
  return { ser: run(false)!, par: run(true) };
}

const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'CN', 'BR', 'IN'];

const docsArb = fc.array(
  fc.record({
    country: fc.option(fc.constantFrom(...COUNTRIES), { nil: undefined }),
    size: fc.option(fc.oneof(fc.integer({ min: -5, max: 2_000_000 }), fc.constant(0)), { nil: undefined }), // prettier-ignore
    frac: fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: undefined }),
    status: fc.constantFrom('200', '304', '404'),
    code: fc.integer({ min: 1, max: 3 }),
  }),
  { minLength: 1, maxLength: 400 },
);

const shapeArb = fc.record({
  docs: docsArb,
  refreshEvery: fc.integer({ min: 1, max: 150 }),
  deleteEvery: fc.integer({ min: 0, max: 5 }),
  size: fc.integer({ min: 1, max: 10 }),
  sub: fc.constantFrom('none', 'avg', 'sum'),
  query: fc.constantFrom<unknown>(
    undefined,
    { term: { status: '200' } },
    { term: { status: '404' } },
    { term: { code: 2 } },
    { range: { code: { gte: 2 } } },
    { bool: { filter: [{ term: { status: '200' } }, { term: { country: 'US' } }] } },
    { bool: { filter: [{ term: { status: '304' } }, { term: { country: 'DE' } }] } },
  ),
  ranges: fc.constantFrom(
    [{ to: 1000 }, { from: 1000, to: 10000 }, { from: 10000, to: 100000 }, { from: 100000 }],
    [{ from: 0, to: 50 }, { from: 500 }],
  ),
});

function indexOf(docs: Array<Record<string, unknown>>, refreshEvery: number, deleteEvery: number) {
  const deletes = deleteEvery === 0 ? [] : docs.map((_, i) => String(i)).filter((_, i) => i % deleteEvery === 1); // prettier-ignore
  return buildIndex(MAPPING, docs, { refreshEvery, deletes });
}

describe('parallel aggregations', () => {
  it.each([
    ['the main thread and the worker', false],
    ['the worker alone', true],
  ])('terms (+avg/sum) and range match the serial path exactly (tasks run by %s)', (_, only) => {
    const before = searchJobStats();
    setSearchWorkersOnly(only);
    try {
      fc.assert(
        fc.property(shapeArb, (s) => {
          const index = indexOf(s.docs, s.refreshEvery, s.deleteEvery);
          const terms = {
            by_country: {
              terms: { field: 'country', size: s.size },
              ...(s.sub === 'none' ? {} : { aggs: { m: { [s.sub]: { field: 'size' } } } }),
            },
            sizes: { range: { field: 'size', ranges: s.ranges } },
          };
          const { ser, par } = both(index, terms, s.query);
          // a multi-value range may come as a bitset, which stays serial
          if (!JSON.stringify(s.query ?? '').includes('range')) expect(par).not.toBeNull();
          if (par === null) return;
          expect(par).toEqual(ser);
          expect(JSON.stringify(par!.aggs)).toBe(JSON.stringify(ser.aggs));
        }),
        { numRuns: 60 },
      );
    } finally {
      setSearchWorkersOnly(false);
    }
    // jobs ran; with the worker alone, it ran every task (none ran or was redone here)
    const after = searchJobStats();
    expect(after.tasks).toBeGreaterThan(before.tasks);
    if (only) expect(after.mainTasks).toBe(before.mainTasks);
    if (only) expect(after.local).toBe(before.local);
  });

  it('composite over one keyword (+avg/sum) matches the serial path exactly, page by page', () => {
    fc.assert(
      fc.property(
        shapeArb,
        fc.boolean(),
        fc.constantFrom('asc', 'desc'),
        fc.constantFrom(undefined, 'DE', 'GB', 'ZZ'),
        (s, missingBucket, order, after) => {
          // segments of some size: most have the column even where some docs lack a key
          const index = indexOf(s.docs, 40 + s.refreshEvery, s.deleteEvery);
          const aggs = {
            g: {
              composite: {
                size: s.size,
                sources: [{ c: { terms: { field: 'country', missing_bucket: missingBucket, order } } }], // prettier-ignore
                ...(after === undefined ? {} : { after: { c: after } }),
              },
              ...(s.sub === 'none' ? {} : { aggs: { m: { [s.sub]: { field: 'size' } } } }),
            },
          };
          const { ser, par } = both(index, aggs, s.query);
          // a segment without the column puts every doc in the missing bucket: serial
          const columns = !missingBucket || s.docs.every((d) => d.country !== undefined);
          if (columns && !JSON.stringify(s.query ?? '').includes('range')) expect(par).not.toBeNull(); // prettier-ignore
          if (par === null) return;
          expect(JSON.stringify(par)).toBe(JSON.stringify(ser));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('honours a deadline: whole when in time, cut at a segment when past it', () => {
    const docs = Array.from({ length: 300 }, (_, i) => ({ country: COUNTRIES[i % 5], size: i, status: '200' })); // prettier-ignore
    const index = indexOf(docs, 100, 0);
    const aggs = { g: { composite: { size: 10, sources: [{ c: { terms: { field: 'country', missing_bucket: true } } }] }, aggs: { m: { avg: { field: 'size' } } } } }; // prettier-ignore
    const run = (dl: Deadline) => {
      const nodes = parseAggregations(aggs, { warnings: [] });
      const agg = createShardAggregator(nodes, shardContext(index, 0, {}));
      const top = parallelCountAndAggs(index.shards[0]!.searcher(), matchAll(), agg, dl);
      if (!top) return null;
      const out = json(reduceAggregations(nodes, [agg.finish()], { maxBuckets: -1, warnings: [], shardOrder: () => 0 })) as any; // prettier-ignore
      return { total: top.totalHits, docs: out.g.buckets.reduce((s: number, b: any) => s + b.doc_count, 0) }; // prettier-ignore
    };
    const inTime = new Deadline(Infinity);
    expect(run(inTime)).toEqual({ total: 300, docs: 300 });
    expect(inTime.failedChecks).toBe(0);
    // past the deadline before anything: the serial path takes the search
    expect(run(new Deadline(0, () => 1))).toBeNull();
    // a clock that passes the deadline at the third reading: before the job, segment 0, then out
    let now = 0;
    const late = new Deadline(1.5, () => now++);
    expect(run(late)).toEqual({ total: 100, docs: 100 });
    expect(late.failedChecks).toBeGreaterThan(0);
  });

  it('declines shapes whose partial results would not add up exactly', () => {
    const docs = Array.from({ length: 300 }, (_, i) => ({
      country: COUNTRIES[i % 5],
      size: i * 7,
      frac: i / 3,
      status: i % 3 === 0 ? '200' : '404',
    }));
    const index = indexOf(docs, 70, 4);
    const declined = [
      { t: { terms: { field: 'country' }, aggs: { m: { avg: { field: 'frac' } } } } },
      { t: { terms: { field: 'country' }, aggs: { m: { min: { field: 'size' } } } } },
      { t: { terms: { field: 'country' }, aggs: { a: { avg: { field: 'size' } }, b: { sum: { field: 'size' } } } } }, // prettier-ignore
      { r: { range: { field: 'size', ranges: [{ to: 10 }] }, aggs: { m: { avg: { field: 'size' } } } } }, // prettier-ignore
      { r: { range: { field: 'size', ranges: [{ to: 100 }, { from: 50 }] } } },
      { t: { terms: { field: 'country', missing: 'XX' } } },
      { h: { histogram: { field: 'size', interval: 100 } } },
    ];
    for (const aggs of declined) {
      const { ser, par } = both(index, aggs);
      expect(par).toBeNull();
      expect(ser.total).toBe(225);
    }
    // the same index with a supported shape splits and agrees
    const { ser, par } = both(index, { t: { terms: { field: 'country' }, aggs: { m: { avg: { field: 'size' } } } } }); // prettier-ignore
    expect(par).toEqual(ser);
    expect(ser.total).toBe(225);
  });

  it('sums near 2^53 stay on the serial path', () => {
    const docs = Array.from({ length: 200 }, (_, i) => ({ country: 'US', size: 2 ** 52 + i }));
    const index = indexOf(docs, 50, 0);
    const { par } = both(index, { t: { terms: { field: 'country' }, aggs: { m: { sum: { field: 'size' } } } } }); // prettier-ignore
    expect(par).toBeNull();
  });

  it('stays serial with the pool off or below the shard size threshold', async () => {
    const docs = Array.from({ length: 100 }, (_, i) => ({ country: COUNTRIES[i % 3], size: i }));
    const index = indexOf(docs, 30, 3);
    const aggs = { t: { terms: { field: 'country' }, aggs: { m: { avg: { field: 'size' } } } } };
    try {
      configureSearchWorkers(0);
      expect(both(index, aggs).par).toBeNull();
      configureSearchWorkers(1, 68); // 67 live docs
      await searchWorkersReady(1);
      expect(both(index, aggs).par).toBeNull();
      configureSearchWorkers(1, 67);
      const { ser, par } = both(index, aggs);
      expect(par).toEqual(ser);
      // counting loops need twice the docs
      expect(both(index, { t: { terms: { field: 'country' } } }).par).toBeNull();
    } finally {
      configureSearchWorkers(1, 0);
    }
  });

  it('parses its settings', () => {
    expect(searchWorkerCount('3')).toBe(3);
    expect(searchWorkerCount('0')).toBe(0);
    expect(() => searchWorkerCount('-1')).toThrow(/search.workers/);
    expect(parallelMinDocs(undefined)).toBe(200_000);
    expect(parallelMinDocs('5')).toBe(5);
    expect(() => parallelMinDocs('x')).toThrow(/search.parallel_min_docs/);
  });
});
