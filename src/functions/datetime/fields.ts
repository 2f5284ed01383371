/**
 * java.time temporal fields over our values: a `TemporalView` (optional date part, optional time,
 * optional offset/zone) answers `ChronoField`-style queries with java.time's names and value ranges
 * ("Unsupported field: YearOfEra", "Invalid value for MonthOfYear (valid values 1 - 12): 13").
 * Also the week arithmetic of java.time.temporal.WeekFields (ISO, and Sunday-start/1 for ROOT).
 */
import {
  dayOfYear,
  epochDay,
  isoDayOfWeek,
  lengthOfYear,
  localDateTimeOf,
  type LocalDate,
} from './calendar.js';
import { dateTimeException, offsetAt, type Zone } from './zones.js';
import { DateTimeValue, TimeValue } from '../values.js';

export type FieldName =
  | 'ERA'
  | 'YEAR_OF_ERA'
  | 'YEAR'
  | 'QUARTER_OF_YEAR'
  | 'MONTH_OF_YEAR'
  | 'DAY_OF_YEAR'
  | 'DAY_OF_MONTH'
  | 'ALIGNED_DAY_OF_WEEK_IN_MONTH'
  | 'ALIGNED_WEEK_OF_YEAR'
  | 'DAY_OF_WEEK'
  | 'AMPM_OF_DAY'
  | 'HOUR_OF_DAY'
  | 'CLOCK_HOUR_OF_DAY'
  | 'HOUR_OF_AMPM'
  | 'CLOCK_HOUR_OF_AMPM'
  | 'MINUTE_OF_HOUR'
  | 'MINUTE_OF_DAY'
  | 'SECOND_OF_MINUTE'
  | 'SECOND_OF_DAY'
  | 'NANO_OF_SECOND'
  | 'MICRO_OF_SECOND'
  | 'MILLI_OF_SECOND'
  | 'MILLI_OF_DAY'
  | 'NANO_OF_DAY'
  | 'PROLEPTIC_MONTH'
  | 'EPOCH_DAY'
  | 'OFFSET_SECONDS'
  // week fields: WeekFields[SUNDAY,1] for Locale.ROOT, WeekFields.ISO for IsoFields
  | 'LOCALIZED_DAY_OF_WEEK'
  | 'WEEK_OF_MONTH'
  | 'WEEK_OF_WEEK_BASED_YEAR'
  | 'WEEK_BASED_YEAR'
  | 'WEEK_OF_YEAR'
  | 'ISO_WEEK_OF_WEEK_BASED_YEAR';

/** java.time display names (ChronoField.toString / WeekFields field names). */
export const FIELD_DISPLAY: Record<FieldName, string> = {
  ERA: 'Era',
  YEAR_OF_ERA: 'YearOfEra',
  YEAR: 'Year',
  QUARTER_OF_YEAR: 'QuarterOfYear',
  MONTH_OF_YEAR: 'MonthOfYear',
  DAY_OF_YEAR: 'DayOfYear',
  DAY_OF_MONTH: 'DayOfMonth',
  ALIGNED_DAY_OF_WEEK_IN_MONTH: 'AlignedDayOfWeekInMonth',
  ALIGNED_WEEK_OF_YEAR: 'AlignedWeekOfYear',
  DAY_OF_WEEK: 'DayOfWeek',
  AMPM_OF_DAY: 'AmPmOfDay',
  HOUR_OF_DAY: 'HourOfDay',
  CLOCK_HOUR_OF_DAY: 'ClockHourOfDay',
  HOUR_OF_AMPM: 'HourOfAmPm',
  CLOCK_HOUR_OF_AMPM: 'ClockHourOfAmPm',
  MINUTE_OF_HOUR: 'MinuteOfHour',
  MINUTE_OF_DAY: 'MinuteOfDay',
  SECOND_OF_MINUTE: 'SecondOfMinute',
  SECOND_OF_DAY: 'SecondOfDay',
  NANO_OF_SECOND: 'NanoOfSecond',
  MICRO_OF_SECOND: 'MicroOfSecond',
  MILLI_OF_SECOND: 'MilliOfSecond',
  MILLI_OF_DAY: 'MilliOfDay',
  NANO_OF_DAY: 'NanoOfDay',
  PROLEPTIC_MONTH: 'ProlepticMonth',
  EPOCH_DAY: 'EpochDay',
  OFFSET_SECONDS: 'OffsetSeconds',
  LOCALIZED_DAY_OF_WEEK: 'DayOfWeek[WeekFields[SUNDAY,1]]',
  WEEK_OF_MONTH: 'WeekOfMonth[WeekFields[SUNDAY,1]]',
  WEEK_OF_WEEK_BASED_YEAR: 'WeekOfWeekBasedYear[WeekFields[SUNDAY,1]]',
  WEEK_BASED_YEAR: 'WeekBasedYear[WeekFields[SUNDAY,1]]',
  WEEK_OF_YEAR: 'WeekOfYear[WeekFields[SUNDAY,1]]',
  ISO_WEEK_OF_WEEK_BASED_YEAR: 'WeekOfWeekBasedYear',
};

/** Valid value ranges used by the parser's checks (ChronoField.range()). */
export const FIELD_RANGE: Partial<Record<FieldName, readonly [number, number]>> = {
  ERA: [0, 1],
  YEAR_OF_ERA: [1, 1_000_000_000],
  YEAR: [-999_999_999, 999_999_999],
  QUARTER_OF_YEAR: [1, 4],
  MONTH_OF_YEAR: [1, 12],
  DAY_OF_YEAR: [1, 366],
  DAY_OF_MONTH: [1, 31],
  DAY_OF_WEEK: [1, 7],
  AMPM_OF_DAY: [0, 1],
  HOUR_OF_DAY: [0, 23],
  CLOCK_HOUR_OF_DAY: [1, 24],
  HOUR_OF_AMPM: [0, 11],
  CLOCK_HOUR_OF_AMPM: [1, 12],
  MINUTE_OF_HOUR: [0, 59],
  MINUTE_OF_DAY: [0, 1439],
  SECOND_OF_MINUTE: [0, 59],
  SECOND_OF_DAY: [0, 86399],
  NANO_OF_SECOND: [0, 999_999_999],
  MICRO_OF_SECOND: [0, 999_999],
  MILLI_OF_SECOND: [0, 999],
  MILLI_OF_DAY: [0, 86_399_999],
  NANO_OF_DAY: [0, 86_399_999_999_999],
  OFFSET_SECONDS: [-64800, 64800],
  LOCALIZED_DAY_OF_WEEK: [1, 7],
};

/** ChronoField.checkValidValue's message. */
export function invalidValue(field: FieldName, value: number): never {
  const r = FIELD_RANGE[field];
  throw dateTimeException(
    `Invalid value for ${FIELD_DISPLAY[field]} (valid values ${r ? r[0] + ' - ' + r[1] : '?'}): ${value}`,
  );
}

export function checkValid(field: FieldName, value: number): number {
  const r = FIELD_RANGE[field];
  if (r && (value < r[0] || value > r[1])) invalidValue(field, value);
  return value;
}

// ---- week definitions (java.time.temporal.WeekFields) ------------------------------------

export interface WeekDef {
  /** ISO day of week the week starts on (1 = Monday, 7 = Sunday). */
  readonly firstDay: number;
  readonly minDays: number;
}
export const ISO_WEEKS: WeekDef = { firstDay: 1, minDays: 4 };
/** WeekFields.SUNDAY_START, also what Locale.ROOT resolves to under ES's COMPAT locale data. */
export const SUNDAY_START: WeekDef = { firstDay: 7, minDays: 1 };

const fmod = (a: number, b: number) => ((a % b) + b) % b;

export const localizedDayOfWeek = (w: WeekDef, isoDow: number): number =>
  fmod(isoDow - w.firstDay, 7) + 1;

function startOfWeekOffset(w: WeekDef, day: number, dow: number): number {
  const weekStart = fmod(day - dow, 7);
  let offset = -weekStart;
  if (weekStart + 1 > w.minDays) offset = 7 - weekStart;
  return offset;
}

const computeWeek = (offset: number, day: number): number =>
  Math.floor((7 + offset + (day - 1)) / 7);

/** WeekFields.weekOfYear. */
export function weekOfYear(w: WeekDef, d: LocalDate): number {
  const dow = localizedDayOfWeek(w, isoDayOfWeek(epochDay(d.year, d.month, d.day)));
  const doy = dayOfYear(d);
  return computeWeek(startOfWeekOffset(w, doy, dow), doy);
}

/** WeekFields.weekOfMonth. */
export function weekOfMonth(w: WeekDef, d: LocalDate): number {
  const dow = localizedDayOfWeek(w, isoDayOfWeek(epochDay(d.year, d.month, d.day)));
  return computeWeek(startOfWeekOffset(w, d.day, dow), d.day);
}

/** WeekFields.weekOfWeekBasedYear and weekBasedYear together. */
export function weekBasedYearAndWeek(w: WeekDef, d: LocalDate): { year: number; week: number } {
  const ed = epochDay(d.year, d.month, d.day);
  const dow = localizedDayOfWeek(w, isoDayOfWeek(ed));
  const doy = dayOfYear(d);
  const offset = startOfWeekOffset(w, doy, dow);
  const week = computeWeek(offset, doy);
  if (week === 0) {
    // in the last week of the previous year: java.time steps back to its 31 December
    return weekBasedYearAndWeek(w, { year: d.year - 1, month: 12, day: 31 });
  }
  const newYearWeek = computeWeek(offset, lengthOfYear(d.year) + w.minDays);
  if (week >= newYearWeek) return { year: d.year + 1, week: week - newYearWeek + 1 };
  return { year: d.year, week };
}

// ---- temporal views -------------------------------------------------------------------------

/** What a java.time TemporalAccessor exposes: any of date, time, offset and zone. */
export interface TemporalView {
  readonly date: LocalDate | null;
  /** Local time of day in nanos, or null. */
  readonly nanoOfDay: number | null;
  readonly offsetSeconds: number | null;
  readonly zone: Zone | null;
  /** The instant, when known (used for zone names). */
  readonly epochMillis?: number;
}

/** A ZonedDateTime view of a DateTimeValue in its zone. */
export function viewOfDateTime(v: DateTimeValue): TemporalView {
  const off = offsetAt(v.zone, v.millis);
  const l = localDateTimeOf(v.millis + off * 1000, v.nanos);
  return {
    date: { year: l.year, month: l.month, day: l.day },
    nanoOfDay: ((l.hour * 60 + l.minute) * 60 + l.second) * 1e9 + l.nano,
    offsetSeconds: off,
    zone: v.zone,
    epochMillis: v.millis,
  };
}

/** An OffsetTime view. */
export function viewOfTime(t: TimeValue): TemporalView {
  return { date: null, nanoOfDay: t.nanoOfDay, offsetSeconds: t.offsetSeconds, zone: null };
}

const unsupported = (f: FieldName): never => {
  throw dateTimeException('Unsupported field: ' + FIELD_DISPLAY[f]);
};

/** TemporalAccessor.getLong(field), or undefined when unsupported (caller decides). */
export function fieldValue(view: TemporalView, f: FieldName): number | undefined {
  const d = view.date;
  const n = view.nanoOfDay;
  switch (f) {
    case 'OFFSET_SECONDS':
      return view.offsetSeconds ?? undefined;
    case 'ERA':
      return d ? (d.year >= 1 ? 1 : 0) : undefined;
    case 'YEAR_OF_ERA':
      return d ? (d.year >= 1 ? d.year : 1 - d.year) : undefined;
    case 'YEAR':
      return d?.year;
    case 'QUARTER_OF_YEAR':
      return d ? Math.floor((d.month - 1) / 3) + 1 : undefined;
    case 'MONTH_OF_YEAR':
      return d?.month;
    case 'PROLEPTIC_MONTH':
      return d ? d.year * 12 + d.month - 1 : undefined;
    case 'DAY_OF_MONTH':
      return d?.day;
    case 'DAY_OF_YEAR':
      return d ? dayOfYear(d) : undefined;
    case 'EPOCH_DAY':
      return d ? epochDay(d.year, d.month, d.day) : undefined;
    case 'DAY_OF_WEEK':
      return d ? isoDayOfWeek(epochDay(d.year, d.month, d.day)) : undefined;
    case 'ALIGNED_DAY_OF_WEEK_IN_MONTH':
      return d ? ((d.day - 1) % 7) + 1 : undefined;
    case 'ALIGNED_WEEK_OF_YEAR':
      return d ? Math.floor((dayOfYear(d) - 1) / 7) + 1 : undefined;
    case 'LOCALIZED_DAY_OF_WEEK':
      return d
        ? localizedDayOfWeek(SUNDAY_START, isoDayOfWeek(epochDay(d.year, d.month, d.day)))
        : undefined;
    case 'WEEK_OF_MONTH':
      return d ? weekOfMonth(SUNDAY_START, d) : undefined;
    case 'WEEK_OF_YEAR':
      return d ? weekOfYear(SUNDAY_START, d) : undefined;
    case 'WEEK_OF_WEEK_BASED_YEAR':
      return d ? weekBasedYearAndWeek(SUNDAY_START, d).week : undefined;
    case 'WEEK_BASED_YEAR':
      return d ? weekBasedYearAndWeek(SUNDAY_START, d).year : undefined;
    case 'ISO_WEEK_OF_WEEK_BASED_YEAR':
      return d ? weekBasedYearAndWeek(ISO_WEEKS, d).week : undefined;
  }
  if (n === null) return undefined;
  const secOfDay = Math.floor(n / 1e9);
  const hour = Math.floor(secOfDay / 3600);
  switch (f) {
    case 'HOUR_OF_DAY':
      return hour;
    case 'CLOCK_HOUR_OF_DAY':
      return hour === 0 ? 24 : hour;
    case 'HOUR_OF_AMPM':
      return hour % 12;
    case 'CLOCK_HOUR_OF_AMPM':
      return hour % 12 === 0 ? 12 : hour % 12;
    case 'AMPM_OF_DAY':
      return hour < 12 ? 0 : 1;
    case 'MINUTE_OF_HOUR':
      return Math.floor(secOfDay / 60) % 60;
    case 'MINUTE_OF_DAY':
      return Math.floor(secOfDay / 60);
    case 'SECOND_OF_MINUTE':
      return secOfDay % 60;
    case 'SECOND_OF_DAY':
      return secOfDay;
    case 'NANO_OF_SECOND':
      return n % 1e9;
    case 'MICRO_OF_SECOND':
      return Math.floor((n % 1e9) / 1000);
    case 'MILLI_OF_SECOND':
      return Math.floor((n % 1e9) / 1e6);
    case 'MILLI_OF_DAY':
      return Math.floor(n / 1e6);
    case 'NANO_OF_DAY':
      return n;
  }
  return undefined;
}

/** TemporalAccessor.get(field) that throws "Unsupported field" like java.time. */
export function getField(view: TemporalView, f: FieldName): number {
  const v = fieldValue(view, f);
  return v === undefined ? unsupported(f) : v;
}
