// ES 6.8 DateHistogramAggregationBuilder interval rules and 7.x DateIntervalWrapper checks.
import { describe, expect, it } from 'vitest';
import {
  DATE_FIELD_UNITS,
  parseCalendarInterval,
  parseDateHistogramInterval,
  parseFixedInterval,
} from '../../../../src/common/dates/index.js';

describe('date histogram intervals', () => {
  it('6.8 interval: calendar names and single units, otherwise fixed time values', () => {
    expect(parseDateHistogramInterval('day')).toEqual({ calendar: 'day' });
    expect(parseDateHistogramInterval('1d')).toEqual({ calendar: 'day' });
    expect(parseDateHistogramInterval('1M')).toEqual({ calendar: 'month' });
    expect(parseDateHistogramInterval('month')).toEqual({ calendar: 'month' });
    expect(parseDateHistogramInterval('1q')).toEqual({ calendar: 'quarter' });
    expect(parseDateHistogramInterval('1y')).toEqual({ calendar: 'year' });
    expect(parseDateHistogramInterval('1w')).toEqual({ calendar: 'week' });
    expect(parseDateHistogramInterval('1m')).toEqual({ calendar: 'minute' });
    expect(parseDateHistogramInterval('2d')).toEqual({ fixedMillis: 172_800_000 });
    expect(parseDateHistogramInterval('90m')).toEqual({ fixedMillis: 5_400_000 });
    expect(parseDateHistogramInterval('1h ')).toEqual({ fixedMillis: 3_600_000 });
    expect(parseDateHistogramInterval(3_600_000)).toEqual({ fixedMillis: 3_600_000 });
    expect(Object.keys(DATE_FIELD_UNITS)).toHaveLength(16);
  });

  it('6.8 interval errors', () => {
    expect(() => parseDateHistogramInterval('1.5h')).toThrow(
      'failed to parse [1.5h], fractional time values are not supported',
    );
    expect(() => parseDateHistogramInterval('2w')).toThrow(
      'failed to parse setting [DateHistogramAggregationBuilder.interval] with value [2w] as a time value: unit is missing or unrecognized',
    );
    expect(() => parseDateHistogramInterval('2M')).toThrow('unit is missing or unrecognized');
    expect(() => parseDateHistogramInterval(0, 'histo')).toThrow(
      '[interval] must be 1 or greater for histogram aggregation [histo]',
    );
    expect(() => parseDateHistogramInterval('0s')).toThrow(
      'Zero or negative time interval not supported',
    );
  });

  it('7.x calendar_interval and fixed_interval', () => {
    expect(parseCalendarInterval('1d')).toEqual({ calendar: 'day' });
    expect(() => parseCalendarInterval('2d')).toThrow(
      'The supplied interval [2d] could not be parsed as a calendar interval.',
    );
    expect(parseFixedInterval('1d')).toEqual({ fixedMillis: 86_400_000 });
    expect(() => parseFixedInterval('1M')).toThrow('unit is missing or unrecognized');
    expect(() => parseFixedInterval('')).toThrow('[interval] must not be null: [date_histogram]');
  });
});
