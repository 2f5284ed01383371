/**
 * Proleptic ISO (Gregorian) calendar arithmetic on epoch days and "local millis" (milliseconds of a
 * local date-time counted as if it were UTC), the way java.time's LocalDate/LocalDateTime compute.
 * Pure integer math, valid for negative years; no Date objects (their 0-99 year quirk bites).
 */

export const MILLIS_PER_DAY = 86_400_000;
export const NANOS_PER_MILLI = 1_000_000;

export interface LocalDate {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number; // 1-31
}

export interface LocalDateTime extends LocalDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Nano of second, 0..999_999_999. */
  readonly nano: number;
}

const floorDiv = (a: number, b: number): number => Math.floor(a / b);
export const floorMod = (a: number, b: number): number => a - Math.floor(a / b) * b;

/** Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = floorDiv(153 * mp + 2, 5) + day - 1;
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of {@link epochDay}. */
export function dateOfEpochDay(days: number): LocalDate {
  const z = days + 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = floorDiv(
    doe - floorDiv(doe, 1460) + floorDiv(doe, 36524) - floorDiv(doe, 146096),
    365,
  );
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const day = doy - floorDiv(153 * mp + 2, 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

export const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export function lengthOfMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export const lengthOfYear = (year: number): number => (isLeapYear(year) ? 366 : 365);

/** ISO day of week, Monday = 1 .. Sunday = 7 (1970-01-01 was a Thursday). */
export const isoDayOfWeek = (epochDays: number): number => floorMod(epochDays + 3, 7) + 1;

export const dayOfYear = (d: LocalDate): number =>
  epochDay(d.year, d.month, d.day) - epochDay(d.year, 1, 1) + 1;

/** Local date-time from local millis plus the sub-millisecond nanos. */
export function localDateTimeOf(localMillis: number, nanoOfMilli = 0): LocalDateTime {
  const days = floorDiv(localMillis, MILLIS_PER_DAY);
  const msOfDay = localMillis - days * MILLIS_PER_DAY;
  const d = dateOfEpochDay(days);
  const secOfDay = floorDiv(msOfDay, 1000);
  return {
    year: d.year,
    month: d.month,
    day: d.day,
    hour: floorDiv(secOfDay, 3600),
    minute: floorDiv(secOfDay, 60) % 60,
    second: secOfDay % 60,
    nano: (msOfDay % 1000) * NANOS_PER_MILLI + nanoOfMilli,
  };
}

/** Local millis of a local date-time (nanos below the millisecond are dropped). */
export function localMillisOf(ldt: LocalDateTime): number {
  return (
    epochDay(ldt.year, ldt.month, ldt.day) * MILLIS_PER_DAY +
    ((ldt.hour * 60 + ldt.minute) * 60 + ldt.second) * 1000 +
    Math.floor(ldt.nano / NANOS_PER_MILLI)
  );
}

/** java.time LocalDate.plusMonths: clamps the day to the target month's length. */
export function plusMonths(d: LocalDate, months: number): LocalDate {
  const total = d.year * 12 + (d.month - 1) + months;
  const year = floorDiv(total, 12);
  const month = total - year * 12 + 1;
  return { year, month, day: Math.min(d.day, lengthOfMonth(year, month)) };
}

/** Proleptic month count (ChronoField.PROLEPTIC_MONTH). */
export const prolepticMonth = (d: LocalDate): number => d.year * 12 + d.month - 1;
