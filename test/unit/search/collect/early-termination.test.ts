/**
 * With an index sort the collector may stop each segment after `numHits` hits when the search
 * sorts like the index: the hits are those of a full collection.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortsLikeIndex, type SortKey } from '../../../../src/search/collect/sort.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import type { IndexSort } from '../../../../src/search/index/index-sort.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { matchAll } from '../../../../src/search/query/query.js';
import { collectOptions } from '../../../helpers/collect-options.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const n = field('n', 'long');
const key = (o: Partial<SortKey> = {}): SortKey => ({
  kind: 'field',
  field: 'n',
  order: 'desc',
  missing: '_last',
  mode: null,
  valueType: 'long',
  ...o,
});
const sort: IndexSort = [{ field: 'n', reverse: true, mode: 'max', missingFirst: false }];

describe('early termination on a sorted index', () => {
  it('applies only to a prefix of the index sort', () => {
    expect(sortsLikeIndex([key()], sort)).toBe(true);
    expect(sortsLikeIndex([key({ order: 'asc' })], sort)).toBe(false);
    expect(sortsLikeIndex([key({ mode: 'min' })], sort)).toBe(false);
    expect(sortsLikeIndex([key({ missing: '_first' })], sort)).toBe(false);
    expect(sortsLikeIndex([key(), key({ field: 'x' })], sort)).toBe(false);
    expect(sortsLikeIndex([key()], null)).toBe(false);
  });

  it('collects the same hits as a full pass', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 20 })), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 15 }),
        (values, every, size) => {
          const si = new ShardIndex(standardResolver, sort);
          values.forEach((v, i) => {
            si.add(`d${i}`, doc(v === null ? [] : [[n, v]]), i, 1);
            if (i % every === every - 1) si.refresh();
          });
          si.refresh();
          const snap = si.searcher();
          const w = createWeight(matchAll(), { stats: shardStats(snap), needsScores: false });
          const opts = collectOptions(size, { sort: [key()], needsScores: false });
          const full = collectTopDocs(snap, w, opts);
          const early = collectTopDocs(snap, w, { ...opts, earlyTerminate: true });
          const ids = (r: typeof full) => r.hits.map((h) => h.segment.segment.ids[h.doc]);
          expect(ids(early)).toEqual(ids(full));
          expect(early.totalHits).toBeLessThanOrEqual(
            Math.min(values.length, size * snap.segments.length),
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});
