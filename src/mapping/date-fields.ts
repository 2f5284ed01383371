/**
 * The calendar fields a date parse fills and their conversion to epoch milliseconds (proleptic
 * Gregorian, UTC offset applied), with Joda's range-check messages (IllegalFieldValueException).
 */

/** Result of one alternative: epoch millis, or ~position of the parse error. */
export type Attempt = (text: string) => { ms: number } | { err: number; msg?: string };

export interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  offsetMin: number;
  dayOfYear: number;
  weekYear: number;
  week: number;
  weekDay: number;
  halfday: number;
  hour12: number;
}

export const newFields = (): Fields => ({
  year: 1970,
  month: 1,
  day: 1,
  hour: 0,
  minute: 0,
  second: 0,
  millis: 0,
  offsetMin: 0,
  dayOfYear: -1,
  weekYear: NaN,
  week: -1,
  weekDay: -1,
  halfday: -1,
  hour12: -1,
});

export const isDigit = (c: number) => c >= 48 && c <= 57;

/** Reads [min, max] digits at pos; returns the end position or -1. */
export function digits(t: string, pos: number, min: number, max: number): number {
  let i = pos;
  while (i < t.length && i - pos < max && isDigit(t.charCodeAt(i))) i++;
  return i - pos >= min ? i : -1;
}

/** Z | ±HH | ±HHmm | ±HH:mm; returns the new position or ~errorPos. */
export function parseOffset(t: string, pos: number, f: Fields): number {
  const c = t[pos];
  if (c === 'Z') {
    f.offsetMin = 0;
    return pos + 1;
  }
  if (c !== '+' && c !== '-') return ~pos;
  const sign = c === '-' ? -1 : 1;
  let p = pos + 1;
  const e = digits(t, p, 2, 2);
  if (e < 0) return ~p;
  let minutes = Number(t.slice(p, e)) * 60;
  p = e;
  if (t[p] === ':') p++;
  const e2 = digits(t, p, 2, 2);
  if (e2 > 0) {
    minutes += Number(t.slice(p, e2));
    p = e2;
  } else if (t[p - 1] === ':') return ~p;
  f.offsetMin = sign * minutes;
  return p;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function rangeError(t: string, value: number, field: string, lo: number, hi: number) {
  return {
    err: 0,
    msg: `Cannot parse "${t}": Value ${value} for ${field} must be in the range [${lo},${hi}]`,
  };
}

export function finish(t: string, f: Fields): { ms: number } | { err: number; msg?: string } {
  if (f.halfday >= 0 && f.hour12 >= 0) f.hour = (f.hour12 % 12) + 12 * f.halfday;
  if (!Number.isNaN(f.weekYear)) {
    // ISO week date: Monday of week 1 is the Monday on or before January 4th
    const jan4 = daysFromCivil(f.weekYear, 1, 4);
    const jan4Dow = ((((jan4 + 3) % 7) + 7) % 7) + 1; // 1 = Monday
    const wk = f.week < 0 ? 1 : f.week;
    const wd = f.weekDay < 0 ? 1 : f.weekDay;
    if (wk < 1 || wk > 53) return rangeError(t, wk, 'weekOfWeekyear', 1, 53);
    if (wd < 1 || wd > 7) return rangeError(t, wd, 'dayOfWeek', 1, 7);
    const days = jan4 - (jan4Dow - 1) + (wk - 1) * 7 + (wd - 1);
    return { ms: timeOfDay(days, f) };
  }
  if (f.month < 1 || f.month > 12) return rangeError(t, f.month, 'monthOfYear', 1, 12);
  if (f.hour > 23) return rangeError(t, f.hour, 'hourOfDay', 0, 23);
  if (f.minute > 59) return rangeError(t, f.minute, 'minuteOfHour', 0, 59);
  if (f.second > 59) return rangeError(t, f.second, 'secondOfMinute', 0, 59);
  let days: number;
  if (f.dayOfYear >= 0) {
    const max = daysInMonth(f.year, 2) === 29 ? 366 : 365;
    if (f.dayOfYear < 1 || f.dayOfYear > max)
      return rangeError(t, f.dayOfYear, 'dayOfYear', 1, max);
    days = daysFromCivil(f.year, 1, 1) + f.dayOfYear - 1;
  } else {
    const dim = daysInMonth(f.year, f.month);
    if (f.day < 1 || f.day > dim) return rangeError(t, f.day, 'dayOfMonth', 1, dim);
    days = daysFromCivil(f.year, f.month, f.day);
  }
  return { ms: timeOfDay(days, f) };
}

const timeOfDay = (days: number, f: Fields) =>
  days * 86400000 +
  f.hour * 3600000 +
  f.minute * 60000 +
  f.second * 1000 +
  f.millis -
  f.offsetMin * 60000;
