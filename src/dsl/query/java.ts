/**
 * Java numbers as the ES query builders see them: the parsers (src/common/java-parse-number.ts,
 * re-exported) and `Float.toString` / `Double.toString` (used in Lucene query strings like
 * `^2.0`), `String.hashCode`.
 */
export {
  javaParseDouble,
  javaParseFloat,
  javaParseInt,
  javaParseLong,
  javaToInt,
  javaToLong,
  javaTrim,
  numberFormat,
} from '../../common/java-parse-number.js';

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
