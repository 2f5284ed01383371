/**
 * The small date interface aggregations need: time zones, Joda-style format/parse, date math,
 * and date_histogram roundings. This is a stand-in until `src/common/dates` (branch `dates`)
 * lands: the function names and shapes match that module (`timeZone`, `dateFormatter`,
 * `parseDateMath`, `calendarRounding`, `fixedRounding`, `parseDateHistogramInterval`) so this
 * file can then become re-exports. Named zones use ICU offsets via Intl; DST edge cases of ES's
 * TimeUnitRounding (two midnights) are not modelled here.
 */
import { EsError, illegalArgument, parseException } from '../../../common/errors.js';

// ---- time zones ---------------------------------------------------------------------------------

export interface TimeZone {
  readonly id: string;
  readonly fixed: boolean;
  offsetAt(utcMillis: number): number;
  /** Local wall-clock millis to UTC (gaps resolve forward, overlaps to the earlier instant). */
  localToUtc(localMillis: number): number;
}

class FixedZone implements TimeZone {
  readonly fixed = true;
  constructor(
    readonly id: string,
    private readonly offset: number,
  ) {}
  offsetAt(): number {
    return this.offset;
  }
  localToUtc(local: number): number {
    return local - this.offset;
  }
}

class IntlZone implements TimeZone {
  readonly fixed = false;
  private readonly fmt: Intl.DateTimeFormat;
  private readonly cache = new Map<number, number>();
  constructor(readonly id: string) {
    this.fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
  }
  offsetAt(utc: number): number {
    // Offsets change at most on quarter hours: cache per 15 minutes.
    const slot = Math.floor(utc / 900000);
    let off = this.cache.get(slot);
    if (off === undefined) {
      const base = slot * 900000;
      const p: Record<string, string> = {};
      for (const part of this.fmt.formatToParts(new Date(base))) p[part.type] = part.value;
      let year = Number(p.year);
      if (p.era === 'BC' || p.era === 'B') year = 1 - year;
      const local = Date.UTC(
        year,
        Number(p.month) - 1,
        Number(p.day),
        Number(p.hour),
        Number(p.minute),
        Number(p.second),
      );
      off = local - base;
      if (this.cache.size > 100000) this.cache.clear();
      this.cache.set(slot, off);
    }
    return off;
  }
  localToUtc(local: number): number {
    const guess = local - this.offsetAt(local);
    const off2 = this.offsetAt(guess);
    const utc = local - off2;
    if (this.offsetAt(utc) === off2) {
      // overlap: prefer the earlier instant
      const earlier = local - this.offsetAt(utc - 3600000);
      if (earlier < utc && this.offsetAt(earlier) === local - earlier) return earlier;
      return utc;
    }
    // gap: move forward past it
    return local - this.offsetAt(utc);
  }
}

export const UTC: TimeZone = new FixedZone('UTC', 0);

const zoneCache = new Map<string, TimeZone>();

export function printOffset(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const h = Math.floor(a / 3600000);
  const m = Math.floor((a % 3600000) / 60000);
  return `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** Joda DateTimeZone.forID (and forOffsetHours for numbers). */
export function timeZone(id: string | number): TimeZone {
  if (typeof id === 'number') {
    if (id === 0) return UTC;
    return new FixedZone(printOffset(id * 3600000), id * 3600000);
  }
  let z = zoneCache.get(id);
  if (z) return z;
  if (id === 'UTC' || id === 'Z' || id === 'GMT' || id === 'Etc/UTC' || id === 'utc') z = UTC;
  else {
    const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(id);
    if (m) {
      const off = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600000 + Number(m[3] ?? 0) * 60000);
      if (Math.abs(off) >= 24 * 3600000)
        throw illegalArgument(`The datetime zone id '${id}' is not recognised`);
      z = off === 0 ? UTC : new FixedZone(printOffset(off), off);
    } else {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: id });
      } catch {
        throw illegalArgument(`The datetime zone id '${id}' is not recognised`);
      }
      z = new IntlZone(id);
    }
  }
  zoneCache.set(id, z);
  return z;
}

// ---- calendar helpers ---------------------------------------------------------------------------

interface Fields {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
}

function fieldsOf(local: number): Fields {
  const d = new Date(local);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millis: d.getUTCMilliseconds(),
  };
}

function localOf(f: Fields): number {
  const d = new Date(0);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  d.setUTCHours(f.hour, f.minute, f.second, f.millis);
  return d.getTime();
}

export type CalendarUnit =
  'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';

/** Days since 1970-01-01 → [year, month(1-12), day] (proleptic Gregorian, pure arithmetic). */
export function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? y + 1 : y, m, d];
}

/** year * 12 + (month - 1) of a day number, without allocating. */
export function yearMonth(z: number): number {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return y * 12 + m - 1;
}

/** [year, month(1-12), day] → days since 1970-01-01. */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Floor of local millis to a calendar unit (weeks start on Monday, ISO). */
function floorLocal(unit: CalendarUnit, local: number): number {
  switch (unit) {
    case 'year':
    case 'quarter':
    case 'month': {
      const ym = yearMonth(Math.floor(local / 86400000));
      const y = Math.floor(ym / 12);
      const m = ym - y * 12 + 1;
      const month = unit === 'year' ? 1 : unit === 'quarter' ? m - ((m - 1) % 3) : m;
      return daysFromCivil(y, month, 1) * 86400000;
    }
    case 'week': {
      const day = Math.floor(local / 86400000);
      // 1970-01-01 was a Thursday: Monday-based weeks start at day - ((day + 3) mod 7)
      return (day - ((((day + 3) % 7) + 7) % 7)) * 86400000;
    }
    case 'day':
      return Math.floor(local / 86400000) * 86400000;
    case 'hour':
      return Math.floor(local / 3600000) * 3600000;
    case 'minute':
      return Math.floor(local / 60000) * 60000;
    case 'second':
      return Math.floor(local / 1000) * 1000;
  }
}

function addLocal(unit: CalendarUnit, local: number, n: number): number {
  switch (unit) {
    case 'year':
    case 'quarter':
    case 'month': {
      const days = Math.floor(local / 86400000);
      const timeOfDay = local - days * 86400000;
      const [y, m, d] = civilFromDays(days);
      const months = unit === 'year' ? 12 * n : unit === 'quarter' ? 3 * n : n;
      const total = y * 12 + (m - 1) + months;
      const year = Math.floor(total / 12);
      const month = total - year * 12 + 1;
      const dim =
        month === 2
          ? isLeap(year)
            ? 29
            : 28
          : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
      return daysFromCivil(year, month, Math.min(d, dim)) * 86400000 + timeOfDay;
    }
    case 'week':
      return local + n * 604800000;
    case 'day':
      return local + n * 86400000;
    case 'hour':
      return local + n * 3600000;
    case 'minute':
      return local + n * 60000;
    case 'second':
      return local + n * 1000;
  }
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

// ---- roundings ----------------------------------------------------------------------------------

export interface Rounding {
  round(utcMillis: number): number;
  nextRoundingValue(utcMillis: number): number;
}

/** ES TimeUnitRounding for a calendar unit in a zone, with date_histogram's offset. */
export function calendarRounding(unit: CalendarUnit, zone: TimeZone, offset = 0): Rounding {
  const base: Rounding = zone.fixed
    ? {
        round: (v) => {
          const off = zone.offsetAt(v);
          return floorLocal(unit, v + off) - off;
        },
        nextRoundingValue: (v) => {
          const off = zone.offsetAt(v);
          return addLocal(unit, floorLocal(unit, v + off), 1) - off;
        },
      }
    : {
        round: (v) => zone.localToUtc(floorLocal(unit, v + zone.offsetAt(v))),
        nextRoundingValue: (v) => {
          const local = floorLocal(unit, v + zone.offsetAt(v));
          let next = zone.localToUtc(addLocal(unit, local, 1));
          if (next <= v) next = zone.localToUtc(addLocal(unit, local, 2));
          return next;
        },
      };
  return withOffset(base, offset);
}

/** ES TimeIntervalRounding: fixed millis intervals in local time. */
export function fixedRounding(intervalMillis: number, zone: TimeZone, offset = 0): Rounding {
  if (!(intervalMillis >= 1)) throw illegalArgument('Zero or negative time interval not supported');
  const roundKey = (v: number) => Math.floor(v / intervalMillis) * intervalMillis;
  const base: Rounding = zone.fixed
    ? {
        round: (v) => {
          const off = zone.offsetAt(v);
          return roundKey(v + off) - off;
        },
        nextRoundingValue: (v) => v + intervalMillis,
      }
    : {
        round: (v) => zone.localToUtc(roundKey(v + zone.offsetAt(v))),
        nextRoundingValue: (v) => zone.localToUtc(v + zone.offsetAt(v) + intervalMillis),
      };
  return withOffset(base, offset);
}

export function withOffset(r: Rounding, offset: number): Rounding {
  if (offset === 0) return r;
  return {
    round: (v) => r.round(v - offset) + offset,
    nextRoundingValue: (v) => r.nextRoundingValue(v - offset) + offset,
  };
}

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

export type DateHistogramInterval = { calendar: CalendarUnit } | { fixedMillis: number };

/** ES TimeValue.parseTimeValue (units nanos..days). */
export function parseTimeValue(s: string, setting: string): number {
  const m = /^(-?\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)$/.exec(s.trim());
  if (!m) {
    if (/^-?\d+$/.test(s.trim())) {
      throw parseException(
        `failed to parse setting [${setting}] with value [${s}] as a time value: unit is missing or unrecognized`,
      );
    }
    throw parseException(
      `failed to parse setting [${setting}] with value [${s}] as a time value: unit is missing or unrecognized`,
    );
  }
  const n = Number(m[1]);
  const mult: Record<string, number> = {
    nanos: 1e-6,
    micros: 1e-3,
    ms: 1,
    s: 1000,
    m: 60000,
    h: 3600000,
    d: 86400000,
  };
  return Math.floor(n * mult[m[2]!]!);
}

export function parseDateHistogramInterval(
  value: string | number,
  aggName: string,
): DateHistogramInterval {
  if (typeof value === 'number') {
    if (value < 1)
      throw illegalArgument(
        `[interval] must be 1 or greater for histogram aggregation [${aggName}]`,
      );
    return { fixedMillis: value };
  }
  const unit = DATE_FIELD_UNITS[value];
  if (unit) return { calendar: unit };
  const ms = parseTimeValue(value, 'DateHistogramAggregationBuilder.interval');
  if (ms < 1) throw illegalArgument('Zero or negative time interval not supported');
  return { fixedMillis: ms };
}

// ---- formatting ---------------------------------------------------------------------------------

export interface DateFormatter {
  readonly pattern: string;
  format(millis: number, zone?: TimeZone): string;
  parse(text: string, zone?: TimeZone, roundUp?: boolean): number;
}

const NAMED: Record<string, string> = {
  strict_date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
  date_optional_time: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
  strict_date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssZZ",
  strict_date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssZZ",
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSZ",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssZ",
  date: 'yyyy-MM-dd',
  strict_date: 'yyyy-MM-dd',
  date_hour: "yyyy-MM-dd'T'HH",
  strict_date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  strict_date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  strict_date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  strict_date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  hour: 'HH',
  strict_hour: 'HH',
  hour_minute: 'HH:mm',
  strict_hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  strict_hour_minute_second: 'HH:mm:ss',
  hour_minute_second_millis: 'HH:mm:ss.SSS',
  strict_hour_minute_second_millis: 'HH:mm:ss.SSS',
  time: 'HH:mm:ss.SSSZZ',
  strict_time: 'HH:mm:ss.SSSZZ',
  time_no_millis: 'HH:mm:ssZZ',
  strict_time_no_millis: 'HH:mm:ssZZ',
  t_time: "'T'HH:mm:ss.SSSZZ",
  year: 'yyyy',
  strict_year: 'yyyy',
  year_month: 'yyyy-MM',
  strict_year_month: 'yyyy-MM',
  year_month_day: 'yyyy-MM-dd',
  strict_year_month_day: 'yyyy-MM-dd',
  ordinal_date: 'yyyy-DDD',
  strict_ordinal_date: 'yyyy-DDD',
  week_date: "xxxx-'W'ww-e",
  weekyear: 'xxxx',
};

/** ISO date_optional_time parsing (ES 6.8 Joda `dateOptionalTimeParser`). */
const ISO_RE =
  /^([+-]?\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,9}))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

function parseIso(text: string, zone: TimeZone, roundUp: boolean): number | null {
  const m = ISO_RE.exec(text);
  if (!m) return null;
  const hasMonth = m[2] !== undefined;
  const hasDay = m[3] !== undefined;
  if (!hasDay && m[4] !== undefined) return null;
  const f: Fields = {
    year: Number(m[1]),
    month: hasMonth ? Number(m[2]) : roundUp ? 12 : 1,
    day: hasDay ? Number(m[3]) : 1,
    hour: m[4] !== undefined ? Number(m[4]) : roundUp ? 23 : 0,
    minute: m[5] !== undefined ? Number(m[5]) : roundUp ? 59 : 0,
    second: m[6] !== undefined ? Number(m[6]) : roundUp ? 59 : 0,
    millis: m[7] !== undefined ? Number(m[7].slice(0, 3).padEnd(3, '0')) : roundUp ? 999 : 0,
  };
  if (
    f.month < 1 ||
    f.month > 12 ||
    f.day < 1 ||
    f.day > 31 ||
    f.hour > 23 ||
    f.minute > 59 ||
    f.second > 59
  ) {
    return null;
  }
  if (roundUp && !hasDay) f.day = new Date(Date.UTC(f.year, f.month, 0)).getUTCDate();
  const local = localOf(f);
  if (m[8] !== undefined) {
    const z = m[8] === 'Z' ? UTC : timeZone(m[8]);
    return local - z.offsetAt(local);
  }
  return zone.localToUtc(local);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

interface PatternToken {
  ch: string;
  len: number;
  lit?: string;
}

function tokenizePattern(p: string): PatternToken[] {
  const out: PatternToken[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "'") {
      let j = i + 1;
      let lit = '';
      for (;;) {
        if (j >= p.length) break;
        if (p[j] === "'") {
          if (p[j + 1] === "'") {
            lit += "'";
            j += 2;
            continue;
          }
          break;
        }
        lit += p[j++];
      }
      out.push({ ch: "'", len: 0, lit: j === i + 1 && p[j] === "'" ? "'" : lit });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (p[j] === c) j++;
      out.push({ ch: c, len: j - i });
      i = j;
      continue;
    }
    out.push({ ch: "'", len: 0, lit: c });
    i++;
  }
  return out;
}

const pad = (n: number, len: number) =>
  n < 0 ? '-' + String(-n).padStart(len, '0') : String(n).padStart(len, '0');

function isoWeek(local: number): { weekyear: number; week: number } {
  const day = Math.floor(local / 86400000);
  const dow = (new Date(day * 86400000).getUTCDay() + 6) % 7;
  const thursday = day - dow + 3;
  const wy = new Date(thursday * 86400000).getUTCFullYear();
  const jan1 = Math.floor(Date.UTC(wy, 0, 1) / 86400000);
  return { weekyear: wy, week: Math.floor((thursday - jan1) / 7) + 1 };
}

function formatPattern(tokens: PatternToken[], millis: number, zone: TimeZone): string {
  const off = zone.offsetAt(millis);
  const local = millis + off;
  const f = fieldsOf(local);
  let out = '';
  for (const t of tokens) {
    switch (t.ch) {
      case "'":
        out += t.lit;
        break;
      case 'y':
      case 'Y':
      case 'u':
        out += t.len === 2 ? pad(((f.year % 100) + 100) % 100, 2) : pad(f.year, t.len);
        break;
      case 'x':
        out += pad(isoWeek(local).weekyear, t.len === 2 ? 2 : t.len);
        break;
      case 'w':
        out += pad(isoWeek(local).week, t.len);
        break;
      case 'M':
        out +=
          t.len >= 4
            ? MONTHS[f.month - 1]
            : t.len === 3
              ? MONTHS[f.month - 1]!.slice(0, 3)
              : pad(f.month, t.len);
        break;
      case 'd':
        out += pad(f.day, t.len);
        break;
      case 'D': {
        const doy = Math.floor((local - Date.UTC(f.year, 0, 1)) / 86400000) + 1;
        out += pad(doy, t.len);
        break;
      }
      case 'E': {
        const dow = (new Date(local).getUTCDay() + 6) % 7;
        out += t.len >= 4 ? DAYS[dow] : DAYS[dow]!.slice(0, 3);
        break;
      }
      case 'e':
        out += pad(((new Date(local).getUTCDay() + 6) % 7) + 1, t.len);
        break;
      case 'H':
        out += pad(f.hour, t.len);
        break;
      case 'k':
        out += pad(f.hour === 0 ? 24 : f.hour, t.len);
        break;
      case 'h':
        out += pad(f.hour % 12 === 0 ? 12 : f.hour % 12, t.len);
        break;
      case 'K':
        out += pad(f.hour % 12, t.len);
        break;
      case 'a':
        out += f.hour < 12 ? 'AM' : 'PM';
        break;
      case 'm':
        out += pad(f.minute, t.len);
        break;
      case 's':
        out += pad(f.second, t.len);
        break;
      case 'S':
        out += pad(f.millis, 3).slice(0, t.len).padEnd(t.len, '0');
        break;
      case 'Z':
        if (t.len === 1) out += printOffset(off).replace(':', '');
        else if (t.len === 2)
          out +=
            zone === UTC || (zone.fixed && off === 0 && zone.id === 'UTC') ? 'Z' : printOffset(off);
        else out += zone.id;
        break;
      case 'z':
        out += zone.id === 'UTC' ? 'UTC' : printOffset(off);
        break;
      default:
        out += t.ch.repeat(t.len);
    }
  }
  return out;
}

function parsePattern(
  tokens: PatternToken[],
  text: string,
  zone: TimeZone,
  roundUp: boolean,
): number | null {
  let re = '^';
  const groups: PatternToken[] = [];
  for (const t of tokens) {
    if (t.ch === "'") {
      re += t.lit!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    groups.push(t);
    switch (t.ch) {
      case 'M':
        re += t.len >= 3 ? '([A-Za-z]+)' : `(\\d{1,2})`;
        break;
      case 'E':
        re += '([A-Za-z]+)';
        break;
      case 'a':
        re += '([AaPp][Mm])';
        break;
      case 'Z':
        re += '(Z|[+-]\\d{2}:?\\d{2}|UTC)';
        break;
      case 'S':
        re += '(\\d{1,9})';
        break;
      case 'y':
      case 'Y':
      case 'x':
        re += t.len === 2 ? '(\\d{2})' : '([+-]?\\d{1,9})';
        break;
      default:
        re += `(\\d{1,${Math.max(t.len, 2)}})`;
    }
  }
  const m = new RegExp(re + '$').exec(text);
  if (!m) return null;
  const f: Fields = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, millis: 0 };
  let pm: boolean | null = null;
  let explicitZone: TimeZone | null = null;
  const seen = new Set<string>();
  groups.forEach((t, i) => {
    const v = m[i + 1]!;
    seen.add(t.ch);
    switch (t.ch) {
      case 'y':
      case 'Y':
      case 'x':
        f.year = t.len === 2 ? 2000 + Number(v) - (Number(v) > 49 ? 100 : 0) : Number(v);
        break;
      case 'M':
        f.month = /\d/.test(v)
          ? Number(v)
          : MONTHS.findIndex((n) => n.toLowerCase().startsWith(v.toLowerCase())) + 1;
        break;
      case 'd':
        f.day = Number(v);
        break;
      case 'H':
      case 'k':
      case 'h':
      case 'K':
        f.hour = Number(v) % 24;
        break;
      case 'm':
        f.minute = Number(v);
        break;
      case 's':
        f.second = Number(v);
        break;
      case 'S':
        f.millis = Number(v.slice(0, 3).padEnd(3, '0'));
        break;
      case 'a':
        pm = v.toLowerCase() === 'pm';
        break;
      case 'Z':
        explicitZone =
          v === 'Z' || v === 'UTC'
            ? UTC
            : timeZone(v.length === 5 ? `${v.slice(0, 3)}:${v.slice(3)}` : v);
        break;
    }
  });
  if (pm !== null && f.hour < 12 && pm) f.hour += 12;
  if (pm === false && f.hour === 12) f.hour = 0;
  if (roundUp) {
    if (!seen.has('M') && !seen.has('d')) f.month = 12;
    if (!seen.has('d')) f.day = new Date(Date.UTC(f.year, f.month, 0)).getUTCDate();
    if (!seen.has('H') && !seen.has('h') && !seen.has('k') && !seen.has('K')) f.hour = 23;
    if (!seen.has('m')) f.minute = 59;
    if (!seen.has('s')) f.second = 59;
    if (!seen.has('S')) f.millis = 999;
  }
  const local = localOf(f);
  const z: TimeZone = explicitZone ?? zone;
  return z.localToUtc(local);
}

interface SingleFormat {
  format(millis: number, zone: TimeZone): string;
  parse(text: string, zone: TimeZone, roundUp: boolean): number | null;
}

function singleFormat(name: string): SingleFormat {
  if (name === 'epoch_millis') {
    return {
      format: (ms) => String(Math.trunc(ms)),
      parse: (t) => (/^-?\d+(\.\d+)?$/.test(t) ? Math.trunc(Number(t)) : null),
    };
  }
  if (name === 'epoch_second') {
    return {
      format: (ms) => String(Math.trunc(ms / 1000)),
      parse: (t) => (/^-?\d+(\.\d+)?$/.test(t) ? Math.trunc(Number(t) * 1000) : null),
    };
  }
  const iso =
    name === 'strict_date_optional_time' ||
    name === 'date_optional_time' ||
    name === 'dateOptionalTime';
  const tokens = tokenizePattern(NAMED[name] ?? name);
  return {
    format: (ms, zone) => formatPattern(tokens, ms, zone),
    parse: iso
      ? (t, zone, up) => parseIso(t, zone, up)
      : (t, zone, up) => parsePattern(tokens, t, zone, up),
  };
}

const formatterCache = new Map<string, DateFormatter>();

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

/** A Joda-style formatter for a `||`-separated list of formats; prints with the first. */
export function dateFormatter(pattern: string): DateFormatter {
  let f = formatterCache.get(pattern);
  if (f) return f;
  const parts = pattern.split('||').map((p) => singleFormat(p.trim()));
  const first = parts[0]!;
  f = {
    pattern,
    format: (ms, zone = UTC) => first.format(ms, zone),
    parse: (text, zone = UTC, roundUp = false) => {
      for (const p of parts) {
        const v = p.parse(text, zone, roundUp);
        if (v !== null && !Number.isNaN(v)) return v;
      }
      throw new EsError('illegal_argument_exception', `Invalid format: "${text}"`, 400);
    },
  };
  if (formatterCache.size > 1000) formatterCache.clear();
  formatterCache.set(pattern, f);
  return f;
}

// ---- date math ----------------------------------------------------------------------------------

const MATH_UNITS: Record<string, CalendarUnit> = {
  y: 'year',
  M: 'month',
  w: 'week',
  d: 'day',
  h: 'hour',
  H: 'hour',
  m: 'minute',
  s: 'second',
};

/** ES JodaDateMathParser: `now-1d/d`, `2016-01-01||+1M/M`, or a plain date in `formatter`. */
export function parseDateMath(
  expr: string,
  now: () => number,
  roundUp: boolean,
  zone: TimeZone = UTC,
  formatter: DateFormatter = dateFormatter(DEFAULT_DATE_FORMAT),
): number {
  let time: number;
  let math: string;
  if (expr.startsWith('now')) {
    time = now();
    math = expr.slice(3);
  } else {
    const idx = expr.indexOf('||');
    if (idx < 0) {
      try {
        return formatter.parse(expr, zone, roundUp);
      } catch (e) {
        throw dateParseFailure(expr, formatter, e);
      }
    }
    try {
      time = formatter.parse(expr.slice(0, idx), zone, false);
    } catch (e) {
      throw dateParseFailure(expr.slice(0, idx), formatter, e);
    }
    math = expr.slice(idx + 2);
  }
  let local = time + zone.offsetAt(time);
  let i = 0;
  while (i < math.length) {
    const c = math[i++]!;
    if (c === '/') {
      const u = MATH_UNITS[math[i++] ?? ''];
      if (!u) throw parseException(`rounding to unit not supported for date math [${expr}]`);
      local = floorLocal(u, local);
      if (roundUp) local = addLocal(u, local, 1) - 1;
      continue;
    }
    if (c !== '+' && c !== '-')
      throw parseException(`operator not supported for date math [${expr}]`);
    let j = i;
    while (j < math.length && math[j]! >= '0' && math[j]! <= '9') j++;
    const n = j > i ? Number(math.slice(i, j)) : 1;
    const u = MATH_UNITS[math[j] ?? ''];
    if (!u) throw parseException(`unit [${math[j] ?? ''}] not supported for date math [${expr}]`);
    local = addLocal(u, local, c === '+' ? n : -n);
    i = j + 1;
  }
  return zone.fixed ? local - zone.offsetAt(time) : zone.localToUtc(local);
}

function dateParseFailure(text: string, formatter: DateFormatter, cause: unknown): EsError {
  return new EsError(
    'parse_exception',
    `failed to parse date field [${text}] with format [${formatter.pattern}]`,
    400,
    cause instanceof EsError ? { causedBy: cause } : {},
  );
}
