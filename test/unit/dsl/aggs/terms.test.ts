/**
 * terms: the expectations of rest-api-spec search.aggregation/20_terms.yml, plus the shard-level
 * reduce (shard_size, sum_other_doc_count, doc_count_error_upper_bound as InternalTerms.doReduce
 * computes them), ordering by sub-aggregations, min_doc_count 0 and include/exclude forms.
 */
import { describe, expect, it } from 'vitest';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

const mapping = {
  str: 'keyword',
  ip: 'ip',
  boolean: 'boolean',
  integer: 'long',
  double: 'double',
  number: 'long',
  date: 'date',
} as const;

type Bucket = { key: unknown; key_as_string?: string; doc_count: number; [k: string]: unknown };
const buckets = (r: Record<string, unknown>, name: string) =>
  (json(r[name]) as { buckets: Bucket[] }).buckets;

describe('terms (20_terms.yml)', () => {
  it('Basic test', () => {
    const idx = buildIndex(mapping, [{ str: 'abc' }, { str: 'abc' }, { str: 'bcd' }]);
    const b = buckets(search(idx, { str_terms: { terms: { field: 'str' } } }), 'str_terms');
    expect(b).toEqual([
      { key: 'abc', doc_count: 2 },
      { key: 'bcd', doc_count: 1 },
    ]);
  });

  it('IP test, with include/exclude arrays and a rejected regex', () => {
    const idx = buildIndex(mapping, [{ ip: '::1' }, { ip: '127.0.0.1' }, { ip: '::1' }]);
    expect(buckets(search(idx, { ip_terms: { terms: { field: 'ip' } } }), 'ip_terms')).toEqual([
      { key: '::1', doc_count: 2 },
      { key: '127.0.0.1', doc_count: 1 },
    ]);
    const inc = buckets(
      search(idx, { ip_terms: { terms: { field: 'ip', include: ['127.0.0.1'] } } }),
      'ip_terms',
    );
    expect(inc.map((x) => x.key)).toEqual(['127.0.0.1']);
    const exc = buckets(
      search(idx, { ip_terms: { terms: { field: 'ip', exclude: ['127.0.0.1'] } } }),
      'ip_terms',
    );
    expect(exc.map((x) => x.key)).toEqual(['::1']);
    expect(() => search(idx, { ip_terms: { terms: { field: 'ip', exclude: '127.*' } } })).toThrow(
      /cannot support regular expression style include\/exclude settings/,
    );
  });

  it('Boolean test', () => {
    const idx = buildIndex(mapping, [{ boolean: true }, { boolean: false }, { boolean: true }]);
    expect(buckets(search(idx, { b: { terms: { field: 'boolean' } } }), 'b')).toEqual([
      { key: 1, key_as_string: 'true', doc_count: 2 },
      { key: 0, key_as_string: 'false', doc_count: 1 },
    ]);
  });

  it('Integer and double tests', () => {
    const idx = buildIndex(mapping, [
      { integer: 1234, double: 1234.5 },
      { integer: 5678, double: 5678.5 },
      { integer: 1234, double: 1234.5 },
    ]);
    const r = search(idx, {
      i: { terms: { field: 'integer' } },
      d: { terms: { field: 'double' } },
    });
    expect(buckets(r, 'i')).toEqual([
      { key: 1234, doc_count: 2 },
      { key: 5678, doc_count: 1 },
    ]);
    expect(buckets(r, 'd')).toEqual([
      { key: 1234.5, doc_count: 2 },
      { key: 5678.5, doc_count: 1 },
    ]);
  });

  it('Date test, include/exclude by date string', () => {
    const idx = buildIndex(mapping, [
      { date: '2016-05-03' },
      { date: '2014-09-01' },
      { date: '2016-05-03' },
    ]);
    expect(buckets(search(idx, { d: { terms: { field: 'date' } } }), 'd')).toEqual([
      { key: 1462233600000, key_as_string: '2016-05-03T00:00:00.000Z', doc_count: 2 },
      { key: 1409529600000, key_as_string: '2014-09-01T00:00:00.000Z', doc_count: 1 },
    ]);
    const inc = buckets(
      search(idx, { d: { terms: { field: 'date', include: ['2016-05-03'] } } }),
      'd',
    );
    expect(inc).toEqual([
      { key: 1462233600000, key_as_string: '2016-05-03T00:00:00.000Z', doc_count: 2 },
    ]);
    const exc = buckets(
      search(idx, { d: { terms: { field: 'date', exclude: ['2016-05-03'] } } }),
      'd',
    );
    expect(exc).toEqual([
      { key: 1409529600000, key_as_string: '2014-09-01T00:00:00.000Z', doc_count: 1 },
    ]);
  });

  it('Partitioned string and integer tests (murmur3 / BitMixer partitions)', () => {
    const idx = buildIndex(mapping, [
      { str: 'abc', integer: 1234 },
      { str: 'abc', integer: 5678 },
      { str: 'bcd', integer: 1234 },
    ]);
    const part = (field: string, p: number) =>
      buckets(
        search(idx, { t: { terms: { field, include: { partition: p, num_partitions: 2 } } } }),
        't',
      );
    expect(part('str', 0)).toEqual([{ key: 'bcd', doc_count: 1 }]);
    expect(part('str', 1)).toEqual([{ key: 'abc', doc_count: 2 }]);
    expect(part('integer', 0)).toEqual([{ key: 5678, doc_count: 1 }]);
    expect(part('integer', 1)).toEqual([{ key: 1234, doc_count: 2 }]);
  });

  it('Unmapped fields with value_type and missing', () => {
    const idx = buildIndex(mapping, [{}]);
    const r = search(idx, {
      s: { terms: { field: 'unmapped_string', value_type: 'string', missing: 'abc' } },
      b: { terms: { field: 'unmapped_boolean', value_type: 'boolean', missing: true } },
      d: { terms: { field: 'unmapped_date', value_type: 'date', missing: '2016-05-11' } },
      l: { terms: { field: 'unmapped_long', value_type: 'long', missing: 3 } },
      x: { terms: { field: 'unmapped_double', value_type: 'double', missing: 3.5 } },
    });
    expect(buckets(r, 's')).toEqual([{ key: 'abc', doc_count: 1 }]);
    expect(buckets(r, 'b')).toEqual([{ key: 1, key_as_string: 'true', doc_count: 1 }]);
    expect(buckets(r, 'd')).toEqual([
      { key: 1462924800000, key_as_string: '2016-05-11T00:00:00.000Z', doc_count: 1 },
    ]);
    expect(buckets(r, 'l')).toEqual([{ key: 3, doc_count: 1 }]);
    expect(buckets(r, 'x')).toEqual([{ key: 3.5, doc_count: 1 }]);
  });

  it('Mixing longs and doubles across shards promotes to doubles', () => {
    // test_1 maps `number` as long, test_2 as double: one shard each
    const longs = buildIndex({ number: 'long' }, [{ number: 100 }, { number: 10 }]);
    const doubles = buildIndex({ number: 'double' }, [
      { number: 100.0 },
      { number: 10.0 },
      { number: 14.6 },
    ]);
    const both = { ...longs, shards: [...longs.shards, ...doubles.shards] };
    const fields = new Map([...longs.fields]);
    const r = search(
      { ...both, fields },
      { n: { terms: { field: 'number' } } },
      { fieldsPerShard: [longs.fields, doubles.fields] },
    );
    expect(buckets(r, 'n')).toEqual([
      { key: 10, doc_count: 2 },
      { key: 100, doc_count: 2 },
      { key: 14.6, doc_count: 1 },
    ]);
  });

  it('Deprecated _term order warns and orders by key', () => {
    const idx = buildIndex(mapping, [{ str: 'abc' }, { str: 'abc' }, { str: 'bcd' }]);
    const warnings: string[] = [];
    const b = buckets(
      search(idx, { t: { terms: { field: 'str', order: { _term: 'desc' } } } }, { warnings }),
      't',
    );
    expect(b).toEqual([
      { key: 'bcd', doc_count: 1 },
      { key: 'abc', doc_count: 2 },
    ]);
    expect(warnings).toEqual(['Deprecated aggregation order key [_term] used, replaced by [_key]']);
  });

  it('accepts execution_hint map and global_ordinals', () => {
    const idx = buildIndex(mapping, [{ str: 'abc' }, { str: 'abc' }, { str: 'bcd' }]);
    for (const hint of ['map', 'global_ordinals']) {
      expect(
        buckets(search(idx, { t: { terms: { field: 'str', execution_hint: hint } } }), 't'),
      ).toHaveLength(2);
    }
  });
});

describe('terms reduce across shards', () => {
  // shard 0: a×10 b×8 c×7 d×1; shard 1: a×6 c×5 b×4 e×2; shard 2: c×9 d×8 a×3 b×1
  const spec: Array<[number, string, number]> = [
    [0, 'a', 10],
    [0, 'b', 8],
    [0, 'c', 7],
    [0, 'd', 1],
    [1, 'a', 6],
    [1, 'c', 5],
    [1, 'b', 4],
    [1, 'e', 2],
    [2, 'c', 9],
    [2, 'd', 8],
    [2, 'a', 3],
    [2, 'b', 1],
  ];
  const docs: Array<Record<string, unknown>> = [];
  const shardOf: number[] = [];
  for (const [s, k, n] of spec) {
    for (let i = 0; i < n; i++) {
      docs.push({ k });
      shardOf.push(s);
    }
  }
  const idx = buildIndex({ k: 'keyword' }, docs, { shards: 3, shardOf: (i) => shardOf[i]! });

  it('computes doc_count_error_upper_bound and sum_other_doc_count like InternalTerms.doReduce', () => {
    const r = json(
      search(idx, {
        t: { terms: { field: 'k', size: 2, shard_size: 2, show_term_doc_count_error: true } },
      }),
    );
    expect(r).toEqual({
      t: {
        doc_count_error_upper_bound: 21,
        sum_other_doc_count: 34,
        buckets: [
          { key: 'a', doc_count: 16, doc_count_error_upper_bound: 8 },
          { key: 'c', doc_count: 14, doc_count_error_upper_bound: 8 },
        ],
      },
    });
  });

  it('default shard_size (size * 1.5 + 10) gives exact counts', () => {
    const r = json(search(idx, { t: { terms: { field: 'k', size: 2 } } }));
    expect(r).toEqual({
      t: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 24,
        buckets: [
          { key: 'c', doc_count: 21 },
          { key: 'a', doc_count: 19 },
        ],
      },
    });
  });

  it('key order reports no error; ascending count order reports -1', () => {
    const byKey = json(
      search(idx, { t: { terms: { field: 'k', size: 2, shard_size: 2, order: { _key: 'asc' } } } }),
    ) as {
      t: { doc_count_error_upper_bound: number; buckets: Bucket[] };
    };
    expect(byKey.t.doc_count_error_upper_bound).toBe(0);
    expect(byKey.t.buckets.map((b) => b.key)).toEqual(['a', 'b']);
    const asc = json(
      search(idx, {
        t: { terms: { field: 'k', size: 2, shard_size: 2, order: { _count: 'asc' } } },
      }),
    ) as {
      t: { doc_count_error_upper_bound: number };
    };
    expect(asc.t.doc_count_error_upper_bound).toBe(-1);
  });

  it('orders by a sub-aggregation and by a multi-value metric key', () => {
    const idx2 = buildIndex(
      { k: 'keyword', v: 'long' },
      [
        { k: 'x', v: 1 },
        { k: 'x', v: 100 },
        { k: 'y', v: 50 },
        { k: 'z', v: 10 },
        { k: 'z', v: 20 },
      ],
      { shards: 2 },
    );
    const r = search(idx2, {
      t: { terms: { field: 'k', order: { m: 'desc' } }, aggs: { m: { max: { field: 'v' } } } },
      s: {
        terms: { field: 'k', order: { 'st.avg': 'asc' } },
        aggs: { st: { stats: { field: 'v' } } },
      },
      f: {
        terms: { field: 'k', order: { 'fl>c': 'desc' } },
        aggs: {
          fl: {
            filter: { range: { v: { gte: 10 } } },
            aggs: { c: { value_count: { field: 'v' } } },
          },
        },
      },
    });
    expect(buckets(r, 't').map((b) => b.key)).toEqual(['x', 'y', 'z']);
    expect(buckets(r, 's').map((b) => b.key)).toEqual(['z', 'y', 'x']);
    expect(buckets(r, 'f').map((b) => b.key)).toEqual(['z', 'x', 'y']);
    expect(() => search(idx2, { t: { terms: { field: 'k', order: { nope: 'desc' } } } })).toThrow(
      'Invalid aggregator order path [nope]. Unknown aggregation [nope]',
    );
    expect(() =>
      search(idx2, {
        t: {
          terms: { field: 'k', order: { st: 'desc' } },
          aggs: { st: { stats: { field: 'v' } } },
        },
      }),
    ).toThrow('When ordering on a multi-value metrics aggregation a metric name must be specified');
  });

  it('min_doc_count 0 returns every term of the field, also those the query excludes', () => {
    const idx2 = buildIndex(
      { k: 'keyword', n: 'long' },
      [
        { k: 'a', n: 1 },
        { k: 'b', n: 2 },
        { k: 'c', n: 3 },
      ],
      { shards: 2 },
    );
    const r = search(
      idx2,
      {
        t: { terms: { field: 'k', min_doc_count: 0 } },
        n: { terms: { field: 'n', min_doc_count: 0 } },
      },
      { query: { term: { k: 'a' } } },
    );
    expect(buckets(r, 't')).toEqual([
      { key: 'a', doc_count: 1 },
      { key: 'b', doc_count: 0 },
      { key: 'c', doc_count: 0 },
    ]);
    expect(buckets(r, 'n')).toEqual([
      { key: 1, doc_count: 1 },
      { key: 2, doc_count: 0 },
      { key: 3, doc_count: 0 },
    ]);
  });

  it('include/exclude regex on keywords and multi-valued fields', () => {
    const idx2 = buildIndex({ k: 'keyword' }, [
      { k: ['apple', 'avocado', 'banana'] },
      { k: ['apple', 'cherry'] },
    ]);
    const r = search(idx2, {
      t: { terms: { field: 'k', include: 'a.*', exclude: 'av.*' } },
      all: { terms: { field: 'k' } },
    });
    expect(buckets(r, 't')).toEqual([{ key: 'apple', doc_count: 2 }]);
    expect(buckets(r, 'all').map((b) => [b.key, b.doc_count])).toEqual([
      ['apple', 2],
      ['avocado', 1],
      ['banana', 1],
      ['cherry', 1],
    ]);
    const err = errorOf(() =>
      search(idx2, {
        t: { terms: { field: 'k', include: { partition: 0, num_partitions: 2 }, exclude: ['x'] } },
      }),
    );
    expect(err.error.type).toBe('x_content_parse_exception');
    expect(err.error.reason).toBe('[terms] failed to parse field [exclude]');
    expect(err.error.caused_by).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Cannot specify any excludes when using a partition-based include',
    });
  });

  it('rejects invalid sizes and unknown fields with ES wording', () => {
    const size = errorOf(() => search(idx, { t: { terms: { field: 'k', size: 0 } } }));
    expect(size).toMatchObject({
      status: 400,
      error: {
        type: 'x_content_parse_exception',
        reason: '[terms] failed to parse field [size]',
        caused_by: {
          type: 'illegal_argument_exception',
          reason: '[size] must be greater than 0. Found [0] in [t]',
        },
      },
    });
    expect(() => search(idx, { t: { terms: { field: 'k', foo: 1 } } })).toThrow(
      '[terms] unknown field [foo], parser not found',
    );
  });
});
