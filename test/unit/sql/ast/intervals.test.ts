/**
 * INTERVAL strings per type (ES Intervals.PARSERS) and numeric intervals, with ES's messages.
 */
import { describe, expect, it } from 'vitest';
import {
  checkQualifier,
  intervalOf,
  intervalType,
  parseIntervalString,
} from '../../../../src/sql/ast/intervals.js';
import { EsError } from '../../../../src/common/errors.js';

const loc = { line: 1, column: 10 };

function reason(f: () => unknown): string | null {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return e.reason;
    throw e;
  }
  return null;
}

describe('interval literals', () => {
  it('name the type of each qualifier', () => {
    expect(intervalType(loc, 'YEAR', 'MONTH')).toBe('interval_year_to_month');
    expect(intervalType(loc, 'MINUTE', null)).toBe('interval_minute');
    expect(reason(() => intervalType(loc, 'MONTH', 'DAY'))).toBe(
      'line 1:11: Cannot determine datatype for combination [MONTH] [DAY]',
    );
  });

  it('check the trailing unit', () => {
    expect(reason(() => checkQualifier('DAY', 'SECOND', loc))).toBeNull();
    expect(reason(() => checkQualifier('MINUTE', 'HOUR', loc))).toBe(
      'line 1:11: Invalid interval declaration; trailing unit [HOUR] needs to be smaller than leading unit[MINUTE], expected one of [SECOND]',
    );
  });

  it('parse every string format', () => {
    expect(parseIntervalString(loc, '-1-11', 'interval_year_to_month')).toEqual({
      kind: 'YearMonth',
      years: -1,
      months: -11,
    });
    expect(parseIntervalString(loc, '+3 4:05:06.7', 'interval_day_to_second')).toEqual({
      kind: 'DayTime',
      millis: ((3 * 24 + 4) * 3600 + 5 * 60 + 6) * 1000 + 700,
    });
    expect(parseIntervalString(loc, '5.', 'interval_second')).toEqual({
      kind: 'DayTime',
      millis: 5000,
    });
    expect(parseIntervalString(loc, '1.05', 'interval_second')).toEqual({
      kind: 'DayTime',
      millis: 1050,
    });
  });

  it('bound the units after the first and reject stray text', () => {
    expect(reason(() => parseIntervalString(loc, '1 24', 'interval_day_to_hour'))).toBe(
      'line 1:11: Invalid [INTERVAL DAY TO HOUR] value [1 24]: [HOUR] unit has illegal value [24], expected a positive number up to [23]',
    );
    expect(reason(() => parseIntervalString(loc, '1.1234', 'interval_second'))).toBe(
      'line 1:11: Invalid [INTERVAL SECOND] value [1.1234]: [MILLISECOND] unit has illegal value [1234], expected a positive number up to [999]',
    );
    expect(reason(() => parseIntervalString(loc, '99999999999999999999', 'interval_day'))).toBe(
      'line 1:11: Invalid [INTERVAL DAY] value [99999999999999999999]',
    );
  });

  it('reject numeric values out of java.time range', () => {
    expect(intervalOf(loc, 106751991167300n, 'DAY')).toEqual({
      kind: 'DayTime',
      millis: 106751991167300 * 86400000,
    });
    expect(reason(() => intervalOf(loc, 106751991167301n, 'DAY'))).toBe(
      'line 1:11: Value [106751991167301] cannot be used as it is too large to convert into [DAY]s',
    );
  });
});
