/**
 * DATE_ADD / DATEADD / TIMESTAMPADD and DATE_DIFF / DATEDIFF / TIMESTAMPDIFF (ES DateAdd, DateDiff
 * and their processors): unit names with aliases, ES's runtime errors, java.time addition (date
 * units on the local date-time, time units on the instant) and ES's difference rules (whole units
 * between truncated epoch values, calendar fields for years/quarters/months).
 */
import { sqlIllegalArgument } from '../errors.js';
import { DateTimeValue } from '../values.js';
import { MILLIS_PER_DAY } from './calendar.js';
import { DateTimeFieldSet } from './date-time-field.js';
import { getField, viewOfDateTime } from './fields.js';
import { plusDays, plusMonths, plusNanosInstant } from './temporal-math.js';
import { toZone, UTC, type Zone } from './zones.js';

export type DateAddPart =
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
  | 'NANOSECOND';

const ADD_DIFF_PARTS: ReadonlyArray<{ name: DateAddPart; aliases: string[] }> = [
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
];

/** DateAdd.Part (DateDiff.Part has the same names and aliases). */
export const DATE_ADD_PARTS = new DateTimeFieldSet(ADD_DIFF_PARTS);
export const DATE_DIFF_PARTS = DATE_ADD_PARTS;

function resolveUnit(unit: unknown, verb: string): DateAddPart {
  if (typeof unit !== 'string')
    throw sqlIllegalArgument('A string is required; received [{}]', [unit]);
  const part = DATE_ADD_PARTS.resolve(unit);
  if (part) return part;
  const similar = DATE_ADD_PARTS.findSimilar(unit);
  if (similar.length === 0) {
    throw sqlIllegalArgument('A value of {} or their aliases is required; received [{}]', [
      DATE_ADD_PARTS.validValues,
      unit,
    ]);
  }
  throw sqlIllegalArgument(
    'Received value [{}] is not valid date part ' + verb + '; did you mean {}?',
    [unit, similar],
  );
}

function requireDate(v: unknown): DateTimeValue {
  if (!(v instanceof DateTimeValue))
    throw sqlIllegalArgument('A date/datetime is required; received [{}]', [v]);
  return v;
}

/** Number.intValue(). */
const intValue = (n: number) => (Number.isFinite(n) ? Math.trunc(n) | 0 : 0);

/** DATE_ADD(unit, n, datetime) in the query zone. */
export function dateAdd(
  unit: unknown,
  n: unknown,
  timestamp: unknown,
  zone: Zone | string,
): DateTimeValue | null {
  if (unit == null || n == null || timestamp == null) return null;
  const part = resolveUnit(unit, 'to add');
  if (typeof n !== 'number') throw sqlIllegalArgument('A number is required; received [{}]', [n]);
  const dt = requireDate(timestamp).withZone(toZone(zone));
  const i = intValue(n);
  switch (part) {
    case 'YEAR':
      return plusMonths(dt, i * 12);
    case 'QUARTER':
      return plusMonths(dt, i * 3);
    case 'MONTH':
      return plusMonths(dt, i);
    case 'DAYOFYEAR':
    case 'DAY':
    case 'WEEKDAY':
      return plusDays(dt, i);
    case 'WEEK':
      return plusDays(dt, i * 7);
    case 'HOUR':
      return plusNanosInstant(dt, i * 3600, 0);
    case 'MINUTE':
      return plusNanosInstant(dt, i * 60, 0);
    case 'SECOND':
      return plusNanosInstant(dt, i, 0);
    case 'MILLISECOND':
      return plusNanosInstant(dt, 0, i * 1_000_000);
    case 'MICROSECOND':
      return plusNanosInstant(dt, 0, i * 1000);
    case 'NANOSECOND':
      return plusNanosInstant(dt, 0, i);
  }
}

const OVERFLOW =
  'The DATE_DIFF function resulted in an overflow; the number of units separating two date/datetime instances is too large. Try to use DATE_DIFF with a less precise unit.';

function safeInt(x: number): number {
  if (x > 2147483647 || x < -2147483648) throw sqlIllegalArgument(OVERFLOW);
  return x + 0;
}

const epochSecond = (v: DateTimeValue) => Math.floor(v.millis / 1000);
const tdiv = (a: number, b: number) => Math.trunc(a / b);

function diffInMinutes(s: DateTimeValue, e: DateTimeValue): number {
  return tdiv(epochSecond(e), 60) - tdiv(epochSecond(s), 60);
}

/** WEEKDAY part: Sunday = 1 (used by DATE_DIFF's WEEK rule). */
function weekday(v: DateTimeValue): number {
  const iso = getField(viewOfDateTime(v), 'DAY_OF_WEEK');
  return iso === 7 ? 1 : iso + 1;
}

/** DATE_DIFF(unit, start, end) in the query zone. */
export function dateDiff(
  unit: unknown,
  start: unknown,
  end: unknown,
  zone: Zone | string,
): number | null {
  if (unit == null || start == null || end == null) return null;
  const part = resolveUnit(unit, 'to add');
  const z = toZone(zone);
  const s = requireDate(start).withZone(z);
  const e = requireDate(end).withZone(z);
  switch (part) {
    case 'YEAR':
      return getField(viewOfDateTime(e), 'YEAR') - getField(viewOfDateTime(s), 'YEAR');
    case 'QUARTER': {
      const years = getField(viewOfDateTime(e), 'YEAR') - getField(viewOfDateTime(s), 'YEAR');
      return (
        getField(viewOfDateTime(e), 'QUARTER_OF_YEAR') -
        getField(viewOfDateTime(s), 'QUARTER_OF_YEAR') +
        years * 4
      );
    }
    case 'MONTH':
      return safeInt(
        getField(viewOfDateTime(e), 'PROLEPTIC_MONTH') -
          getField(viewOfDateTime(s), 'PROLEPTIC_MONTH'),
      );
    case 'DAYOFYEAR':
    case 'DAY':
    case 'WEEKDAY':
      return safeInt(tdiv(tdiv(diffInMinutes(s, e), 60), 24));
    case 'WEEK': {
      const sd = tdiv(s.millis, MILLIS_PER_DAY) - weekday(s.withZone(UTC));
      const ed = tdiv(e.millis, MILLIS_PER_DAY) - weekday(e.withZone(UTC));
      return safeInt(tdiv(ed - sd, 7));
    }
    case 'HOUR':
      return safeInt(tdiv(diffInMinutes(s, e), 60));
    case 'MINUTE':
      return safeInt(diffInMinutes(s, e));
    case 'SECOND':
      return safeInt(epochSecond(e) - epochSecond(s));
    case 'MILLISECOND':
      return safeInt(e.millis - s.millis);
    case 'MICROSECOND': {
      const micro = (v: DateTimeValue) => Math.floor(v.nanoOfSecond / 1000);
      return safeInt((epochSecond(e) - epochSecond(s)) * 1_000_000 + micro(e) - micro(s));
    }
    case 'NANOSECOND':
      return safeInt((epochSecond(e) - epochSecond(s)) * 1e9 + e.nanoOfSecond - s.nanoOfSecond);
  }
}
