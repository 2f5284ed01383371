/**
 * String functions (ES sql StringProcessor, BinaryStringNumeric/StringString processors, Concat,
 * Insert, Locate, Replace, Substring; ql StartsWith) with ES's null handling and errors:
 * "A string/char is required; received [x]", "A fixed point number is required for [count];
 * received [java.lang.Double]". Positions are 1-based; lengths count UTF-16 code units as Java does.
 */
import { sqlIllegalArgument, qlIllegalArgument } from './errors.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  isIntegralNumber,
  TimeValue,
} from './values.js';

function str(v: unknown): string {
  if (typeof v !== 'string')
    throw sqlIllegalArgument('A string/char is required; received [{}]', [v]);
  return v;
}

function javaTypeName(v: unknown): string {
  if (typeof v === 'number') return isIntegralNumber(v) ? 'java.lang.Long' : 'java.lang.Double';
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (v instanceof DateTimeValue) return 'java.time.ZonedDateTime';
  if (v instanceof TimeValue) return 'java.time.OffsetTime';
  if (v instanceof IntervalYearMonth)
    return 'org.elasticsearch.xpack.sql.expression.literal.interval.IntervalYearMonth';
  if (v instanceof IntervalDayTime)
    return 'org.elasticsearch.xpack.sql.expression.literal.interval.IntervalDayTime';
  return 'java.lang.Object';
}

/** ES Check.isFixedNumberAndInRange. */
export function checkFixedNumberInRange(
  v: unknown,
  name: string,
  from: number,
  to: number,
): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw sqlIllegalArgument('A fixed point number is required for [{}]; received [{}]', [
      name,
      javaTypeName(v),
    ]);
  }
  if (v < from || v > to) {
    throw sqlIllegalArgument('[{}] out of the allowed range [{}, {}], received [{}]', [
      name,
      from,
      to,
      v,
    ]);
  }
  return v;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** java.lang.Character.isWhitespace for UTF-16 code units. */
export function isJavaWhitespace(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) return true;
  if (c < 0x80) return false;
  if (c === 0xa0 || c === 0x2007 || c === 0x202f) return false; // non-breaking spaces are excluded
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function trimTrailingWhitespaces(s: string): string {
  let i = s.length - 1;
  while (i >= 0 && isJavaWhitespace(s.charCodeAt(i))) i--;
  return s.slice(0, i + 1);
}

export function trimLeadingWhitespaces(s: string): string {
  let i = 0;
  while (i < s.length && isJavaWhitespace(s.charCodeAt(i))) i++;
  return s.slice(i);
}

/** java.lang.String.trim: strips code units <= U+0020 at both ends. */
export function javaTrim(s: string): string {
  let st = 0;
  let len = s.length;
  while (st < len && s.charCodeAt(st) <= 0x20) st++;
  while (st < len && s.charCodeAt(len - 1) <= 0x20) len--;
  return s.slice(st, len);
}

/** Lucene UnicodeUtil.calcUTF16toUTF8Length. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c < 0xd800 || c > 0xdfff) n += 3;
    else if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

const unaryStr =
  <R>(f: (s: string) => R) =>
  (v: unknown): R | null =>
    v == null ? null : f(str(v));

function intValue(v: unknown): number {
  if (typeof v !== 'number') throw sqlIllegalArgument('A number is required; received [{}]', [v]);
  return Number.isFinite(v) ? Math.trunc(v) | 0 : v > 0 ? INT_MAX : v < 0 ? INT_MIN : 0;
}

export const ascii = unaryStr((s) => (s.length === 0 ? null : s.charCodeAt(0)));
export const bitLength = unaryStr((s) => utf8Length(s) * 8);
export const octetLength = unaryStr(utf8Length);
export const charLength = unaryStr((s) => s.length);
/** LENGTH: characters without trailing whitespace. */
export const length = unaryStr((s) => trimTrailingWhitespaces(s).length);
export const lcase = unaryStr((s) => s.toLowerCase());
export const ucase = unaryStr((s) => s.toUpperCase());
export const ltrim = unaryStr(trimLeadingWhitespaces);
export const rtrim = unaryStr(trimTrailingWhitespaces);
export const trim = unaryStr(javaTrim);

/** CHAR(n): the character with code n for 0..255, else null. */
export function char(v: unknown): string | null {
  if (v == null) return null;
  const i = intValue(v);
  return i < 0 || i > 255 ? null : String.fromCharCode(i);
}

/** SPACE(n): n spaces, null for negative n. */
export function space(v: unknown): string | null {
  if (v == null) return null;
  const i = intValue(v);
  return i < 0 ? null : ' '.repeat(i);
}

function stringNumeric(
  s: unknown,
  count: unknown,
  f: (s: string, n: number) => string | null,
): string | null {
  if (s == null || count == null) return null;
  const text = str(s);
  const n = checkFixedNumberInRange(count, 'count', INT_MIN, INT_MAX);
  return f(text, n);
}

export const left = (s: unknown, count: unknown): string | null =>
  stringNumeric(s, count, (t, i) => (i < 0 ? '' : i > t.length ? t : t.slice(0, i)));

export const right = (s: unknown, count: unknown): string | null =>
  stringNumeric(s, count, (t, i) => (i < 0 ? '' : i > t.length ? t : t.slice(t.length - i)));

export const repeat = (s: unknown, count: unknown): string | null =>
  stringNumeric(s, count, (t, i) => (i <= 0 ? null : t.repeat(i)));

/** POSITION(sub, str): 1-based index or 0. */
export function position(sub: unknown, s: unknown): number | null {
  if (sub == null || s == null) return null;
  const a = str(sub);
  const b = str(s);
  return b.indexOf(a) + 1;
}

/** CONCAT: nulls count as empty (both null gives ''). */
export function concat(a: unknown, b: unknown): string {
  if (a == null && b == null) return '';
  if (a == null) return str(b);
  if (b == null) return str(a);
  return str(a) + str(b);
}

/** INSERT(source, start, length, replacement). */
export function insert(
  input: unknown,
  start: unknown,
  len: unknown,
  replacement: unknown,
): string | null {
  if (input == null) return null;
  const s = str(input);
  if (replacement == null) return s;
  const r = str(replacement);
  if (start == null || len == null) return s;
  const st = checkFixedNumberInRange(start, 'start', INT_MIN + 1, INT_MAX);
  const l = checkFixedNumberInRange(len, 'length', 0, INT_MAX);
  const startInt = st - 1;
  const realStart = startInt < 0 ? 0 : startInt;
  if (startInt > s.length) return s;
  // StringBuilder.replace(start, end, str): end is clamped to the length
  return s.slice(0, realStart) + r + s.slice(Math.min(s.length, realStart + l));
}

/** LOCATE(pattern, input[, start]): 1-based index of pattern in input, 0 when absent. */
export function locate(pattern: unknown, input: unknown, start?: unknown): number | null {
  if (input == null) return null;
  const s = str(input);
  if (pattern == null) return 0;
  const p = str(pattern);
  if (start != null) {
    const st = checkFixedNumberInRange(start, 'start', INT_MIN + 1, INT_MAX);
    return 1 + s.indexOf(p, Math.max(0, st - 1));
  }
  return 1 + s.indexOf(p);
}

/** REPLACE(input, pattern, replacement): every occurrence; empty pattern leaves the input. */
export function replace(input: unknown, pattern: unknown, replacement: unknown): string | null {
  if (input == null) return null;
  const s = str(input);
  if (pattern == null || replacement == null) return s;
  const p = str(pattern);
  const r = str(replacement);
  if (s.length === 0 || p.length === 0) return s;
  return s.split(p).join(r);
}

/** SUBSTRING(input, start, length) with ES's clamping (StringFunctionUtils.substring). */
export function substring(input: unknown, start: unknown, len: unknown): string | null {
  if (input == null) return null;
  const s = str(input);
  if (start == null || len == null) return s;
  let st = checkFixedNumberInRange(start, 'start', INT_MIN + 1, INT_MAX) - 1;
  const l = checkFixedNumberInRange(len, 'length', 0, INT_MAX);
  if (s.length === 0) return s;
  if (st < 0) st = 0;
  if (st + 1 > s.length || l < 0) return '';
  return st + l > s.length ? s.slice(st) : s.slice(st, st + l);
}

/** STARTS_WITH(source, prefix): case sensitive by default (ql StartsWithFunctionProcessor). */
export function startsWith(
  source: unknown,
  pattern: unknown,
  caseSensitive = true,
): boolean | null {
  if (source == null) return null;
  if (typeof source !== 'string')
    throw qlIllegalArgument('A string/char is required; received [{}]', [source]);
  if (pattern == null) return null;
  if (typeof pattern !== 'string')
    throw qlIllegalArgument('A string/char is required; received [{}]', [pattern]);
  return caseSensitive
    ? source.startsWith(pattern)
    : source.toLowerCase().startsWith(pattern.toLowerCase());
}
