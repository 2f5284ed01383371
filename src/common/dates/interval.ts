/**
 * date_histogram interval resolution. ES 6.8 `interval`: the names and single units of
 * DATE_FIELD_UNITS ("day", "1d", "1M", ...) are calendar intervals, any other string is a fixed
 * TimeValue ("90m", "2d"), a number is millis. ES 7.x `calendar_interval` / `fixed_interval`
 * accept only their own kind (DateIntervalWrapper).
 */

import { illegalArgument } from '../errors.js';
import { parseTimeValue } from '../units.js';
import type { CalendarUnit } from './zoned-units.js';

export type DateHistogramInterval = { calendar: CalendarUnit } | { fixedMillis: number };

/** ES DateHistogramAggregationBuilder.DATE_FIELD_UNITS. */
export const DATE_FIELD_UNITS: Readonly<Record<string, CalendarUnit>> = {
  year: 'year',
  '1y': 'year',
  quarter: 'quarter',
  '1q': 'quarter',
  month: 'month',
  '1M': 'month',
  week: 'week',
  '1w': 'week',
  day: 'day',
  '1d': 'day',
  hour: 'hour',
  '1h': 'hour',
  minute: 'minute',
  '1m': 'minute',
  second: 'second',
  '1s': 'second',
};

/**
 * ES 6.8 `interval` (also composite `date_histogram.interval`). `aggName` is used in the
 * numeric-interval error. Fixed intervals under 1ms fail like ES's Rounding.Builder.
 */
export function parseDateHistogramInterval(
  value: string | number,
  aggName = 'date_histogram',
): DateHistogramInterval {
  if (typeof value === 'number') {
    if (value < 1) {
      throw illegalArgument(
        `[interval] must be 1 or greater for histogram aggregation [${aggName}]`,
      );
    }
    return { fixedMillis: value };
  }
  const unit = DATE_FIELD_UNITS[value];
  if (unit) return { calendar: unit };
  return {
    fixedMillis: checkFixed(parseTimeValue(value, 'DateHistogramAggregationBuilder.interval')),
  };
}

/** ES 7.x `calendar_interval`. */
export function parseCalendarInterval(value: string): { calendar: CalendarUnit } {
  if (!value) throw illegalArgument('[interval] must not be null: [date_histogram]');
  const unit = DATE_FIELD_UNITS[value];
  if (!unit) {
    throw illegalArgument(
      `The supplied interval [${value}] could not be parsed as a calendar interval.`,
    );
  }
  return { calendar: unit };
}

/** ES 7.x `fixed_interval`: any TimeValue ("1d" is 24h here, not a calendar day). */
export function parseFixedInterval(value: string): { fixedMillis: number } {
  if (!value) throw illegalArgument('[interval] must not be null: [date_histogram]');
  return { fixedMillis: checkFixed(parseTimeValue(value, 'date_histogram.fixedInterval')) };
}

function checkFixed(millis: number): number {
  if (millis < 1) throw illegalArgument('Zero or negative time interval not supported');
  return millis;
}
