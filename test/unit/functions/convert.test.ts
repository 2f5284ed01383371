import { describe, expect, it } from 'vitest';
import { canConvert, convert, converterFor } from '../../../src/functions/convert.js';
import { isoDateTimeWithMillis, isoTimeWithMillis } from '../../../src/functions/datetime/iso.js';
import { DateTimeValue, TimeValue } from '../../../src/functions/values.js';
import { zoneOf } from '../../../src/functions/datetime/zones.js';
import { EsError } from '../../../src/common/errors.js';

function error(f: () => unknown): EsError {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('CAST semantics (SqlDataTypeConverter)', () => {
  it('parses strings like Java Integer/Long/Double.valueOf', () => {
    expect(convert('123', 'INTEGER')).toBe(123);
    expect(convert('-42', 'LONG')).toBe(-42);
    expect(convert('  2.5 ', 'DOUBLE')).toBe(2.5);
    expect(convert('1e3', 'DOUBLE')).toBe(1000);
    expect(convert('1.5', 'FLOAT')).toBe(1.5);
    expect(convert('TRUE', 'BOOLEAN')).toBe(true);
  });

  it('reports ES wording for bad strings, with the Java cause', () => {
    const e = error(() => convert('a', 'INTEGER'));
    expect(e.type).toBe('ql_illegal_argument_exception');
    expect(e.reason).toBe('cannot cast [a] to [integer]');
    expect(e.status).toBe(400);
    expect(e.causedBy?.type).toBe('number_format_exception');
    expect(e.causedBy?.reason).toBe('For input string: "a"');
    expect(error(() => convert('1.5', 'LONG')).reason).toBe('cannot cast [1.5] to [long]');
    expect(error(() => convert('40000', 'SHORT')).causedBy?.reason).toBe(
      'Value out of range. Value:"40000" Radix:10',
    );
    expect(error(() => convert('maybe', 'BOOLEAN')).reason).toBe(
      'cannot cast [maybe] to [boolean]',
    );
    expect(error(() => convert('1.2.3.4.5', 'IP')).reason).toBe(
      '[1.2.3.4.5] is not a valid IPv4 or IPv6 address',
    );
  });

  it('rounds rationals and checks ranges like safeToLong/safeToInt', () => {
    expect(convert(2.5, 'INTEGER')).toBe(3);
    expect(convert(-2.5, 'INTEGER')).toBe(-2);
    expect(error(() => convert(3e10, 'INTEGER')).reason).toBe(
      '[30000000000] out of [integer] range',
    );
    expect(error(() => convert(1e20, 'LONG')).reason).toBe('[1.0E20] out of [long] range');
    expect(error(() => convert(200, 'BYTE')).reason).toBe('[200] out of [byte] range');
    expect(convert(1.1, 'FLOAT')).toBe(Math.fround(1.1));
  });

  it('prints numbers by their source type', () => {
    expect(convert(1, 'KEYWORD', 'DOUBLE')).toBe('1.0');
    expect(convert(1, 'KEYWORD', 'INTEGER')).toBe('1');
    expect(convert(1e7, 'KEYWORD', 'DOUBLE')).toBe('1.0E7');
    expect(convert(Math.fround(1.1), 'KEYWORD', 'FLOAT')).toBe('1.1');
    expect(convert(true, 'KEYWORD')).toBe('true');
  });

  it('converts temporals', () => {
    const dt = convert('2018-05-13T12:34:56.789+02:00', 'DATETIME') as DateTimeValue;
    expect(isoDateTimeWithMillis(dt)).toBe('2018-05-13T10:34:56.789Z');
    expect(convert(dt, 'KEYWORD')).toBe('2018-05-13T10:34:56.789Z');
    expect(convert(dt, 'LONG')).toBe(Date.UTC(2018, 4, 13, 10, 34, 56, 789));
    expect(isoDateTimeWithMillis(convert(dt, 'DATE') as DateTimeValue)).toBe(
      '2018-05-13T00:00:00.000Z',
    );
    expect(convert(convert(dt, 'DATE'), 'KEYWORD', 'DATE')).toBe('2018-05-13');
    expect(isoTimeWithMillis(convert(dt, 'TIME') as TimeValue)).toBe('10:34:56.789Z');
    expect(isoDateTimeWithMillis(convert('2018-05-13 12:34:56', 'DATETIME') as DateTimeValue)).toBe(
      '2018-05-13T12:34:56.000Z',
    );
    expect(isoTimeWithMillis(convert('10:20:30+01:00', 'TIME') as TimeValue)).toBe(
      '10:20:30.000+01:00',
    );
    expect(isoTimeWithMillis(convert(-1, 'TIME') as TimeValue)).toBe('23:59:59.999Z');
    expect(convert(new TimeValue(3_600e9, 3600), 'LONG', 'TIME')).toBe(0);
    const berlin = new DateTimeValue(Date.UTC(2020, 6, 1, 22, 30), 0, zoneOf('Europe/Berlin'));
    expect(isoDateTimeWithMillis(convert(berlin, 'DATE') as DateTimeValue)).toBe(
      '2020-07-02T00:00:00.000+02:00',
    );
  });

  it('reports java.time parse errors inside the cast message', () => {
    const e = error(() => convert('2019-1-1', 'DATETIME'));
    expect(e.reason).toBe(
      "cannot cast [2019-1-1] to [datetime]: Text '2019-1-1' could not be parsed at index 5",
    );
    expect(e.status).toBe(500);
    expect(error(() => convert('2019-01-01T25:00', 'DATETIME')).reason).toBe(
      "cannot cast [2019-01-01T25:00] to [datetime]: Text '2019-01-01T25:00' could not be parsed: Invalid value for HourOfDay (valid values 0 - 23): 25",
    );
    expect(error(() => convert('2019-01-01x', 'DATE')).reason).toBe(
      "cannot cast [2019-01-01x] to [date]: Text '2019-01-01x' could not be parsed, unparsed text found at index 10",
    );
  });

  it('knows which casts exist', () => {
    expect(canConvert('KEYWORD', 'INTEGER')).toBe(true);
    expect(canConvert('NULL', 'GEO_POINT')).toBe(true);
    expect(canConvert('BOOLEAN', 'IP')).toBe(false);
    expect(canConvert('INTERVAL_DAY', 'LONG')).toBe(false);
    expect(canConvert('INTERVAL_DAY', 'KEYWORD')).toBe(true);
    expect(canConvert('TIME', 'DATE')).toBe(false);
    expect(canConvert('DATE', 'TIME')).toBe(true);
    expect(canConvert('OBJECT', 'KEYWORD')).toBe(false);
    expect(converterFor('TIME', 'DATETIME')).toBeNull();
  });
});

describe('javaRound (Math.round)', () => {
  it('rounds half up without floating point surprises', async () => {
    const { javaRound } = await import('../../../src/functions/convert.js');
    expect(javaRound(2.5)).toBe(3);
    expect(javaRound(-2.5)).toBe(-2);
    expect(javaRound(0.49999999999999994)).toBe(0);
    expect(javaRound(4503599627370497)).toBe(4503599627370497);
    expect(javaRound(NaN)).toBe(0);
    expect(javaRound(1e300)).toBe(9223372036854775807);
  });
});
