/**
 * java.time field model for the java pattern dialect: the ChronoField names used in messages,
 * the parse state, the print context, and field values computed from an instant (week-based
 * fields follow the locale's week rule, week-rules.ts).
 */

import type { LocalFields } from './calendar.js';
import { breakDown, dayOfYear, daysFromCivil, isoDayOfWeek, newLocalFields } from './calendar.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { WeekRule } from './week-rules.js';
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

/** Epoch day week 1 of week-based `year` starts: the first week with `minimalDays` in January. */
function firstWeekStart(year: number, w: WeekRule): number {
  const jan1 = daysFromCivil(year, 1, 1);
  const start = jan1 - ((isoDayOfWeek(jan1) - w.firstDay + 7) % 7); // week holding Jan 1
  return 7 - (jan1 - start) >= w.minimalDays ? start : start + 7;
}
export function weekBasedYearWeek(epochDay: number, year: number, w: WeekRule): [number, number] {
  let wby = year;
  if (epochDay >= firstWeekStart(year + 1, w)) wby = year + 1;
  else if (epochDay < firstWeekStart(year, w)) wby = year - 1;
  return [wby, Math.floor((epochDay - firstWeekStart(wby, w)) / 7) + 1];
}
/** Epoch day of the first day of the given week of a week-based year. */
export const weekStartDay = (wby: number, week: number, w: WeekRule): number =>
  firstWeekStart(wby, w) + (week - 1) * 7;
/** Day of the week counted from the locale's first day (1). */
export const localizedDow = (epochDay: number, w: WeekRule): number =>
  ((isoDayOfWeek(epochDay) - w.firstDay + 7) % 7) + 1;

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
      return localizedDow(f.epochDay, c.locale.week);
    case 'AlignedWeekOfMonth':
      return Math.floor((f.day - 1) / 7) + 1;
    case 'WeekOfMonth': {
      const first = f.epochDay - (f.day - 1);
      return Math.floor((f.day - 1 + (isoDayOfWeek(first) % 7)) / 7) + 1;
    }
    case 'WeekBasedYear':
      return weekBasedYearWeek(f.epochDay, f.year, c.locale.week)[0];
    case 'WeekOfWeekBasedYear':
      return weekBasedYearWeek(f.epochDay, f.year, c.locale.week)[1];
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
