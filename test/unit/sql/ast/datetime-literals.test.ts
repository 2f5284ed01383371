/**
 * Date/time text read like ES's java.time formatters, failures worded like
 * DateTimeParseException (ES EscapedFunctionsTests pins some of these texts).
 */
import { describe, expect, it } from 'vitest';
import {
  DateTimeParseError,
  parseDateOnly,
  parseEscapedTimestamp,
  parseStrictDateOptionalTime,
  parseTimeOnly,
} from '../../../../src/sql/ast/datetime-literals.js';

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DateTimeParseError) return e.message;
    throw e;
  }
  return 'parsed';
}

describe('date and time literals', () => {
  it('read dates with an optional time, resolving SMART', () => {
    expect(parseDateOnly('2020-02-29')).toBe('2020-02-29');
    expect(parseDateOnly('2019-02-29')).toBe('2019-02-28');
    expect(parseDateOnly('2020-01-31T24:00')).toBe('2020-02-01');
    expect(parseDateOnly('0099-01-01')).toBe('0099-01-01');
  });

  it('read times with optional seconds, fraction and offset', () => {
    expect(parseTimeOnly('10:11')).toBe('10:11:00.000Z');
    expect(parseTimeOnly('10:11:12.123456789-03:00')).toBe('10:11:12.123456789-03:00');
  });

  it('read timestamps with a space or T', () => {
    expect(parseEscapedTimestamp('2020-01-02 03:04')).toBe('2020-01-02T03:04:00.000Z');
    expect(parseEscapedTimestamp('2020-01-02T03:04:05.5+05:30')).toBe(
      '2020-01-02T03:04:05.500+05:30',
    );
  });

  it('word failures as java.time does', () => {
    expect(message(() => parseDateOnly('2020-1-01'))).toBe(
      "Text '2020-1-01' could not be parsed at index 5",
    );
    expect(message(() => parseDateOnly('2020-01-32'))).toBe(
      "Text '2020-01-32' could not be parsed: Invalid value for DayOfMonth (valid values 1 - 28/31): 32",
    );
    expect(message(() => parseTimeOnly('25:00'))).toBe(
      "Text '25:00' could not be parsed: Invalid value for HourOfDay (valid values 0 - 23): 25",
    );
    expect(message(() => parseTimeOnly('10:60'))).toBe(
      "Text '10:60' could not be parsed: Invalid value for MinuteOfHour (valid values 0 - 59): 60",
    );
    expect(message(() => parseEscapedTimestamp('2020-01-01 10:00 x'))).toBe(
      "Text '2020-01-01 10:00 x' could not be parsed, unparsed text found at index 16",
    );
  });

  it('read ES strict_date_optional_time and convert it to UTC', () => {
    expect(parseStrictDateOptionalTime('2020')).toBe('2020-01-01T00:00:00.000Z');
    expect(parseStrictDateOptionalTime('2020-05-06T07:08:09.123-0100')).toBe(
      '2020-05-06T08:08:09.123Z',
    );
    expect(message(() => parseStrictDateOptionalTime('2020-5-6'))).toBe(
      'failed to parse date field [2020-5-6] with format [strict_date_optional_time]',
    );
  });
});
