/**
 * The coordinator's k-way merge of shard hits equals sorting every shard's hits together (sort
 * values, then shard index, then doc id; or score), materialises only the ranks asked for, and
 * reads a single shard's page that leaves out its leading ranks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShardTarget } from '../../../../src/dsl/search/execute.js';
import { hitOrder, mergeShardHits } from '../../../../src/dsl/search/merge-hits.js';
import type { SortKey } from '../../../../src/search/collect/sort.js';
import type { CollectedHit } from '../../../../src/search/collect/top-docs.js';
import type { LiveSegment } from '../../../../src/search/index/live-segment.js';

const KEY: SortKey = {
  kind: 'field',
  field: 'v',
  order: 'desc',
  missing: '_last',
  mode: null,
  valueType: 'long',
};

const segment = {} as LiveSegment;
const target = (i: number) => ({ shardIndex: i }) as ShardTarget;

function hit(doc: number, v: number | null, score: number): CollectedHit {
  return { segment, doc, globalDoc: doc, score, sort: [v] };
}

const shardsArb = fc.array(
  fc.array(
    fc.record({
      v: fc.option(fc.integer({ min: 0, max: 5 })),
      score: fc.integer({ min: 0, max: 4 }),
    }),
    { maxLength: 12 },
  ),
  { minLength: 1, maxLength: 4 },
);

describe('mergeShardHits', () => {
  it('equals a full sort of all shard hits, for any window', () => {
    fc.assert(
      fc.property(
        shardsArb,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        (raw, bySort, presort, from, size) => {
          const keys = bySort ? [KEY] : null;
          const order = hitOrder(keys);
          const shards = raw.map((list, s) => {
            const t = target(s);
            const hits = list.map((x, d) => hit(d, x.v, x.score));
            if (presort) hits.sort((a, b) => order(a, t, b, t));
            return { target: t, hits, hitsFrom: 0 };
          });
          const all = shards.flatMap((s) => s.hits.map((h) => ({ h, t: s.target })));
          all.sort((a, b) => order(a.h, a.t, b.h, b.t));
          const want = all.slice(from, from + size).map(({ h, t }) => [t.shardIndex, h.doc]);
          const got = mergeShardHits(shards, keys, from, from + size);
          expect(got.map((h) => [h.target.shardIndex, h.doc])).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads a single shard's page that starts at hitsFrom", () => {
    const t = target(0);
    const hits = [hit(7, 5, 0), hit(2, 4, 0), hit(9, 4, 0)];
    const page = mergeShardHits([{ target: t, hits, hitsFrom: 20 }], [KEY], 21, 23);
    expect(page.map((h) => h.doc)).toEqual([2, 9]);
    expect(page[0]!.target).toBe(t);
    expect(mergeShardHits([{ target: t, hits, hitsFrom: 20 }], [KEY], 30, 40)).toEqual([]);
  });

  it('refuses several shards of which one left out leading ranks', () => {
    const shards = [
      { target: target(0), hits: [hit(1, 1, 0)], hitsFrom: 3 },
      { target: target(1), hits: [hit(1, 1, 0)], hitsFrom: 0 },
    ];
    expect(() => mergeShardHits(shards, [KEY], 0, 10)).toThrow(/leading ranks/);
  });
});
