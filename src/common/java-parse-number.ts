/**
 * Java number parsing as Elasticsearch's code paths see it (`Integer.parseInt`, `Long.parseLong`,
 * `Double.parseDouble`, `Float.valueOf`, the `(int)`/`(long)` casts), with Java's
 * `NumberFormatException` wording: for the query builders' numbers, fuzziness, slop, boost and
 * `minimum_should_match` text, Lucene RegExp repeats and ES `Fuzziness`.
 */
import { EsError } from './errors.js';

export const numberFormat = (input: string): EsError =>
  new EsError('number_format_exception', `For input string: "${input}"`, 400);

const INT_RE = /^[+-]?[0-9]+$/;

/** `Integer.parseInt(s)` (radix 10, ASCII digits). */
export function javaParseInt(s: string): number {
  if (!INT_RE.test(s)) throw numberFormat(s);
  const v = Number(s);
  if (v > 2147483647 || v < -2147483648) throw numberFormat(s);
  return v;
}

// Java FloatingDecimal.readJavaFormatString grammar (decimal and hexadecimal forms).
const DEC_RE = /^[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)[fFdD]?$/;
const HEX_RE = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)[fFdD]?$/;

/** `String.trim()`: strips chars <= U+0020 at both ends. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return s.slice(a, b);
}

/** `Double.parseDouble(s)`. */
export function javaParseDouble(s: string): number {
  const t = javaTrim(s);
  if (t.length === 0) throw new EsError('number_format_exception', 'empty String', 400);
  if (DEC_RE.test(t)) {
    const body = t.replace(/[fFdD]$/, '');
    if (body.endsWith('NaN')) return NaN;
    if (body.endsWith('Infinity')) return body.startsWith('-') ? -Infinity : Infinity;
    return Number(body);
  }
  const h = HEX_RE.exec(t);
  if (h && (h[2]!.length > 0 || (h[3] ?? '').length > 0)) {
    const digits = h[2]! + (h[3] ?? '');
    const mant = digits.length === 0 ? 0 : parseInt(digits, 16);
    const exp = Number(h[4]) - 4 * (h[3] ?? '').length;
    const v = mant * Math.pow(2, exp);
    return h[1] === '-' ? -v : v;
  }
  throw numberFormat(t);
}

/** `Float.valueOf(s)` / `Float.parseFloat(s)`: a float32 value. */
export function javaParseFloat(s: string): number {
  return Math.fround(javaParseDouble(s));
}

/** `Long.parseLong(s)` (values beyond 2^53 lose precision, as everywhere in JS). */
export function javaParseLong(s: string): number {
  if (!INT_RE.test(s)) throw numberFormat(s);
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) throw numberFormat(s);
  return Number(v);
}

/** Java `(long) d` narrowing (saturating). */
export function javaToLong(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d >= 9223372036854775807) return 9223372036854775807;
  if (d <= -9223372036854775808) return -9223372036854775808;
  return Math.trunc(d);
}

/** Java's `(int) f` narrowing of a float/double. */
export function javaToInt(f: number): number {
  if (Number.isNaN(f)) return 0;
  if (f >= 2147483647) return 2147483647;
  if (f <= -2147483648) return -2147483648;
  return Math.trunc(f);
}
