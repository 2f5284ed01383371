/**
 * ES SQL type conversion as CAST/CONVERT/`::` do it (ql DataTypeConverter + SqlDataTypeConverter):
 * `converterFor(from, to)` picks Java's converter (null when the cast is not allowed),
 * `convert(value, to, from?)` applies it with ES's errors ("cannot cast [a] to [integer]",
 * "[3.0E10] out of [integer] range"). Java number parsing rules (Long.valueOf, Double.valueOf) are
 * reproduced so that what fails in ES fails here.
 */
import { isInteger, isPrimitive, isRational, isString, type DataTypeName } from './data-types.js';
import { MILLIS_PER_DAY, localDateTimeOf } from './datetime/calendar.js';
import {
  isoDateOnly,
  isoDateTimeWithMillis,
  isoTimeWithMillis,
  parseIsoDateOnly,
  parseIsoDateTime,
  parseIsoTimeOnly,
} from './datetime/iso.js';
import { offsetAt, UTC } from './datetime/zones.js';
import { numberFormatException, qlIllegalArgument, sqlIllegalArgument } from './errors.js';
import { isGeoValue, toWkt } from './geo.js';
import { javaDoubleToString, javaFloatToString, javaToString } from './java-text.js';
import { isValidIp } from './ip.js';
import { DateTimeValue, TimeValue, typeOfValue } from './values.js';
import { EsError } from '../common/errors.js';

export type Converter = (value: unknown) => unknown;

const LONG_MAX = 9223372036854775807; // as a double: 2^63
const LONG_MIN = -9223372036854775808;

// ---- Java number parsing -----------------------------------------------------------------

const nfe = (s: string) => numberFormatException(`For input string: "${s}"`);

/** Long.parseLong / Integer.parseInt (radix 10) with range checks. */
function parseJavaIntegral(s: string, min: number, max: number): number {
  if (!/^[+-]?\d+$/.test(s)) throw nfe(s);
  const v = Number(s);
  if (v < min || v > max) throw nfe(s);
  if (Math.abs(v) > Number.MAX_SAFE_INTEGER) {
    // beyond 2^53 Number() rounds; compare as BigInt for the exact range check
    const b = BigInt(s);
    if (
      b < BigInt(min === LONG_MIN ? '-9223372036854775808' : min) ||
      b > BigInt(max === LONG_MAX ? '9223372036854775807' : max)
    ) {
      throw nfe(s);
    }
  }
  return v;
}

function parseJavaShortOrByte(s: string, min: number, max: number): number {
  const v = parseJavaIntegral(s, -2147483648, 2147483647);
  if (v < min || v > max) throw numberFormatException(`Value out of range. Value:"${s}" Radix:10`);
  return v;
}

const JAVA_FLOAT = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

/** Double.valueOf / Float.valueOf: trims, accepts "1e5", "1.5d", "NaN", "Infinity". */
function parseJavaFloating(s: string): number {
  const t = s.trim();
  if (t.length === 0) throw numberFormatException('empty String');
  if (!JAVA_FLOAT.test(t)) throw nfe(s);
  if (t.endsWith('NaN')) return NaN;
  if (t.endsWith('Infinity')) return t[0] === '-' ? -Infinity : Infinity;
  return Number(t.replace(/[fFdD]$/, ''));
}

// ---- safe narrowing (DataTypeConverter.safeTo*) --------------------------------------------

export function safeToLong(x: number): number {
  if (x > LONG_MAX || x < LONG_MIN) {
    throw qlIllegalArgument('[' + javaDoubleToString(x) + '] out of [long] range');
  }
  return Number.isNaN(x) ? 0 : javaRound(x);
}

const rangeCheck = (name: string, min: number, max: number) => (x: number) => {
  if (x > max || x < min)
    throw qlIllegalArgument('[' + javaToString(x) + '] out of [' + name + '] range');
  return x;
};
export const safeToInt = rangeCheck('integer', -2147483648, 2147483647);
export const safeToShort = rangeCheck('short', -32768, 32767);
export const safeToByte = rangeCheck('byte', -128, 127);

/** java.lang.Math.round(double): half up, NaN to 0, clamped to the long range. */
export function javaRound(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= LONG_MAX) return LONG_MAX;
  if (x <= LONG_MIN) return LONG_MIN;
  const f = Math.floor(x);
  // x - floor(x) is exact for doubles, unlike x + 0.5 (which rounds for 0.49999999999999994 or 2^52+1)
  return x - f >= 0.5 ? f + 1 : f;
}

/** DataTypeConverter.toInteger(double, type): round then narrow. */
export function toIntegerOfType(x: number, type: DataTypeName): number {
  const l = safeToLong(x);
  if (type === 'BYTE') return safeToByte(l);
  if (type === 'SHORT') return safeToShort(l);
  if (type === 'INTEGER') return safeToInt(l);
  return l;
}

/** DataTypeConverter.asInteger: the integral type a rational rounds to (CEIL/FLOOR). */
export const asIntegerType = (t: DataTypeName): DataTypeName =>
  isInteger(t) || isRational(t) ? (isInteger(t) ? t : 'LONG') : t;

// ---- value helpers -------------------------------------------------------------------------

const asNumber = (v: unknown): number => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as number));
/** Number.longValue(): truncation toward zero. */
const longValue = (v: unknown): number => Math.trunc(asNumber(v)) || 0;
const dtMillis = (v: unknown): number => (v as DateTimeValue).millis;
/** OffsetTime.atDate(EPOCH).toInstant().toEpochMilli(). */
const timeMillis = (v: unknown): number => {
  const t = v as TimeValue;
  return Math.floor(t.nanoOfDay / 1e6) - t.offsetSeconds * 1000;
};

/** sql DateUtils.asDateOnly(long): start of the UTC day of the instant. */
export const dateOnlyOfMillis = (millis: number): DateTimeValue =>
  new DateTimeValue(Math.floor(millis / MILLIS_PER_DAY) * MILLIS_PER_DAY, 0, UTC);

/** sql DateUtils.asTimeOnly(long): OffsetTime.ofInstant(ofEpochMilli(millis % DAY), UTC). */
export function timeOnlyOfMillis(millis: number): TimeValue {
  const m = millis % MILLIS_PER_DAY; // Java remainder keeps the sign
  const nod = ((m % MILLIS_PER_DAY) + MILLIS_PER_DAY) % MILLIS_PER_DAY;
  return new TimeValue(nod * 1e6, 0);
}

/** sql DateUtils.asDateOnly(ZonedDateTime): start of the local day, same zone. */
export function dateOnlyOfDateTime(v: DateTimeValue): DateTimeValue {
  const off = offsetAt(v.zone, v.millis);
  const localDay = Math.floor((v.millis + off * 1000) / MILLIS_PER_DAY);
  const localMidnight = localDay * MILLIS_PER_DAY;
  // ZonedDateTime.atStartOfDay: the zone's offset at local midnight (gaps move forward)
  const guess = offsetAt(v.zone, localMidnight - off * 1000);
  const millis = localMidnight - guess * 1000;
  return new DateTimeValue(
    offsetAt(v.zone, millis) === guess ? millis : localMidnight - off * 1000,
    0,
    v.zone,
  );
}

/** ZonedDateTime.toOffsetDateTime().toOffsetTime(). */
export function timeOfDateTime(v: DateTimeValue): TimeValue {
  const off = offsetAt(v.zone, v.millis);
  const l = localDateTimeOf(v.millis + off * 1000, v.nanos);
  return new TimeValue(((l.hour * 60 + l.minute) * 60 + l.second) * 1e9 + l.nano, off);
}

/** DefaultConverter.fromString: wraps Java parse failures into "cannot cast [v] to [type]". */
const fromString =
  (parse: (s: string) => unknown, to: string): Converter =>
  (value) => {
    const s = String(value);
    try {
      return parse(s);
    } catch (e) {
      if (e instanceof EsError && e.type === 'number_format_exception') {
        throw qlIllegalArgument('cannot cast [{}] to [{}]', [s, to], { causedBy: e });
      }
      if (
        e instanceof EsError &&
        (e.type === 'date_time_exception' || e.type === 'illegal_argument_exception')
      ) {
        throw qlIllegalArgument('cannot cast [{}] to [{}]: {}', [s, to, e.reason], { causedBy: e });
      }
      throw e;
    }
  };

/** String.valueOf for the given source type (Double/Float print Java-style). */
function otherToString(from: DataTypeName): Converter {
  if (from === 'FLOAT' || from === 'HALF_FLOAT') return (v) => javaFloatToString(v as number);
  if (isRational(from)) return (v) => javaDoubleToString(v as number);
  if (isInteger(from)) return (v) => (v as number).toFixed(0);
  if (from === 'GEO_POINT' || from === 'GEO_SHAPE' || from === 'SHAPE') {
    return (v) => (isGeoValue(v) ? toWkt(v.geometry) : javaToString(v));
  }
  return (v) => javaToString(v);
}

function stringToBoolean(s: string): boolean {
  const low = s.toLowerCase();
  if (low !== 'true' && low !== 'false')
    throw qlIllegalArgument('cannot cast [' + s + '] to [boolean]');
  return low === 'true';
}

function toDateTimeFromMillis(millis: number): DateTimeValue {
  return new DateTimeValue(millis, 0, UTC);
}

/**
 * SqlDataTypeConverter.converterFor: the conversion from one SQL type to another, or null when ES
 * does not allow it (the analyzer then reports "Cannot cast [X] to [Y]").
 */
export function converterFor(from: DataTypeName, to: DataTypeName): Converter | null {
  if (from === to) return (v) => v;
  if (to === 'NULL' || from === 'NULL') return () => null;
  // SQL-only targets DATE and TIME
  if (to === 'DATE') {
    if (isRational(from)) return (v) => dateOnlyOfMillis(safeToLong(asNumber(v)));
    if (isInteger(from)) return (v) => dateOnlyOfMillis(longValue(v));
    if (from === 'BOOLEAN') return (v) => dateOnlyOfMillis(v ? 1 : 0);
    if (isString(from)) return fromString(parseIsoDateOnly, 'date');
    if (from === 'DATETIME') return (v) => dateOnlyOfDateTime(v as DateTimeValue);
    return null;
  }
  if (to === 'TIME') {
    if (isRational(from)) return (v) => timeOnlyOfMillis(safeToLong(asNumber(v)));
    if (isInteger(from)) return (v) => timeOnlyOfMillis(longValue(v));
    if (from === 'BOOLEAN') return (v) => timeOnlyOfMillis(v ? 1 : 0);
    if (isString(from)) return fromString(parseIsoTimeOnly, 'time');
    if (from === 'DATE' || from === 'DATETIME') return (v) => timeOfDateTime(v as DateTimeValue);
    return null;
  }
  if (from === 'DATE' || from === 'TIME') {
    const millis = from === 'DATE' ? dtMillis : timeMillis;
    if (isString(to)) {
      return from === 'DATE'
        ? (v) => isoDateOnly(v as DateTimeValue)
        : (v) => isoTimeWithMillis(v as TimeValue);
    }
    switch (to) {
      case 'LONG':
        return millis;
      case 'INTEGER':
        return (v) => safeToInt(millis(v));
      case 'SHORT':
        return (v) => safeToShort(millis(v));
      case 'BYTE':
        return (v) => safeToByte(millis(v));
      case 'FLOAT':
        return (v) => Math.fround(millis(v));
      case 'DOUBLE':
        return millis;
      case 'DATETIME':
        return from === 'DATE' ? (v) => v : null;
      case 'BOOLEAN':
        return (v) => millis(v) !== 0;
    }
    return null;
  }
  // only primitives from here on (DataTypeConverter.canConvert)
  if (isString(to)) {
    if (from === 'DATETIME') return (v) => isoDateTimeWithMillis(v as DateTimeValue);
    return otherToString(from);
  }
  const fromRational = isRational(from);
  const fromInteger = isInteger(from);
  const fromString_ = isString(from);
  switch (to) {
    case 'LONG':
      if (fromRational) return (v) => safeToLong(asNumber(v));
      if (fromInteger) return (v) => longValue(v);
      if (from === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (fromString_) return fromString((s) => parseJavaIntegral(s, LONG_MIN, LONG_MAX), 'long');
      if (from === 'DATETIME') return dtMillis;
      return null;
    case 'INTEGER':
      if (fromRational) return (v) => safeToInt(safeToLong(asNumber(v)));
      if (fromInteger) return (v) => safeToInt(longValue(v));
      if (from === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (fromString_)
        return fromString((s) => parseJavaIntegral(s, -2147483648, 2147483647), 'integer');
      if (from === 'DATETIME') return (v) => safeToInt(dtMillis(v));
      return null;
    case 'SHORT':
      if (fromRational) return (v) => safeToShort(safeToLong(asNumber(v)));
      if (fromInteger) return (v) => safeToShort(longValue(v));
      if (from === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (fromString_) return fromString((s) => parseJavaShortOrByte(s, -32768, 32767), 'short');
      if (from === 'DATETIME') return (v) => safeToShort(dtMillis(v));
      return null;
    case 'BYTE':
      if (fromRational) return (v) => safeToByte(safeToLong(asNumber(v)));
      if (fromInteger) return (v) => safeToByte(longValue(v));
      if (from === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (fromString_) return fromString((s) => parseJavaShortOrByte(s, -128, 127), 'byte');
      if (from === 'DATETIME') return (v) => safeToByte(dtMillis(v));
      return null;
    case 'FLOAT':
      if (fromRational || fromInteger) return (v) => Math.fround(asNumber(v));
      if (from === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (fromString_) return fromString((s) => Math.fround(parseJavaFloating(s)), 'float');
      if (from === 'DATETIME') return (v) => Math.fround(dtMillis(v));
      return null;
    case 'DOUBLE':
      if (fromRational || fromInteger) return (v) => asNumber(v);
      if (from === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (fromString_) return fromString(parseJavaFloating, 'double');
      if (from === 'DATETIME') return dtMillis;
      return null;
    case 'DATETIME':
      if (fromRational) return (v) => toDateTimeFromMillis(safeToLong(asNumber(v)));
      if (fromInteger) return (v) => toDateTimeFromMillis(longValue(v));
      if (from === 'BOOLEAN') return (v) => toDateTimeFromMillis(v ? 1 : 0);
      if (fromString_) return fromString(parseIsoDateTime, 'datetime');
      return null;
    case 'BOOLEAN':
      if (fromRational || fromInteger) return (v) => longValue(v) !== 0;
      if (fromString_) return (v) => stringToBoolean(String(v));
      if (from === 'DATETIME') return (v) => dtMillis(v) !== 0;
      return null;
    case 'IP':
      if (fromString_) {
        return (v) => {
          if (!isValidIp(String(v))) {
            throw qlIllegalArgument('[' + String(v) + '] is not a valid IPv4 or IPv6 address');
          }
          return v;
        };
      }
      return null;
  }
  return null;
}

/** SqlDataTypeConverter.canConvert. */
export function canConvert(from: DataTypeName, to: DataTypeName): boolean {
  if (from === to || from === 'NULL') return true;
  return isPrimitive(from) && isPrimitive(to) && converterFor(from, to) !== null;
}

/**
 * SqlDataTypeConverter.convert: converts a runtime value to `to`. Pass `from` when the static
 * type is known (it decides e.g. "1.0" vs "1" for a double cast to string); otherwise it is
 * inferred from the value (values.ts).
 */
export function convert(value: unknown, to: DataTypeName, from?: DataTypeName | null): unknown {
  if (value === null || value === undefined) return null;
  const detected = from ?? typeOfValue(value);
  if (detected === null) throw sqlIllegalArgument('cannot detect datatype for [{}]', [value]);
  if (detected === to) return value;
  const c = converterFor(detected, to);
  if (c === null) {
    throw sqlIllegalArgument('cannot convert from [{}] to [{}]', [value, to.toLowerCase()]);
  }
  return c(value);
}
