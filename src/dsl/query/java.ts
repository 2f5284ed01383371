/**
 * Java number parsing and printing as the ES query builders see them: `Double.parseDouble`,
 * `Float.parseFloat`, `Integer.parseInt`, `Long.parseLong` with `NumberFormatException` wording,
 * and `Float.toString` / `Double.toString` (used in Lucene query strings like `^2.0`).
 */
import { EsError } from '../../common/errors.js';

export const numberFormat = (input: string): EsError =>
  new EsError('number_format_exception', `For input string: "${input}"`, 400);

/** `String.trim()`: strips chars <= U+0020 at both ends. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return s.slice(a, b);
}

// Java FloatingDecimal.readJavaFormatString grammar (decimal and hexadecimal forms).
const DEC_RE = /^[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)[fFdD]?$/;
const HEX_RE = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)[fFdD]?$/;

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

/** `Float.parseFloat(s)`. */
export function javaParseFloat(s: string): number {
  return Math.fround(javaParseDouble(s));
}

const INT_RE = /^[+-]?[0-9]+$/;

/** `Integer.parseInt(s)`. */
export function javaParseInt(s: string): number {
  if (!INT_RE.test(s)) throw numberFormat(s);
  const v = Number(s);
  if (v > 2147483647 || v < -2147483648) throw numberFormat(s);
  return v;
}

/** `Long.parseLong(s)` (values beyond 2^53 lose precision, as everywhere in JS). */
export function javaParseLong(s: string): number {
  if (!INT_RE.test(s)) throw numberFormat(s);
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) throw numberFormat(s);
  return Number(v);
}

/** Java `(int) d` narrowing. */
export function javaToInt(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d >= 2147483647) return 2147483647;
  if (d <= -2147483648) return -2147483648;
  return Math.trunc(d);
}

/** Java `(long) d` narrowing (saturating). */
export function javaToLong(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d >= 9223372036854775807) return 9223372036854775807;
  if (d <= -9223372036854775808) return -9223372036854775808;
  return Math.trunc(d);
}

/** Lays out shortest round-trip digits the way Java's Double/Float.toString does. */
function javaLayout(v: number, digitsOf: (x: number) => string): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const neg = v < 0;
  const a = Math.abs(v);
  // digits and decimal exponent from the shortest exponential form
  const [mant, expStr] = digitsOf(a).split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expStr);
  let out: string;
  if (a >= 1e-3 && a < 1e7) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
      const frac = digits.slice(exp + 1);
      out = `${intPart}.${frac.length ? frac : '0'}`;
    } else {
      out = `0.${'0'.repeat(-exp - 1)}${digits}`;
    }
  } else {
    out = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${exp}`;
  }
  return neg ? `-${out}` : out;
}

/** `Double.toString(d)` (shortest round-trip digits; JDK 19+ semantics). */
export function javaDoubleToString(d: number): string {
  return javaLayout(d, (x) => x.toExponential());
}

/** `Float.toString(f)`: the shortest decimal that reads back as the same float. */
export function javaFloatToString(f: number): string {
  const v = Math.fround(f);
  return javaLayout(v, (x) => {
    for (let p = 1; p <= 9; p++) {
      const s = x.toExponential(p - 1);
      if (Math.fround(Number(s)) === v || Math.fround(Number(s)) === -v) return s;
    }
    return x.toExponential(8);
  });
}

/** `String.valueOf(number)` for a JSON number token: integral values print without a fraction. */
export function jsonNumberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  return String(n);
}

/** Java `String.hashCode()`. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}
