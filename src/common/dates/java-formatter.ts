/**
 * DateFormatter for java.time patterns: parsing resolves fields like ResolverStyle.SMART (value
 * ranges checked, day-of-month clamped to the month, 24:00 as next midnight), then fills missing
 * fields like ES's DateFormatters.from (no time -> start of day, no day -> 1st, no year -> 1970,
 * no zone -> the given zone). Local times in a DST gap move forward (ZonedDateTime.ofLocal).
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
import type { DateFormatter, ParseDetail } from './date-formatter.js';
import { DateParseError } from './date-formatter.js';
import type { JavaElement, JField } from './java-pattern.js';
import {
  JavaFormatError,
  JavaParsed,
  compileJavaPattern,
  javaPrintContext,
  weekStartDay,
} from './java-pattern.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { TimeZone } from './time-zone.js';
import { UTC, fixedOffsetZone } from './time-zone.js';
import { illegalArgument } from '../errors.js';

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

class ResolveError extends Error {}

function check(field: JField, v: number): number {
  const r = RANGES[field];
  if (r && (v < r[0] || v > r[1])) {
    throw new ResolveError(`Invalid value for ${field} (valid values ${r[2]}): ${v}`);
  }
  return v;
}

interface Resolved {
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
function resolve(p: JavaParsed, defaults: Map<JField, number> | null): Resolved {
  const f = new Map(p.fields);
  if (defaults) for (const [k, v] of defaults) if (!f.has(k)) f.set(k, v);
  for (const [k, v] of f) {
    // SMART accepts 24:00:00 (checked once minutes/seconds/nanos are known to be zero)
    if (
      k === 'HourOfDay' &&
      v === 24 &&
      !f.get('MinuteOfHour') &&
      !f.get('SecondOfMinute') &&
      !f.get('NanoOfSecond')
    )
      continue;
    check(k, v);
  }
  // year of era + era
  const yoe = f.get('YearOfEra');
  if (yoe !== undefined && !f.has('Year')) {
    const era = f.get('Era');
    f.set('Year', era === 0 ? 1 - yoe : yoe);
  }
  // time fields
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
  let time: number | null = null;
  let excessDays = 0;
  const hod = f.get('HourOfDay');
  if (hod !== undefined) {
    const moh = f.get('MinuteOfHour');
    const som = f.get('SecondOfMinute');
    const nos = f.get('NanoOfSecond');
    const invalid =
      (moh === undefined && (som !== undefined || nos !== undefined)) ||
      (moh !== undefined && som === undefined && nos !== undefined);
    if (!invalid) {
      time =
        hod * MILLIS_PER_HOUR +
        (moh ?? 0) * MILLIS_PER_MINUTE +
        (som ?? 0) * 1000 +
        Math.floor((nos ?? 0) / 1e6);
      // SMART: 24:00 is midnight of the next day
      if (hod === 24) {
        time = 0;
        excessDays = 1;
      }
    }
  }
  // date
  let date: number | null = null;
  const y = f.get('Year');
  if (y !== undefined && f.has('MonthOfYear') && f.has('DayOfMonth')) {
    const moy = f.get('MonthOfYear')!;
    let dom = f.get('DayOfMonth')!;
    dom = Math.min(dom, daysInMonth(y, moy));
    date = daysFromCivil(y, moy, dom);
  } else if (y !== undefined && f.has('DayOfYear')) {
    const doy = f.get('DayOfYear')!;
    if (doy === 366 && !isLeapYear(y)) {
      throw new ResolveError(`Invalid date 'DayOfYear 366' as '${y}' is not a leap year`);
    }
    date = daysFromCivil(y, 1, 1) + doy - 1;
  } else if (
    f.has('WeekBasedYear') &&
    f.has('WeekOfWeekBasedYear') &&
    (f.has('LocalizedDayOfWeek') || f.has('DayOfWeek'))
  ) {
    const dowSun = f.has('LocalizedDayOfWeek')
      ? f.get('LocalizedDayOfWeek')!
      : (f.get('DayOfWeek')! % 7) + 1;
    date = weekStartDay(f.get('WeekBasedYear')!, f.get('WeekOfWeekBasedYear')!) + dowSun - 1;
  }
  if (date !== null && f.has('DayOfWeek') && p.fields.has('DayOfWeek')) {
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

function isoDate(epochDay: number): string {
  const c = { year: 0, month: 0, day: 0 };
  civilFromDays(epochDay, c);
  return `${String(c.year).padStart(4, '0')}-${pad2(c.month)}-${pad2(c.day)}`;
}
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n));

/** ES DateFormatters.from: epoch day to use when the text had no full date. */
function defaultDate(f: Map<JField, number>): number | null {
  const year = f.get('Year') ?? f.get('YearOfEra');
  if (f.has('WeekBasedYear')) {
    return weekStartDay(f.get('WeekBasedYear')!, f.get('WeekOfWeekBasedYear') ?? 1);
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

const ROUND_UP_DEFAULTS = new Map<JField, number>([
  ['MonthOfYear', 1],
  ['DayOfMonth', 1],
  ['HourOfDay', 23],
  ['MinuteOfHour', 59],
  ['SecondOfMinute', 59],
  ['NanoOfSecond', 999_999_999],
]);

interface JavaParser {
  elements: JavaElement[];
}

class JavaFormatter implements DateFormatter {
  readonly dialect = 'java' as const;
  constructor(
    readonly pattern: string,
    private readonly parsers: JavaParser[],
    private readonly printer: JavaElement[] | DateFormatter,
    private readonly locale: LocaleSymbols,
    /** ES 6.8 `8`-prefixed format: errors wrapped like JavaDateFormatter.parse. */
    private readonly es8: boolean,
  ) {}

  private run(text: string): { p: JavaParsed; error: string | null } {
    let lastError = '';
    for (const parser of this.parsers) {
      const p = new JavaParsed(this.locale);
      let pos = 0;
      for (const e of parser.elements) {
        pos = e.parse(p, text, pos);
        if (pos < 0) break;
      }
      if (pos < 0) lastError = `Text '${text}' could not be parsed at index ${~pos}`;
      else if (pos !== text.length) {
        lastError = `Text '${text}' could not be parsed, unparsed text found at index ${pos}`;
      } else return { p, error: null };
    }
    if (this.parsers.length > 1) lastError = 'Failed to parse with all enclosed parsers';
    return { p: new JavaParsed(this.locale), error: lastError };
  }

  private fail(text: string, reason: string): never {
    if (this.es8) {
      throw new DateParseError(
        `failed to parse date field [${text}] with format [${this.pattern}]`,
      );
    }
    throw new DateParseError(reason);
  }

  private compute(text: string, zone: TimeZone, roundUp: boolean): ParseDetail {
    if (this.es8 && text.length === 0) throw new DateParseError('cannot parse empty date');
    const { p, error } = this.run(text);
    if (error !== null) this.fail(text, error);
    let r: Resolved;
    try {
      r = resolve(p, roundUp ? ROUND_UP_DEFAULTS : null);
      let day = r.date;
      if (day === null) day = defaultDate(r.fields);
      if (day === null && r.time === null) {
        throw new ResolveError(`Unable to obtain ZonedDateTime from TemporalAccessor: ${text}`);
      }
      const local = (day ?? 0) * MILLIS_PER_DAY + (r.time ?? 0);
      const z = r.zone ?? zone;
      return {
        millis: javaLocalToUtc(local, z),
        hasDate: r.date !== null,
        hasTime: r.time !== null,
        hasZone: r.zone !== null,
      };
    } catch (e) {
      if (e instanceof ResolveError)
        this.fail(text, `Text '${text}' could not be parsed: ${e.message}`);
      throw e;
    }
  }

  parse(text: string, zone: TimeZone = UTC): number {
    return this.compute(text, zone, false).millis;
  }
  parseDetail(text: string, zone: TimeZone = UTC): ParseDetail {
    return this.compute(text, zone, false);
  }
  parseOrNull(text: string, zone?: TimeZone): number | null {
    try {
      return this.parse(text, zone);
    } catch (e) {
      if (e instanceof DateParseError) return null;
      throw e;
    }
  }
  parseInto(text: string, zone: TimeZone | undefined, roundUp: boolean): number {
    return this.compute(text, zone ?? UTC, roundUp).millis;
  }
  parseRoundUp(text: string, zone?: TimeZone): number {
    return this.parseInto(text, zone, true);
  }
  format(millis: number, zone: TimeZone = UTC): string {
    if (!Array.isArray(this.printer)) return this.printer.format(millis, zone);
    const ctx = javaPrintContext(millis, zone, this.locale);
    try {
      let s = '';
      for (const e of this.printer) s += e.print(ctx);
      return s;
    } catch (e) {
      if (e instanceof JavaFormatError) throw illegalArgument(e.message);
      throw e;
    }
  }
}

/**
 * A java.time formatter. With `es8` (ES 6.8 `8`-prefixed format) the pattern may be a `||` list
 * and hold ES built-in names, which `named` resolves (parsed/printed like the Joda built-in).
 */
export function javaFormatter(
  pattern: string,
  locale: LocaleSymbols,
  es8: boolean,
  named: (name: string) => DateFormatter | null,
): DateFormatter {
  const parts = es8 ? pattern.split('||') : [pattern];
  if (es8 && parts.some((p) => p.length === 0)) {
    throw illegalArgument(`Cannot have empty element in multi date format pattern: ${pattern}`);
  }
  const parsers: JavaParser[] = [];
  let printer: JavaElement[] | DateFormatter | null = null;
  for (const raw of parts) {
    const part = es8 ? raw.trim() : raw;
    const builtIn = es8 ? named(part === 'iso8601' ? 'strict_date_optional_time' : part) : null;
    if (builtIn) {
      // delegate: wrap the built-in as a single pseudo element
      parsers.push({ elements: [delegateElement(builtIn)] });
      printer ??= builtIn;
      continue;
    }
    let elements: JavaElement[];
    try {
      elements = compileJavaPattern(part);
    } catch (e) {
      if (e instanceof JavaFormatError) {
        throw illegalArgument(es8 ? `Invalid format: [${part}]: ${e.message}` : e.message);
      }
      throw e;
    }
    parsers.push({ elements });
    printer ??= elements;
  }
  return new JavaFormatter(pattern, parsers, printer!, locale, es8);
}

/** Runs a Joda-style formatter inside a java parser chain, reporting fields for resolution. */
function delegateElement(f: DateFormatter): JavaElement {
  return {
    print: () => '',
    parse(p, text, pos) {
      if (pos !== 0) return ~pos;
      const v = f.parseOrNull(text);
      if (v === null) return ~0;
      const day = Math.floor(v / MILLIS_PER_DAY);
      const ms = v - day * MILLIS_PER_DAY;
      const c = { year: 0, month: 0, day: 0 };
      civilFromDays(day, c);
      p.fields.set('Year', c.year);
      p.fields.set('MonthOfYear', c.month);
      p.fields.set('DayOfMonth', c.day);
      p.fields.set('HourOfDay', Math.floor(ms / MILLIS_PER_HOUR));
      p.fields.set('MinuteOfHour', Math.floor(ms / MILLIS_PER_MINUTE) % 60);
      p.fields.set('SecondOfMinute', Math.floor(ms / 1000) % 60);
      p.fields.set('NanoOfSecond', (ms % 1000) * 1e6);
      p.offsetSeconds = 0;
      return text.length;
    },
  };
}
