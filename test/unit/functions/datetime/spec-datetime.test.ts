/**
 * Literal-only cases of datetime.csv-spec, date.csv-spec, time.csv-spec and
 * datetime-interval.csv-spec (ES 7.10), evaluated through the runtime.
 */
import { describe, expect, it } from 'vitest';
import * as arith from '../../../../src/functions/arithmetic.js';
import { convert } from '../../../../src/functions/convert.js';
import { dateAdd, dateDiff } from '../../../../src/functions/datetime/date-add-diff.js';
import { datePart, dateTrunc } from '../../../../src/functions/datetime/date-part-trunc.js';
import * as ex from '../../../../src/functions/datetime/extract.js';
import { intervalOf, parseInterval, negateInterval } from '../../../../src/functions/intervals.js';
import { javaToString } from '../../../../src/functions/java-text.js';

const dt = (s: string) => convert(s, 'DATETIME');
const date = (s: string) => convert(s, 'DATE');
const time = (s: string) => convert(s, 'TIME');
const str = (v: unknown) => convert(v, 'KEYWORD', 'DATETIME');
const Z = 'Z';

describe('datetime.csv-spec literals', () => {
  it('selectAddWithDateTime', () => {
    const base = dt('2019-09-04T11:22:33.123Z');
    const cases: Array<[string, number, string]> = [
      ['year', 10, '2029-09-04T11:22:33.123Z'],
      ['quarter', -10, '2017-03-04T11:22:33.123Z'],
      ['month', 20, '2021-05-04T11:22:33.123Z'],
      ['week', -50, '2018-09-19T11:22:33.123Z'],
      ['day', 200, '2020-03-22T11:22:33.123Z'],
      ['hours', -3000, '2019-05-02T11:22:33.123Z'],
      ['minutes', 5678, '2019-09-08T10:00:33.123Z'],
      ['second', 987654, '2019-09-15T21:43:27.123Z'],
      ['milliseconds', -12345678, '2019-09-04T07:56:47.445Z'],
      ['mcs', -12345678, '2019-09-04T11:22:20.777Z'],
      ['nanosecond', 12345600, '2019-09-04T11:22:33.135Z'],
    ];
    for (const [unit, n, expected] of cases)
      expect(str(dateAdd(unit, n, base, Z)), unit).toBe(expected);
  });
  it('selectAddWithDate', () => {
    const base = date('2019-09-04');
    const cases: Array<[string, number, string]> = [
      ['year', 10, '2029-09-04T00:00:00.000Z'],
      ['quarter', -10, '2017-03-04T00:00:00.000Z'],
      ['month', 20, '2021-05-04T00:00:00.000Z'],
      ['week', -50, '2018-09-19T00:00:00.000Z'],
      ['day', 200, '2020-03-22T00:00:00.000Z'],
      ['hours', -3000, '2019-05-02T00:00:00.000Z'],
      ['minutes', 5678, '2019-09-07T22:38:00.000Z'],
      ['second', 987654, '2019-09-15T10:20:54.000Z'],
      ['milliseconds', 4314144, '2019-09-04T01:11:54.144Z'],
      ['mcs', -12345678, '2019-09-03T23:59:47.654Z'],
      ['nanosecond', 12345600, '2019-09-04T00:00:00.012Z'],
    ];
    for (const [unit, n, expected] of cases)
      expect(str(dateAdd(unit, n, base, Z)), unit).toBe(expected);
  });
  it('selectDiffWithDateTime', () => {
    const d = (unit: string, a: string, b: string) => dateDiff(unit, dt(a), dt(b), Z);
    expect(d('year', '2019-09-04T11:22:33.123Z', '2076-01-12T22:11:55.123Z')).toBe(57);
    expect(d('quarter', '2048-02-14T22:11:55.123Z', '2019-09-04T11:22:33.123Z')).toBe(-114);
    expect(d('month', '2019-09-04T11:22:33.123Z', '2053-07-02T01:31:13.987Z')).toBe(406);
    expect(d('week', '2019-09-04T11:22:33.123Z', '2001-07-14T21:41:43.321Z')).toBe(-947);
    expect(d('day', '2019-09-04T11:22:33.123Z', '2027-05-30T12:44:22.425Z')).toBe(2825);
    expect(d('hours', '2019-09-04T14:10:12.432Z', '2005-08-14T01:12:32.432Z')).toBe(-123228);
    expect(d('minutes', '2019-03-05T11:33:22.456Z', '2026-04-30T05:29:52.652Z')).toBe(3762356);
    expect(d('second', '2020-01-01T11:22:33.532Z', '2019-09-04T15:47:56.987Z')).toBe(-10265677);
    expect(d('milliseconds', '2019-09-10T11:22:33.123Z', '2019-09-12T20:33:22.987Z')).toBe(
      205849864,
    );
    expect(d('mcs', '2019-09-04T11:25:21.123456Z', '2019-09-04T11:22:33.987654Z')).toBe(-167135802);
    expect(
      d('nanosecond', '2019-09-04T11:22:43.987654321Z', '2019-09-04T11:22:44.123456789Z'),
    ).toBe(135802468);
  });
  it('selectDiffWithDate', () => {
    const d = (unit: string, a: string, b: string) => dateDiff(unit, date(a), date(b), Z);
    expect(d('year', '2010-12-10', '2019-09-04')).toBe(9);
    expect(d('quarter', '2042-06-12', '2019-09-04')).toBe(-91);
    expect(d('month', '2019-09-04', '2042-02-24')).toBe(269);
    expect(d('week', '2031-05-17', '2019-09-04')).toBe(-610);
    expect(d('day', '2019-09-04', '2051-08-30')).toBe(11683);
    expect(d('hours', '2027-01-02', '2019-09-04')).toBe(-64248);
    expect(d('minutes', '2019-09-04', '2022-11-11')).toBe(1676160);
    expect(d('second', '2020-02-14', '2019-09-04')).toBe(-14083200);
    expect(d('milliseconds', '2019-09-04', '2019-09-06')).toBe(172800000);
    expect(d('mcs', '2019-09-04', '2019-09-04')).toBe(0);
  });
  it('selectDateTruncWithDateTime / WithDate / WithInterval', () => {
    const t = (part: string, v: unknown) => str(dateTrunc(part, v, Z));
    const x = dt('2019-09-04T11:22:33.123Z');
    expect([
      t('hour', x),
      t('minute', x),
      t('seconds', x),
      t('ms', x),
      t('mcs', x),
      t('nanoseconds', x),
    ]).toEqual([
      '2019-09-04T11:00:00.000Z',
      '2019-09-04T11:22:00.000Z',
      '2019-09-04T11:22:33.000Z',
      '2019-09-04T11:22:33.123Z',
      '2019-09-04T11:22:33.123Z',
      '2019-09-04T11:22:33.123Z',
    ]);
    const d = date('2019-09-04');
    expect(
      ['millennia', 'century', 'decades', 'year', 'quarter', 'month', 'week', 'day'].map((p) =>
        t(p, d),
      ),
    ).toEqual([
      '2000-01-01T00:00:00.000Z',
      '2000-01-01T00:00:00.000Z',
      '2010-01-01T00:00:00.000Z',
      '2019-01-01T00:00:00.000Z',
      '2019-07-01T00:00:00.000Z',
      '2019-09-01T00:00:00.000Z',
      '2019-09-02T00:00:00.000Z',
      '2019-09-04T00:00:00.000Z',
    ]);
    const i = parseInterval('1 12:43:21', 'INTERVAL_DAY_TO_SECOND');
    expect(
      ['hour', 'minute', 'seconds', 'ms', 'mcs', 'nanoseconds'].map((p) =>
        javaToString(dateTrunc(p, i, Z)),
      ),
    ).toEqual([
      '+1 12:00:00',
      '+1 12:43:00',
      '+1 12:43:21',
      '+1 12:43:21',
      '+1 12:43:21',
      '+1 12:43:21',
    ]);
  });
  it('selectDatePartWithDate / WithDateTime', () => {
    const parts = [
      'year',
      'quarter',
      'month',
      'dayofyear',
      'day',
      'week',
      'weekday',
      'hour',
      'minute',
      'second',
      'millisecond',
      'mcs',
      'ns',
      'tz',
    ];
    expect(parts.map((p) => datePart(p, date('2019-09-04'), Z))).toEqual([
      2019, 3, 9, 247, 4, 36, 4, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(parts.map((p) => datePart(p, dt('2019-09-04T11:22:33.123Z'), Z))).toEqual([
      2019, 3, 9, 247, 4, 36, 4, 11, 22, 33, 123, 123000, 123000000, 0,
    ]);
  });
  it('ISO week and week-of-year edges', () => {
    expect(ex.isoWeekOfYear(dt('2005-01-01T00:00:00.000Z'), Z)).toBe(53);
    expect(ex.weekOfYear(dt('2005-01-01T00:00:00.000Z'), Z)).toBe(1);
    expect(ex.isoWeekOfYear(dt('2007-12-31T00:00:00.000Z'), Z)).toBe(1);
    expect(ex.weekOfYear(dt('2007-12-31T00:00:00.000Z'), Z)).toBe(53);
  });
  it('accepts both T and space separated casts', () => {
    expect(str(dt('2020-06-01T10:20:30Z'))).toBe('2020-06-01T10:20:30.000Z');
    expect(str(dt('2020-06-01 10:20:30.000Z'))).toBe('2020-06-01T10:20:30.000Z');
  });
});

describe('date/time/interval csv-spec literals', () => {
  it('date + year-month interval (date.csv-spec)', () => {
    const v = arith.add(date('2019-01-21'), parseInterval('1-2', 'INTERVAL_YEAR_TO_MONTH'));
    expect(ex.year(v, Z)).toBe(2020);
    expect(
      ex.monthOfYear(
        arith.add(parseInterval('1-2', 'INTERVAL_YEAR_TO_MONTH'), date('2019-01-21')),
        Z,
      ),
    ).toBe(3);
  });
  it('time + interval (time.csv-spec)', () => {
    expect(
      ex.hourOfDay(arith.add(time('10:11:12.345'), parseInterval('20', 'INTERVAL_HOUR')), Z),
    ).toBe(6);
    expect(
      ex.secondOfMinute(arith.add(parseInterval('40', 'INTERVAL_SECOND'), time('10:11:12.345')), Z),
    ).toBe(52);
  });
  it('interval literals (datetime-interval.csv-spec)', () => {
    const t = (text: string, type: Parameters<typeof parseInterval>[1]) =>
      javaToString(parseInterval(text, type));
    expect(javaToString(intervalOf(1, 'YEAR', 'INTERVAL_YEAR'))).toBe('+1-0');
    expect(javaToString(intervalOf(2, 'MONTH', 'INTERVAL_MONTH'))).toBe('+0-2');
    expect(javaToString(intervalOf(3, 'DAY', 'INTERVAL_DAY'))).toBe('+3 00:00:00');
    expect(t('326', 'INTERVAL_MONTH')).toBe('+0-326');
    expect(t('163', 'INTERVAL_HOUR')).toBe('+6 19:00:00');
    expect(t('223.16', 'INTERVAL_SECOND')).toBe('+0 00:03:43.16');
    expect(t('163 12:39:59.163', 'INTERVAL_DAY_TO_SECOND')).toBe('+163 12:39:59.163');
    expect(
      javaToString(negateInterval(parseInterval('163 23:39:56.23', 'INTERVAL_DAY_TO_SECOND'))),
    ).toBe('-163 23:39:56.23');
    expect(t('163:39:59.163', 'INTERVAL_HOUR_TO_SECOND')).toBe('+6 19:39:59.163');
    expect(t('163:59.163', 'INTERVAL_MINUTE_TO_SECOND')).toBe('+0 02:43:59.163');
    expect(javaToString(arith.mul(-2, parseInterval('1 23:45', 'INTERVAL_DAY_TO_MINUTE')))).toBe(
      '-3 23:30:00',
    );
    expect(javaToString(arith.mul(4, negateInterval(parseInterval('2', 'INTERVAL_HOUR'))))).toBe(
      '-0 08:00:00',
    );
    expect(javaToString(arith.mul(-5, negateInterval(parseInterval('3', 'INTERVAL_HOUR'))))).toBe(
      '+0 15:00:00',
    );
    expect(arith.mul(null, parseInterval('1 23:45', 'INTERVAL_DAY_TO_MINUTE'))).toBeNull();
    expect(arith.sub(parseInterval('1', 'INTERVAL_DAY'), null)).toBeNull();
  });
});
