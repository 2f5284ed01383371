// Expectations from ES 6.8 TimeZoneRoundingTests (org.elasticsearch.common.rounding).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CalendarUnit, Rounding, TimeZone } from '../../../../src/common/dates/index.js';
import {
  UTC,
  calendarRounding,
  dateFormatter,
  fixedOffsetZone,
  fixedRounding,
  timeZone,
} from '../../../../src/common/dates/index.js';

const parser = dateFormatter('date_optional_time');
const time = (s: string, zone: TimeZone = UTC) => parser.parse(s, zone);
const H = 3_600_000;
const M = 60_000;
const fmt = (t: number) => dateFormatter('strict_date_optional_time').format(t);

/** ES assertInterval: idempotence and interval bounds around `unrounded`. */
function assertInterval(
  rounded: number,
  unrounded: number,
  next: number,
  r: Rounding,
  wellDefined = true,
) {
  expect(fmt(r.round(rounded)), 'idempotent').toBe(fmt(rounded));
  expect(rounded).toBeLessThanOrEqual(unrounded);
  expect(r.round(rounded - 1)).toBeLessThan(rounded);
  expect(fmt(r.round(next)), 'next is rounded').toBe(fmt(next));
  expect(fmt(r.round(next + 1))).toBe(fmt(next));
  if (wellDefined) {
    expect(next).toBeGreaterThan(unrounded);
    const between = Math.floor((rounded + next) / 2);
    expect(fmt(r.round(between))).toBe(fmt(rounded));
    expect(fmt(r.nextRoundingValue(between))).toBe(fmt(next));
  }
}
function assertIntervalMinutes(rounded: number, next: number, r: Rounding, minutes: number) {
  assertInterval(rounded, Math.floor((rounded + next) / 2), next, r);
  expect(next - rounded).toBe(minutes * M);
}

describe('calendar rounding (TimeUnitRounding)', () => {
  it('UTC units', () => {
    let r = calendarRounding('month', UTC);
    expect(r.round(time('2009-02-03T01:01:01'))).toBe(time('2009-02-01T00:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-01T00:00:00.000Z'))).toBe(
      time('2009-03-01T00:00:00.000Z'),
    );
    r = calendarRounding('week', UTC);
    expect(r.round(time('2012-01-10T01:01:01'))).toBe(time('2012-01-09T00:00:00.000Z'));
    expect(r.nextRoundingValue(time('2012-01-09T00:00:00.000Z'))).toBe(
      time('2012-01-16T00:00:00.000Z'),
    );
    expect(calendarRounding('quarter', UTC).round(time('2012-08-10T01:01:01'))).toBe(
      time('2012-07-01'),
    );
    expect(calendarRounding('year', UTC).nextRoundingValue(time('2012-01-01'))).toBe(
      time('2013-01-01'),
    );
  });

  it('day and month rounding in offset zones', () => {
    let r = calendarRounding('day', fixedOffsetZone(-2 * H));
    expect(r.round(0)).toBe(-22 * H);
    expect(r.nextRoundingValue(-22 * H)).toBe(2 * H);
    const minus8 = timeZone('-08:00');
    r = calendarRounding('day', minus8);
    expect(r.round(time('2012-04-01T04:15:30Z'))).toBe(time('2012-03-31T08:00:00Z'));
    r = calendarRounding('month', minus8);
    expect(r.round(time('2012-04-01T04:15:30Z'))).toBe(time('2012-03-01T08:00:00Z'));
    r = calendarRounding('day', timeZone('-02:00'));
    expect(r.round(time('2009-02-03T01:01:01'))).toBe(time('2009-02-02T02:00:00'));
    expect(r.nextRoundingValue(time('2009-02-02T02:00:00'))).toBe(time('2009-02-03T02:00:00'));
    expect(r.round(time('2009-02-03T02:01:01'))).toBe(time('2009-02-03T02:00:00'));
    expect(r.nextRoundingValue(time('2009-02-03T02:00:00'))).toBe(time('2009-02-04T02:00:00'));
  });

  it('hour rounding in an offset zone', () => {
    const r = calendarRounding('hour', fixedOffsetZone(-2 * H));
    expect(r.round(0)).toBe(0);
    expect(r.nextRoundingValue(0)).toBe(H);
    expect(r.round(time('2009-02-03T01:01:01'))).toBe(time('2009-02-03T01:00:00'));
    expect(r.nextRoundingValue(time('2009-02-03T01:00:00'))).toBe(time('2009-02-03T02:00:00'));
  });

  it('hour rounding across DST (CET, America/Chicago)', () => {
    const cet = timeZone('CET');
    const r = calendarRounding('hour', cet);
    expect(r.round(time('2014-10-26T01:01:01', cet))).toBe(time('2014-10-26T01:00:00+02:00'));
    expect(r.nextRoundingValue(time('2014-10-26T01:00:00', cet))).toBe(
      time('2014-10-26T02:00:00+02:00'),
    );
    expect(r.nextRoundingValue(time('2014-10-26T02:00:00', cet))).toBe(
      time('2014-10-26T02:00:00+01:00'),
    );
    expect(r.round(time('2014-03-30T01:01:01', cet))).toBe(time('2014-03-30T01:00:00+01:00'));
    expect(r.nextRoundingValue(time('2014-03-30T01:00:00', cet))).toBe(
      time('2014-03-30T03:00:00', cet),
    );
    expect(r.nextRoundingValue(time('2014-03-30T03:00:00', cet))).toBe(
      time('2014-03-30T04:00:00', cet),
    );
    const chg = timeZone('America/Chicago');
    const rc = calendarRounding('hour', chg);
    const ru = calendarRounding('hour', UTC);
    expect(rc.round(time('2014-03-09T03:01:01', chg))).toBe(time('2014-03-09T03:00:00', chg));
    expect(ru.round(time('2013-11-03T06:01:01', chg))).toBe(time('2013-11-03T06:00:00', chg));
    expect(rc.round(time('2013-11-03T06:01:01', chg))).toBe(time('2013-11-03T06:00:00', chg));
    expect(rc.round(time('2014-11-02T06:01:01', chg))).toBe(time('2014-11-02T06:00:00', chg));
  });

  it('ambiguous hours after a DST switch (Asia/Jerusalem)', () => {
    const tz = timeZone('Asia/Jerusalem');
    let r = calendarRounding('hour', tz);
    expect(r.round(time('2014-10-26T00:30:00+03:00'))).toBe(time('2014-10-26T00:00:00+03:00'));
    expect(r.round(time('2014-10-26T01:30:00+03:00'))).toBe(time('2014-10-26T01:00:00+03:00'));
    expect(time('2014-10-26T03:00:00+03:00')).toBe(time('2014-10-26T02:00:00+02:00'));
    expect(r.round(time('2014-10-26T01:30:00+02:00'))).toBe(time('2014-10-26T01:00:00+02:00'));
    expect(r.round(time('2014-10-26T02:30:00+02:00'))).toBe(time('2014-10-26T02:00:00+02:00'));
    r = calendarRounding('day', tz);
    expect(r.round(time('2014-11-11T17:00:00', tz))).toBe(time('2014-11-11T00:00:00', tz));
    expect(r.round(time('2014-08-11T17:00:00', tz))).toBe(time('2014-08-11T00:00:00', tz));
    expect(r.round(time('2014-10-26T17:00:00', tz))).toBe(time('2014-10-26T00:00:00', tz));
    expect(r.round(time('2015-03-27T17:00:00', tz))).toBe(time('2015-03-27T00:00:00', tz));
    r = calendarRounding('month', tz);
    expect(r.round(time('2014-11-11T17:00:00', tz))).toBe(time('2014-11-01T00:00:00', tz));
    expect(r.round(time('2014-10-10T17:00:00', tz))).toBe(time('2014-10-01T00:00:00', tz));
    r = calendarRounding('year', tz);
    expect(r.round(time('2014-11-11T17:00:00', tz))).toBe(time('2014-01-01T00:00:00', tz));
    expect(r.round(time('2014-11-11T17:00:00', tz))).toBe(r.round(time('2014-08-11T17:00:00', tz)));
  });

  it('edge cases at transitions: CET, Kathmandu (+05:45), Lord Howe (30 min DST), Chatham', () => {
    const cet = calendarRounding('hour', timeZone('CET'));
    assertIntervalMinutes(
      time('2015-03-29T00:00:00.000+01:00'),
      time('2015-03-29T01:00:00.000+01:00'),
      cet,
      60,
    );
    assertIntervalMinutes(
      time('2015-03-29T01:00:00.000+01:00'),
      time('2015-03-29T03:00:00.000+02:00'),
      cet,
      60,
    );
    assertIntervalMinutes(
      time('2015-03-29T03:00:00.000+02:00'),
      time('2015-03-29T04:00:00.000+02:00'),
      cet,
      60,
    );
    assertIntervalMinutes(
      time('2015-10-25T01:00:00.000+02:00'),
      time('2015-10-25T02:00:00.000+02:00'),
      cet,
      60,
    );
    assertIntervalMinutes(
      time('2015-10-25T02:00:00.000+02:00'),
      time('2015-10-25T02:00:00.000+01:00'),
      cet,
      60,
    );
    assertIntervalMinutes(
      time('2015-10-25T02:00:00.000+01:00'),
      time('2015-10-25T03:00:00.000+01:00'),
      cet,
      60,
    );

    const ktm = calendarRounding('hour', timeZone('Asia/Kathmandu'));
    assertIntervalMinutes(
      time('1985-12-31T22:00:00.000+05:30'),
      time('1985-12-31T23:00:00.000+05:30'),
      ktm,
      60,
    );
    assertIntervalMinutes(
      time('1985-12-31T23:00:00.000+05:30'),
      time('1986-01-01T01:00:00.000+05:45'),
      ktm,
      105,
    );
    assertIntervalMinutes(
      time('1986-01-01T01:00:00.000+05:45'),
      time('1986-01-01T02:00:00.000+05:45'),
      ktm,
      60,
    );

    const lh = calendarRounding('hour', timeZone('Australia/Lord_Howe'));
    assertIntervalMinutes(
      time('1991-03-03T00:00:00.000+11:00'),
      time('1991-03-03T01:00:00.000+11:00'),
      lh,
      60,
    );
    assertIntervalMinutes(
      time('1991-03-03T01:00:00.000+11:00'),
      time('1991-03-03T02:00:00.000+10:30'),
      lh,
      90,
    );
    assertIntervalMinutes(
      time('1991-03-03T02:00:00.000+10:30'),
      time('1991-03-03T03:00:00.000+10:30'),
      lh,
      60,
    );
    assertIntervalMinutes(
      time('1991-10-27T00:00:00.000+10:30'),
      time('1991-10-27T01:00:00.000+10:30'),
      lh,
      60,
    );
    assertIntervalMinutes(
      time('1991-10-27T01:00:00.000+10:30'),
      time('1991-10-27T03:00:00.000+11:00'),
      lh,
      90,
    );
    assertIntervalMinutes(
      time('1991-10-27T03:00:00.000+11:00'),
      time('1991-10-27T04:00:00.000+11:00'),
      lh,
      60,
    );

    const ch = calendarRounding('hour', timeZone('Pacific/Chatham'));
    assertIntervalMinutes(
      time('2015-04-05T02:00:00.000+13:45'),
      time('2015-04-05T03:00:00.000+13:45'),
      ch,
      60,
    );
    assertIntervalMinutes(
      time('2015-04-05T03:00:00.000+13:45'),
      time('2015-04-05T03:00:00.000+12:45'),
      ch,
      60,
    );
    assertIntervalMinutes(
      time('2015-04-05T03:00:00.000+12:45'),
      time('2015-04-05T04:00:00.000+12:45'),
      ch,
      60,
    );
    assertIntervalMinutes(
      time('2015-09-27T01:00:00.000+12:45'),
      time('2015-09-27T02:00:00.000+12:45'),
      ch,
      60,
    );
    assertIntervalMinutes(
      time('2015-09-27T02:00:00.000+12:45'),
      time('2015-09-27T04:00:00.000+13:45'),
      ch,
      60,
    );
    assertIntervalMinutes(
      time('2015-09-27T04:00:00.000+13:45'),
      time('2015-09-27T05:00:00.000+13:45'),
      ch,
      60,
    );
  });

  it('Europe/Rome 1978: the earlier of two midnights', () => {
    const r = calendarRounding('day', timeZone('Europe/Rome'));
    expect(r.round(time('1978-09-30T23:59:00+02:00'))).toBe(time('1978-09-30T00:00:00+02:00'));
    expect(r.round(time('1978-10-01T00:30:00+02:00'))).toBe(time('1978-10-01T00:00:00+02:00'));
    const floor = r.round(time('1978-10-01T00:30:00+01:00'));
    expect(floor).toBe(time('1978-10-01T00:00:00+02:00'));
    expect(r.round(floor - 1)).toBe(time('1978-09-30T00:00:00+02:00'));
  });

  it('America/St_Johns 2006: overlapping days', () => {
    const r = calendarRounding('day', timeZone('America/St_Johns'));
    const cases: [string, string, string][] = [
      [
        '2006-10-28T23:30:00.000-02:30',
        '2006-10-28T00:00:00.000-02:30',
        '2006-10-29T00:00:00.000-02:30',
      ],
      [
        '2006-10-29T00:00:30.000-02:30',
        '2006-10-29T00:00:00.000-02:30',
        '2006-10-30T00:00:00.000-03:30',
      ],
      [
        '2006-10-28T23:30:00.000-03:30',
        '2006-10-28T00:00:00.000-02:30',
        '2006-10-29T00:00:00.000-02:30',
      ],
      [
        '2006-10-29T06:00:00.000-03:30',
        '2006-10-29T00:00:00.000-02:30',
        '2006-10-30T00:00:00.000-03:30',
      ],
    ];
    for (const [t, f, c] of cases) {
      expect(fmt(r.round(time(t))), t).toBe(fmt(time(f)));
      expect(fmt(r.nextRoundingValue(time(t))), t).toBe(fmt(time(c)));
      assertInterval(time(f), time(t), time(c), r, false);
    }
  });

  it('DST end edge cases: Atlantic/Azores 2000, America/Lima 1990 (25h days)', () => {
    let tz = timeZone('Atlantic/Azores');
    let r = calendarRounding('day', tz);
    const before = time('2000-10-29T00:00:00', tz);
    expect(time('2000-10-29T00:00:00-01:00') - before).toBe(H);
    assertIntervalMinutes(before, time('2000-10-30T00:00:00', tz), r, 25 * 60);
    expect(r.round(time('2000-10-29T06:00:00-01:00'))).toBe(time('2000-10-29T00:00:00Z'));
    tz = timeZone('America/Lima');
    r = calendarRounding('day', tz);
    assertIntervalMinutes(
      time('1990-03-31T00:00:00.000-04:00'),
      time('1990-04-01T00:00:00.000-05:00'),
      r,
      25 * 60,
    );
    assertIntervalMinutes(
      time('1990-04-01T00:00:00.000-05:00'),
      time('1990-04-02T00:00:00.000-05:00'),
      r,
      24 * 60,
    );
  });

  it('minute rounding keeps progressing through a DST start (America/Sao_Paulo 2014)', () => {
    const tz = timeZone('America/Sao_Paulo');
    const r = calendarRounding('minute', tz);
    const f = fixedRounding(60_000, tz);
    for (
      let t = time('2014-10-18T20:50:00.000', tz);
      t < time('2014-10-19T01:00:00.000', tz);
      t += 60_000
    ) {
      expect(r.nextRoundingValue(t)).toBeGreaterThan(t);
      expect(f.nextRoundingValue(t)).toBeGreaterThan(t);
    }
  });

  it('offset shifts buckets', () => {
    const r = calendarRounding('day', UTC, 6 * H);
    expect(r.round(time('2015-01-01T05:00:00Z'))).toBe(time('2014-12-31T06:00:00Z'));
    expect(r.round(time('2015-01-01T07:00:00Z'))).toBe(time('2015-01-01T06:00:00Z'));
    expect(r.nextRoundingValue(time('2015-01-01T06:00:00Z'))).toBe(time('2015-01-02T06:00:00Z'));
  });
});

describe('fixed rounding (TimeIntervalRounding)', () => {
  it('UTC intervals', () => {
    let r = fixedRounding(12 * H, UTC);
    expect(r.round(time('2009-02-03T01:01:01'))).toBe(time('2009-02-03T00:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-03T00:00:00.000Z'))).toBe(
      time('2009-02-03T12:00:00.000Z'),
    );
    expect(r.round(time('2009-02-03T13:01:01'))).toBe(time('2009-02-03T12:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-03T12:00:00.000Z'))).toBe(
      time('2009-02-04T00:00:00.000Z'),
    );
    r = fixedRounding(48 * H, UTC);
    expect(r.round(time('2009-02-03T01:01:01'))).toBe(time('2009-02-03T00:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-03T00:00:00.000Z'))).toBe(
      time('2009-02-05T00:00:00.000Z'),
    );
    expect(r.round(time('2009-02-05T13:01:01'))).toBe(time('2009-02-05T00:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-05T00:00:00.000Z'))).toBe(
      time('2009-02-07T00:00:00.000Z'),
    );
  });

  it('intervals in offset zones', () => {
    let r = fixedRounding(6 * H, fixedOffsetZone(-H));
    expect(r.round(time('2009-02-03T00:01:01'))).toBe(time('2009-02-02T19:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-02T19:00:00.000Z'))).toBe(
      time('2009-02-03T01:00:00.000Z'),
    );
    expect(r.round(time('2009-02-03T13:01:01'))).toBe(time('2009-02-03T13:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-03T13:00:00.000Z'))).toBe(
      time('2009-02-03T19:00:00.000Z'),
    );
    r = fixedRounding(12 * H, fixedOffsetZone(-8 * H));
    expect(r.round(time('2009-02-03T00:01:01'))).toBe(time('2009-02-02T20:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-02T20:00:00.000Z'))).toBe(
      time('2009-02-03T08:00:00.000Z'),
    );
    expect(r.round(time('2009-02-03T13:01:01'))).toBe(time('2009-02-03T08:00:00.000Z'));
    expect(r.nextRoundingValue(time('2009-02-03T08:00:00.000Z'))).toBe(
      time('2009-02-03T20:00:00.000Z'),
    );
  });

  it('CET DST end and start with 20 minute intervals', () => {
    const r = fixedRounding(20 * M, timeZone('CET'));
    const pairs: [string, string][] = [
      ['2015-10-25T01:55:00+02:00', '2015-10-25T01:40:00+02:00'],
      ['2015-10-25T02:15:00+02:00', '2015-10-25T02:00:00+02:00'],
      ['2015-10-25T02:35:00+02:00', '2015-10-25T02:20:00+02:00'],
      ['2015-10-25T02:55:00+02:00', '2015-10-25T02:40:00+02:00'],
      ['2015-10-25T02:15:00+01:00', '2015-10-25T02:00:00+01:00'],
      ['2015-10-25T02:35:00+01:00', '2015-10-25T02:20:00+01:00'],
      ['2015-10-25T02:55:00+01:00', '2015-10-25T02:40:00+01:00'],
      ['2015-10-25T03:15:00+01:00', '2015-10-25T03:00:00+01:00'],
      ['2016-03-27T01:55:00+01:00', '2016-03-27T01:40:00+01:00'],
      ['2016-03-27T02:00:00+01:00', '2016-03-27T03:00:00+02:00'],
      ['2016-03-27T03:15:00+02:00', '2016-03-27T03:00:00+02:00'],
      ['2016-03-27T03:35:00+02:00', '2016-03-27T03:20:00+02:00'],
    ];
    for (const [t, e] of pairs) expect(fmt(r.round(time(t))), t).toBe(fmt(time(e)));
  });

  it('Kathmandu offset change that does not fit the interval', () => {
    const r = fixedRounding(20 * M, timeZone('Asia/Kathmandu'));
    expect(r.round(time('1985-12-31T23:55:00+05:30'))).toBe(time('1985-12-31T23:40:00+05:30'));
    expect(r.round(time('1986-01-01T00:16:00+05:45'))).toBe(time('1986-01-01T00:15:00+05:45'));
    expect(r.round(time('1986-01-01T00:26:00+05:45'))).toBe(time('1986-01-01T00:20:00+05:45'));
    expect(r.round(time('1986-01-01T00:46:00+05:45'))).toBe(time('1986-01-01T00:40:00+05:45'));
  });

  it('intervals that do not divide an hour, across the DST gap', () => {
    const r = fixedRounding(14 * M, timeZone('CET'));
    const pairs: [string, string][] = [
      ['2016-03-27T01:41:00+01:00', '2016-03-27T01:30:00+01:00'],
      ['2016-03-27T01:51:00+01:00', '2016-03-27T01:44:00+01:00'],
      ['2016-03-27T01:59:00+01:00', '2016-03-27T01:58:00+01:00'],
      ['2016-03-27T03:05:00+02:00', '2016-03-27T03:00:00+02:00'],
      ['2016-03-27T03:12:00+02:00', '2016-03-27T03:08:00+02:00'],
      ['2016-03-27T03:25:00+02:00', '2016-03-27T03:22:00+02:00'],
      ['2016-03-27T03:39:00+02:00', '2016-03-27T03:36:00+02:00'],
    ];
    for (const [t, e] of pairs) expect(fmt(r.round(time(t))), t).toBe(fmt(time(e)));
  });

  it('half day intervals across DST', () => {
    const r = fixedRounding(12 * H, timeZone('CET'));
    const pairs: [string, string][] = [
      ['2016-03-26T01:00:00+01:00', '2016-03-26T00:00:00+01:00'],
      ['2016-03-26T13:00:00+01:00', '2016-03-26T12:00:00+01:00'],
      ['2016-03-27T01:00:00+01:00', '2016-03-27T00:00:00+01:00'],
      ['2016-03-27T13:00:00+02:00', '2016-03-27T12:00:00+02:00'],
      ['2016-03-28T01:00:00+02:00', '2016-03-28T00:00:00+02:00'],
      ['2016-03-28T13:00:00+02:00', '2016-03-28T12:00:00+02:00'],
    ];
    for (const [t, e] of pairs) expect(fmt(r.round(time(t))), t).toBe(fmt(time(e)));
  });

  it('is monotonic around the CET DST end (45 minute intervals)', () => {
    const r = fixedRounding(45 * M, timeZone('CET'));
    const pairs: [string, string][] = [
      ['2011-10-30T01:40:00.000+02:00', '2011-10-30T01:30:00.000+02:00'],
      ['2011-10-30T02:02:30.000+02:00', '2011-10-30T01:30:00.000+02:00'],
      ['2011-10-30T02:25:00.000+02:00', '2011-10-30T02:15:00.000+02:00'],
      ['2011-10-30T02:47:30.000+02:00', '2011-10-30T02:15:00.000+02:00'],
      ['2011-10-30T02:10:00.000+01:00', '2011-10-30T02:15:00.000+02:00'],
      ['2011-10-30T02:32:30.000+01:00', '2011-10-30T02:15:00.000+01:00'],
      ['2011-10-30T02:55:00.000+01:00', '2011-10-30T02:15:00.000+01:00'],
      ['2011-10-30T03:17:30.000+01:00', '2011-10-30T03:00:00.000+01:00'],
    ];
    let prev = -Infinity;
    for (const [t, e] of pairs) {
      const v = r.round(time(t));
      expect(fmt(v), t).toBe(fmt(time(e)));
      expect(v).toBeGreaterThanOrEqual(prev);
      prev = v;
    }
  });

  it('rejects intervals under 1ms', () => {
    expect(() => fixedRounding(0, UTC)).toThrow('Zero or negative time interval not supported');
  });
});

// --- property tests (ES testRoundingRandom / testIntervalRoundingRandom) -------------------------

const ZONES = [
  'UTC',
  '+05:30',
  '-08:00',
  'Europe/Paris',
  'America/New_York',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Sao_Paulo',
  'Asia/Jerusalem',
  'Europe/London',
];
const UNITS: CalendarUnit[] = [
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'hour',
  'minute',
  'second',
];
const UNIT_MILLIS: Record<CalendarUnit, number> = {
  year: 366 * 24 * H,
  quarter: 92 * 24 * H,
  month: 31 * 24 * H,
  week: 7 * 24 * H,
  day: 24 * H,
  hour: H,
  minute: M,
  second: 1000,
};

describe('rounding properties', () => {
  it('calendar rounding: idempotent, floor, monotonic, next is rounded', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...UNITS),
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 2_000_000_000_000 }),
        fc.boolean(),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        (unit, zoneId, date, nasty, jitter) => {
          const tz = timeZone(zoneId);
          const r = calendarRounding(unit, tz);
          let t = date;
          if (nasty) {
            // near a transition, like ES's nastyDate
            const n = tz.nextTransition(date);
            t = n + (jitter % UNIT_MILLIS[unit]);
          }
          const rounded = r.round(t);
          const next = r.nextRoundingValue(rounded);
          expect(r.round(rounded)).toBe(rounded);
          expect(rounded).toBeLessThanOrEqual(t);
          expect(r.round(rounded - 1)).toBeLessThan(rounded);
          expect(next).toBeGreaterThan(rounded);
          expect(r.round(next)).toBe(next);
          expect(r.round(t + 1)).toBeGreaterThanOrEqual(rounded);
          if (UNIT_MILLIS[unit] <= 24 * H && tz.offsetAt(rounded - 1) === tz.offsetAt(next + 1)) {
            expect(next - rounded).toBe(UNIT_MILLIS[unit]);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('fixed rounding: idempotent, floor, monotonic', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(M, H, 24 * H),
        fc.integer({ min: 1, max: 365 }),
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 2_000_000_000_000 }),
        fc.boolean(),
        (unit, count, zoneId, main, nasty) => {
          const interval = unit * count;
          const tz = timeZone(zoneId);
          const r = fixedRounding(interval, tz);
          const mainDate = nasty ? tz.nextTransition(main) : main;
          let prev = -Infinity;
          for (let d = mainDate - 2 * interval; d < mainDate + 2 * interval; d += interval / 2) {
            const rounded = r.round(d);
            expect(r.round(rounded)).toBe(rounded);
            expect(rounded).toBeLessThanOrEqual(d);
            expect(r.round(rounded - 1)).toBeLessThan(rounded);
            expect(rounded).toBeGreaterThanOrEqual(prev);
            if (tz.fixed) {
              const next = r.nextRoundingValue(rounded);
              expect(next - rounded).toBe(interval);
              expect(r.round(next)).toBe(next);
            }
            prev = rounded;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
