/**
 * The search timeout's checks (deadline.ts) with an injected clock, so that nothing is timed:
 * a deadline passes at a chosen clock read, and each collector then returns exactly the docs it
 * collected before that check (the total and the aggregations covering the same docs), the
 * same answer as without a deadline when it never passes, and multi-term expansions stop.
 */
import { describe, expect, it } from 'vitest';
import {
  createShardAggregator,
  parseAggregations,
  reduceAggregations,
} from '../../../src/dsl/aggs/index.js';
import {
  collectByNumericField,
  collectCountAndAggs,
} from '../../../src/dsl/search/fast-collect.js';
import {
  CHECK_INTERVAL,
  Deadline,
  isTimeExceeded,
  type Clock,
} from '../../../src/search/deadline.js';
import { sortedPage } from '../../../src/search/collect/sort-page.js';
import type { SortKey } from '../../../src/search/collect/sort.js';
import { collectTopDocs, countDocs } from '../../../src/search/collect/top-docs.js';
import type { Query } from '../../../src/search/query/query.js';
import { shardStats } from '../../../src/search/query/stats.js';
import { createWeight } from '../../../src/search/query/weights.js';
import {
  buildIndex,
  compileTestQuery,
  json,
  shardContext,
  type TestIndex,
} from '../dsl/aggs/helpers/shards.js';
import { collectOptions } from '../../helpers/collect-options.js';

/** A clock that reads 0 for its first `reads` reads and 1 after: a Deadline at 0 passes then. */
function clockPassingAfter(reads: number): Clock & { reads: number } {
  const c = Object.assign(() => (c.reads++ < reads ? 0 : 1), { reads: 0 });
  return c;
}

const deadlineAfter = (reads: number) => new Deadline(0, clockPassingAfter(reads));
const never = () => new Deadline(0, () => 0);

const N = 3 * CHECK_INTERVAL + 100;
const docs = Array.from({ length: N }, (_, i) => ({
  v: (i * 7919) % 1000,
  k: `k${i % 5}`,
  c: 'all',
  i,
}));

function index(refreshEvery?: number): TestIndex {
  return buildIndex(
    { v: 'long', k: 'keyword', c: 'keyword', i: 'long' },
    docs,
    refreshEvery ? { refreshEvery } : {},
  );
}

const collect = collectOptions;

describe('Deadline', () => {
  it('passes when the clock reads more than its time, and stays passed', () => {
    let now = 10;
    const d = Deadline.after(5, () => now);
    expect(d.at).toBe(15);
    now = 15;
    d.check();
    expect(d.failedChecks).toBe(0);
    now = 15.001;
    expect(() => d.check()).toThrow();
    now = 0;
    let thrown: unknown;
    try {
      d.check();
    } catch (e) {
      thrown = e;
    }
    expect(isTimeExceeded(thrown)).toBe(true);
    expect(d.failedChecks).toBe(2);
    expect(isTimeExceeded(new Error('Time exceeded'))).toBe(false);
  });
});

describe('collectors under a deadline', () => {
  const idx = index();
  const snap = idx.shards[0]!.searcher();
  const stats = shardStats(snap);
  const all = compileTestQuery(idx, { match_all: {} });

  it('the general collector stops before the doc of the failed check', () => {
    const w = createWeight(all, { stats, needsScores: true });
    let matched = 0;
    // read 1: before the segment, read 2: at doc CHECK_INTERVAL (the 2048th)
    const dl = deadlineAfter(1);
    const top = collectTopDocs(snap, w, collect(10, { onMatch: () => matched++, deadline: dl }));
    expect(top.totalHits).toBe(CHECK_INTERVAL - 1);
    expect(matched).toBe(CHECK_INTERVAL - 1);
    expect(top.hits.map((h) => h.globalDoc)).toEqual([...Array(10).keys()]);
    expect(dl.failedChecks).toBe(1);
    const none = collectTopDocs(snap, w, collect(10, { deadline: deadlineAfter(0) }));
    expect(none).toMatchObject({ totalHits: 0, hits: [] });
  });

  it('a deadline that never passes changes nothing', () => {
    const w = createWeight(all, { stats, needsScores: true });
    const sort: SortKey[] = [
      { kind: 'field', field: 'v', order: 'desc', missing: '_last', mode: null, valueType: 'long' },
    ];
    for (const o of [
      collect(25),
      collect(25, { sort }),
      collect(0),
      collect(7, { terminateAfter: 9 }),
    ]) {
      const plain = collectTopDocs(snap, w, o);
      const dl = never();
      expect(collectTopDocs(snap, w, { ...o, deadline: dl })).toEqual(plain);
      expect(dl.failedChecks).toBe(0);
    }
    expect(countDocs(snap, w, never())).toBe(countDocs(snap, w));
  });

  it('the score collector keeps the best hits of the batches it saw', () => {
    const q: Query = { kind: 'Term', field: 'c', term: 'all', boost: 1 };
    const w = createWeight(q, { stats, needsScores: true });
    expect(collectTopDocs(snap, w, collect(5)).totalHits).toBe(N);
    // reads: before the segment, then one per batch of bulk scoring (2048 postings)
    const part = collectTopDocs(snap, w, collect(5, { deadline: deadlineAfter(2) }));
    expect(part.totalHits).toBe(CHECK_INTERVAL);
    expect(part.hits.every((h) => h.globalDoc < CHECK_INTERVAL)).toBe(true);
    expect(part.hits.length).toBe(5);
  });

  it('counting stops at the failed check', () => {
    // boosting has no cheap count: counted doc by doc
    const q: Query = {
      kind: 'Boosting',
      positive: all,
      negative: { kind: 'Term', field: 'k', term: 'k1', boost: 1 },
      negativeBoost: 0.5,
      boost: 1,
    };
    const w = createWeight(q, { stats, needsScores: false });
    expect(countDocs(snap, w)).toBe(N);
    const dl = deadlineAfter(2);
    expect(countDocs(snap, w, dl)).toBe(2 * CHECK_INTERVAL - 1);
    expect(dl.failedChecks).toBe(1);
  });

  it('size 0: the total and the aggregations cover the same docs', () => {
    const nodes = parseAggregations({ n: { value_count: { field: 'i' } } }, { warnings: [] });
    for (const q of [
      all,
      compileTestQuery(idx, { bool: { should: [{ term: { k: 'k1' } }, { term: { k: 'k2' } }] } }),
    ]) {
      for (const reads of [0, 1, 2, 3]) {
        const agg = createShardAggregator(nodes, shardContext(idx, 0));
        const w = createWeight(q, { stats, needsScores: false });
        const top = collectCountAndAggs(snap, q, w, agg, deadlineAfter(reads));
        const out = json(
          reduceAggregations(nodes, [agg.finish()], { maxBuckets: -1, warnings: [] }),
        ) as {
          n: { value: number };
        };
        expect(out.n.value).toBe(top.totalHits);
      }
    }
  });

  it('a global aggregation stops at the failed check', () => {
    const nodes = parseAggregations({ g: { global: {} } }, { warnings: [] });
    const count = (dl: Deadline) => {
      const agg = createShardAggregator(nodes, { ...shardContext(idx, 0), deadline: dl });
      const out = json(
        reduceAggregations(nodes, [agg.finish()], { maxBuckets: -1, warnings: [] }),
      ) as { g: { doc_count: number } };
      return out.g.doc_count;
    };
    expect(count(never())).toBe(N);
    expect(count(deadlineAfter(1))).toBe(CHECK_INTERVAL - 1);
  });

  it('sorted paths return the first ranks they reached', () => {
    const key: SortKey = {
      kind: 'field',
      field: 'i',
      order: 'asc',
      missing: '_last',
      mode: null,
      valueType: 'long',
    };
    const w = createWeight(all, { stats, needsScores: false });
    const page = sortedPage(snap, all, w, key, 3 * CHECK_INTERVAL, 0, undefined, deadlineAfter(1))!;
    // reads: one per segment, then the walk's first check at rank CHECK_INTERVAL - 1
    expect(page.hits.map((h) => h.sort![0])).toEqual([...Array(CHECK_INTERVAL - 1).keys()]);
    const heap = collectByNumericField(snap, all, w, key, 10, Infinity, deadlineAfter(0))!;
    expect(heap.hits).toEqual([]);
    const whole = collectByNumericField(snap, all, w, key, 10, Infinity, never())!;
    expect(whole.hits.map((h) => h.sort![0])).toEqual([...Array(10).keys()]);
  });
});

describe('multi-term expansion under a deadline', () => {
  // more distinct terms than one expansion check covers
  const terms = Array.from({ length: 3000 }, (_, i) => ({ k: `t${String(i).padStart(4, '0')}` }));
  const idx = buildIndex({ k: 'keyword' }, terms);
  const snap = idx.shards[0]!.searcher();
  const stats = shardStats(snap);
  const wildcard: Query = {
    kind: 'MultiTerm',
    field: 'k',
    matcher: { prefix: 't', test: (t) => t.endsWith('7') },
    boost: 1,
    describe: 'k:t*7',
  };
  const fuzzy: Query = {
    kind: 'Fuzzy',
    field: 'k',
    term: 't0007',
    maxEdits: 2,
    prefixLength: 0,
    maxExpansions: 50,
    transpositions: true,
    boost: 1,
  };

  it('stops enumerating terms at the failed check', () => {
    const w = createWeight(wildcard, { stats, needsScores: false, deadline: deadlineAfter(0) });
    expect(() => w.scorer(snap.segments[0]!)).toThrow('Time exceeded');
    const ok = createWeight(wildcard, { stats, needsScores: false, deadline: never() });
    expect(countDocs(snap, ok)).toBe(300);
    const rewritten: Query = {
      ...wildcard,
      rewrite: { method: 'scoring_boolean', maxClauseCount: 1024 },
    } as Query;
    expect(() =>
      createWeight(rewritten, { stats, needsScores: true, deadline: deadlineAfter(0) }),
    ).toThrow('Time exceeded');
  });

  it('stops fuzzy expansion at the failed check', () => {
    expect(() =>
      createWeight(fuzzy, { stats, needsScores: true, deadline: deadlineAfter(0) }),
    ).toThrow('Time exceeded');
    const ok = createWeight(fuzzy, { stats, needsScores: true, deadline: never() });
    expect(countDocs(snap, ok)).toBe(
      countDocs(snap, createWeight(fuzzy, { stats, needsScores: true })),
    );
  });
});
