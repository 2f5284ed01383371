/**
 * SQL comparison and logic at runtime (ql Comparisons, BinaryComparisonProcessor, InProcessor,
 * BinaryLogicProcessor, NotProcessor, CheckNullProcessor): three-valued logic, `null` when either
 * side is null or the values are not comparable (Java's ClassCastException path), Java's
 * Double.compare for numbers and ZonedDateTime/OffsetTime ordering for temporals.
 */
import { qlIllegalArgument } from './errors.js';
import { DateTimeValue, TimeValue } from './values.js';
import { offsetAt } from './datetime/zones.js';

/** java.lang.Double.compare: -0.0 < 0.0 and NaN above everything (and equal to itself). */
export function javaDoubleCompare(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
  if (a === 0 && b === 0) {
    const an = Object.is(a, -0);
    const bn = Object.is(b, -0);
    return an === bn ? 0 : an ? -1 : 1;
  }
  return 0;
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

function compareDateTimes(l: DateTimeValue, r: DateTimeValue): number {
  // ChronoZonedDateTime.compareTo: instant, then local date-time, then zone id
  let c = sign(l.millis - r.millis) || sign(l.nanos - r.nanos);
  if (c !== 0) return c;
  c = sign(offsetAt(l.zone, l.millis) - offsetAt(r.zone, r.millis));
  if (c !== 0) return c;
  return l.zone.id < r.zone.id ? -1 : l.zone.id > r.zone.id ? 1 : 0;
}

function compareTimes(l: TimeValue, r: TimeValue): number {
  // OffsetTime.compareTo: the UTC-normalised time first, then the local time
  const ln = l.nanoOfDay - l.offsetSeconds * 1e9;
  const rn = r.nanoOfDay - r.offsetSeconds * 1e9;
  return sign(ln - rn) || sign(l.nanoOfDay - r.nanoOfDay);
}

/**
 * ql Comparisons.compare: numbers numerically, strings by UTF-16 code units, booleans false <
 * true, datetimes/times by java.time ordering; null for nulls or incomparable pairs.
 */
export function compare(l: unknown, r: unknown): number | null {
  if (l === null || l === undefined || r === null || r === undefined) return null;
  const tl = typeof l;
  if (tl === 'number' && typeof r === 'number') return javaDoubleCompare(l as number, r);
  if (tl === 'string' && typeof r === 'string') return l < r ? -1 : l > r ? 1 : 0;
  if (tl === 'boolean' && typeof r === 'boolean') return l === r ? 0 : l ? 1 : -1;
  if (l instanceof DateTimeValue && r instanceof DateTimeValue) return compareDateTimes(l, r);
  if (l instanceof TimeValue && r instanceof TimeValue) return compareTimes(l, r);
  return null;
}

export function eq(l: unknown, r: unknown): boolean | null {
  const c = compare(l, r);
  return c === null ? null : c === 0;
}

/** `<=>`: true for two nulls, false (never null) otherwise when not comparable. */
export function nulleq(l: unknown, r: unknown): boolean {
  if ((l === null || l === undefined) && (r === null || r === undefined)) return true;
  const c = compare(l, r);
  return c === null ? false : c === 0;
}

export function neq(l: unknown, r: unknown): boolean | null {
  const c = compare(l, r);
  return c === null ? null : c !== 0;
}

export function lt(l: unknown, r: unknown): boolean | null {
  const c = compare(l, r);
  return c === null ? null : c < 0;
}

export function lte(l: unknown, r: unknown): boolean | null {
  const c = compare(l, r);
  return c === null ? null : c <= 0;
}

export function gt(l: unknown, r: unknown): boolean | null {
  const c = compare(l, r);
  return c === null ? null : c > 0;
}

export function gte(l: unknown, r: unknown): boolean | null {
  const c = compare(l, r);
  return c === null ? null : c >= 0;
}

/** InProcessor.apply: TRUE on a match, NULL if any comparison was unknown, else FALSE. */
export function inList(value: unknown, values: readonly unknown[]): boolean | null {
  let result: boolean | null = false;
  for (const v of values) {
    const c = eq(value, v);
    if (c === null) result = null;
    else if (c) return true;
  }
  return result;
}

function checkBoolean(v: unknown): void {
  if (v !== null && v !== undefined && typeof v !== 'boolean') {
    throw qlIllegalArgument('A boolean is required; received {}', [v]);
  }
}

/** SQL AND with three-valued logic (FALSE wins over NULL). */
export function and(l: unknown, r: unknown): boolean | null {
  checkBoolean(l);
  checkBoolean(r);
  if (l === false || r === false) return false;
  if (l == null || r == null) return null;
  return true;
}

/** SQL OR with three-valued logic (TRUE wins over NULL). */
export function or(l: unknown, r: unknown): boolean | null {
  checkBoolean(l);
  checkBoolean(r);
  if (l === true || r === true) return true;
  if (l == null || r == null) return null;
  return false;
}

export function not(v: unknown): boolean | null {
  if (v === null || v === undefined) return null;
  checkBoolean(v);
  return !v;
}

export const isNull = (v: unknown): boolean => v === null || v === undefined;
export const isNotNull = (v: unknown): boolean => v !== null && v !== undefined;
