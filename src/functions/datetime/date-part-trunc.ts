/**
 * DATE_PART / DATEPART and DATE_TRUNC / DATETRUNC (ES DatePart, DateTrunc and their processors):
 * part names with aliases and ES's errors; extraction in the query zone; truncation of datetimes
 * (re-resolved in the zone) and of intervals (year-month and day-time rules).
 */
import { sqlIllegalArgument } from '../errors.js';
import { DateTimeValue, IntervalDayTime, IntervalYearMonth } from '../values.js';
import { dateOfEpochDay, epochDay, MILLIS_PER_DAY } from './calendar.js';
import { DateTimeFieldSet } from './date-time-field.js';
import { getField, viewOfDateTime, weekOfYear, SUNDAY_START } from './fields.js';
import { localMillis, ofLocal, startOfDay } from './temporal-math.js';
import { offsetAt, toZone, type Zone } from './zones.js';

export type DatePartName =
  | 'YEAR'
  | 'QUARTER'
  | 'MONTH'
  | 'DAYOFYEAR'
  | 'DAY'
  | 'WEEK'
  | 'WEEKDAY'
  | 'HOUR'
  | 'MINUTE'
  | 'SECOND'
  | 'MILLISECOND'
  | 'MICROSECOND'
  | 'NANOSECOND'
  | 'TZOFFSET';

export const DATE_PART_PARTS = new DateTimeFieldSet<DatePartName>([
  { name: 'YEAR', aliases: ['years', 'yyyy', 'yy'] },
  { name: 'QUARTER', aliases: ['quarters', 'qq', 'q'] },
  { name: 'MONTH', aliases: ['months', 'mm', 'm'] },
  { name: 'DAYOFYEAR', aliases: ['dy', 'y'] },
  { name: 'DAY', aliases: ['days', 'dd', 'd'] },
  { name: 'WEEK', aliases: ['weeks', 'wk', 'ww'] },
  { name: 'WEEKDAY', aliases: ['weekdays', 'dw'] },
  { name: 'HOUR', aliases: ['hours', 'hh'] },
  { name: 'MINUTE', aliases: ['minutes', 'mi', 'n'] },
  { name: 'SECOND', aliases: ['seconds', 'ss', 's'] },
  { name: 'MILLISECOND', aliases: ['milliseconds', 'ms'] },
  { name: 'MICROSECOND', aliases: ['microseconds', 'mcs'] },
  { name: 'NANOSECOND', aliases: ['nanoseconds', 'ns'] },
  { name: 'TZOFFSET', aliases: ['tz'] },
]);

export type DateTruncName =
  | 'MILLENNIUM'
  | 'CENTURY'
  | 'DECADE'
  | 'YEAR'
  | 'QUARTER'
  | 'MONTH'
  | 'WEEK'
  | 'DAY'
  | 'HOUR'
  | 'MINUTE'
  | 'SECOND'
  | 'MILLISECOND'
  | 'MICROSECOND'
  | 'NANOSECOND';

export const DATE_TRUNC_PARTS = new DateTimeFieldSet<DateTruncName>([
  { name: 'MILLENNIUM', aliases: ['millennia'] },
  { name: 'CENTURY', aliases: ['centuries'] },
  { name: 'DECADE', aliases: ['decades'] },
  { name: 'YEAR', aliases: ['years', 'yy', 'yyyy'] },
  { name: 'QUARTER', aliases: ['quarters', 'qq', 'q'] },
  { name: 'MONTH', aliases: ['months', 'mm', 'm'] },
  { name: 'WEEK', aliases: ['weeks', 'wk', 'ww'] },
  { name: 'DAY', aliases: ['days', 'dd', 'd'] },
  { name: 'HOUR', aliases: ['hours', 'hh'] },
  { name: 'MINUTE', aliases: ['minutes', 'mi', 'n'] },
  { name: 'SECOND', aliases: ['seconds', 'ss', 's'] },
  { name: 'MILLISECOND', aliases: ['milliseconds', 'ms'] },
  { name: 'MICROSECOND', aliases: ['microseconds', 'mcs'] },
  { name: 'NANOSECOND', aliases: ['nanoseconds', 'ns'] },
]);

function resolvePart<P extends string>(set: DateTimeFieldSet<P>, value: unknown, what: string): P {
  if (typeof value !== 'string')
    throw sqlIllegalArgument('A string is required; received [{}]', [value]);
  const p = set.resolve(value);
  if (p) return p;
  const similar = set.findSimilar(value);
  if (similar.length === 0) {
    throw sqlIllegalArgument('A value of {} or their aliases is required; received [{}]', [
      set.validValues,
      value,
    ]);
  }
  throw sqlIllegalArgument(
    'Received value [{}] is not valid date part for ' + what + '; did you mean {}?',
    [value, similar],
  );
}

/** DATE_PART(part, datetime) in the query zone. */
export function datePart(part: unknown, timestamp: unknown, zone: Zone | string): number | null {
  if (part == null || timestamp == null) return null;
  const p = resolvePart(DATE_PART_PARTS, part, 'extraction');
  if (!(timestamp instanceof DateTimeValue)) {
    throw sqlIllegalArgument('A date/datetime is required; received [{}]', [timestamp]);
  }
  const dt = timestamp.withZone(toZone(zone));
  const view = viewOfDateTime(dt);
  switch (p) {
    case 'YEAR':
      return getField(view, 'YEAR');
    case 'QUARTER':
      return getField(view, 'QUARTER_OF_YEAR');
    case 'MONTH':
      return getField(view, 'MONTH_OF_YEAR');
    case 'DAYOFYEAR':
      return getField(view, 'DAY_OF_YEAR');
    case 'DAY':
      return getField(view, 'DAY_OF_MONTH');
    case 'WEEK':
      return weekOfYear(SUNDAY_START, view.date!);
    case 'WEEKDAY': {
      const iso = getField(view, 'DAY_OF_WEEK');
      return iso === 7 ? 1 : iso + 1;
    }
    case 'HOUR':
      return getField(view, 'HOUR_OF_DAY');
    case 'MINUTE':
      return getField(view, 'MINUTE_OF_HOUR');
    case 'SECOND':
      return getField(view, 'SECOND_OF_MINUTE');
    case 'MILLISECOND':
      return getField(view, 'MILLI_OF_SECOND');
    case 'MICROSECOND':
      return getField(view, 'MICRO_OF_SECOND');
    case 'NANOSECOND':
      return getField(view, 'NANO_OF_SECOND');
    case 'TZOFFSET':
      return Math.trunc(offsetAt(dt.zone, dt.millis) / 60);
  }
}

// ---- truncation ------------------------------------------------------------------------------

function truncateDateTime(dt: DateTimeValue, p: DateTruncName): DateTimeValue {
  const local = localMillis(dt);
  const days = Math.floor(local / MILLIS_PER_DAY);
  const d = dateOfEpochDay(days);
  const msOfDay = local - days * MILLIS_PER_DAY;
  const startOfYear = (y: number, m = 1) => startOfDay(epochDay(y, m, 1), dt.zone);
  switch (p) {
    case 'MILLENNIUM':
      return startOfYear(d.year - (d.year % 1000));
    case 'CENTURY':
      return startOfYear(d.year - (d.year % 100));
    case 'DECADE':
      return startOfYear(d.year - (d.year % 10));
    case 'YEAR':
      return startOfYear(d.year);
    case 'QUARTER':
      return startOfYear(d.year, Math.floor((d.month - 1) / 3) * 3 + 1);
    case 'MONTH':
      return startOfYear(d.year, d.month);
    case 'WEEK': {
      const isoDow = getField(viewOfDateTime(dt), 'DAY_OF_WEEK');
      return startOfDay(days - (isoDow - 1), dt.zone);
    }
    case 'DAY':
      return startOfDay(days, dt.zone);
    case 'HOUR':
    case 'MINUTE': {
      // start of day, then with(HOUR_OF_DAY[, MINUTE_OF_HOUR]) keeping the start-of-day offset
      const sod = startOfDay(days, dt.zone);
      const unit = p === 'HOUR' ? 3_600_000 : 60_000;
      return ofLocal(
        days * MILLIS_PER_DAY + Math.floor(msOfDay / unit) * unit,
        0,
        dt.zone,
        offsetAt(dt.zone, sod.millis),
      );
    }
    case 'SECOND':
      return ofLocal(
        local - (((local % 1000) + 1000) % 1000),
        0,
        dt.zone,
        offsetAt(dt.zone, dt.millis),
      );
    case 'MILLISECOND':
      return new DateTimeValue(dt.millis, 0, dt.zone);
    case 'MICROSECOND':
      return new DateTimeValue(dt.millis, Math.floor(dt.nanos / 1000) * 1000, dt.zone);
    case 'NANOSECOND':
      return dt;
  }
}

function truncateYearMonth(i: IntervalYearMonth, p: DateTruncName): IntervalYearMonth {
  const y = i.years;
  switch (p) {
    case 'MILLENNIUM':
      return new IntervalYearMonth(y - (y % 1000), 0, i.type);
    case 'CENTURY':
      return new IntervalYearMonth(y - (y % 100), 0, i.type);
    case 'DECADE':
      return new IntervalYearMonth(y - (y % 10), 0, i.type);
    case 'YEAR':
      return new IntervalYearMonth(y, 0, i.type);
    case 'QUARTER':
      return new IntervalYearMonth(y, Math.trunc(i.months / 3) * 3, i.type);
    default:
      return i;
  }
}

/** DateTrunc.truncateIntervalSmallerThanWeek: keeps the components at or above the unit. */
function truncateDayTime(i: IntervalDayTime, p: DateTruncName): IntervalDayTime {
  const order: DateTruncName[] = ['DAY', 'HOUR', 'MINUTE', 'SECOND', 'MILLISECOND'];
  const idx = order.indexOf(p);
  if (p === 'MICROSECOND' || p === 'NANOSECOND') return i;
  if (idx < 0) return new IntervalDayTime(0, 0, i.type); // MILLENNIUM..WEEK
  let secs = i.seconds;
  let nanos = i.nanos;
  const neg = secs < 0;
  if (neg) {
    if (nanos > 0) {
      secs = -secs - 1;
      nanos = 1e9 - nanos;
    } else secs = -secs;
  }
  const day = Math.floor(secs / 86400);
  const hour = Math.floor((secs % 86400) / 3600);
  const min = Math.floor((secs % 3600) / 60);
  const sec = secs % 60;
  const ms = Math.floor(nanos / 1e6);
  const keep = [day * 86400, hour * 3600, min * 60, sec];
  let total = 0;
  for (let k = 0; k <= Math.min(idx, 3); k++) total += keep[k]!;
  const keepMs = idx >= 4 ? ms : 0;
  const m = neg ? -1 : 1;
  return IntervalDayTime.ofNanos(m * total, m * keepMs * 1e6, i.type);
}

/** DATE_TRUNC(part, datetime or interval) in the query zone. */
export function dateTrunc(part: unknown, value: unknown, zone: Zone | string): unknown {
  if (part == null || value == null) return null;
  const p = resolvePart(DATE_TRUNC_PARTS, part, 'truncation');
  const isInterval = value instanceof IntervalDayTime || value instanceof IntervalYearMonth;
  if (!(value instanceof DateTimeValue) && !isInterval) {
    throw sqlIllegalArgument('A date/datetime/interval is required; received [{}]', [value]);
  }
  if (p === 'WEEK' && isInterval) {
    throw sqlIllegalArgument('Truncating intervals is not supported for {} units', [part]);
  }
  if (value instanceof DateTimeValue) return truncateDateTime(value.withZone(toZone(zone)), p);
  if (value instanceof IntervalYearMonth) return truncateYearMonth(value, p);
  return truncateDayTime(value as IntervalDayTime, p);
}
