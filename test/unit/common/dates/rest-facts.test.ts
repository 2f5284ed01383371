// Date behaviour the ES 6.8 REST YAML tests rely on (search.aggregation/10_histogram, 20_terms,
// 40_range, 230_composite, search/140_pre_filter_search_shards), checked at the level of this module.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATE_FORMAT,
  UTC,
  calendarRounding,
  dateFormatter,
  dateRangeBounds,
  parseDateHistogramInterval,
} from '../../../../src/common/dates/index.js';

const def = dateFormatter(DEFAULT_DATE_FORMAT);

describe('REST test facts', () => {
  it('10_histogram: month buckets and their key_as_string', () => {
    const docs = ['2016-01-01', '2016-01-02', '2016-02-01', '2016-03-01'].map((d) => def.parse(d));
    const interval = parseDateHistogramInterval('month');
    expect(interval).toEqual({ calendar: 'month' });
    const r = calendarRounding('month', UTC);
    const counts = new Map<number, number>();
    for (const d of docs) counts.set(r.round(d), (counts.get(r.round(d)) ?? 0) + 1);
    const buckets = [...counts].sort((a, b) => b[0] - a[0]).map(([k, c]) => [def.format(k), c]);
    expect(buckets).toEqual([
      ['2016-03-01T00:00:00.000Z', 1],
      ['2016-02-01T00:00:00.000Z', 1],
      ['2016-01-01T00:00:00.000Z', 2],
    ]);
  });

  it('20_terms: date keys print with the field format', () => {
    expect(def.format(1462233600000)).toBe('2016-05-03T00:00:00.000Z');
    expect(def.format(1409529600000)).toBe('2014-09-01T00:00:00.000Z');
  });

  it('40_range: epoch_second date ranges', () => {
    const sec = dateFormatter('epoch_second');
    expect(sec.parse('1000')).toBe(1_000_000);
    expect(sec.format(3_000_000)).toBe('3000');
    const parse = (v: string) => sec.parse(v);
    const ranges: [string, number, number][] = [
      ['Other', -Infinity, parse('200000')],
      ['Generation X', parse('200000'), parse('315561600000')],
      ['Generation Y', parse('315561600000'), parse('946713600000')],
    ];
    const docs = ['28800000000', '315561600000', '631180800000', '10000', '0'].map(parse);
    const counts = ranges.map(([k, from, to]) => [
      k,
      docs.filter((d) => d >= from && d < to).length,
    ]);
    expect(counts).toEqual([
      ['Other', 2],
      ['Generation X', 1],
      ['Generation Y', 2],
    ]);
  });

  it('230_composite: 1d date_histogram source with format yyyy-MM-dd', () => {
    const r = calendarRounding(
      (parseDateHistogramInterval('1d') as { calendar: 'day' }).calendar,
      UTC,
    );
    expect(dateFormatter('yyyy-MM-dd').format(r.round(def.parse('2017-10-20T03:08:45')))).toBe(
      '2017-10-20',
    );
    expect(dateFormatter('yyyy-MM-dd').format(r.round(def.parse('2017-10-21T07:00:00')))).toBe(
      '2017-10-21',
    );
  });

  it('140_pre_filter_search_shards: range bounds with implicit rounding', () => {
    const [lo, hi] = dateRangeBounds('2016-02-01', '2018-02-01', true, false, () => 0);
    expect(lo).toBe(Date.UTC(2016, 1, 1));
    expect(hi).toBe(Date.UTC(2018, 1, 1) - 1);
    // lte rounds the missing fields up, gt rounds up and excludes
    expect(dateRangeBounds('2014-11-18', '2014-11-18', false, true, () => 0)).toEqual([
      Date.UTC(2014, 10, 19),
      Date.UTC(2014, 10, 18, 23, 59, 59, 999),
    ]);
    expect(
      dateRangeBounds('now-1d/d', 'now/d', true, true, () => Date.UTC(2020, 5, 15, 13)),
    ).toEqual([Date.UTC(2020, 5, 14), Date.UTC(2020, 5, 16) - 1]);
    // numbers go through the format as text: 4 characters are a year, longer ones epoch millis
    expect(dateRangeBounds(1000, null, true, true, () => 0)).toEqual([
      Date.UTC(1000, 0, 1),
      Infinity,
    ]);
    expect(dateRangeBounds(1000000, null, true, true, () => 0)).toEqual([1000000, Infinity]);
  });
});
