/**
 * sampler / diversified_sampler: the best-docs selection (score, then lower doc), the per-value
 * quota of the diversified form, the replay into sub-aggregations, per-shard sampling and
 * parsing errors.
 */
import { describe, expect, it } from 'vitest';
import { BestDocs } from '../../../../src/dsl/aggs/bucket/sampler.js';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

const chosen = (b: BestDocs) =>
  b
    .docs()
    .map((d) => d.global)
    .sort((x, y) => x - y);

describe('BestDocs', () => {
  it('keeps the best scores, lower docs winning ties', () => {
    const b = new BestDocs(3, null);
    [0.5, 2, 1, 2, 0.1, 1].forEach((s, doc) => b.offer(0, doc, s, doc, null));
    expect(chosen(b)).toEqual([1, 2, 3]);
  });

  it('keeps at most max_docs_per_value docs per key', () => {
    const b = new BestDocs(3, 1);
    const keys = ['a', 'a', 'b', 'b', 'c', 'a'];
    const scores = [1, 5, 2, 1, 0.5, 3];
    keys.forEach((k, doc) => b.offer(0, doc, scores[doc]!, doc, k));
    // best per key: a → doc 1 (5), b → doc 2 (2), c → doc 4 (0.5)
    expect(chosen(b)).toEqual([1, 2, 4]);
    const b2 = new BestDocs(2, 2);
    keys.forEach((k, doc) => b2.offer(0, doc, scores[doc]!, doc, k));
    // top two overall: doc 1 (a, 5) and doc 5 (a, 3), both within a's quota of 2
    expect(chosen(b2)).toEqual([1, 5]);
  });
});

describe('sampler aggregation', () => {
  const docs = ['x', 'y', 'x', 'z', 'y', 'x', 'w', 'z'].map((g, i) => ({ g, n: i }));
  const idx = buildIndex({ g: 'keyword', n: 'long' }, docs, { refreshEvery: 3 });

  it('feeds the first shard_size docs (equal scores) to its sub-aggregations', () => {
    const r = json(
      search(idx, {
        s: {
          sampler: { shard_size: 4 },
          aggs: { t: { terms: { field: 'g' } }, m: { max: { field: 'n' } } },
        },
      }),
    ) as Record<string, any>;
    expect(r.s.doc_count).toBe(4);
    expect(r.s.m.value).toBe(3);
    expect(r.s.t.buckets).toEqual([
      { key: 'x', doc_count: 2 },
      { key: 'y', doc_count: 1 },
      { key: 'z', doc_count: 1 },
    ]);
  });

  it('samples per shard and sums the doc counts', () => {
    const two = buildIndex({ g: 'keyword' }, docs, { shards: 2, shardOf: (i) => i % 2 });
    const r = json(search(two, { s: { sampler: { shard_size: 2 } } })) as Record<string, any>;
    expect(r.s).toEqual({ doc_count: 4 });
  });

  it('typed keys name both forms sampler', () => {
    const r = search(
      idx,
      { a: { sampler: {} }, b: { diversified_sampler: { field: 'g' } } },
      { typedKeys: true },
    );
    expect(Object.keys(json(r) as object).sort()).toEqual(['sampler#a', 'sampler#b']);
  });

  it('diversified_sampler keeps max_docs_per_value docs per field value', () => {
    const r = json(
      search(idx, {
        d: {
          diversified_sampler: { field: 'g', shard_size: 10, max_docs_per_value: 1 },
          aggs: { t: { terms: { field: 'g' } } },
        },
      }),
    ) as Record<string, any>;
    expect(r.d.doc_count).toBe(4);
    expect(r.d.t.buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual([1, 1, 1, 1]);
    const two = json(
      search(idx, { d: { diversified_sampler: { field: 'g', max_docs_per_value: 2 } } }),
    ) as Record<string, any>;
    expect(two.d.doc_count).toBe(7);
  });

  it('rejects unknown parameters and execution hints', () => {
    expect(errorOf(() => search(idx, { s: { sampler: { size: 3 } } })).status).toBe(400);
    expect(
      errorOf(() =>
        search(idx, { d: { diversified_sampler: { field: 'g', execution_hint: 'x' } } }),
      ).error.reason,
    ).toMatch(/Unknown `execution_hint`: \[x\]/);
  });
});
