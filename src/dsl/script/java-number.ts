/**
 * Java number behaviour that leaks into Elasticsearch output: Double.toString (range keys
 * "50.0-150.0", percentile keys "99.0", string concatenation in scripts) and the saturating
 * double-to-int/long casts.
 */

/** Java Double.toString: plain in [1e-3, 1e7), computerized scientific notation otherwise. */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  const sign = d < 0 ? '-' : '';
  const [mant, expStr] = abs.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  const digits = mant.replace('.', '');
  if (abs >= 1e-3 && abs < 1e7) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
      const frac = digits.slice(exp + 1) || '0';
      return `${sign}${intPart}.${frac}`;
    }
    return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  const frac = digits.slice(1) || '0';
  return `${sign}${digits[0]}.${frac}E${exp}`;
}

/** Java Float.toString of a float32 value (shortest digits that round-trip as float). */
export function javaFloatToString(f: number): string {
  if (!Number.isFinite(f) || f === 0) return javaDoubleToString(f);
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return javaDoubleToString(s);
  }
  return javaDoubleToString(f);
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;

/** Java (int) cast of a double: NaN → 0, saturating, truncating toward zero. */
export function toJavaInt(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d <= INT_MIN) return INT_MIN;
  if (d >= INT_MAX) return INT_MAX;
  return Math.trunc(d) | 0;
}

/** Java (long) cast of a double (within float64 precision). */
export function toJavaLong(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d <= LONG_MIN) return LONG_MIN;
  if (d >= LONG_MAX) return LONG_MAX;
  return Math.trunc(d) + 0;
}

/** Java Math.round(double): floor(x + 0.5) as a long. */
export function javaRound(d: number): number {
  if (Number.isNaN(d)) return 0;
  return toJavaLong(Math.floor(d + 0.5));
}
