/**
 * Date/time field extraction functions (ES DateTimeProcessor, TimeProcessor, NonIsoDateTimeProcessor,
 * NamedDateTimeProcessor, QuarterProcessor): YEAR, MONTH_OF_YEAR, DAY_OF_MONTH, DAY_OF_WEEK (Sunday
 * = 1), ISO_DAY_OF_WEEK, WEEK_OF_YEAR (Sunday start), ISO_WEEK_OF_YEAR, HOUR_OF_DAY, ...,
 * DAY_NAME, MONTH_NAME, QUARTER, plus the script entry `dateTimeChrono(value, tz, ChronoField)`.
 * Values are moved to the query's zone first (withZoneSameInstant).
 */
import { sqlIllegalArgument } from '../errors.js';
import { DateTimeValue, TimeValue } from '../values.js';
import {
  getField,
  SUNDAY_START,
  viewOfDateTime,
  viewOfTime,
  weekOfYear as weekFieldsWeekOfYear,
  type FieldName,
} from './fields.js';
import { textOf } from './printer-parser.js';
import { offsetAt, toZone, type Zone } from './zones.js';
import { MILLIS_PER_DAY } from './calendar.js';

/** ES DateUtils.asTimeAtZone: the time's instant on 1970-01-01 seen in `zone`. */
export function timeAtZone(t: TimeValue, zone: Zone): TimeValue {
  const utcNanos = t.nanoOfDay - t.offsetSeconds * 1e9;
  const instantMillis = Math.floor(utcNanos / 1e6);
  const off = offsetAt(zone, instantMillis);
  const local = utcNanos + off * 1e9;
  const nod = ((local % 86_400e9) + 86_400e9) % 86_400e9;
  return new TimeValue(nod, off);
}

function requireDateTime(v: unknown): DateTimeValue {
  if (!(v instanceof DateTimeValue)) {
    throw sqlIllegalArgument('A [date], a [time] or a [datetime] is required; received {}', [v]);
  }
  return v;
}

/** Extraction from a DATE/DATETIME in `zone`. */
function extractDate(v: unknown, zone: Zone | string, f: FieldName): number | null {
  if (v == null) return null;
  return getField(viewOfDateTime(requireDateTime(v).withZone(toZone(zone))), f);
}

/** Extraction that also accepts TIME (HOUR_OF_DAY, MINUTE_OF_DAY, MINUTE_OF_HOUR, SECOND_OF_MINUTE). */
function extractDateOrTime(v: unknown, zone: Zone | string, f: FieldName): number | null {
  if (v instanceof TimeValue) return getField(viewOfTime(timeAtZone(v, toZone(zone))), f);
  return extractDate(v, zone, f);
}

type Extractor = (v: unknown, zone: Zone | string) => number | null;

export const year: Extractor = (v, z) => extractDate(v, z, 'YEAR');
export const monthOfYear: Extractor = (v, z) => extractDate(v, z, 'MONTH_OF_YEAR');
export const dayOfMonth: Extractor = (v, z) => extractDate(v, z, 'DAY_OF_MONTH');
export const dayOfYear: Extractor = (v, z) => extractDate(v, z, 'DAY_OF_YEAR');
export const isoDayOfWeek: Extractor = (v, z) => extractDate(v, z, 'DAY_OF_WEEK');
/** ISO_WEEK_OF_YEAR: WeekFields.ISO.weekOfWeekBasedYear(). */
export const isoWeekOfYear: Extractor = (v, z) => extractDate(v, z, 'ISO_WEEK_OF_WEEK_BASED_YEAR');
export const hourOfDay: Extractor = (v, z) => extractDateOrTime(v, z, 'HOUR_OF_DAY');
export const minuteOfDay: Extractor = (v, z) => extractDateOrTime(v, z, 'MINUTE_OF_DAY');
export const minuteOfHour: Extractor = (v, z) => extractDateOrTime(v, z, 'MINUTE_OF_HOUR');
export const secondOfMinute: Extractor = (v, z) => extractDateOrTime(v, z, 'SECOND_OF_MINUTE');
export const quarter: Extractor = (v, z) => extractDate(v, z, 'QUARTER_OF_YEAR');

/** DAY_OF_WEEK: Sunday = 1 .. Saturday = 7 (NonIsoDateTimeExtractor). */
export const dayOfWeek: Extractor = (v, z) => {
  const iso = extractDate(v, z, 'DAY_OF_WEEK');
  return iso === null ? null : iso === 7 ? 1 : iso + 1;
};

/** WEEK_OF_YEAR: WeekFields.SUNDAY_START.weekOfYear(). */
export const weekOfYear: Extractor = (v, z) => {
  if (v == null) return null;
  const view = viewOfDateTime(requireDateTime(v).withZone(toZone(z)));
  return weekFieldsWeekOfYear(SUNDAY_START, view.date!);
};

/** DAY_NAME: "Monday" (pattern EEEE, Locale.ROOT). */
export function dayName(v: unknown, zone: Zone | string): string | null {
  const d = extractDate(v, zone, 'DAY_OF_WEEK');
  return d === null ? null : textOf('DAY_OF_WEEK', 'FULL', d);
}

/** MONTH_NAME: "January" (pattern MMMM, Locale.ROOT). */
export function monthName(v: unknown, zone: Zone | string): string | null {
  const m = extractDate(v, zone, 'MONTH_OF_YEAR');
  return m === null ? null : textOf('MONTH_OF_YEAR', 'FULL', m);
}

const CHRONO_FIELDS: Record<string, FieldName> = {
  DAY_OF_MONTH: 'DAY_OF_MONTH',
  DAY_OF_WEEK: 'DAY_OF_WEEK',
  DAY_OF_YEAR: 'DAY_OF_YEAR',
  HOUR_OF_DAY: 'HOUR_OF_DAY',
  MINUTE_OF_DAY: 'MINUTE_OF_DAY',
  MINUTE_OF_HOUR: 'MINUTE_OF_HOUR',
  MONTH_OF_YEAR: 'MONTH_OF_YEAR',
  SECOND_OF_MINUTE: 'SECOND_OF_MINUTE',
  ALIGNED_WEEK_OF_YEAR: 'ALIGNED_WEEK_OF_YEAR',
  YEAR: 'YEAR',
  YEAR_OF_ERA: 'YEAR_OF_ERA',
  HOUR_OF_AMPM: 'HOUR_OF_AMPM',
  AMPM_OF_DAY: 'AMPM_OF_DAY',
  MILLI_OF_SECOND: 'MILLI_OF_SECOND',
  MICRO_OF_SECOND: 'MICRO_OF_SECOND',
  NANO_OF_SECOND: 'NANO_OF_SECOND',
  SECOND_OF_DAY: 'SECOND_OF_DAY',
  MILLI_OF_DAY: 'MILLI_OF_DAY',
  EPOCH_DAY: 'EPOCH_DAY',
  PROLEPTIC_MONTH: 'PROLEPTIC_MONTH',
};

/**
 * InternalSqlScriptUtils.dateTimeChrono(value, tzId, chronoName): `ChronoField.valueOf(name)` read
 * in the zone. Note ES scripts ISO_WEEK_OF_YEAR as ALIGNED_WEEK_OF_YEAR, which this reproduces.
 */
export function dateTimeChrono(
  v: unknown,
  tzId: string | null,
  chronoName: string | null,
): number | null {
  if (v == null || tzId == null || chronoName == null) return null;
  const f = CHRONO_FIELDS[chronoName];
  if (!f)
    throw sqlIllegalArgument('No enum constant java.time.temporal.ChronoField.{}', [chronoName]);
  if (v instanceof TimeValue) return getField(viewOfTime(timeAtZone(v, toZone(tzId))), f);
  return getField(viewOfDateTime(requireDateTime(v).withZone(toZone(tzId))), f);
}

/** Start-of-UTC-day helper shared with CURRENT_DATE. */
export const utcDayStart = (millis: number) => Math.floor(millis / MILLIS_PER_DAY) * MILLIS_PER_DAY;
