/**
 * ZonedDateTime / OffsetTime arithmetic with java.time semantics: date-based units (years, months,
 * weeks, days) move the local date-time and re-resolve it in the zone keeping the previous offset
 * when valid; time-based units (hours and below) move the instant. Used by DATE_ADD, DATE_TRUNC
 * and datetime +/- interval.
 */
import {
  dateOfEpochDay,
  epochDay,
  MILLIS_PER_DAY,
  plusMonths as datePlusMonths,
  localDateTimeOf,
} from './calendar.js';
import { localToEpochMillis, offsetAt, type Zone } from './zones.js';
import { DateTimeValue, NANOS_PER_DAY, TimeValue } from '../values.js';

/** Local millis (in the value's zone) of a datetime. */
export function localMillis(v: DateTimeValue): number {
  return v.millis + offsetAt(v.zone, v.millis) * 1000;
}

/** ZonedDateTime.ofLocal(ldt, zone, preferredOffset) from local millis + sub-milli nanos. */
export function ofLocal(
  local: number,
  nanos: number,
  zone: Zone,
  preferredOffset?: number,
): DateTimeValue {
  return new DateTimeValue(localToEpochMillis(zone, local, preferredOffset), nanos, zone);
}

function withLocalDate(
  v: DateTimeValue,
  f: (d: { year: number; month: number; day: number }) => {
    year: number;
    month: number;
    day: number;
  },
): DateTimeValue {
  const off = offsetAt(v.zone, v.millis);
  const local = v.millis + off * 1000;
  const days = Math.floor(local / MILLIS_PER_DAY);
  const msOfDay = local - days * MILLIS_PER_DAY;
  const d = f(dateOfEpochDay(days));
  return ofLocal(epochDay(d.year, d.month, d.day) * MILLIS_PER_DAY + msOfDay, v.nanos, v.zone, off);
}

/** ZonedDateTime.plusMonths (day clamped to the month length). */
export const plusMonths = (v: DateTimeValue, n: number): DateTimeValue =>
  n === 0 ? v : withLocalDate(v, (d) => datePlusMonths(d, n));

export const plusYears = (v: DateTimeValue, n: number): DateTimeValue => plusMonths(v, n * 12);

/** ZonedDateTime.plusDays (local date arithmetic). */
export const plusDays = (v: DateTimeValue, n: number): DateTimeValue =>
  n === 0 ? v : withLocalDate(v, (d) => dateOfEpochDay(epochDay(d.year, d.month, d.day) + n));

/** Instant arithmetic: ZonedDateTime.plusSeconds/plusNanos. */
export function plusNanosInstant(v: DateTimeValue, seconds: number, nanos: number): DateTimeValue {
  const totalNanos = v.nanos + nanos;
  const carryMillis = Math.floor(totalNanos / 1_000_000);
  return new DateTimeValue(
    v.millis + seconds * 1000 + carryMillis,
    totalNanos - carryMillis * 1_000_000,
    v.zone,
  );
}

/** OffsetTime.plusNanos: wraps around midnight. */
export function timePlusNanos(t: TimeValue, nanos: number): TimeValue {
  const n = (((t.nanoOfDay + nanos) % NANOS_PER_DAY) + NANOS_PER_DAY) % NANOS_PER_DAY;
  return new TimeValue(n, t.offsetSeconds);
}

/** Local fields of a datetime in its own zone. */
export function localFields(v: DateTimeValue) {
  return localDateTimeOf(localMillis(v), v.nanos);
}

/** ZonedDateTime.withZoneSameInstant. */
export const atZone = (v: DateTimeValue, zone: Zone): DateTimeValue => v.withZone(zone);

/** LocalDate.atStartOfDay(zone) for an epoch day. */
export function startOfDay(epochDays: number, zone: Zone): DateTimeValue {
  const local = epochDays * MILLIS_PER_DAY;
  // atStartOfDay: in a gap at midnight, the first valid time after it
  return new DateTimeValue(localToEpochMillis(zone, local), 0, zone);
}
