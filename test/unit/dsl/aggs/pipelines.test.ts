/**
 * Pipeline aggregations and typed_keys: rest-api-spec 80_typed_keys.yml and 250_moving_fn.yml,
 * sibling bucket metrics, bucket_script / bucket_selector / bucket_sort (SQL HAVING and ORDER BY
 * on aggregates), derivative, cumulative_sum, serial_diff, moving_fn and moving_avg, with ES's
 * gap policies and validation errors.
 */
import { describe, expect, it } from 'vitest';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

const idx = buildIndex(
  { name: 'keyword', num: 'integer', created: 'date' },
  [
    { name: 'one', num: 1, created: '2010-03-12T01:07:45' },
    { name: 'two', num: 2, created: '2010-03-12T04:11:00' },
    { name: 'three', num: 3, created: '2010-04-27T03:43:34' },
  ],
  { shards: 2 },
);

describe('typed_keys (80_typed_keys.yml)', () => {
  it('prefixes every aggregation with its type', () => {
    const r = search(
      idx,
      {
        test_avg: { avg: { field: 'num' } },
        test_cardinality: { cardinality: { field: 'name' } },
        test_extended_stats: { extended_stats: { field: 'num' } },
        test_max: { max: { field: 'num' } },
        test_min: { min: { field: 'num' } },
        test_percentiles: { percentiles: { field: 'num' } },
        test_percentile_ranks: { percentile_ranks: { field: 'num', values: [0, 10] } },
        test_stats: { stats: { field: 'num' } },
        test_sum: { sum: { field: 'num' } },
        test_value_count: { value_count: { field: 'num' } },
        test_terms: {
          terms: { field: 'name' },
          aggs: { test_top_hits: { top_hits: { sort: 'num' } } },
        },
        test_lterms: { terms: { field: 'num' } },
      },
      { typedKeys: true },
    );
    expect(Object.keys(r)).toEqual([
      'avg#test_avg',
      'cardinality#test_cardinality',
      'extended_stats#test_extended_stats',
      'max#test_max',
      'min#test_min',
      'tdigest_percentiles#test_percentiles',
      'tdigest_percentile_ranks#test_percentile_ranks',
      'stats#test_stats',
      'sum#test_sum',
      'value_count#test_value_count',
      'sterms#test_terms',
      'lterms#test_lterms',
    ]);
    const terms = json(r['sterms#test_terms']) as { buckets: Array<Record<string, unknown>> };
    expect(terms.buckets).toHaveLength(3);
    for (const b of terms.buckets) expect(b['top_hits#test_top_hits']).toBeTruthy();
  });

  it('date_histogram with moving_avg and a max_bucket pipeline', () => {
    const warnings: string[] = [];
    const r = json(
      search(
        idx,
        {
          test_created_histogram: {
            date_histogram: { field: 'created', interval: 'month' },
            aggregations: {
              test_sum: { sum: { field: 'num' } },
              test_moving_avg: { moving_avg: { buckets_path: 'test_sum' } },
            },
          },
          test_max_bucket: { max_bucket: { buckets_path: 'test_created_histogram>test_sum' } },
        },
        { typedKeys: true, warnings },
      ),
    ) as Record<string, { buckets: Array<Record<string, unknown>> }>;
    expect(warnings).toEqual([
      'The moving_avg aggregation has been deprecated in favor of the moving_fn aggregation.',
    ]);
    const h = r['date_histogram#test_created_histogram']!;
    expect(h.buckets[0]!['sum#test_sum']).toEqual({ value: 3 });
    expect(h.buckets[1]!['sum#test_sum']).toEqual({ value: 3 });
    expect(h.buckets[1]!['simple_value#test_moving_avg']).toEqual({ value: 3 });
    expect(r['bucket_metric_value#test_max_bucket']).toEqual({
      value: 3,
      keys: ['2010-03-01T00:00:00.000Z', '2010-04-01T00:00:00.000Z'],
    });
  });
});

describe('moving_fn (250_moving_fn.yml)', () => {
  it('Bad window, also outside a histogram', () => {
    for (const aggs of [
      {
        the_histo: {
          date_histogram: { field: 'date', interval: '1d' },
          aggs: {
            the_avg: { avg: { field: 'value_field' } },
            the_mov_fn: {
              moving_fn: {
                buckets_path: 'the_avg',
                window: -1,
                script: 'MovingFunctions.windowMax(values)',
              },
            },
          },
        },
      },
      {
        the_avg: { avg: { field: 'value_field' } },
        the_mov_fn: {
          moving_fn: {
            buckets_path: 'the_avg',
            window: -1,
            script: 'MovingFunctions.windowMax(values)',
          },
        },
      },
    ]) {
      expect(JSON.stringify(errorOf(() => search(idx, aggs)))).toMatch(
        /\[window\] must be a positive, non-zero integer\./,
      );
    }
  });

  it('runs the script over the window of previous values', () => {
    const d = buildIndex(
      { d: 'date', v: 'long' },
      [1, 2, 3, 4, 5].map((i) => ({ d: `2020-01-0${i}`, v: i * 10 })),
    );
    const r = json(
      search(d, {
        h: {
          date_histogram: { field: 'd', interval: 'day' },
          aggs: {
            s: { sum: { field: 'v' } },
            mx: {
              moving_fn: { buckets_path: 's', window: 2, script: 'MovingFunctions.max(values)' },
            },
            avg: {
              moving_fn: {
                buckets_path: 's',
                window: 3,
                script: {
                  source: 'MovingFunctions.unweightedAvg(values) + params.k',
                  params: { k: 1 },
                },
              },
            },
          },
        },
      }),
    ) as { h: { buckets: Array<{ mx: { value: number | null }; avg: { value: number | null } }> } };
    expect(r.h.buckets.map((b) => b.mx.value)).toEqual([null, 10, 20, 30, 40]);
    expect(r.h.buckets.map((b) => b.avg.value)).toEqual([null, 11, 16, 21, 31]);
  });
});

describe('sibling bucket metrics', () => {
  const d = buildIndex(
    { g: 'keyword', v: 'long' },
    [{ g: 'a', v: 1 }, { g: 'a', v: 3 }, { g: 'b', v: 10 }, { g: 'c', v: 10 }, { g: 'd' }],
    { shards: 2 },
  );

  it('avg/sum/min/max/stats/extended_stats/percentiles _bucket', () => {
    const r = json(
      search(d, {
        t: {
          terms: { field: 'g' },
          aggs: { s: { sum: { field: 'v' } }, m: { max: { field: 'v' } } },
        },
        avg: { avg_bucket: { buckets_path: 't>s' } },
        sum: { sum_bucket: { buckets_path: 't>s' } },
        min: { min_bucket: { buckets_path: 't>m' } },
        max: { max_bucket: { buckets_path: 't>s' } },
        cnt: { max_bucket: { buckets_path: 't>_count' } },
        st: { stats_bucket: { buckets_path: 't>m' } },
        ex: { extended_stats_bucket: { buckets_path: 't>m', sigma: 1 } },
        pct: { percentiles_bucket: { buckets_path: 't>s', percents: [0, 50, 100] } },
        fmt: { sum_bucket: { buckets_path: 't>s', format: '0.0' } },
      }),
    ) as Record<string, unknown>;
    // bucket d has doc_count 1 and sum 0 (no values): skipped only for max (NaN is not skipped for sum: it is 0)
    expect(r.avg).toEqual({ value: 6 });
    expect(r.sum).toEqual({ value: 24 });
    expect(r.min).toEqual({ value: 3, keys: ['a'] });
    expect(r.max).toEqual({ value: 10, keys: ['b', 'c'] });
    expect(r.cnt).toEqual({ value: 2, keys: ['a'] });
    expect(r.st).toEqual({ count: 3, min: 3, max: 10, avg: 7.666666666666667, sum: 23 });
    expect((r.ex as Record<string, unknown>).std_deviation_bounds).toBeDefined();
    // nearest rank: index = round(p/100 * (n - 1)) over [0, 4, 10, 10]
    expect(r.pct).toEqual({ values: { '0.0': 0, '50.0': 10, '100.0': 10 } });
    expect(r.fmt).toEqual({ value: 24, value_as_string: '24.0' });
  });

  it('validates the path', () => {
    expect(() =>
      search(d, { s: { sum: { field: 'v' } }, mx: { max_bucket: { buckets_path: 's' } } }),
    ).toThrow(
      /The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation \[mx\]/,
    );
    expect(() => search(d, { mx: { max_bucket: { buckets_path: 'nope>_count' } } })).toThrow(
      'buckets_path aggregation does not exist for aggregation [mx]: nope>_count',
    );
    expect(() =>
      search(d, { t: { terms: { field: 'g' } }, mx: { max_bucket: { buckets_path: 't>nope' } } }),
    ).toThrow('No aggregation [nope] found for path [t>nope]');
    expect(() => search(d, { mx: { max_bucket: {} } })).toThrow(
      'Missing required field [buckets_path] for aggregation [mx]',
    );
  });
});

describe('bucket_script, bucket_selector, bucket_sort', () => {
  const d = buildIndex({ g: 'keyword', v: 'long', w: 'long' }, [
    { g: 'a', v: 1, w: 2 },
    { g: 'a', v: 3, w: 2 },
    { g: 'b', v: 10, w: 5 },
    { g: 'c', v: 7 },
  ]);
  type B = { key: string; doc_count: number; [k: string]: unknown };

  it('bucket_script adds a value; skip leaves gaps alone, insert_zeros fills them', () => {
    const r = json(
      search(d, {
        t: {
          terms: { field: 'g', order: { _key: 'asc' } },
          aggs: {
            sv: { sum: { field: 'v' } },
            sw: { avg: { field: 'w' } },
            ratio: {
              bucket_script: { buckets_path: { v: 'sv', w: 'sw' }, script: 'params.v / params.w' },
            },
            zero: {
              bucket_script: {
                buckets_path: { w: 'sw' },
                gap_policy: 'insert_zeros',
                script: 'params.w * 10',
                format: '000',
              },
            },
          },
        },
      }),
    ) as { t: { buckets: B[] } };
    expect(r.t.buckets.map((b) => [b.key, b.ratio, b.zero])).toEqual([
      ['a', { value: 2 }, { value: 20, value_as_string: '020' }],
      ['b', { value: 2 }, { value: 50, value_as_string: '050' }],
      ['c', undefined, { value: 0, value_as_string: '000' }],
    ]);
  });

  it('bucket_selector as SQL HAVING emits it, with InternalSqlScriptUtils methods', () => {
    const methods = {
      'InternalSqlScriptUtils.nullSafeFilter': (x: unknown) => x === true,
      'InternalSqlScriptUtils.gt': (a: unknown, b: unknown) =>
        a === null || b === null ? null : (a as number) > (b as number),
    };
    const r = json(
      search(
        d,
        {
          groupby: {
            composite: {
              size: 1000,
              sources: [{ g: { terms: { field: 'g', missing_bucket: true, order: 'asc' } } }],
            },
            aggs: {
              s: { sum: { field: 'v' } },
              having: {
                bucket_selector: {
                  buckets_path: { a0: 's' },
                  script: {
                    source:
                      'InternalSqlScriptUtils.nullSafeFilter(InternalSqlScriptUtils.gt(params.a0,params.v0))',
                    lang: 'painless',
                    params: { v0: 5 },
                  },
                  gap_policy: 'skip',
                },
              },
            },
          },
        },
        { scriptMethods: methods },
      ),
    ) as { groupby: { after_key: unknown; buckets: B[] } };
    expect(r.groupby.buckets.map((b) => b.key)).toEqual([{ g: 'b' }, { g: 'c' }]);
    // after_key stays the last key before the selector dropped buckets
    expect(r.groupby.after_key).toEqual({ g: 'c' });
  });

  it('bucket_sort sorts by metrics and _key, paginates', () => {
    const r = json(
      search(d, {
        t: {
          terms: { field: 'g' },
          aggs: {
            sv: { sum: { field: 'v' } },
            srt: { bucket_sort: { sort: [{ sv: { order: 'desc' } }], from: 1, size: 1 } },
          },
        },
        k: { terms: { field: 'g' }, aggs: { srt: { bucket_sort: { sort: [{ _key: 'desc' }] } } } },
      }),
    ) as Record<string, { buckets: B[] }>;
    expect(r.t!.buckets.map((b) => b.key)).toEqual(['c']);
    expect(r.k!.buckets.map((b) => b.key)).toEqual(['c', 'b', 'a']);
  });

  it('only sibling pipelines at the top level; script errors are script_exception', () => {
    expect(() =>
      search(d, { x: { bucket_script: { buckets_path: { a: 'b' }, script: '1' } } }),
    ).toThrow(
      /Only sibling pipeline aggregations are allowed at the top level|No aggregation found for path/,
    );
    const e = errorOf(() =>
      search(d, {
        t: {
          terms: { field: 'g' },
          aggs: {
            s: { sum: { field: 'v' } },
            x: { bucket_script: { buckets_path: { a: 's' }, script: 'params.a +' } },
          },
        },
      }),
    );
    expect(e.error.type).toBe('script_exception');
    expect(e.error.reason).toBe('compile error');
    expect(e.error.caused_by.reason).toBe('unexpected end of script.');
  });
});

describe('sequential pipelines under histograms', () => {
  const d = buildIndex({ n: 'integer', v: 'long' }, [
    { n: 1, v: 1 },
    { n: 11, v: 4 },
    { n: 12, v: 6 },
    { n: 31, v: 20 },
  ]);
  type HB = { key: number; [k: string]: unknown };

  it('derivative, cumulative_sum and serial_diff with gap policies', () => {
    const r = json(
      search(d, {
        h: {
          histogram: { field: 'n', interval: 10 },
          aggs: {
            s: { sum: { field: 'v' } },
            d: { derivative: { buckets_path: 's' } },
            dz: { derivative: { buckets_path: 's', gap_policy: 'insert_zeros' } },
            c: { cumulative_sum: { buckets_path: 's' } },
            sd: { serial_diff: { buckets_path: '_count', lag: 2 } },
          },
        },
      }),
    ) as { h: { buckets: HB[] } };
    const b = r.h.buckets;
    expect(b.map((x) => x.key)).toEqual([0, 10, 20, 30]);
    expect(b.map((x) => (x.d as { value: unknown } | undefined)?.value)).toEqual([
      undefined,
      9,
      null,
      null,
    ]);
    expect(b.map((x) => (x.dz as { value: unknown } | undefined)?.value)).toEqual([
      undefined,
      9,
      -10,
      20,
    ]);
    expect(b.map((x) => (x.c as { value: number }).value)).toEqual([1, 11, 11, 31]);
    expect(b.map((x) => (x.sd as { value: number } | undefined)?.value)).toEqual([
      undefined,
      undefined,
      -1,
      -1,
    ]);
  });

  it('derivative requires a histogram parent with min_doc_count 0', () => {
    expect(() =>
      search(d, {
        t: { terms: { field: 'n' } },
        aggs: { d: { derivative: { buckets_path: '_count' } } },
      } as never),
    ).toThrow();
    expect(() =>
      search(d, {
        h: {
          histogram: { field: 'n', interval: 10, min_doc_count: 1 },
          aggs: { d: { derivative: { buckets_path: '_count' } } },
        },
      }),
    ).toThrow('parent histogram of derivative aggregation [d] must have min_doc_count of 0');
  });

  it('derivative unit normalisation on date histograms', () => {
    const dd = buildIndex({ t: 'date' }, [
      { t: '2020-01-01' },
      { t: '2020-02-01' },
      { t: '2020-02-02' },
    ]);
    const r = json(
      search(dd, {
        h: {
          date_histogram: { field: 't', interval: 'month' },
          aggs: { d: { derivative: { buckets_path: '_count', unit: 'day' } } },
        },
      }),
    ) as { h: { buckets: Array<{ d?: { value: number; normalized_value: number } }> } };
    expect(r.h.buckets[1]!.d).toEqual({ value: 1, normalized_value: 1 / 31 });
  });
});
