/**
 * java.time field model for the java pattern dialect: the ChronoField names used in messages,
 * the parse state, the print context, and field values computed from an instant (week-based
 * fields use Locale.ROOT under the JDK COMPAT provider: weeks start on Sunday, minimal days 1).
 */

import type { LocalFields } from './calendar.js';
import { breakDown, dayOfYear, daysFromCivil, isoDayOfWeek, newLocalFields } from './calendar.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { TimeZone } from './zone-base.js';

/** java.time ChronoField names (as they appear in java.time error messages). */
export type JField =
  | 'Era'
  | 'YearOfEra'
  | 'Year'
  | 'QuarterOfYear'
  | 'MonthOfYear'
  | 'DayOfMonth'
  | 'DayOfYear'
  | 'DayOfWeek'
  | 'LocalizedDayOfWeek'
  | 'AlignedWeekOfMonth'
  | 'WeekOfMonth'
  | 'WeekBasedYear'
  | 'WeekOfWeekBasedYear'
  | 'AmPmOfDay'
  | 'HourOfDay'
  | 'ClockHourOfDay'
  | 'HourOfAmPm'
  | 'ClockHourOfAmPm'
  | 'MinuteOfHour'
  | 'SecondOfMinute'
  | 'NanoOfSecond'
  | 'MilliOfDay'
  | 'NanoOfDay';

export class JavaParsed {
  fields = new Map<JField, number>();
  offsetSeconds: number | null = null;
  zone: TimeZone | null = null;
  constructor(public locale: LocaleSymbols) {}
  snapshot(): [Map<JField, number>, number | null, TimeZone | null] {
    return [new Map(this.fields), this.offsetSeconds, this.zone];
  }
  restore(s: [Map<JField, number>, number | null, TimeZone | null]): void {
    this.fields = new Map(s[0]);
    this.offsetSeconds = s[1];
    this.zone = s[2];
  }
}

export interface JavaPrintContext {
  utc: number;
  offset: number;
  zone: TimeZone;
  locale: LocaleSymbols;
  local: number;
  f: LocalFields;
}

export function javaPrintContext(
  utc: number,
  zone: TimeZone,
  locale: LocaleSymbols,
): JavaPrintContext {
  const offset = zone.offsetAt(utc);
  const local = utc + offset;
  return { utc, offset, zone, locale, local, f: breakDown(local, newLocalFields()) };
}

export interface JavaElement {
  print(ctx: JavaPrintContext): string;
  parse(p: JavaParsed, text: string, pos: number): number;
}

/** Thrown for invalid patterns and unprintable values; message is java.time's. */
export class JavaFormatError extends Error {}

// --- field values for printing -----------------------------------------------------------------

/** Sunday-start, minimal-days-1 week data (Locale.ROOT under the JDK COMPAT provider). */
function sundayWeekStart(year: number): number {
  const jan1 = daysFromCivil(year, 1, 1);
  return jan1 - (isoDayOfWeek(jan1) % 7); // Sunday on or before Jan 1
}
export function weekBasedYearWeek(epochDay: number, year: number): [number, number] {
  let wby = year;
  if (epochDay >= sundayWeekStart(year + 1)) wby = year + 1;
  return [wby, Math.floor((epochDay - sundayWeekStart(wby)) / 7) + 1];
}
/** Epoch day of the first day (Sunday) of the given week of a week-based year. */
export const weekStartDay = (wby: number, week: number): number =>
  sundayWeekStart(wby) + (week - 1) * 7;
const localizedDow = (epochDay: number) => (isoDayOfWeek(epochDay) % 7) + 1; // Sunday = 1

export function fieldValue(field: JField, c: JavaPrintContext): number {
  const f = c.f;
  switch (field) {
    case 'Era':
      return f.year <= 0 ? 0 : 1;
    case 'YearOfEra':
      return f.year <= 0 ? 1 - f.year : f.year;
    case 'Year':
      return f.year;
    case 'QuarterOfYear':
      return Math.floor((f.month - 1) / 3) + 1;
    case 'MonthOfYear':
      return f.month;
    case 'DayOfMonth':
      return f.day;
    case 'DayOfYear':
      return dayOfYear(f.year, f.month, f.day);
    case 'DayOfWeek':
      return isoDayOfWeek(f.epochDay);
    case 'LocalizedDayOfWeek':
      return localizedDow(f.epochDay);
    case 'AlignedWeekOfMonth':
      return Math.floor((f.day - 1) / 7) + 1;
    case 'WeekOfMonth': {
      const first = f.epochDay - (f.day - 1);
      return Math.floor((f.day - 1 + (isoDayOfWeek(first) % 7)) / 7) + 1;
    }
    case 'WeekBasedYear':
      return weekBasedYearWeek(f.epochDay, f.year)[0];
    case 'WeekOfWeekBasedYear':
      return weekBasedYearWeek(f.epochDay, f.year)[1];
    case 'AmPmOfDay':
      return f.hour >= 12 ? 1 : 0;
    case 'HourOfDay':
      return f.hour;
    case 'ClockHourOfDay':
      return f.hour === 0 ? 24 : f.hour;
    case 'HourOfAmPm':
      return f.hour % 12;
    case 'ClockHourOfAmPm':
      return f.hour % 12 === 0 ? 12 : f.hour % 12;
    case 'MinuteOfHour':
      return f.minute;
    case 'SecondOfMinute':
      return f.second;
    case 'NanoOfSecond':
      return f.millis * 1_000_000;
    case 'MilliOfDay':
      return f.millisOfDay;
    case 'NanoOfDay':
      return f.millisOfDay * 1_000_000;
  }
}
