/**
 * Doc sets read straight from the index (filterDocSet) match exactly the docs the query's Scorer
 * iterates, with deletions applied by forEachDocBatch/liveCount, over random multi-valued docs,
 * several segments and random filter-shaped queries (term, range, match_all, bool, must_not).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  filterDocSet,
  forEachDocBatch,
  liveCount,
} from '../../../../src/search/collect/doc-sets.js';
import type { Query } from '../../../../src/search/query/query.js';
import { NO_MORE_DOCS } from '../../../../src/search/query/scorer.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { buildIndex } from '../../dsl/aggs/helpers/shards.js';

const leafArb: fc.Arbitrary<Query> = fc.oneof(
  fc
    .constantFrom('a', 'b', 'c', 'zz')
    .map((t): Query => ({ kind: 'Term', field: 'k', term: t, boost: 1 })),
  fc
    .record({
      lo: fc.integer({ min: -30, max: 30 }),
      w: fc.integer({ min: 0, max: 40 }),
      il: fc.boolean(),
      ih: fc.boolean(),
    })
    .map((r): Query => ({
      kind: 'NumericRange',
      field: 'v',
      lo: r.lo,
      hi: r.lo + r.w,
      includeLo: r.il,
      includeHi: r.ih,
      boost: 1,
    })),
  fc.constant<Query>({ kind: 'MatchAll', boost: 1 }),
  fc.constant<Query>({ kind: 'MatchNone' }),
  fc.constant<Query>({ kind: 'Term', field: '_field_names', term: 'v', boost: 1 }),
);

const queryArb: fc.Arbitrary<Query> = fc.letrec<{ q: Query }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    tie('q').map((inner): Query => ({ kind: 'ConstantScore', inner, boost: 1 })),
    fc
      .record({
        must: fc.array(tie('q'), { maxLength: 2 }),
        filter: fc.array(tie('q'), { maxLength: 2 }),
        mustNot: fc.array(tie('q'), { maxLength: 2 }),
      })
      .map((b): Query => ({
        kind: 'Bool',
        must: b.must,
        filter: b.filter,
        mustNot: b.mustNot,
        should: [],
        minShouldMatch: 0,
        boost: 1,
      })),
  ),
})).q;

/** Only a Bool without required (must/filter) clauses, at any depth, falls back to the Scorer. */
function readable(q: Query): boolean {
  if (q.kind === 'ConstantScore') return readable(q.inner);
  if (q.kind !== 'Bool') return true;
  const req = [...q.must, ...q.filter];
  return req.length > 0 && req.every(readable) && q.mustNot.every(readable);
}

const docArb = fc.record({
  k: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 2 }),
  v: fc.array(fc.integer({ min: -40, max: 40 }), { maxLength: 3 }),
});

describe('filterDocSet', () => {
  it('iterates the same live docs as the Scorer', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 5 }),
        queryArb,
        fc.integer({ min: 1, max: 7 }),
        (docs, refreshEvery, deleteEvery, q, batchSize) => {
          const deletes: string[] = [];
          if (deleteEvery > 0)
            for (let i = 0; i < docs.length; i += deleteEvery) deletes.push(String(i + 1));
          const idx = buildIndex(
            { k: 'keyword', v: 'long' },
            docs.map((d) => ({
              ...(d.k.length ? { k: d.k } : {}),
              ...(d.v.length ? { v: d.v } : {}),
            })),
            { refreshEvery, deletes },
          );
          const snap = idx.shards[0]!.searcher();
          const w = createWeight(q, { stats: shardStats(snap), needsScores: false });
          let checked = 0;
          for (const ls of snap.segments) {
            const set = filterDocSet(q, ls);
            if (!set) continue;
            checked++;
            const want: number[] = [];
            const s = w.scorer(ls);
            if (s)
              for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next())
                if (ls.live === null || ls.live.get(d)) want.push(d);
            const got: number[] = [];
            const n = forEachDocBatch(set, ls.live, new Int32Array(batchSize), (b, m) => {
              expect(m).toBeLessThanOrEqual(batchSize);
              for (let i = 0; i < m; i++) got.push(b[i]!);
            });
            expect(got).toEqual(want);
            expect(n).toBe(want.length);
            expect(liveCount(set, ls.live)).toBe(want.length);
          }
          expect(checked).toBe(readable(q) ? snap.segments.length : 0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads an exact value of a single-valued field as a view of its points', () => {
    const docs = Array.from({ length: 50 }, (_, i) => ({ v: i % 3 }));
    const idx = buildIndex({ v: 'long' }, [...docs, { v: [1, 1, 2] }, { v: 1 }]);
    const [single, multi] = [buildIndex({ v: 'long' }, docs), idx].map((x) => x.shards[0]!.searcher().segments[0]!); // prettier-ignore
    const q: Query = { kind: 'NumericRange', field: 'v', lo: 1, hi: 1, includeLo: true, includeHi: true, boost: 1 }; // prettier-ignore
    const a = filterDocSet(q, single!)!;
    expect(a.kind).toBe('list');
    const pts = single!.segment.fields.get('v')!.points!;
    expect((a as { docs: Int32Array }).docs.buffer).toBe(pts.docs.buffer);
    expect(Array.from((a as { docs: Int32Array }).docs)).toEqual(docs.map((_, i) => i).filter((i) => i % 3 === 1)); // prettier-ignore
    // a doc repeating the value: still each doc once, in order
    const b = filterDocSet(q, multi!)!;
    const got: number[] = [];
    forEachDocBatch(b, null, new Int32Array(8), (d, m) => got.push(...d.subarray(0, m)));
    expect(got).toEqual([...docs.map((_, i) => i).filter((i) => i % 3 === 1), 50, 51]);
  });

  it('returns null for queries it cannot read as a set', () => {
    const idx = buildIndex({ k: 'keyword' }, [{ k: 'a' }]);
    const ls = idx.shards[0]!.searcher().segments[0]!;
    const should: Query = {
      kind: 'Bool',
      must: [],
      filter: [],
      mustNot: [],
      should: [{ kind: 'Term', field: 'k', term: 'a', boost: 1 }],
      minShouldMatch: 1,
      boost: 1,
    };
    expect(filterDocSet(should, ls)).toBeNull();
    expect(filterDocSet({ kind: 'Ids', ids: ['1'], boost: 1 }, ls)).toBeNull();
  });
});
