/**
 * Runtime values of Elasticsearch SQL, shared by the SQL evaluator and the DSL script runtime.
 *
 * - NULL: `null` (`undefined` is treated as null on input, never produced).
 * - BOOLEAN: `boolean`.
 * - BYTE/SHORT/INTEGER/LONG/FLOAT/HALF_FLOAT/SCALED_FLOAT/DOUBLE: JS `number`. A LONG beyond
 *   +/-2^53 loses precision. JS has one number type, so whether a value is "integral" (Java
 *   Integer/Long) or "rational" (Double/Float) is decided from the static SQL type when the caller
 *   knows it, and otherwise inferred: an integer-valued number of magnitude < 2^63 counts as
 *   integral. This matters for `/` and `%` (integer division) and for number to string casts.
 * - KEYWORD/TEXT/CONSTANT_KEYWORD/IP: `string` (IP as its textual form).
 * - DATETIME and DATE: {@link DateTimeValue} (java.time.ZonedDateTime: epoch millis + sub-milli
 *   nanos + zone). A DATE is a DateTimeValue at the start of its day, as in ES.
 * - TIME: {@link TimeValue} (java.time.OffsetTime: nano of day + offset seconds).
 * - INTERVAL_YEAR..INTERVAL_YEAR_TO_MONTH: {@link IntervalYearMonth} (java.time.Period: years and
 *   months kept apart, not normalised, like ES).
 * - INTERVAL_DAY..INTERVAL_MINUTE_TO_SECOND: {@link IntervalDayTime} (java.time.Duration: seconds
 *   + nanos).
 * - GEO_POINT/GEO_SHAPE/SHAPE: {@link GeoValue} (see geo.ts).
 * All value classes are immutable.
 */
import type { DataTypeName } from './data-types.js';
import { UTC, type Zone } from './datetime/zones.js';
import type { GeoValue } from './geo.js';

export class DateTimeValue {
  /**
   * @param millis epoch milliseconds (the instant)
   * @param nanos nanoseconds below the millisecond, 0..999_999
   * @param zone the zone the value is expressed in (affects printing and field extraction)
   */
  constructor(
    readonly millis: number,
    readonly nanos: number = 0,
    readonly zone: Zone = UTC,
  ) {
    Object.freeze(this);
  }

  /** Nano of second (ZonedDateTime.getNano()). */
  get nanoOfSecond(): number {
    return (((this.millis % 1000) + 1000) % 1000) * 1_000_000 + this.nanos;
  }

  withZone(zone: Zone): DateTimeValue {
    return zone === this.zone ? this : new DateTimeValue(this.millis, this.nanos, zone);
  }
}

export const NANOS_PER_DAY = 86_400_000_000_000;

export class TimeValue {
  /**
   * @param nanoOfDay local time of day in nanoseconds, 0..86_399_999_999_999
   * @param offsetSeconds the UTC offset of that local time
   */
  constructor(
    readonly nanoOfDay: number,
    readonly offsetSeconds: number = 0,
  ) {
    Object.freeze(this);
  }
}

export class IntervalYearMonth {
  constructor(
    readonly years: number,
    readonly months: number,
    readonly type: DataTypeName = 'INTERVAL_YEAR_TO_MONTH',
  ) {
    Object.freeze(this);
  }

  get totalMonths(): number {
    return this.years * 12 + this.months;
  }

  /** java.time.Period.isNegative: any component below zero. */
  get isNegative(): boolean {
    return this.years < 0 || this.months < 0;
  }
}

export class IntervalDayTime {
  /**
   * @param seconds whole seconds (may be negative)
   * @param nanos nano adjustment, always 0..999_999_999 (java.time.Duration's representation)
   */
  constructor(
    readonly seconds: number,
    readonly nanos: number,
    readonly type: DataTypeName = 'INTERVAL_DAY_TO_SECOND',
  ) {
    Object.freeze(this);
  }

  static ofMillis(millis: number, type: DataTypeName = 'INTERVAL_DAY_TO_SECOND'): IntervalDayTime {
    const secs = Math.floor(millis / 1000);
    return new IntervalDayTime(secs, Math.round((millis - secs * 1000) * 1_000_000), type);
  }

  static ofNanos(totalSeconds: number, nanos: number, type: DataTypeName): IntervalDayTime {
    const carry = Math.floor(nanos / 1_000_000_000);
    return new IntervalDayTime(totalSeconds + carry, nanos - carry * 1_000_000_000, type);
  }

  /** Duration.toMillis (truncating). */
  get millis(): number {
    return this.seconds * 1000 + Math.floor(this.nanos / 1_000_000);
  }

  get isNegative(): boolean {
    return this.seconds < 0;
  }
}

export type SqlValue =
  | null
  | boolean
  | number
  | string
  | DateTimeValue
  | TimeValue
  | IntervalYearMonth
  | IntervalDayTime
  | GeoValue;

export const isDateTimeValue = (v: unknown): v is DateTimeValue => v instanceof DateTimeValue;
export const isTimeValue = (v: unknown): v is TimeValue => v instanceof TimeValue;
export const isIntervalValue = (v: unknown): v is IntervalYearMonth | IntervalDayTime =>
  v instanceof IntervalYearMonth || v instanceof IntervalDayTime;

const TWO_POW_63 = 9223372036854775808;

/** Whether a number behaves as a Java integral (Integer/Long) when its static type is unknown. */
export const isIntegralNumber = (x: number): boolean =>
  Number.isInteger(x) && Math.abs(x) < TWO_POW_63;

/**
 * ES: SqlDataTypes.fromJava: the SQL type of a runtime value. Numbers are LONG when integral,
 * DOUBLE otherwise (see the module note); strings are KEYWORD. Returns null for unknown values.
 */
export function typeOfValue(v: unknown): DataTypeName | null {
  if (v === null || v === undefined) return 'NULL';
  switch (typeof v) {
    case 'number':
      return isIntegralNumber(v) ? 'LONG' : 'DOUBLE';
    case 'string':
      return 'KEYWORD';
    case 'boolean':
      return 'BOOLEAN';
  }
  if (v instanceof DateTimeValue) return 'DATETIME';
  if (v instanceof TimeValue) return 'TIME';
  if (v instanceof IntervalYearMonth || v instanceof IntervalDayTime) return v.type;
  if (typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'geo') {
    return 'GEO_SHAPE';
  }
  return null;
}
