/**
 * Proleptic Gregorian calendar arithmetic on epoch millis (ISO chronology, year 0 exists), as
 * Joda's ISOChronology and java.time's IsoChronology compute it. Pure integer math on JS numbers
 * (exact up to ±2^53 ms, about ±285 000 years); no `Date` object and no string parsing.
 */

export const MILLIS_PER_SECOND = 1000;
export const MILLIS_PER_MINUTE = 60_000;
export const MILLIS_PER_HOUR = 3_600_000;
export const MILLIS_PER_DAY = 86_400_000;
export const MILLIS_PER_WEEK = 7 * MILLIS_PER_DAY;

/** Joda GregorianChronology year bounds (ES 6.8 rejects years outside them). */
export const MIN_YEAR = -292275054;
export const MAX_YEAR = 292278993;

export const floorDiv = (a: number, b: number): number => Math.floor(a / b);
export const floorMod = (a: number, b: number): number => a - Math.floor(a / b) * b;

export const isLeapYear = (y: number): boolean => (y & 3) === 0 && (y % 100 !== 0 || y % 400 === 0);

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Days before the first of each month in a common year (index 1..12). */
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

export const daysInMonth = (y: number, m: number): number =>
  m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m]!;

export const daysInYear = (y: number): number => (isLeapYear(y) ? 366 : 365);

/** Days since 1970-01-01 of the civil date y-m-d (era-of-400-years algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400; // [0, 399]
  const mp = m > 2 ? m - 3 : m + 9; // March-based month [0, 11]
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1; // [0, 365]
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy; // [0, 146096]
  return era * 146097 + doe - 719468;
}

/** Inverse of daysFromCivil; writes year, month, day into `out` (avoids allocation). */
export function civilFromDays(days: number, out: { year: number; month: number; day: number }) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097; // [0, 146096]
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // [0, 365]
  const mp = Math.floor((5 * doy + 2) / 153); // [0, 11]
  out.day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  out.month = mp < 10 ? mp + 3 : mp - 9;
  out.year = yoe + era * 400 + (out.month <= 2 ? 1 : 0);
}

/** ISO day of week of an epoch day: 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday). */
export const isoDayOfWeek = (days: number): number => floorMod(days + 3, 7) + 1;

export const dayOfYear = (y: number, m: number, d: number): number =>
  DAYS_BEFORE_MONTH[m]! + d + (m > 2 && isLeapYear(y) ? 1 : 0);

/** Epoch day of Monday of ISO week 1 of the given week-based year (the week holding Jan 4). */
export function weekyearStartDays(weekyear: number): number {
  const jan4 = daysFromCivil(weekyear, 1, 4);
  return jan4 - (isoDayOfWeek(jan4) - 1);
}

/** ISO weeks in a week-based year: 53 when Jan 1 is a Thursday, or a Wednesday in a leap year. */
export function weeksInWeekyear(weekyear: number): number {
  const dow = isoDayOfWeek(daysFromCivil(weekyear, 1, 1));
  return dow === 4 || (dow === 3 && isLeapYear(weekyear)) ? 53 : 52;
}

/** Broken-down local date-time fields (ISO), filled by `breakDown`. */
export interface LocalFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  /** Millis of day [0, 86399999]. */
  millisOfDay: number;
  /** Epoch day of the date. */
  epochDay: number;
}

export const newLocalFields = (): LocalFields => ({
  year: 1970,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  millis: 0,
  millisOfDay: 0,
  epochDay: 0,
});

/** Splits local millis (epoch millis shifted by the zone offset) into calendar fields. */
export function breakDown(local: number, out: LocalFields): LocalFields {
  const days = Math.floor(local / MILLIS_PER_DAY);
  let mod = local - days * MILLIS_PER_DAY;
  out.epochDay = days;
  out.millisOfDay = mod;
  civilFromDays(days, out);
  out.hour = Math.floor(mod / MILLIS_PER_HOUR);
  mod -= out.hour * MILLIS_PER_HOUR;
  out.minute = Math.floor(mod / MILLIS_PER_MINUTE);
  mod -= out.minute * MILLIS_PER_MINUTE;
  out.second = Math.floor(mod / 1000);
  out.millis = mod - out.second * 1000;
  return out;
}

/** Local millis of the given fields (no validation). */
export const localMillisOf = (
  y: number,
  m: number,
  d: number,
  h = 0,
  mi = 0,
  s = 0,
  ms = 0,
): number =>
  daysFromCivil(y, m, d) * MILLIS_PER_DAY +
  h * MILLIS_PER_HOUR +
  mi * MILLIS_PER_MINUTE +
  s * 1000 +
  ms;

/** ISO week-based year and week of an epoch day. */
export function isoWeekOf(days: number): { weekyear: number; week: number } {
  const thursday = days - isoDayOfWeek(days) + 4;
  const tmp = { year: 0, month: 0, day: 0 };
  civilFromDays(thursday, tmp);
  const doy = dayOfYear(tmp.year, tmp.month, tmp.day);
  return { weekyear: tmp.year, week: Math.floor((doy - 1) / 7) + 1 };
}

/** Year of a local millis value (fast path of breakDown for rounding). */
export function yearOf(local: number): number {
  const tmp = { year: 0, month: 0, day: 0 };
  civilFromDays(Math.floor(local / MILLIS_PER_DAY), tmp);
  return tmp.year;
}

// --- Joda-style field arithmetic on local millis (used by date math and calendar rounding) ---

const scratch = newLocalFields();

/** Joda BasicChronology.setYear: keeps month/day (Feb 29 -> Feb 28) and time of day. */
export function setYearLocal(local: number, year: number): number {
  breakDown(local, scratch);
  const d = Math.min(scratch.day, daysInMonth(year, scratch.month));
  return daysFromCivil(year, scratch.month, d) * MILLIS_PER_DAY + scratch.millisOfDay;
}

/** Joda months().add: adds months, clamping the day to the target month's length. */
export function addMonthsLocal(local: number, months: number): number {
  if (months === 0) return local;
  breakDown(local, scratch);
  const total = scratch.year * 12 + (scratch.month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  const d = Math.min(scratch.day, daysInMonth(y, m));
  return daysFromCivil(y, m, d) * MILLIS_PER_DAY + scratch.millisOfDay;
}

export const addYearsLocal = (local: number, years: number): number =>
  years === 0 ? local : setYearLocal(local, yearOf(local) + years);

/** Floor of local millis to the start of its year / quarter / month / ISO week / day. */
export function floorYearLocal(local: number): number {
  return daysFromCivil(yearOf(local), 1, 1) * MILLIS_PER_DAY;
}
export function floorQuarterLocal(local: number): number {
  breakDown(local, scratch);
  const m = scratch.month - ((scratch.month - 1) % 3);
  return daysFromCivil(scratch.year, m, 1) * MILLIS_PER_DAY;
}
export function floorMonthLocal(local: number): number {
  breakDown(local, scratch);
  return daysFromCivil(scratch.year, scratch.month, 1) * MILLIS_PER_DAY;
}
export function floorWeekLocal(local: number): number {
  const days = Math.floor(local / MILLIS_PER_DAY);
  return (days - (isoDayOfWeek(days) - 1)) * MILLIS_PER_DAY;
}
export const floorUnit = (local: number, unit: number): number => Math.floor(local / unit) * unit;
