/**
 * java.time field resolution for the java pattern dialect: value ranges as ChronoField checks
 * them, ResolverStyle.SMART rules (day-of-month clamped to the month, 24:00 as next midnight,
 * year-of-era without era as CE), ES DateFormatters.from defaults for partial dates, and
 * ZonedDateTime.ofLocal for local times in DST gaps and overlaps.
 */

import {
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  isLeapYear,
  isoDayOfWeek,
} from './calendar.js';
import type { JField, JavaParsed } from './java-fields.js';
import { weekStartDay } from './java-fields.js';
import type { WeekRule } from './week-rules.js';
import type { TimeZone } from './zone-base.js';
import { fixedOffsetZone } from './zone-base.js';

const RANGES: Partial<Record<JField, [number, number, string]>> = {
  Era: [0, 1, '0 - 1'],
  YearOfEra: [1, 999999999, '1 - 999999999/1000000000'],
  Year: [-999999999, 999999999, '-999999999 - 999999999'],
  QuarterOfYear: [1, 4, '1 - 4'],
  MonthOfYear: [1, 12, '1 - 12'],
  DayOfMonth: [1, 31, '1 - 28/31'],
  DayOfYear: [1, 366, '1 - 365/366'],
  DayOfWeek: [1, 7, '1 - 7'],
  LocalizedDayOfWeek: [1, 7, '1 - 7'],
  AlignedWeekOfMonth: [1, 5, '1 - 4/5'],
  WeekOfWeekBasedYear: [1, 53, '1 - 52/53'],
  WeekOfMonth: [0, 6, '0 - 4/6'],
  AmPmOfDay: [0, 1, '0 - 1'],
  HourOfDay: [0, 23, '0 - 23'],
  ClockHourOfDay: [1, 24, '1 - 24'],
  HourOfAmPm: [0, 11, '0 - 11'],
  ClockHourOfAmPm: [1, 12, '1 - 12'],
  MinuteOfHour: [0, 59, '0 - 59'],
  SecondOfMinute: [0, 59, '0 - 59'],
  NanoOfSecond: [0, 999999999, '0 - 999999999'],
  MilliOfDay: [0, 86399999, '0 - 86399999'],
  NanoOfDay: [0, 86399999999999, '0 - 86399999999999'],
};

export class ResolveError extends Error {}

function check(field: JField, v: number): number {
  const r = RANGES[field];
  if (r && (v < r[0] || v > r[1])) {
    throw new ResolveError(`Invalid value for ${field} (valid values ${r[2]}): ${v}`);
  }
  return v;
}

export interface Resolved {
  /** Epoch day of a fully resolved date. */
  date: number | null;
  /** Millis of day of a resolved time (+ a day for 24:00). */
  time: number | null;
  zone: TimeZone | null;
  fields: Map<JField, number>;
}

const MONTH_NAMES = [
  '',
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];

/** java.time Parsed.resolve with ResolverStyle.SMART for the ISO chronology (subset). */
export function resolve(p: JavaParsed, defaults: Map<JField, number> | null): Resolved {
  const f = new Map(p.fields);
  if (defaults) for (const [k, v] of defaults) if (!f.has(k)) f.set(k, v);
  for (const [k, v] of f) {
    // SMART accepts 24:00:00 (checked once minutes/seconds/nanos are known to be zero)
    const endOfDay =
      k === 'HourOfDay' &&
      v === 24 &&
      !f.get('MinuteOfHour') &&
      !f.get('SecondOfMinute') &&
      !f.get('NanoOfSecond');
    if (!endOfDay) check(k, v);
  }
  // year of era without era: SMART assumes the current era
  const yoe = f.get('YearOfEra');
  if (yoe !== undefined && !f.has('Year')) f.set('Year', f.get('Era') === 0 ? 1 - yoe : yoe);
  const [time, excessDays] = resolveTime(f);
  let date = resolveDate(f, p.locale.week);
  if (date !== null && p.fields.has('DayOfWeek')) {
    const dow = isoDayOfWeek(date);
    if (dow !== f.get('DayOfWeek')) {
      throw new ResolveError(
        `Conflict found: Field DayOfWeek ${f.get('DayOfWeek')} differs from DayOfWeek ${dow} derived from ${isoDate(date)}`,
      );
    }
  }
  if (date !== null) date += excessDays;
  const zone = p.offsetSeconds !== null ? fixedOffsetZone(p.offsetSeconds * 1000) : p.zone;
  return { date, time, zone, fields: f };
}

/** Parsed.resolveTimeFields + resolveTimeLenient: millis of day (or null) and excess days. */
function resolveTime(f: Map<JField, number>): [number | null, number] {
  if (f.has('ClockHourOfDay') && !f.has('HourOfDay')) {
    const v = f.get('ClockHourOfDay')!;
    f.set('HourOfDay', v === 24 ? 0 : v);
  }
  if (f.has('ClockHourOfAmPm') && !f.has('HourOfAmPm')) {
    const v = f.get('ClockHourOfAmPm')!;
    f.set('HourOfAmPm', v === 12 ? 0 : v);
  }
  if (f.has('AmPmOfDay') && f.has('HourOfAmPm') && !f.has('HourOfDay')) {
    f.set('HourOfDay', f.get('AmPmOfDay')! * 12 + f.get('HourOfAmPm')!);
  }
  if (f.has('NanoOfDay') && !f.has('HourOfDay')) {
    const n = f.get('NanoOfDay')!;
    f.set('HourOfDay', Math.floor(n / 3.6e12));
    f.set('MinuteOfHour', Math.floor(n / 6e10) % 60);
    f.set('SecondOfMinute', Math.floor(n / 1e9) % 60);
    f.set('NanoOfSecond', n % 1e9);
  }
  if (f.has('MilliOfDay') && !f.has('HourOfDay')) {
    const n = f.get('MilliOfDay')!;
    f.set('HourOfDay', Math.floor(n / MILLIS_PER_HOUR));
    f.set('MinuteOfHour', Math.floor(n / MILLIS_PER_MINUTE) % 60);
    f.set('SecondOfMinute', Math.floor(n / 1000) % 60);
    f.set('NanoOfSecond', (n % 1000) * 1e6);
  }
  const hod = f.get('HourOfDay');
  if (hod === undefined) return [null, 0];
  const moh = f.get('MinuteOfHour');
  const som = f.get('SecondOfMinute');
  const nos = f.get('NanoOfSecond');
  // combinations that cannot be defaulted (a second without a minute, ...)
  if (
    (moh === undefined && (som !== undefined || nos !== undefined)) ||
    (moh !== undefined && som === undefined && nos !== undefined)
  ) {
    return [null, 0];
  }
  // SMART: 24:00 is midnight of the next day
  if (hod === 24) return [0, 1];
  const time =
    hod * MILLIS_PER_HOUR +
    (moh ?? 0) * MILLIS_PER_MINUTE +
    (som ?? 0) * 1000 +
    Math.floor((nos ?? 0) / 1e6);
  return [time, 0];
}

/** IsoChronology.resolveDate (SMART): year-month-day, year-day, or week-based fields. */
function resolveDate(f: Map<JField, number>, w: WeekRule): number | null {
  const y = f.get('Year');
  if (y !== undefined && f.has('MonthOfYear') && f.has('DayOfMonth')) {
    const moy = f.get('MonthOfYear')!;
    return daysFromCivil(y, moy, Math.min(f.get('DayOfMonth')!, daysInMonth(y, moy)));
  }
  if (y !== undefined && f.has('DayOfYear')) {
    const doy = f.get('DayOfYear')!;
    if (doy === 366 && !isLeapYear(y)) {
      throw new ResolveError(`Invalid date 'DayOfYear 366' as '${y}' is not a leap year`);
    }
    return daysFromCivil(y, 1, 1) + doy - 1;
  }
  if (
    f.has('WeekBasedYear') &&
    f.has('WeekOfWeekBasedYear') &&
    (f.has('LocalizedDayOfWeek') || f.has('DayOfWeek'))
  ) {
    const dow = f.has('LocalizedDayOfWeek')
      ? f.get('LocalizedDayOfWeek')!
      : ((f.get('DayOfWeek')! - w.firstDay + 7) % 7) + 1;
    return weekStartDay(f.get('WeekBasedYear')!, f.get('WeekOfWeekBasedYear')!, w) + dow - 1;
  }
  return null;
}

function isoDate(epochDay: number): string {
  const c = { year: 0, month: 0, day: 0 };
  civilFromDays(epochDay, c);
  return `${String(c.year).padStart(4, '0')}-${pad2(c.month)}-${pad2(c.day)}`;
}
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n));

/** ES DateFormatters.from: epoch day to use when the text had no full date. */
export function defaultDate(f: Map<JField, number>, w: WeekRule): number | null {
  const year = f.get('Year') ?? f.get('YearOfEra');
  if (f.has('WeekBasedYear')) {
    return weekStartDay(f.get('WeekBasedYear')!, f.get('WeekOfWeekBasedYear') ?? 1, w);
  }
  if (f.has('MonthOfYear')) {
    const moy = f.get('MonthOfYear')!;
    const y = year ?? 1970;
    const dom = f.get('DayOfMonth') ?? 1;
    if (dom > daysInMonth(y, moy)) {
      throw new ResolveError(
        dom > 31
          ? `Invalid value for DayOfMonth (valid values 1 - 28/31): ${dom}`
          : `Invalid date '${MONTH_NAMES[moy]} ${dom}'`,
      );
    }
    return daysFromCivil(y, moy, dom);
  }
  if (year !== undefined) return daysFromCivil(year, 1, 1);
  return null;
}

/** ZonedDateTime.ofLocal: gaps move forward by the gap, overlaps take the earlier offset. */
export function javaLocalToUtc(local: number, zone: TimeZone): number {
  if (zone.fixed) return local - zone.offsetAt(local);
  const t = zone.nextTransition(local - 2 * MILLIS_PER_DAY);
  if (t === local - 2 * MILLIS_PER_DAY || t > local + 2 * MILLIS_PER_DAY) {
    return local - zone.offsetAt(local - zone.offsetAt(local));
  }
  const before = zone.offsetAt(t - 1);
  const after = zone.offsetAt(t);
  const validBefore = local - before < t;
  const validAfter = local - after >= t;
  if (validBefore) return local - before;
  if (validAfter) return local - after;
  return local - before; // gap: shift forward by the gap length
}

export const ROUND_UP_DEFAULTS = new Map<JField, number>([
  ['MonthOfYear', 1],
  ['DayOfMonth', 1],
  ['HourOfDay', 23],
  ['MinuteOfHour', 59],
  ['SecondOfMinute', 59],
  ['NanoOfSecond', 999_999_999],
]);
