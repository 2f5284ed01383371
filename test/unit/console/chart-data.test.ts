/** Chart series from aggregation answers and SQL results, and the kind each suits. */
import { describe, expect, it } from 'vitest';
import { chartFromAggs, chartFromSql } from '../../../console/src/chart-data.js';

describe('console chart data', () => {
  it('charts terms buckets as bars (or a pie) of doc counts', () => {
    const c = chartFromAggs({
      by_state: {
        buckets: [
          { key: 'TX', doc_count: 30 },
          { key: 'MD', doc_count: 28 },
        ],
      },
    })!;
    expect(c).toMatchObject({ title: 'by_state', labels: ['TX', 'MD'], values: [30, 28] });
    expect(c).toMatchObject({
      preferred: 'bar',
      kinds: ['bar', 'pie'],
      time: false,
      valueName: 'doc_count',
    });
  });

  it('charts a date histogram as a line over time, of its first metric when it has one', () => {
    const c = chartFromAggs({
      per_day: {
        buckets: [
          { key: 1600000000000, key_as_string: '2020-09-13', doc_count: 3, avg_b: { value: 7.5 } },
          { key: 1600086400000, key_as_string: '2020-09-14', doc_count: 4, avg_b: { value: 9 } },
        ],
      },
    })!;
    expect(c).toMatchObject({ preferred: 'line', time: true, xs: [1600000000, 1600086400] });
    expect(c).toMatchObject({ values: [7.5, 9], valueName: 'avg_b' });
  });

  it('finds buckets under single-bucket aggregations and keyed buckets', () => {
    expect(
      chartFromAggs({ f: { doc_count: 9, inner: { buckets: [{ key: 1, doc_count: 9 }] } } }),
    ).toMatchObject({
      title: 'inner',
      preferred: 'line',
    });
    expect(
      chartFromAggs({ r: { buckets: { low: { doc_count: 1 }, high: { doc_count: 2 } } } }),
    ).toMatchObject({
      labels: ['low', 'high'],
      values: [1, 2],
    });
    expect(chartFromAggs({ avg: { value: 3 } })).toBeNull();
    expect(chartFromAggs(undefined)).toBeNull();
  });

  it('charts a SQL GROUP BY: labels from the first text column, values from the first number', () => {
    const c = chartFromSql(
      [
        { name: 'state', type: 'keyword' },
        { name: 'n', type: 'long' },
      ],
      [
        ['TX', 30],
        ['MD', 28],
      ],
    )!;
    expect(c).toMatchObject({
      title: 'n by state',
      labels: ['TX', 'MD'],
      values: [30, 28],
      preferred: 'bar',
    });
    const t = chartFromSql(
      [
        { name: 'day', type: 'datetime' },
        { name: 'n', type: 'long' },
      ],
      [['2020-09-13T00:00:00.000Z', 1]],
    )!;
    expect(t).toMatchObject({ time: true, preferred: 'line', xs: [1599955200] });
    expect(chartFromSql([{ name: 's', type: 'keyword' }], [['a']])).toBeNull();
    expect(chartFromSql([{ name: 'n', type: 'long' }], [])).toBeNull();
  });
});
