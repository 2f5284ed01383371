/**
 * Java's text forms of values, for error messages that ES builds with `String.valueOf` /
 * LoggerMessageFormat (`Cannot cast value [1.0E20] ...`). JavaScript prints numbers differently
 * (`1e+21`, `1`), so messages quoting a double must go through here.
 */

/** `Double.toString(d)`: decimal notation for 1e-3 <= |d| < 1e7, else `d.dddE±n`. */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(d);
    return s.includes('.') ? s : `${s}.0`;
  }
  // shortest round-trip digits, then Java's scientific layout (at least one fraction digit)
  const [mantissa, exponent] = d.toExponential().split('e') as [string, string];
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${Number(exponent)}`;
}

/** `Float.toString(f)` for a value already rounded to float precision. */
export function javaFloatToString(f: number): string {
  if (!Number.isFinite(f) || f === 0) return javaDoubleToString(f);
  // the shortest decimal that reads back as the same float
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) return javaDoubleToString(candidate);
  }
  return javaDoubleToString(f);
}

/** `String.valueOf(value)` for the values a SQL parameter can hold. */
export function javaValueToString(value: unknown, javaType?: 'float' | 'double'): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (javaType === 'float') return javaFloatToString(value);
    if (javaType === 'double' || !Number.isInteger(value)) return javaDoubleToString(value);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  return String(value);
}
