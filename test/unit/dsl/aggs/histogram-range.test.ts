/**
 * histogram, date_histogram, range, date_range and ip_range: rest-api-spec 10_histogram.yml and
 * 40_range.yml expectations, plus empty-bucket filling, extended_bounds, offsets, keyed output,
 * time zones and calendar units.
 */
import { describe, expect, it } from 'vitest';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

const numbers = buildIndex(
  { number: 'integer', date: 'date' },
  [{ number: 1 }, { number: 51 }, { number: 101 }, { number: 151 }],
  {
    shards: 2,
  },
);

describe('histogram (10_histogram.yml)', () => {
  it('Basic test', () => {
    expect(
      json(search(numbers, { histo: { histogram: { field: 'number', interval: 50 } } })),
    ).toEqual({
      histo: {
        buckets: [
          { key: 0, doc_count: 1 },
          { key: 50, doc_count: 1 },
          { key: 100, doc_count: 1 },
          { key: 150, doc_count: 1 },
        ],
      },
    });
  });

  it('Format test (DecimalFormat pattern)', () => {
    const r = json(
      search(numbers, {
        histo: { histogram: { field: 'number', interval: 50, format: 'Value is ##0.0' } },
      }),
    ) as {
      histo: { buckets: Array<{ key: number; key_as_string: string }> };
    };
    expect(r.histo.buckets.map((b) => b.key_as_string)).toEqual([
      'Value is 0.0',
      'Value is 50.0',
      'Value is 100.0',
      'Value is 150.0',
    ]);
  });

  it('Deprecated _time order', () => {
    const idx = buildIndex({ date: 'date' }, [
      { date: '2016-01-01' },
      { date: '2016-01-02' },
      { date: '2016-02-01' },
      { date: '2016-03-01' },
    ]);
    const warnings: string[] = [];
    const r = json(
      search(
        idx,
        {
          histo: { date_histogram: { field: 'date', interval: 'month', order: { _time: 'desc' } } },
        },
        { warnings },
      ),
    );
    expect(r).toEqual({
      histo: {
        buckets: [
          { key_as_string: '2016-03-01T00:00:00.000Z', key: 1456790400000, doc_count: 1 },
          { key_as_string: '2016-02-01T00:00:00.000Z', key: 1454284800000, doc_count: 1 },
          { key_as_string: '2016-01-01T00:00:00.000Z', key: 1451606400000, doc_count: 2 },
        ],
      },
    });
    expect(warnings).toEqual(['Deprecated aggregation order key [_time] used, replaced by [_key]']);
  });

  it('fills empty buckets and extended_bounds; keyed uses Java double keys', () => {
    const r = json(
      search(numbers, {
        e: {
          histogram: { field: 'number', interval: 30, extended_bounds: { min: -60, max: 200 } },
        },
        k: { histogram: { field: 'number', interval: 100, keyed: true } },
        m: { histogram: { field: 'number', interval: 50, min_doc_count: 1, offset: 25 } },
      }),
    ) as Record<string, { buckets: unknown }>;
    expect(
      (r.e!.buckets as Array<{ key: number; doc_count: number }>).map((b) => [b.key, b.doc_count]),
    ).toEqual([
      [-60, 0],
      [-30, 0],
      [0, 1],
      [30, 1],
      [60, 0],
      [90, 1],
      [120, 0],
      [150, 1],
      [180, 0],
    ]);
    expect(r.k!.buckets).toEqual({
      '0.0': { key: 0, doc_count: 2 },
      '100.0': { key: 100, doc_count: 2 },
    });
    expect((r.m!.buckets as Array<{ key: number }>).map((b) => b.key)).toEqual([-25, 25, 75, 125]);
  });

  it('orders by count and by sub-aggregation', () => {
    const idx = buildIndex({ n: 'integer' }, [
      { n: 1 },
      { n: 2 },
      { n: 11 },
      { n: 21 },
      { n: 22 },
      { n: 23 },
    ]);
    const r = json(
      search(idx, {
        c: { histogram: { field: 'n', interval: 10, order: { _count: 'desc' } } },
        s: {
          histogram: { field: 'n', interval: 10, order: { m: 'asc' } },
          aggs: { m: { max: { field: 'n' } } },
        },
      }),
    ) as Record<string, { buckets: Array<{ key: number }> }>;
    expect(r.c!.buckets.map((b) => b.key)).toEqual([20, 0, 10]);
    expect(r.s!.buckets.map((b) => b.key)).toEqual([0, 10, 20]);
  });

  it('rejects a non-positive interval', () => {
    const e = errorOf(() =>
      search(numbers, { h: { histogram: { field: 'number', interval: 0 } } }),
    );
    expect(e.error.caused_by.reason).toBe('[interval] must be >0 for histogram aggregation [h]');
  });
});

describe('date_histogram', () => {
  const idx = buildIndex({ date: 'date' }, [
    { date: '2017-10-20T03:08:45' },
    { date: '2017-10-21T07:00:00' },
    { date: '2017-10-23T23:30:00' },
    { date: '2017-12-31T23:30:00' },
  ]);

  it('calendar and fixed intervals, min_doc_count 0 fills the gaps', () => {
    const r = json(
      search(idx, {
        d: { date_histogram: { field: 'date', interval: 'day', format: 'yyyy-MM-dd' } },
        w: { date_histogram: { field: 'date', interval: 'week', min_doc_count: 1 } },
        q: { date_histogram: { field: 'date', interval: 'quarter' } },
        f: {
          date_histogram: {
            field: 'date',
            interval: '12h',
            min_doc_count: 1,
            format: 'yyyy-MM-dd HH:mm',
          },
        },
      }),
    ) as Record<
      string,
      { buckets: Array<{ key: number; key_as_string: string; doc_count: number }> }
    >;
    expect(r.d!.buckets.slice(0, 4).map((b) => [b.key_as_string, b.doc_count])).toEqual([
      ['2017-10-20', 1],
      ['2017-10-21', 1],
      ['2017-10-22', 0],
      ['2017-10-23', 1],
    ]);
    expect(r.d!.buckets).toHaveLength(73);
    expect(r.w!.buckets.map((b) => b.key_as_string)).toEqual([
      '2017-10-16T00:00:00.000Z',
      '2017-10-23T00:00:00.000Z',
      '2017-12-25T00:00:00.000Z',
    ]);
    expect(r.q!.buckets.map((b) => [b.key_as_string, b.doc_count])).toEqual([
      ['2017-10-01T00:00:00.000Z', 4],
    ]);
    expect(r.f!.buckets.map((b) => b.key_as_string)).toEqual([
      '2017-10-20 00:00',
      '2017-10-21 00:00',
      '2017-10-23 12:00',
      '2017-12-31 12:00',
    ]);
  });

  it('time_zone and offset shift bucket boundaries', () => {
    const r = json(
      search(idx, {
        tz: {
          date_histogram: { field: 'date', interval: 'day', time_zone: '+01:00', min_doc_count: 1 },
        },
        off: {
          date_histogram: { field: 'date', interval: 'day', offset: '+6h', min_doc_count: 1 },
        },
      }),
    ) as Record<string, { buckets: Array<{ key_as_string: string; doc_count: number }> }>;
    expect(r.tz!.buckets.map((b) => [b.key_as_string, b.doc_count])).toEqual([
      ['2017-10-20T00:00:00.000+01:00', 1],
      ['2017-10-21T00:00:00.000+01:00', 1],
      ['2017-10-24T00:00:00.000+01:00', 1],
      ['2018-01-01T00:00:00.000+01:00', 1],
    ]);
    expect(r.off!.buckets.map((b) => b.key_as_string)).toEqual([
      '2017-10-19T06:00:00.000Z',
      '2017-10-21T06:00:00.000Z',
      '2017-10-23T06:00:00.000Z',
      '2017-12-31T06:00:00.000Z',
    ]);
  });

  it('extended_bounds accepts dates and date math', () => {
    const r = json(
      search(
        idx,
        {
          d: {
            date_histogram: {
              field: 'date',
              interval: 'month',
              extended_bounds: { min: '2017-08-15', max: 'now/M' },
            },
          },
        },
        { now: Date.UTC(2018, 1, 10) },
      ),
    ) as { d: { buckets: Array<{ key_as_string: string; doc_count: number }> } };
    expect(r.d.buckets.map((b) => [b.key_as_string.slice(0, 7), b.doc_count])).toEqual([
      ['2017-08', 0],
      ['2017-09', 0],
      ['2017-10', 3],
      ['2017-11', 0],
      ['2017-12', 1],
      ['2018-01', 0],
      ['2018-02', 0],
    ]);
  });
});

describe('range (40_range.yml)', () => {
  const idx = buildIndex(
    { ip: 'ip', double: 'double', date: { type: 'date', format: 'epoch_second' } },
    [{ double: 42 }, { double: 100 }, { double: 50 }],
  );

  it('Double range, with and without explicit nulls', () => {
    const expected = {
      double_range: {
        buckets: [
          { key: '*-50.0', to: 50, doc_count: 1 },
          { key: '50.0-150.0', from: 50, to: 150, doc_count: 2 },
          { key: '150.0-*', from: 150, doc_count: 0 },
        ],
      },
    };
    expect(
      json(
        search(idx, {
          double_range: {
            range: { field: 'double', ranges: [{ to: 50 }, { from: 50, to: 150 }, { from: 150 }] },
          },
        }),
      ),
    ).toEqual(expected);
    expect(
      json(
        search(idx, {
          double_range: {
            range: {
              field: 'double',
              ranges: [
                { from: null, to: 50 },
                { from: 50, to: 150 },
                { from: 150, to: null },
              ],
            },
          },
        }),
      ),
    ).toEqual(expected);
  });

  it('IP range with from/to, keys and masks', () => {
    const ips = buildIndex({ ip: 'ip' }, [
      { ip: '::1' },
      { ip: '192.168.0.1' },
      { ip: '192.168.0.7' },
    ]);
    const r = json(
      search(ips, {
        a: {
          ip_range: {
            field: 'ip',
            ranges: [
              { to: '192.168.0.0' },
              { from: '192.168.0.0', to: '192.169.0.0' },
              { from: '192.169.0.0' },
            ],
          },
        },
        m: { ip_range: { field: 'ip', ranges: [{ mask: '::/24' }, { mask: '192.168.0.0/16' }] } },
      }),
    );
    expect(r).toEqual({
      a: {
        buckets: [
          { key: '*-192.168.0.0', to: '192.168.0.0', doc_count: 1 },
          { key: '192.168.0.0-192.169.0.0', from: '192.168.0.0', to: '192.169.0.0', doc_count: 2 },
          { key: '192.169.0.0-*', from: '192.169.0.0', doc_count: 0 },
        ],
      },
      m: {
        buckets: [
          { key: '::/24', to: '0:100::', doc_count: 3 },
          { key: '192.168.0.0/16', from: '192.168.0.0', to: '192.169.0.0', doc_count: 2 },
        ],
      },
    });
  });

  it('Date range parses numbers with the field format (epoch_second)', () => {
    const d = buildIndex({ date: { type: 'date', format: 'epoch_second' } }, [
      { date: 1000 },
      { date: 2000 },
      { date: 3000 },
    ]);
    const r = json(
      search(d, {
        date_range: {
          date_range: {
            field: 'date',
            ranges: [
              { from: 1000, to: 3000 },
              { from: 3000, to: 4000 },
            ],
          },
        },
      }),
    );
    expect(r).toEqual({
      date_range: {
        buckets: [
          {
            key: '1000-3000',
            from: 1000000,
            from_as_string: '1000',
            to: 3000000,
            to_as_string: '3000',
            doc_count: 2,
          },
          {
            key: '3000-4000',
            from: 3000000,
            from_as_string: '3000',
            to: 4000000,
            to_as_string: '4000',
            doc_count: 1,
          },
        ],
      },
    });
  });

  it('Date Range Missing: custom keys, `missing`, sorted ranges', () => {
    const d = buildIndex({ ip: 'ip', date: { type: 'date', format: 'epoch_second' } }, [
      { date: '28800000000' },
      { date: '315561600000' },
      { date: '631180800000' },
      { date: '10000' },
      { ip: '192.168.0.1' },
    ]);
    const r = json(
      search(d, {
        age_groups: {
          date_range: {
            field: 'date',
            missing: '0',
            ranges: [
              { key: 'Generation Y', from: '315561600000', to: '946713600000' },
              { key: 'Generation X', from: '200000', to: '315561600000' },
              { key: 'Other', to: '200000' },
            ],
          },
        },
      }),
    ) as { age_groups: { buckets: Array<{ key: string; doc_count: number }> } };
    expect(r.age_groups.buckets.map((b) => [b.key, b.doc_count])).toEqual([
      ['Other', 2],
      ['Generation X', 1],
      ['Generation Y', 2],
    ]);
  });

  it('keyed ranges and date math bounds', () => {
    const d = buildIndex({ date: 'date' }, [
      { date: '2016-01-01' },
      { date: '2016-06-01' },
      { date: '2017-01-01' },
    ]);
    const r = json(
      search(
        d,
        {
          k: {
            date_range: {
              field: 'date',
              keyed: true,
              format: 'yyyy',
              ranges: [{ to: 'now-1y/y' }, { from: 'now-1y/y' }],
            },
          },
        },
        { now: Date.UTC(2017, 5, 1) },
      ),
    );
    expect(r).toEqual({
      k: {
        buckets: {
          '*-2016': { to: 1451606400000, to_as_string: '2016', doc_count: 0 },
          '2016-*': { from: 1451606400000, from_as_string: '2016', doc_count: 3 },
        },
      },
    });
  });

  it('requires ranges', () => {
    expect(() => search(idx, { r: { range: { field: 'double', ranges: [] } } })).toThrow(
      'No [ranges] specified for the [r] aggregation',
    );
  });
});
