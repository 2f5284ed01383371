/**
 * Sliced scrolls (ES SliceBuilder): parsing and its checks, Uid.encodeId bytes, shard-to-slice
 * assignment and the per-document split, which must partition the documents.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import type { Query } from '../../../../src/search/query/query.js';
import { encodeId, parseSlice, sliceFilter } from '../../../../src/dsl/search/slice.js';
import { Bench, chain } from '../query/harness.js';
import { collectOptions } from '../../../helpers/collect-options.js';

const errChain = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
};

describe('parseSlice', () => {
  it('defaults the field to _id', () => {
    expect(parseSlice({ id: 0, max: 2 })).toEqual({ field: '_id', id: 0, max: 2 });
    expect(parseSlice({ field: 'n', max: 3, id: 2 })).toEqual({ field: 'n', id: 2, max: 3 });
  });
  it('checks id and max in field order, wrapped like ObjectParser', () => {
    expect(errChain(() => parseSlice({ id: -1, max: 2 }))).toEqual([
      ['x_content_parse_exception', '[slice] failed to parse field [id]'],
      ['illegal_argument_exception', 'id must be greater than or equal to 0'],
    ]);
    expect(errChain(() => parseSlice({ id: 0, max: 1 }))).toEqual([
      ['x_content_parse_exception', '[slice] failed to parse field [max]'],
      ['illegal_argument_exception', 'max must be greater than 1'],
    ]);
    expect(errChain(() => parseSlice({ id: 5, max: 3 }))).toEqual([
      ['x_content_parse_exception', '[slice] failed to parse field [max]'],
      ['illegal_argument_exception', 'max must be greater than id'],
    ]);
    expect(errChain(() => parseSlice({ max: 3, id: 3 }))).toEqual([
      ['x_content_parse_exception', '[slice] failed to parse field [id]'],
      ['illegal_argument_exception', 'max must be greater than id'],
    ]);
  });
});

describe('encodeId (Uid.encodeId)', () => {
  it('packs numeric ids two digits a byte after 0xfe, with a 0xf end marker', () => {
    expect([...encodeId('1')]).toEqual([0xfe, 0x1f]);
    expect([...encodeId('12')]).toEqual([0xfe, 0x12]);
    expect([...encodeId('172')]).toEqual([0xfe, 0x17, 0x2f]);
  });
  it('decodes URL-safe base64 ids, escaping a leading byte >= 0xfd', () => {
    expect([...encodeId('AQID')]).toEqual([1, 2, 3]);
    expect([...encodeId('_w')]).toEqual([0xfd, 0xff]);
    // three symbols ending in one of the 16 allowed letters are base64 too
    expect([...encodeId('abc')]).toEqual([0x69, 0xb7]);
  });
  it('prefixes other ids with 0xff and their UTF-8 bytes', () => {
    expect([...encodeId('a b')]).toEqual([0xff, 0x61, 0x20, 0x62]);
    expect([...encodeId('abd')]).toEqual([0xff, 0x61, 0x62, 0x64]);
    expect([...encodeId('é')]).toEqual([0xff, 0xc3, 0xa9]);
  });
});

describe('sliceFilter', () => {
  const target = (shardId: number, numShards: number, maxSlices = 1024) => ({
    shardId,
    numShards,
    maxSlices,
    field: () => undefined,
  });

  it('assigns whole shards to slices when there are more shards than slices', () => {
    // shardId % max == id: shards 0, 2, 4 in slice 0 of 2
    const inSlice0 = [0, 1, 2, 3, 4].map((s) =>
      sliceFilter({ field: '_id', id: 0, max: 2 }, target(s, 5)),
    );
    expect(inSlice0.map((q) => (q === null ? 'all' : q.kind))).toEqual([
      'all',
      'MatchNone',
      'all',
      'MatchNone',
      'all',
    ]);
  });

  it('rejects more slices than index.max_slices_per_scroll', () => {
    expect(errChain(() => sliceFilter({ field: '_id', id: 0, max: 1025 }, target(0, 1)))).toEqual([
      [
        'query_phase_execution_exception',
        'The number of slices [1025] is too large. It must be less than [1024]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.',
      ],
    ]);
  });

  const bench = new Bench({ properties: { n: { type: 'long' }, k: { type: 'keyword' } } }).index(
    Array.from({ length: 60 }, (_, i) => ({ n: i * 7, k: `v${i}` })),
  );
  const snap = bench.shards[0]!.searcher();
  const docsOf = (q: Query) =>
    collectTopDocs(
      snap,
      createWeight(q, { stats: shardStats(snap), needsScores: false }),
      collectOptions(1000, { needsScores: false }),
    ).hits.map((h) => h.doc);

  for (const field of ['_id', 'n']) {
    it(`splits one shard's docs into disjoint slices covering every doc (${field})`, () => {
      const seen = new Map<number, number>();
      for (let id = 0; id < 3; id++) {
        const q = sliceFilter({ field, id, max: 3 }, { ...target(0, 1), field: bench.ctx.field })!;
        const docs = docsOf(q);
        expect(docs.length).toBeGreaterThan(0);
        for (const d of docs) seen.set(d, (seen.get(d) ?? 0) + 1);
      }
      expect(seen.size).toBe(60);
      expect([...seen.values()].every((c) => c === 1)).toBe(true);
    });
  }

  it('needs a numeric doc-values field', () => {
    expect(
      errChain(() =>
        sliceFilter({ field: 'k', id: 0, max: 2 }, { ...target(0, 1), field: bench.ctx.field }),
      ),
    ).toEqual([['illegal_argument_exception', 'cannot load numeric doc values on k']]);
    expect(
      errChain(() =>
        sliceFilter({ field: 'zz', id: 0, max: 2 }, { ...target(0, 1), field: bench.ctx.field }),
      ),
    ).toEqual([['illegal_argument_exception', 'field zz not found']]);
  });
});
