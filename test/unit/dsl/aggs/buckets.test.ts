/**
 * Single- and multi-bucket aggregations: filter (50_filter.yml), adjacency_matrix
 * (70_adjacency_matrix.yml), composite (230_composite.yml), filters with other buckets, missing,
 * global, nested and reverse_nested, top_hits (200_top_hits_metric.yml), and the bucket limit
 * (240_max_buckets.yml).
 */
import { describe, expect, it } from 'vitest';
import type { CollectedHit } from '../../../../src/search/collect/top-docs.js';
import type { AggHit, TopHitsOptions } from '../../../../src/dsl/aggs/types.js';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

describe('filter (50_filter.yml) and filters', () => {
  const idx = buildIndex({ mentions: 'keyword', notifications: 'keyword' }, [
    { _id: 'foo|bar|baz0', notifications: ['abc'] },
    { _id: 'foo|bar|baz1', mentions: ['abc'] },
  ]);

  it('Filter aggs with a sub terms agg', () => {
    expect(
      json(
        search(idx, {
          itemsNotify: {
            filter: { terms: { mentions: ['abc'] } },
            aggs: { mentions: { terms: { field: 'mentions' } } },
          },
        }),
      ),
    ).toEqual({
      itemsNotify: {
        doc_count: 1,
        mentions: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [{ key: 'abc', doc_count: 1 }],
        },
      },
    });
  });

  it('filters: keyed (sorted by name), anonymous, other bucket', () => {
    const d = buildIndex({ t: 'keyword' }, [{ t: 'x' }, { t: 'y' }, { t: 'x' }, { t: 'z' }], {
      shards: 2,
    });
    const r = json(
      search(d, {
        k: {
          filters: {
            filters: { ys: { term: { t: 'y' } }, xs: { term: { t: 'x' } } },
            other_bucket_key: 'rest',
          },
        },
        a: { filters: { filters: [{ term: { t: 'x' } }, { match_all: {} }] } },
      }),
    );
    expect(r).toEqual({
      k: { buckets: { xs: { doc_count: 2 }, ys: { doc_count: 1 }, rest: { doc_count: 1 } } },
      a: { buckets: [{ doc_count: 2 }, { doc_count: 4 }] },
    });
    expect(JSON.stringify(Object.keys((r as { k: { buckets: object } }).k.buckets))).toBe(
      '["xs","ys","rest"]',
    );
  });
});

describe('adjacency_matrix (70_adjacency_matrix.yml)', () => {
  it('Filters intersections', () => {
    const idx = buildIndex(
      { num: 'integer' },
      [{ num: [1, 2] }, { num: [2, 3] }, { num: [3, 4] }],
      { shards: 2 },
    );
    const r = json(
      search(idx, {
        conns: {
          adjacency_matrix: {
            filters: { 1: { term: { num: 1 } }, 2: { term: { num: 2 } }, 4: { term: { num: 4 } } },
          },
        },
      }),
    );
    expect(r).toEqual({
      conns: {
        buckets: [
          { key: '1', doc_count: 1 },
          { key: '1&2', doc_count: 1 },
          { key: '2', doc_count: 2 },
          { key: '4', doc_count: 1 },
        ],
      },
    });
  });
});

describe('composite (230_composite.yml)', () => {
  const idx = buildIndex(
    { date: 'date', keyword: 'keyword', long: 'long', nested: { nested: { nested_long: 'long' } } },
    [
      { keyword: 'foo', long: [10, 20], nested: [{ nested_long: 10 }, { nested_long: 20 }] },
      { keyword: ['foo', 'bar'] },
      { keyword: 'bar', long: [100, 0], nested: [{ nested_long: 10 }, { nested_long: 0 }] },
      { keyword: 'bar', long: [1000, 0], nested: [{ nested_long: 1000 }, { nested_long: 20 }] },
      { date: '2017-10-20T03:08:45' },
      { date: '2017-10-21T07:00:00' },
    ],
    { shards: 2 },
  );
  const two = [{ long: { terms: { field: 'long' } } }, { kw: { terms: { field: 'keyword' } } }];
  type C = {
    after_key?: Record<string, unknown>;
    buckets: Array<{ key: Record<string, unknown>; doc_count: number }>;
  };
  const comp = (body: object, opts = {}) =>
    (json(search(idx, { test: { composite: body } }, opts)) as { test: C }).test;

  it('Simple Composite aggregation (after_key in the response)', () => {
    expect(comp({ sources: [{ kw: { terms: { field: 'keyword' } } }] })).toEqual({
      after_key: { kw: 'foo' },
      buckets: [
        { key: { kw: 'bar' }, doc_count: 3 },
        { key: { kw: 'foo' }, doc_count: 2 },
      ],
    });
  });

  it('Nested Composite aggregation (multi-valued sources make several keys)', () => {
    expect(comp({ sources: two }).buckets).toEqual([
      { key: { long: 0, kw: 'bar' }, doc_count: 2 },
      { key: { long: 10, kw: 'foo' }, doc_count: 1 },
      { key: { long: 20, kw: 'foo' }, doc_count: 1 },
      { key: { long: 100, kw: 'bar' }, doc_count: 1 },
      { key: { long: 1000, kw: 'bar' }, doc_count: 1 },
    ]);
  });

  it('Aggregate After and After Missing', () => {
    expect(comp({ sources: two, after: { long: 20, kw: 'foo' } }).buckets).toEqual([
      { key: { long: 100, kw: 'bar' }, doc_count: 1 },
      { key: { long: 1000, kw: 'bar' }, doc_count: 1 },
    ]);
    expect(
      comp({ sources: [{ kw: { terms: { field: 'keyword' } } }], after: { kw: 'delta' } }).buckets,
    ).toEqual([{ key: { kw: 'foo' }, doc_count: 2 }]);
  });

  it('pages with size and after_key until exhausted', () => {
    const seen: unknown[] = [];
    let after: Record<string, unknown> | undefined;
    for (;;) {
      const page = comp({ size: 2, sources: two, ...(after ? { after } : {}) });
      seen.push(...page.buckets.map((b) => b.key));
      if (page.buckets.length < 2) break;
      after = page.after_key;
    }
    expect(seen).toEqual([
      { long: 0, kw: 'bar' },
      { long: 10, kw: 'foo' },
      { long: 20, kw: 'foo' },
      { long: 100, kw: 'bar' },
      { long: 1000, kw: 'bar' },
    ]);
  });

  it('Invalid Composite aggregation under a terms parent', () => {
    expect(() =>
      search(idx, {
        test: {
          terms: { field: 'long' },
          aggs: { nested: { composite: { sources: [{ kw: { terms: { field: 'keyword' } } }] } } },
        },
      }),
    ).toThrow(/\[composite\] aggregation cannot be used with a parent aggregation/);
  });

  it('Composite aggregation with format (and after in that format)', () => {
    const src = [
      { date: { date_histogram: { field: 'date', interval: '1d', format: 'yyyy-MM-dd' } } },
    ];
    expect(comp({ sources: src }).buckets).toEqual([
      { key: { date: '2017-10-20' }, doc_count: 1 },
      { key: { date: '2017-10-21' }, doc_count: 1 },
    ]);
    expect(comp({ after: { date: '2017-10-20' }, sources: src }).buckets).toEqual([
      { key: { date: '2017-10-21' }, doc_count: 1 },
    ]);
    // without a format dates stay epoch millis
    expect(
      comp({ sources: [{ d: { date_histogram: { field: 'date', interval: '1d' } } }] }).buckets[0]!
        .key,
    ).toEqual({ d: 1508457600000 });
  });

  it('Composite aggregation and array size', () => {
    expect(() =>
      comp({ size: 1000000000, sources: [{ keyword: { terms: { field: 'keyword' } } }] }),
    ).toThrow(/Trying to create too many buckets/);
  });

  it('Composite aggregation with nested parent', () => {
    const r = json(
      search(idx, {
        1: {
          nested: { path: 'nested' },
          aggs: {
            2: { composite: { sources: [{ nested: { terms: { field: 'nested.nested_long' } } }] } },
          },
        },
      }),
    ) as Record<string, Record<string, C>>;
    expect(r['1']!['2']!.buckets).toEqual([
      { key: { nested: 0 }, doc_count: 1 },
      { key: { nested: 10 }, doc_count: 2 },
      { key: { nested: 20 }, doc_count: 2 },
      { key: { nested: 1000 }, doc_count: 1 },
    ]);
    const after = json(
      search(idx, {
        1: {
          nested: { path: 'nested' },
          aggs: {
            2: {
              composite: {
                after: { nested: 10 },
                sources: [{ nested: { terms: { field: 'nested.nested_long' } } }],
              },
            },
          },
        },
      }),
    ) as Record<string, Record<string, C>>;
    expect(after['1']!['2']!.buckets).toEqual([
      { key: { nested: 20 }, doc_count: 2 },
      { key: { nested: 1000 }, doc_count: 1 },
    ]);
  });

  it('missing_bucket puts nulls first (asc) and last (desc); histogram sources', () => {
    const r = comp({
      sources: [
        { kw: { terms: { field: 'keyword', missing_bucket: true, order: 'desc' } } },
        { h: { histogram: { field: 'long', interval: 50, missing_bucket: true } } },
      ],
    });
    expect(r.buckets.map((b) => [b.key.kw, b.key.h, b.doc_count])).toEqual([
      ['foo', null, 1],
      ['foo', 0, 1],
      ['bar', null, 1],
      ['bar', 0, 2],
      ['bar', 100, 1],
      ['bar', 1000, 1],
      [null, null, 2],
    ]);
    expect(r.after_key).toEqual({ kw: null, h: null });
  });
});

describe('missing, global, nested, reverse_nested', () => {
  const idx = buildIndex(
    {
      group: 'keyword',
      n: 'long',
      users: { nested: { first: 'keyword', last: 'keyword', age: 'long' } },
    },
    [
      {
        group: 'fans',
        n: 1,
        users: [
          { first: 'John', last: 'Smith', age: 30 },
          { first: 'Alice', last: 'White', age: 40 },
        ],
      },
      { group: 'fans', users: [{ first: 'Mark', last: 'Doe', age: 50 }] },
      { group: 'other', n: 3 },
    ],
    { shards: 2 },
  );

  it('missing counts docs without a value; global ignores the query', () => {
    const r = json(
      search(
        idx,
        {
          m: { missing: { field: 'n' } },
          u: { missing: { field: 'unmapped' } },
          g: { global: {}, aggs: { c: { value_count: { field: 'group' } } } },
        },
        { query: { term: { group: 'fans' } } },
      ),
    );
    expect(r).toEqual({
      m: { doc_count: 1 },
      u: { doc_count: 2 },
      g: { doc_count: 3, c: { value: 3 } },
    });
  });

  it('global must be top level', () => {
    expect(() =>
      search(idx, { t: { terms: { field: 'group' }, aggs: { g: { global: {} } } } }),
    ).toThrow(
      'Aggregation [t] cannot have a global sub-aggregation [g]. Global aggregations can only be defined as top level aggregations',
    );
  });

  it('nested and reverse_nested move between doc spaces', () => {
    const r = json(
      search(idx, {
        u: {
          nested: { path: 'users' },
          aggs: {
            avg_age: { avg: { field: 'users.age' } },
            names: {
              terms: { field: 'users.first' },
              aggs: {
                back: { reverse_nested: {}, aggs: { groups: { terms: { field: 'group' } } } },
              },
            },
          },
        },
      }),
    ) as {
      u: {
        doc_count: number;
        avg_age: { value: number };
        names: { buckets: Array<{ key: string; back: { doc_count: number } }> };
      };
    };
    expect(r.u.doc_count).toBe(3);
    expect(r.u.avg_age.value).toBe(40);
    expect(r.u.names.buckets.map((b) => [b.key, b.back.doc_count])).toEqual([
      ['Alice', 1],
      ['John', 1],
      ['Mark', 1],
    ]);
    expect(() => search(idx, { r: { reverse_nested: {} } })).toThrow(
      'Reverse nested aggregation [r] can only be used inside a [nested] aggregation',
    );
  });
});

describe('top_hits (200_top_hits_metric.yml)', () => {
  const idx = buildIndex(
    { group: 'keyword', users: { nested: { first: 'keyword', last: 'keyword' } } },
    [
      {
        _id: '1',
        group: 'fans',
        users: [
          { first: 'John', last: 'Smith' },
          { first: 'Alice', last: 'White' },
        ],
      },
      { _id: '2', group: 'fans', users: [{ first: 'Mark', last: 'Doe' }] },
    ],
  );
  const fetchHits = (hits: CollectedHit[], _opts: TopHitsOptions) =>
    hits.map((h) => {
      const a = h as AggHit;
      const id = a.nested
        ? a.nested.parentSegment.segment.ids[a.nested.parentDoc]
        : h.segment.segment.ids[h.doc];
      return {
        _index: 'my-index',
        _id: id,
        ...(a.nested ? { _nested: { field: a.nested.field, offset: a.nested.offset } } : {}),
        sort: h.sort,
      };
    });

  it('top_hits aggregation with nested documents', () => {
    const r = json(
      search(
        idx,
        {
          'to-users': {
            nested: { path: 'users' },
            aggs: { users: { top_hits: { sort: 'users.last' } } },
          },
        },
        { fetchHits },
      ),
    ) as {
      'to-users': {
        users: {
          hits: { total: number; max_score: number | null; hits: Array<Record<string, unknown>> };
        };
      };
    };
    const hits = r['to-users'].users.hits;
    expect(hits.total).toBe(3);
    expect(hits.max_score).toBeNull();
    expect(hits.hits).toEqual([
      { _index: 'my-index', _id: '2', _nested: { field: 'users', offset: 0 }, sort: ['Doe'] },
      { _index: 'my-index', _id: '1', _nested: { field: 'users', offset: 0 }, sort: ['Smith'] },
      { _index: 'my-index', _id: '1', _nested: { field: 'users', offset: 1 }, sort: ['White'] },
    ]);
  });

  it('top_hits under terms, by score by default, size and from', () => {
    const d = buildIndex(
      { g: 'keyword', n: 'long' },
      [1, 2, 3, 4, 5].map((n) => ({ g: n % 2 ? 'odd' : 'even', n })),
      { shards: 2 },
    );
    const r = json(
      search(
        d,
        {
          t: {
            terms: { field: 'g' },
            aggs: { top: { top_hits: { size: 2, from: 1, sort: [{ n: 'desc' }] } } },
          },
        },
        {
          fetchHits: (hits) => hits.map((h) => h.sort),
        },
      ),
    ) as {
      t: { buckets: Array<{ key: string; top: { hits: { total: number; hits: unknown[] } } }> };
    };
    expect(r.t.buckets.map((b) => [b.key, b.top.hits.total, b.top.hits.hits])).toEqual([
      ['odd', 3, [[3], [1]]],
      ['even', 2, [[2]]],
    ]);
    const s = json(
      search(
        d,
        { top: { top_hits: { size: 1 } } },
        { fetchHits: (hits) => hits.map((h) => h.score) },
      ),
    ) as {
      top: { hits: { max_score: number; hits: number[] } };
    };
    expect(s.top.hits.max_score).toBe(1);
    expect(s.top.hits.hits).toEqual([1]);
  });

  it('rejects a window over 100', () => {
    expect(() => search(idx, { t: { top_hits: { size: 101 } } })).toThrow(
      /Top hits result window is too large/,
    );
  });
});

describe('search.max_buckets (240_max_buckets.yml)', () => {
  const idx = buildIndex({ keyword: 'keyword', date: 'date' }, [
    { date: '2014-03-03T00:00:00', keyword: 'foo' },
    { date: '2015-03-03T00:00:00', keyword: 'bar' },
    { date: '2016-03-03T00:00:00', keyword: 'foobar' },
    { date: '2017-03-03T00:00:00' },
  ]);

  it('Max bucket: deprecation warning past 10000 with the default limit, errors with a limit', () => {
    const warnings: string[] = [];
    search(idx, { test: { date_histogram: { field: 'date', interval: '2h' } } }, { warnings });
    expect(warnings).toEqual([
      'This aggregation creates too many buckets (10001) and will throw an error in future versions. You should update the [search.max_buckets] cluster setting or use the [composite] aggregation to paginate all buckets in multiple requests.',
    ]);
    const e = errorOf(() =>
      search(
        idx,
        { test: { date_histogram: { field: 'date', interval: '1d' } } },
        { maxBuckets: 3 },
      ),
    );
    expect(e.status).toBe(503);
    expect(e.error.type).toBe('too_many_buckets_exception');
    expect(e.error.reason).toMatch(/Trying to create too many buckets/);
    expect(e.error.max_buckets).toBe(3);
    expect(() =>
      search(
        idx,
        {
          test: {
            terms: { field: 'keyword' },
            aggs: { 2: { date_histogram: { field: 'date', interval: '1d' } } },
          },
        },
        { maxBuckets: 3 },
      ),
    ).toThrow(/Trying to create too many buckets/);
    expect(() =>
      search(
        idx,
        { test: { date_histogram: { field: 'date', interval: '1d', min_doc_count: 0 } } },
        { maxBuckets: 100 },
      ),
    ).toThrow(/Trying to create too many buckets/);
    expect(() =>
      search(idx, { test: { terms: { field: 'keyword' } } }, { maxBuckets: 100 }),
    ).not.toThrow();
  });
});
