/**
 * Metric aggregations against rest-api-spec search.aggregation/100..170, 180, 190, 260, 270:
 * avg, max, min, sum, value_count, stats, extended_stats, cardinality, t-digest and hdr percentiles and
 * percentile_ranks, weighted_avg and median_absolute_deviation, on 2 shards.
 */
import { describe, expect, it } from 'vitest';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

const docs = [
  { int_field: 1, double_field: 1.0, string_field: 'foo' },
  { int_field: 51, double_field: 51.0, string_field: 'foo' },
  { int_field: 101, double_field: 101.0, string_field: 'foo' },
  { int_field: 151, double_field: 151.0, string_field: 'foo' },
];
const idx = buildIndex(
  { int_field: 'integer', double_field: 'double', string_field: 'keyword' },
  docs,
  { shards: 2 },
);
const filtered = { query: { constant_score: { filter: { range: { int_field: { gte: 50 } } } } } };

describe('single-value metrics (100-140)', () => {
  it('Basic / Only aggs test', () => {
    const r = json(
      search(idx, {
        a: { avg: { field: 'int_field' } },
        ad: { avg: { field: 'double_field' } },
        mx: { max: { field: 'int_field' } },
        mn: { min: { field: 'double_field' } },
        s: { sum: { field: 'int_field' } },
        c: { value_count: { field: 'int_field' } },
        cs: { value_count: { field: 'string_field' } },
      }),
    );
    expect(r).toEqual({
      a: { value: 76 },
      ad: { value: 76 },
      mx: { value: 151 },
      mn: { value: 1 },
      s: { value: 304 },
      c: { value: 4 },
      cs: { value: 4 },
    });
  });

  it('Filtered test', () => {
    const r = json(
      search(
        idx,
        {
          a: { avg: { field: 'int_field' } },
          mx: { max: { field: 'int_field' } },
          mn: { min: { field: 'int_field' } },
          s: { sum: { field: 'double_field' } },
          c: { value_count: { field: 'int_field' } },
        },
        filtered,
      ),
    );
    expect(r).toEqual({
      a: { value: 101 },
      mx: { value: 151 },
      mn: { value: 51 },
      s: { value: 303 },
      c: { value: 3 },
    });
  });

  it('Missing field with and without missing param', () => {
    const r = json(
      search(idx, {
        a: { avg: { field: 'foo', missing: 1 } },
        b: { avg: { field: 'foo' } },
        mx: { max: { field: 'foo' } },
        mn: { min: { field: 'foo' } },
        s: { sum: { field: 'foo' } },
        sm: { sum: { field: 'foo', missing: 2 } },
        c: { value_count: { field: 'foo' } },
      }),
    );
    expect(r).toEqual({
      a: { value: 1 },
      b: { value: null },
      mx: { value: null },
      mn: { value: null },
      s: { value: 0 },
      sm: { value: 8 },
      c: { value: 0 },
    });
  });

  it('Metadata test', () => {
    expect(json(search(idx, { a: { meta: { foo: 'bar' }, avg: { field: 'int_field' } } }))).toEqual(
      {
        a: { meta: { foo: 'bar' }, value: 76 },
      },
    );
  });

  it('Aggregating wrong datatype test', () => {
    const e = errorOf(() => search(idx, { the_string_avg: { avg: { field: 'string_field' } } }));
    expect(e).toEqual({
      status: 400,
      error: {
        root_cause: [
          {
            type: 'illegal_argument_exception',
            reason: 'Expected numeric type on field [string_field], but got [keyword]',
          },
        ],
        type: 'illegal_argument_exception',
        reason: 'Expected numeric type on field [string_field], but got [keyword]',
      },
    });
  });

  it('formats value_as_string with a DecimalFormat and dates with the field format', () => {
    const d = buildIndex({ when: 'date', n: 'double' }, [
      { when: '2015-03-01', n: 1234.5 },
      { when: '2016-01-01', n: 0.25 },
    ]);
    const r = json(
      search(d, {
        mx: { max: { field: 'when' } },
        mn: { min: { field: 'when', format: 'yyyy/MM/dd' } },
        s: { sum: { field: 'n', format: '#,##0.00' } },
      }),
    );
    expect(r).toEqual({
      mx: { value: 1451606400000, value_as_string: '2016-01-01T00:00:00.000Z' },
      mn: { value: 1425168000000, value_as_string: '2015/03/01' },
      s: { value: 1234.75, value_as_string: '1,234.75' },
    });
  });

  it('text fields without fielddata are rejected with 6.8 wording', () => {
    const t = buildIndex({ body: 'text' }, [{ body: 'hello world' }]);
    const e = errorOf(() => search(t, { x: { terms: { field: 'body' } } }));
    expect(e.error.reason).toBe(
      'Fielddata is disabled on text fields by default. Set fielddata=true on [body] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.',
    );
    const fd = buildIndex({ body: { type: 'text', fielddata: true } }, [
      { body: 'hello world' },
      { body: 'hello' },
    ]);
    expect(json(search(fd, { x: { terms: { field: 'body' } } }))).toMatchObject({
      x: {
        buckets: [
          { key: 'hello', doc_count: 2 },
          { key: 'world', doc_count: 1 },
        ],
      },
    });
  });
});

describe('stats and extended_stats (150, 160)', () => {
  it('Basic test', () => {
    const r = json(
      search(idx, {
        s: { stats: { field: 'int_field' } },
        e: { extended_stats: { field: 'double_field' } },
      }),
    );
    expect(r).toEqual({
      s: { count: 4, min: 1, max: 151, avg: 76, sum: 304 },
      e: {
        count: 4,
        min: 1,
        max: 151,
        avg: 76,
        sum: 304,
        sum_of_squares: 35604,
        variance: 3125,
        std_deviation: 55.90169943749474,
        std_deviation_bounds: { upper: 187.80339887498948, lower: -35.80339887498948 },
      },
    });
  });

  it('Filtered test', () => {
    const r = json(search(idx, { e: { extended_stats: { field: 'int_field' } } }, filtered)) as {
      e: Record<string, unknown>;
    };
    expect(r.e).toEqual({
      count: 3,
      min: 51,
      max: 151,
      avg: 101,
      sum: 303,
      sum_of_squares: 35603,
      variance: 1666.6666666666667,
      std_deviation: 40.824829046386306,
      std_deviation_bounds: { upper: 182.6496580927726, lower: 19.35034190722739 },
    });
  });

  it('Missing field with missing param, no docs, sigma', () => {
    const r = json(
      search(idx, {
        m: { extended_stats: { field: 'foo', missing: 1 } },
        n: { extended_stats: { field: 'foo' } },
        s: { stats: { field: 'foo' } },
        g: { extended_stats: { field: 'int_field', sigma: 3 } },
      }),
    ) as Record<string, Record<string, unknown>>;
    expect(r.m).toMatchObject({
      count: 4,
      min: 1,
      max: 1,
      avg: 1,
      sum: 4,
      sum_of_squares: 4,
      variance: 0,
      std_deviation: 0,
      std_deviation_bounds: { upper: 1, lower: 1 },
    });
    expect(r.n).toEqual({
      count: 0,
      min: null,
      max: null,
      avg: null,
      sum: null,
      sum_of_squares: null,
      variance: null,
      std_deviation: null,
      std_deviation_bounds: { upper: null, lower: null },
    });
    expect(r.s).toEqual({ count: 0, min: null, max: null, avg: null, sum: null });
    expect(r.g!.std_deviation_bounds).toEqual({
      upper: 243.7050983124842,
      lower: -91.70509831248421,
    });
  });

  it('Bad sigma test', () => {
    const e = errorOf(() =>
      search(idx, {
        the_int_extended_stats: { extended_stats: { field: 'int_field', sigma: -1 } },
      }),
    );
    expect(JSON.stringify(e)).toMatch(
      /\[sigma\] must be greater than or equal to 0. Found \[-1.0\] in \[the_int_extended_stats\]/,
    );
    const f = errorOf(() =>
      search(idx, { x: { extended_stats: { field: 'int_field', sigma: 'foo' } } }),
    );
    expect(f.error.type).toMatch(/(x_content_)?pars(e|ing)_exception/);
  });
});

describe('cardinality (170)', () => {
  it('Basic, precision_threshold, filtered and missing', () => {
    const agg = (extra: object = {}) => ({
      distinct_int: { cardinality: { field: 'int_field', ...extra } },
      distinct_double: { cardinality: { field: 'double_field', ...extra } },
      distinct_string: { cardinality: { field: 'string_field', ...extra } },
    });
    const expected = {
      distinct_int: { value: 4 },
      distinct_double: { value: 4 },
      distinct_string: { value: 1 },
    };
    expect(json(search(idx, agg()))).toEqual(expected);
    expect(json(search(idx, agg({ precision_threshold: 100 })))).toEqual(expected);
    expect(json(search(idx, agg(), filtered))).toEqual({
      distinct_int: { value: 3 },
      distinct_double: { value: 3 },
      distinct_string: { value: 1 },
    });
    expect(
      json(
        search(idx, {
          m: { cardinality: { field: 'missing_field', missing: 'foo' } },
          n: { cardinality: { field: 'missing_field' } },
        }),
      ),
    ).toEqual({
      m: { value: 1 },
      n: { value: 0 },
    });
  });

  it('Invalid Precision test', () => {
    const e = errorOf(() =>
      search(idx, {
        distinct_int: { cardinality: { field: 'int_field', precision_threshold: -1 } },
      }),
    );
    expect(JSON.stringify(e)).toMatch(
      /\[precisionThreshold\] must be greater than or equal to 0. Found \[-1\] in \[distinct_int\]/,
    );
  });

  it('is exact below the threshold and close above it, across shards and segments', () => {
    const many = buildIndex(
      { k: 'keyword', n: 'long' },
      Array.from({ length: 5000 }, (_, i) => ({ k: `t${i % 2500}`, n: i % 2500 })),
      {
        shards: 3,
        refreshEvery: 700,
      },
    );
    const r = json(
      search(many, {
        k: { cardinality: { field: 'k' } },
        n: { cardinality: { field: 'n' } },
        low: { cardinality: { field: 'n', precision_threshold: 10 } },
      }),
    ) as Record<string, { value: number }>;
    expect(r.k!.value).toBe(2500);
    expect(r.n!.value).toBe(2500);
    expect(Math.abs(r.low!.value - 2500) / 2500).toBeLessThan(0.15);
  });
});

describe('percentiles (180) and percentile_ranks', () => {
  const values = {
    '1.0': 1,
    '5.0': 1,
    '25.0': 26,
    '50.0': 76,
    '75.0': 126,
    '95.0': 151,
    '99.0': 151,
  };

  it('Basic test (compression 100 and 200)', () => {
    expect(
      json(
        search(idx, {
          p: { percentiles: { field: 'int_field' } },
          q: { percentiles: { field: 'double_field' } },
        }),
      ),
    ).toEqual({
      p: { values },
      q: { values },
    });
    expect(
      json(
        search(idx, { p: { percentiles: { field: 'int_field', tdigest: { compression: 200 } } } }),
      ),
    ).toEqual({ p: { values } });
  });

  it('Filtered test', () => {
    expect(json(search(idx, { p: { percentiles: { field: 'int_field' } } }, filtered))).toEqual({
      p: {
        values: {
          '1.0': 51,
          '5.0': 51,
          '25.0': 63.5,
          '50.0': 101,
          '75.0': 138.5,
          '95.0': 151,
          '99.0': 151,
        },
      },
    });
  });

  it('Missing field with missing param; no values give "NaN"', () => {
    expect(
      json(search(idx, { p: { percentiles: { field: 'missing_field', missing: 1.0 } } })),
    ).toEqual({
      p: { values: { '1.0': 1, '5.0': 1, '25.0': 1, '50.0': 1, '75.0': 1, '95.0': 1, '99.0': 1 } },
    });
    const r = json(search(idx, { p: { percentiles: { field: 'missing_field', percents: [50] } } }));
    expect(r).toEqual({ p: { values: { '50.0': 'NaN' } } });
  });

  it('Explicit percents, non-keyed output, percentile_ranks', () => {
    const r = json(
      search(idx, {
        e: { percentiles: { field: 'int_field', percents: [50.0, 5.0, 25.0] } },
        k: { percentiles: { field: 'int_field', percents: [5.0, 25.0, 50.0], keyed: false } },
        r: { percentile_ranks: { field: 'int_field', values: [76, 200] } },
      }),
    );
    expect(r).toEqual({
      e: { values: { '5.0': 1, '25.0': 26, '50.0': 76 } },
      k: {
        values: [
          { key: 5, value: 1 },
          { key: 25, value: 26 },
          { key: 50, value: 76 },
        ],
      },
      r: { values: { '76.0': 50, '200.0': 100 } },
    });
  });

  it('Invalid params test', () => {
    expect(
      JSON.stringify(
        errorOf(() =>
          search(idx, {
            percentiles_int: { percentiles: { field: 'int_field', tdigest: { compression: -1 } } },
          }),
        ),
      ),
    ).toMatch(
      /\[compression\] must be greater than or equal to 0. Found \[-1.0\] in \[percentiles_int\]/,
    );
    expect(
      errorOf(() => search(idx, { p: { percentiles: { field: 'int_field', percents: null } } }))
        .status,
    ).toBe(400);
    expect(
      errorOf(() => search(idx, { p: { percentiles: { field: 'int_field', percents: ['foo'] } } }))
        .status,
    ).toBe(400);
    expect(
      errorOf(() => search(idx, { p: { percentiles: { field: 'string_field' } } })).status,
    ).toBe(400);
    expect(
      JSON.stringify(
        errorOf(() =>
          search(idx, { p: { percentiles: { field: 'int_field', hdr: {}, percents: [] } } }),
        ),
      ),
    ).toMatch(/\[percents\] must not be empty/);
  });
});

describe('hdr percentiles (190) and percentile_ranks', () => {
  const expected = {
    '1.0': 1.0,
    '5.0': 1.0,
    '25.0': 1.0,
    '50.0': 51.0302734375,
    '75.0': 101.0615234375,
    '95.0': 151.1240234375,
    '99.0': 151.1240234375,
  };
  it('Basic test, only aggs, metadata (1-3 shards; digits 3 explicit or default)', () => {
    for (const shards of [1, 2, 3]) {
      const ix = buildIndex(
        { int_field: 'integer', double_field: 'double', string_field: 'keyword' },
        docs,
        { shards },
      );
      const r = json(
        search(ix, {
          i: { meta: { foo: 'bar' }, percentiles: { field: 'int_field', hdr: {} } },
          d: {
            percentiles: {
              field: 'double_field',
              hdr: { number_of_significant_value_digits: 3 },
            },
          },
        }),
      );
      expect(r).toEqual({ i: { meta: { foo: 'bar' }, values: expected }, d: { values: expected } });
    }
  });

  it('Filtered test', () => {
    expect(
      json(search(idx, { p: { percentiles: { field: 'int_field', hdr: {} } } }, filtered)),
    ).toEqual({
      p: {
        values: {
          '1.0': 51.0,
          '5.0': 51.0,
          '25.0': 51.0,
          '50.0': 101.03125,
          '75.0': 101.03125,
          '95.0': 151.09375,
          '99.0': 151.09375,
        },
      },
    });
  });

  it('Missing field with and without missing param', () => {
    const r = json(
      search(idx, {
        m: { percentiles: { field: 'missing_field', missing: 1.0, hdr: {} } },
        n: { percentiles: { field: 'missing_field', hdr: {}, percents: [50] } },
      }),
    ) as Record<string, { values: Record<string, unknown> }>;
    expect(Object.values(r.m!.values)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(r.n!.values).toEqual({ '50.0': 'NaN' });
  });

  it('Explicit percents, non-keyed, typed keys, percentile_ranks', () => {
    const r = json(
      search(
        idx,
        {
          e: { percentiles: { field: 'int_field', percents: [5.0, 25.0, 50.0], hdr: {} } },
          k: {
            percentiles: { field: 'int_field', percents: [5.0, 25.0, 50.0], keyed: false, hdr: {} },
          },
          r: { percentile_ranks: { field: 'int_field', values: [1, 51, 100, 151, 1000], hdr: {} } },
        },
        { typedKeys: true },
      ),
    );
    expect(r).toEqual({
      'hdr_percentiles#e': { values: { '5.0': 1.0, '25.0': 1.0, '50.0': 51.0302734375 } },
      'hdr_percentiles#k': {
        values: [
          { key: 5.0, value: 1.0 },
          { key: 25.0, value: 1.0 },
          { key: 50.0, value: 51.0302734375 },
        ],
      },
      'hdr_percentile_ranks#r': {
        values: { '1.0': 25, '51.0': 50, '100.0': 50, '151.0': 100, '1000.0': 100 },
      },
    });
  });

  it('Invalid params test', () => {
    for (const d of [-1, 10]) {
      expect(
        JSON.stringify(
          errorOf(() =>
            search(idx, {
              p: {
                percentiles: { field: 'int_field', hdr: { number_of_significant_value_digits: d } },
              },
            }),
          ),
        ),
      ).toMatch(/\[numberOfSignificantValueDigits\] must be between 0 and 5/);
    }
    for (const body of [
      { field: 'int_field', hdr: { number_of_significant_value_digits: null } },
      { field: 'int_field', hdr: {}, percents: null },
      { field: 'int_field', hdr: {}, percents: ['foo'] },
      { field: 'string_field', hdr: {} },
    ]) {
      expect(errorOf(() => search(idx, { p: { percentiles: body } })).status).toBe(400);
    }
  });

  it('Negative values test: the shard holding -10 fails with array_index_out_of_bounds_exception', () => {
    const ix = buildIndex({ int_field: 'integer' }, [...docs, { int_field: -10 }], { shards: 1 });
    const e = errorOf(() => search(ix, { p: { percentiles: { field: 'int_field', hdr: {} } } }));
    expect(e.error.type).toBe('array_index_out_of_bounds_exception');
    expect(e.error.reason).toBe(
      'The value -10.0 is out of bounds for histogram, current covered range [1.0, 256.0) cannot be extended any further.\nCaused by: java.lang.ArrayIndexOutOfBoundsException: Negative values cannot be recorded',
    );
  });

  it('agrees with HdrHistogram on spread-out values (auto-ranging and resizing)', () => {
    const ix = buildIndex(
      { v: 'double' },
      [0.001, 0.5, 3, 1234.5, 1e6, 42, 0, 7.25].map((v) => ({ v })),
      { shards: 1 },
    );
    const r = json(
      search(ix, { p: { percentiles: { field: 'v', percents: [0, 10, 50, 90, 100], hdr: {} } } }),
    ) as { p: { values: Record<string, number> } };
    // monotone, within 0.1% (3 significant digits) of the exact order statistics
    const exact = [0, 0, 3, 1234.5, 1e6];
    Object.values(r.p.values).forEach((v, i) => {
      expect(Math.abs(v - exact[i]!)).toBeLessThanOrEqual(exact[i]! * 0.001 + 1e-9);
    });
  });
});

describe('weighted_avg (260) and median_absolute_deviation (270)', () => {
  it('weighted_avg Basic test', () => {
    const w = buildIndex(
      { int_field: 'integer', double_field: 'double' },
      [1, 2, 3, 4].map((v) => ({ int_field: v, double_field: v })),
      { shards: 2 },
    );
    expect(
      json(
        search(w, {
          the_int_avg: {
            weighted_avg: { value: { field: 'int_field' }, weight: { field: 'int_field' } },
          },
          the_double_avg: {
            weighted_avg: { value: { field: 'double_field' }, weight: { field: 'double_field' } },
          },
        }),
      ),
    ).toEqual({ the_int_avg: { value: 3 }, the_double_avg: { value: 3 } });
  });

  const mad = buildIndex(
    { int_field: 'integer', double_field: 'double', incomplete_field: 'integer' },
    [
      { int_field: 100, double_field: 100.0, incomplete_field: 1000 },
      { int_field: 200, double_field: 200.0, incomplete_field: 2000 },
      { int_field: 300, double_field: 300.0 },
    ],
  );

  it('basic test, compression, no documents, missing value', () => {
    expect(
      json(
        search(mad, {
          a: { median_absolute_deviation: { field: 'int_field' } },
          b: { median_absolute_deviation: { field: 'double_field', compression: 500 } },
        }),
      ),
    ).toEqual({
      a: { value: 100 },
      b: { value: 100 },
    });
    expect(
      json(
        search(
          mad,
          { n: { median_absolute_deviation: { field: 'non_existent_field' } } },
          { query: { term: { non_existent_field: 'x' } } },
        ),
      ),
    ).toEqual({
      n: { value: null },
    });
    expect(
      json(
        search(mad, {
          m: { median_absolute_deviation: { field: 'incomplete_field', missing: 3000 } },
        }),
      ),
    ).toEqual({ m: { value: 1000 } });
  });

  it('bad arguments', () => {
    expect(
      JSON.stringify(
        errorOf(() =>
          search(mad, {
            mad: { median_absolute_deviation: { field: 'int_field', compression: 0 } },
          }),
        ),
      ),
    ).toMatch(/\[compression\] must be greater than 0. Found \[0.0\] in \[mad\]/);
    expect(
      JSON.stringify(
        errorOf(() =>
          search(mad, {
            mad: { median_absolute_deviation: { field: 'int_field', compression: -1 } },
          }),
        ),
      ),
    ).toMatch(/\[compression\] must be greater than 0. Found \[-1.0\] in \[mad\]/);
  });
});
