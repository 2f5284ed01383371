// Expectations from ES 6.8 JodaDateMathParserTests (dateOptionalTime||epoch_millis).
import { describe, expect, it } from 'vitest';
import { dateFormatter, parseDateMath, timeZone } from '../../../../src/common/dates/index.js';
import type { TimeZone } from '../../../../src/common/dates/index.js';
import { EsError } from '../../../../src/common/errors.js';

const formatter = dateFormatter('dateOptionalTime||epoch_millis');
const parse = (s: string, now = 0, roundUp = false, tz?: TimeZone) =>
  parseDateMath(s, () => now, roundUp, tz, formatter);

function assertMath(toTest: string, expected: string, now = 0, roundUp = false, tz?: string) {
  const got = parse(toTest, now, roundUp, tz ? timeZone(tz) : undefined);
  expect(formatter.format(got), toTest).toBe(formatter.format(parse(expected)));
}

function parseError(s: string): EsError {
  try {
    parse(s);
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return e as EsError;
  }
  throw new Error(`expected ${s} to fail`);
}

describe('date math (JodaDateMathParserTests)', () => {
  it('basic dates', () => {
    assertMath('2014', '2014-01-01T00:00:00.000');
    assertMath('2014-05', '2014-05-01T00:00:00.000');
    assertMath('2014-05-30', '2014-05-30T00:00:00.000');
    assertMath('2014-05-30T20', '2014-05-30T20:00:00.000');
    assertMath('2014-05-30T20:21', '2014-05-30T20:21:00.000');
    assertMath('2014-05-30T20:21:35', '2014-05-30T20:21:35.000');
    assertMath('2014-05-30T20:21:35.123', '2014-05-30T20:21:35.123');
  });

  it('rounding does not affect exact dates', () => {
    assertMath('2014-11-12T22:55:00.000Z', '2014-11-12T22:55:00.000Z', 0, true);
    assertMath('2014-11-12T22:55:00.000Z', '2014-11-12T22:55:00.000Z', 0, false);
    assertMath('2014-11-12T22:55:00.000', '2014-11-12T21:55:00.000Z', 0, true, '+01:00');
    assertMath('2014-11-12T22:55:00.000', '2014-11-12T21:55:00.000Z', 0, false, '+01:00');
    assertMath('2014-11-12T22:55:00.000+01:00', '2014-11-12T21:55:00.000Z', 0, true);
    assertMath('2014-11-12T22:55:00.000+01:00', '2014-11-12T21:55:00.000Z', 0, false);
  });

  it('time zones in the text and outside', () => {
    assertMath('2014-05-30T20:21+02:00', '2014-05-30T18:21:00.000');
    for (const z of ['+00:00', '+00', '+0000', '-00:00', '-00', '-0000']) {
      assertMath(`2014-05-30T18:21${z}`, '2014-05-30T18:21:00.000');
      assertMath('2014-05-30T18:21', '2014-05-30T18:21:00.000', 0, false, z);
    }
    assertMath('2014-05-30T20:21', '2014-05-30T18:21:00.000', 0, false, '+02:00');
    assertMath('2014-05-30T20:21+03:00', '2014-05-30T17:21:00.000', 0, false, '-08:00');
    assertMath('2014-05-30T20:21Z', '2014-05-30T20:21:00.000', 0, false, '-08:00');
  });

  it('basic math', () => {
    assertMath('2014-11-18||+y', '2015-11-18');
    assertMath('2014-11-18||-2y', '2012-11-18');
    assertMath('2014-11-18||+3M', '2015-02-18');
    assertMath('2014-11-18||-M', '2014-10-18');
    assertMath('2014-11-18||+1w', '2014-11-25');
    assertMath('2014-11-18||-3w', '2014-10-28');
    assertMath('2014-11-18||+22d', '2014-12-10');
    assertMath('2014-11-18||-423d', '2013-09-21');
    assertMath('2014-11-18T14||+13h', '2014-11-19T03');
    assertMath('2014-11-18T14||-1h', '2014-11-18T13');
    assertMath('2014-11-18T14||+13H', '2014-11-19T03');
    assertMath('2014-11-18T14||-1H', '2014-11-18T13');
    assertMath('2014-11-18T14:27||+10240m', '2014-11-25T17:07');
    assertMath('2014-11-18T14:27||-10m', '2014-11-18T14:17');
    assertMath('2014-11-18T14:27:32||+60s', '2014-11-18T14:28:32');
    assertMath('2014-11-18T14:27:32||-3600s', '2014-11-18T13:27:32');
  });

  it('lenient empty math and multiple adjustments', () => {
    assertMath('2014-05-30T20:21||', '2014-05-30T20:21:00.000');
    assertMath('2014-11-18||+1M-1M', '2014-11-18');
    assertMath('2014-11-18||+1M-1m', '2014-12-17T23:59');
    assertMath('2014-11-18||-1m+1M', '2014-12-17T23:59');
    assertMath('2014-11-18||+1M/M', '2014-12-01');
    assertMath('2014-11-18||+1M/M+1h', '2014-12-01T01');
  });

  it('now', () => {
    const now = parse('2014-11-18T14:27:32');
    assertMath('now', '2014-11-18T14:27:32', now);
    assertMath('now+M', '2014-12-18T14:27:32', now);
    assertMath('now-2d', '2014-11-16T14:27:32', now);
    assertMath('now/m', '2014-11-18T14:27', now);
    assertMath('now/m', '2014-11-18T14:27', now, false, '+02:00');
  });

  it('keeps 1970-01-01 as base date for time-only formats', () => {
    const hms = dateFormatter('HH:mm:ss');
    expect(parseDateMath('04:52:20', () => 0, false, undefined, hms)).toBe(
      formatter.parse('1970-01-01T04:52:20.000Z'),
    );
    expect(parseDateMath('04:52:20', () => 0, true, undefined, hms)).toBe(
      formatter.parse('1970-01-01T04:52:20.999Z'),
    );
  });

  it('implicit rounding of missing fields', () => {
    assertMath('2014-11-18', '2014-11-18', 0, false);
    assertMath('2014-11-18', '2014-11-18T23:59:59.999Z', 0, true);
    assertMath('2014-11-18T09:20', '2014-11-18T09:20', 0, false);
    assertMath('2014-11-18T09:20', '2014-11-18T09:20:59.999Z', 0, true);
    assertMath('2014-11-18', '2014-11-17T23:00:00.000Z', 0, false, 'CET');
    assertMath('2014-11-18', '2014-11-18T22:59:59.999Z', 0, true, 'CET');
    assertMath('2014-11-18T09:20', '2014-11-18T08:20:00.000Z', 0, false, 'CET');
    assertMath('2014-11-18T09:20', '2014-11-18T08:20:59.999Z', 0, true, 'CET');
    const withZone = dateFormatter('yyyy-MM-ddZ');
    expect(parseDateMath('2011-10-09+01:00', () => 0, false, undefined, withZone)).toBe(
      parse('2011-10-09T00:00:00.000+01:00'),
    );
    expect(parseDateMath('2011-10-09+01:00', () => 0, true, undefined, withZone)).toBe(
      parse('2011-10-09T23:59:59.999+01:00'),
    );
  });

  it('explicit rounding', () => {
    assertMath('2014-11-18||/y', '2014-01-01', 0, false);
    assertMath('2014-11-18||/y', '2014-12-31T23:59:59.999', 0, true);
    assertMath('2014||/y', '2014-01-01', 0, false);
    assertMath('2014-01-01T00:00:00.001||/y', '2014-12-31T23:59:59.999', 0, true);
    assertMath('2014-11-18||/y', '2013-12-31T23:00:00.000Z', 0, false, 'CET');
    assertMath('2014-11-18||/y', '2014-12-31T22:59:59.999Z', 0, true, 'CET');
    assertMath('2014-11-18||/M', '2014-11-01', 0, false);
    assertMath('2014-11-18||/M', '2014-11-30T23:59:59.999', 0, true);
    assertMath('2014-11||/M', '2014-11-01', 0, false);
    assertMath('2014-11||/M', '2014-11-30T23:59:59.999', 0, true);
    assertMath('2014-11-18||/M', '2014-10-31T23:00:00.000Z', 0, false, 'CET');
    assertMath('2014-11-18||/M', '2014-11-30T22:59:59.999Z', 0, true, 'CET');
    for (const d of ['17', '18', '19', '20', '21', '22', '23']) {
      assertMath(`2014-11-${d}T14||/w`, '2014-11-17', 0, false);
    }
    assertMath('2014-11-18T14||/w', '2014-11-23T23:59:59.999', 0, true);
    assertMath('2014-11-18||/w', '2014-11-17', 0, false);
    assertMath('2014-11-18||/w', '2014-11-23T23:59:59.999', 0, true);
    assertMath('2014-11-18||/w', '2014-11-16T23:00:00.000Z', 0, false, '+01:00');
    assertMath('2014-11-18||/w', '2014-11-17T01:00:00.000Z', 0, false, '-01:00');
    assertMath('2014-11-18||/w', '2014-11-16T23:00:00.000Z', 0, false, 'CET');
    assertMath('2014-11-18||/w', '2014-11-23T22:59:59.999Z', 0, true, 'CET');
    assertMath('2014-07-22||/w', '2014-07-20T22:00:00.000Z', 0, false, 'CET');
    assertMath('2014-11-18T14||/d', '2014-11-18', 0, false);
    assertMath('2014-11-18T14||/d', '2014-11-18T23:59:59.999', 0, true);
    assertMath('2014-11-18||/d', '2014-11-18', 0, false);
    assertMath('2014-11-18||/d', '2014-11-18T23:59:59.999', 0, true);
    assertMath('2014-11-18T14:27||/h', '2014-11-18T14', 0, false);
    assertMath('2014-11-18T14:27||/h', '2014-11-18T14:59:59.999', 0, true);
    assertMath('2014-11-18T14||/H', '2014-11-18T14', 0, false);
    assertMath('2014-11-18T14||/H', '2014-11-18T14:59:59.999', 0, true);
    assertMath('2014-11-18T14:27:32||/m', '2014-11-18T14:27', 0, false);
    assertMath('2014-11-18T14:27:32||/m', '2014-11-18T14:27:59.999', 0, true);
    assertMath('2014-11-18T14:27||/m', '2014-11-18T14:27', 0, false);
    assertMath('2014-11-18T14:27||/m', '2014-11-18T14:27:59.999', 0, true);
    assertMath('2014-11-18T14:27:32.123||/s', '2014-11-18T14:27:32', 0, false);
    assertMath('2014-11-18T14:27:32.123||/s', '2014-11-18T14:27:32.999', 0, true);
    assertMath('2014-11-18T14:27:32||/s', '2014-11-18T14:27:32', 0, false);
    assertMath('2014-11-18T14:27:32||/s', '2014-11-18T14:27:32.999', 0, true);
  });

  it('timestamps', () => {
    assertMath('1418248078000', '2014-12-10T21:47:58.000');
    assertMath('32484216259000', '2999-05-20T17:24:19.000');
    assertMath('253382837059000', '9999-05-20T17:24:19.000');
    assertMath('1418248078000||/m', '2014-12-10T21:47:00.000');
    const seconds = dateFormatter('epoch_second');
    expect(parseDateMath('1418248078', () => 0, false, undefined, seconds)).toBe(
      parse('2014-12-10T21:47:58.000'),
    );
    // a number with up to 9 digits is a year for dateOptionalTime
    assertMath('9999', '9999-01-01T00:00:00.000');
    assertMath('10000', '10000-01-01T00:00:00.000');
    assertMath('10000T', '10000-01-01T00:00:00.000');
  });

  it('illegal math', () => {
    expect(parseError('2014-11-18||*5').reason).toBe('operator not supported for date math [*5]');
    expect(parseError('2014-11-18||/2m').reason).toBe(
      'rounding `/` can only be used on single unit types [/2m]',
    );
    expect(parseError('2014-11-18||+2a').reason).toBe('unit [a] not supported for date math [+2a]');
    expect(parseError('2014-11-18||+12').reason).toBe('truncated date math [+12]');
    expect(parseError('2014-11-18||-').reason).toBe('truncated date math [-]');
    expect(parseError('2014-11-18||-').type).toBe('parse_exception');
  });

  it('illegal dates carry the format and the underlying reason', () => {
    const tooBig = parseError('92233720368547758070');
    expect(tooBig.type).toBe('parse_exception');
    expect(tooBig.reason).toBe(
      'failed to parse date field [92233720368547758070] with format [dateOptionalTime||epoch_millis]',
    );
    const bogus = parseError('123bogus');
    expect(bogus.reason).toContain('with format');
    expect(bogus.causedBy?.reason).toBe('Unrecognized chars at the end of [123bogus]: [bogus]');
    expect(parseError('bogus').causedBy?.reason).toBe('Parse failure at index [0] of [bogus]');
  });

  it('only calls now() when needed', () => {
    let called = false;
    const now = () => {
      called = true;
      return 42;
    };
    parseDateMath('2014-11-18T14:27:32', now, false, undefined, formatter);
    expect(called).toBe(false);
    parseDateMath('now/d', now, false, undefined, formatter);
    expect(called).toBe(true);
  });

  it('unix timestamps may not have a time zone', () => {
    const millis = dateFormatter('epoch_millis');
    let err: EsError | undefined;
    try {
      parseDateMath('1234567890123', () => 42, false, timeZone('CET'), millis);
    } catch (e) {
      err = e as EsError;
    }
    expect(err?.reason).toBe(
      'failed to parse date field [1234567890123] with format [epoch_millis]',
    );
    expect(err?.causedBy?.reason).toBe('time_zone must be UTC for format [epoch_millis]');
  });

  it('uses the default format when none is given and the zone for rounding', () => {
    const ny = timeZone('America/New_York');
    // 2014-11-02 is the US fall-back day (25 hours long)
    const start = parseDateMath('2014-11-02T12:00:00||/d', () => 0, false, ny);
    const end = parseDateMath('2014-11-02T12:00:00||/d', () => 0, true, ny);
    expect(start).toBe(Date.UTC(2014, 10, 2, 4));
    expect(end).toBe(Date.UTC(2014, 10, 3, 5) - 1);
    expect(parseDateMath('now-1d/d', () => Date.UTC(2020, 5, 15, 13), false)).toBe(
      Date.UTC(2020, 5, 14),
    );
    expect(parseDateMath('now+1h-5m/h', () => Date.UTC(2020, 5, 15, 13, 2), false)).toBe(
      Date.UTC(2020, 5, 15, 13),
    );
  });
});
