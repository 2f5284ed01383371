/**
 * The methods ES SQL 7.10 calls from the Painless scripts it generates
 * (`InternalQlScriptUtils.xxx(...)`, `InternalSqlScriptUtils.xxx(...)`), keyed by method name.
 * InternalSqlScriptUtils extends InternalQlScriptUtils, so one table serves both prefixes: the SQL
 * variants of add/sub/mul/div/mod (which also handle intervals and datetimes) win, as in Java.
 *
 * `docValue(doc, field)` expects `doc` as a Map or plain object of field name -> values list (or a
 * single value); date fields should yield DateTimeValue (epoch millis numbers and ISO strings are
 * accepted, as ES's asDateTime accepts Numbers and Strings).
 */
import * as arith from './arithmetic.js';
import * as cmp from './comparison.js';
import * as cond from './conditional.js';
import { convert } from './convert.js';
import { dateAdd, dateDiff } from './datetime/date-add-diff.js';
import { datePart, dateTrunc } from './datetime/date-part-trunc.js';
import {
  dateTimeChrono,
  dayName,
  dayOfWeek,
  monthName,
  quarter,
  weekOfYear,
} from './datetime/extract.js';
import {
  dateParse,
  dateTimeFormat,
  dateTimeParse,
  format,
  timeParse,
} from './datetime/format-parse.js';
import { parseIsoOffsetTime, parseStrictDateOptionalTime } from './datetime/iso.js';
import { sqlIllegalArgument } from './errors.js';
import * as geo from './geo.js';
import { parseIsoDuration, parseIsoPeriod } from './intervals.js';
import { javaToString } from './java-text.js';
import { regexMatch } from './like.js';
import * as math from './math.js';
import * as str from './string.js';
import { fromSqlOrEsType } from './type-names.js';
import { DateTimeValue, TimeValue } from './values.js';
import type { DataTypeName } from './data-types.js';

/** InternalQlScriptUtils.docValue: the first doc value of the field, or null. */
export function docValue(doc: unknown, field: string): unknown {
  if (doc == null) return null;
  let values: unknown;
  if (doc instanceof Map) values = doc.get(field);
  else if (
    typeof (doc as { get?: unknown }).get === 'function' &&
    typeof (doc as { containsKey?: unknown }).containsKey === 'function'
  ) {
    const d = doc as { containsKey(k: string): boolean; get(k: string): unknown };
    values = d.containsKey(field) ? d.get(field) : undefined;
  } else values = (doc as Record<string, unknown>)[field];
  if (values === undefined || values === null) return null;
  if (Array.isArray(values)) return values.length > 0 ? values[0] : null;
  return values;
}

/** InternalSqlScriptUtils.asDateTime(Object[, lenient]). */
export function asDateTime(v: unknown, lenient = false): unknown {
  if (v == null) return null;
  if (v instanceof DateTimeValue) return v;
  if (lenient) return v;
  if (typeof v === 'number') return new DateTimeValue(Math.trunc(v));
  if (typeof v === 'string') return parseStrictDateOptionalTime(v);
  throw sqlIllegalArgument('Invalid date encountered [{}]', [v]);
}

const requireZone = (tz: unknown): string => {
  if (typeof tz !== 'string') throw sqlIllegalArgument('A string is required; received [{}]', [tz]);
  return tz;
};

/** InternalSqlScriptUtils.asTime: OffsetTime.parse of the literal's text. */
export const asTime = (text: string): TimeValue => parseIsoOffsetTime(text);

function typeFromName(name: string): DataTypeName {
  const t = fromSqlOrEsType(name);
  if (!t) throw sqlIllegalArgument('Unsupported data type [{}]', [name]);
  return t;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v == null ? [] : [v]);

/** Script methods take the loosely typed values a script passes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous signatures
export type ScriptMethod = (...args: any[]) => unknown;

export const SCRIPT_METHODS: Readonly<Record<string, ScriptMethod>> = Object.freeze({
  // ---- InternalQlScriptUtils: utilities
  docValue,
  nullSafeFilter: (b: unknown) => (b == null ? false : b === true),
  nullSafeSortNumeric: (n: unknown) => (n == null ? 0.0 : Number(n)),
  nullSafeSortString: (o: unknown) => (o == null ? '' : javaToString(o)),
  // ---- comparison and logic
  eq: cmp.eq,
  nulleq: cmp.nulleq,
  neq: cmp.neq,
  lt: cmp.lt,
  lte: cmp.lte,
  gt: cmp.gt,
  gte: cmp.gte,
  in: (value: unknown, values: unknown) => cmp.inList(value, list(values)),
  and: cmp.and,
  or: cmp.or,
  not: cmp.not,
  isNull: cmp.isNull,
  isNotNull: cmp.isNotNull,
  regex: (value: unknown, pattern: unknown) =>
    regexMatch(value, pattern == null ? null : String(pattern)),
  // ---- arithmetic (the InternalSqlScriptUtils overloads: intervals and datetimes too)
  add: (l: unknown, r: unknown) => arith.add(l, r),
  sub: (l: unknown, r: unknown) => arith.sub(l, r),
  mul: (l: unknown, r: unknown) => arith.mul(l, r),
  div: (l: unknown, r: unknown) => arith.div(l, r),
  mod: (l: unknown, r: unknown) => arith.mod(l, r),
  neg: (v: unknown) => arith.neg(v),
  startsWith: (s: unknown, p: unknown, cs: unknown) => str.startsWith(s, p, cs !== false),
  // ---- conditional
  coalesce: (vs: unknown) => cond.coalesce(list(vs)),
  greatest: (vs: unknown) => cond.greatest(list(vs)),
  least: (vs: unknown) => cond.least(list(vs)),
  nullif: cond.nullif,
  // ---- math
  round: (v: unknown, s: unknown) => math.round(v, s),
  truncate: (v: unknown, s: unknown) => math.truncate(v, s),
  abs: (v: unknown) => math.abs(v),
  acos: math.acos,
  asin: math.asin,
  atan: math.atan,
  atan2: math.atan2,
  cbrt: math.cbrt,
  ceil: (v: unknown) => math.ceil(v),
  cos: math.cos,
  cosh: math.cosh,
  cot: math.cot,
  degrees: math.degrees,
  e: () => math.e(),
  exp: math.exp,
  expm1: math.expm1,
  floor: (v: unknown) => math.floor(v),
  log: math.log,
  log10: math.log10,
  pi: () => math.pi(),
  power: math.power,
  radians: math.radians,
  random: (v: unknown) => math.random(v),
  sign: (v: unknown) => math.sign(v),
  sin: math.sin,
  sinh: math.sinh,
  sqrt: math.sqrt,
  tan: math.tan,
  // ---- date/time
  dateTimeChrono: (dt: unknown, tz: unknown, chrono: unknown) =>
    dt instanceof TimeValue
      ? dateTimeChrono(dt, tz as string, chrono as string)
      : dateTimeChrono(asDateTime(dt), tz as string, chrono as string),
  dayName: (dt: unknown, tz: unknown) =>
    dt == null || tz == null ? null : dayName(asDateTime(dt), requireZone(tz)),
  dayOfWeek: (dt: unknown, tz: unknown) =>
    dt == null || tz == null ? null : dayOfWeek(asDateTime(dt), requireZone(tz)),
  monthName: (dt: unknown, tz: unknown) =>
    dt == null || tz == null ? null : monthName(asDateTime(dt), requireZone(tz)),
  quarter: (dt: unknown, tz: unknown) =>
    dt == null || tz == null ? null : quarter(asDateTime(dt), requireZone(tz)),
  weekOfYear: (dt: unknown, tz: unknown) =>
    dt == null || tz == null ? null : weekOfYear(asDateTime(dt), requireZone(tz)),
  dateAdd: (part: unknown, n: unknown, dt: unknown, tz: unknown) =>
    dateAdd(part, n, asDateTime(dt), requireZone(tz)),
  dateDiff: (part: unknown, a: unknown, b: unknown, tz: unknown) =>
    dateDiff(part, asDateTime(a), asDateTime(b), requireZone(tz)),
  dateTrunc: (part: unknown, v: unknown, tz: unknown) =>
    dateTrunc(
      part,
      v instanceof DateTimeValue || v == null || typeof v === 'number' || typeof v === 'string'
        ? asDateTime(v)
        : v,
      requireZone(tz),
    ),
  dateParse: (text: unknown, pattern: unknown, tz: unknown) =>
    dateParse(text, pattern, requireZone(tz)),
  datePart: (part: unknown, dt: unknown, tz: unknown) =>
    datePart(part, asDateTime(dt), requireZone(tz)),
  dateTimeFormat: (dt: unknown, pattern: unknown, tz: unknown) =>
    dateTimeFormat(asDateTime(dt), pattern, requireZone(tz)),
  dateTimeParse: (text: unknown, pattern: unknown, tz: unknown) =>
    dateTimeParse(text, pattern, requireZone(tz)),
  format: (dt: unknown, pattern: unknown, tz: unknown) =>
    format(asDateTime(dt), pattern, requireZone(tz)),
  timeParse: (text: unknown, pattern: unknown, tz: unknown) =>
    timeParse(text, pattern, requireZone(tz)),
  asDateTime: (v: unknown) => asDateTime(v),
  intervalDayTime: (text: unknown, typeName: unknown) =>
    text == null || typeName == null
      ? null
      : parseIsoDuration(String(text), typeFromName(String(typeName))),
  intervalYearMonth: (text: unknown, typeName: unknown) =>
    text == null || typeName == null
      ? null
      : parseIsoPeriod(String(text), typeFromName(String(typeName))),
  asTime: (text: unknown) => asTime(String(text)),
  // ---- string
  ascii: str.ascii,
  bitLength: str.bitLength,
  character: str.char,
  charLength: str.charLength,
  concat: str.concat,
  insert: str.insert,
  lcase: str.lcase,
  left: str.left,
  length: str.length,
  locate: (a: unknown, b: unknown, start?: unknown) => str.locate(a, b, start),
  ltrim: str.ltrim,
  octetLength: str.octetLength,
  position: str.position,
  repeat: str.repeat,
  replace: str.replace,
  right: str.right,
  rtrim: str.rtrim,
  space: str.space,
  substring: str.substring,
  trim: str.trim,
  ucase: str.ucase,
  // ---- geo
  stAswkt: (v: unknown) => geo.stAsWkt(v),
  stWktToSql: (v: unknown) => geo.stWktToSql(v),
  stDistance: geo.stDistance,
  stGeometryType: geo.stGeometryType,
  stX: geo.stX,
  stY: geo.stY,
  stZ: geo.stZ,
  geoDocValue: (doc: unknown, field: string) => {
    const v = docValue(doc, field);
    if (v == null) return null;
    if (geo.isGeoValue(v)) return v;
    const p = v as { lat?: number; lon?: number };
    return typeof p.lat === 'number' && typeof p.lon === 'number'
      ? geo.geoPoint(p.lon, p.lat)
      : null;
  },
  // ---- casting
  cast: (value: unknown, typeName: unknown) =>
    convert(asDateTime(value, true), typeFromName(String(typeName))),
});
