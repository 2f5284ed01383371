/**
 * Math functions (ES sql MathProcessor, BinaryMathProcessor, BinaryOptionalMathProcessor): null in,
 * null out; "A number is required; received [x]" for non-numbers; ROUND/TRUNCATE with ES's own
 * scale arithmetic; RANDOM(seed) reproducing java.util.Random's sequence so seeded values match.
 * Functions whose result keeps the argument's integral type take the static `type` when known.
 */
import { isInteger, type DataTypeName } from './data-types.js';
import { safeToByte, safeToInt, safeToShort, toIntegerOfType, javaRound } from './convert.js';
import { sqlIllegalArgument, qlIllegalArgument } from './errors.js';
import { mod as arithmeticMod } from './arithmetic.js';
import { isIntegralNumber } from './values.js';

function num(v: unknown): number {
  if (typeof v !== 'number') throw sqlIllegalArgument('A number is required; received [{}]', [v]);
  return v;
}

const unary =
  (f: (x: number) => number) =>
  (v: unknown): number | null =>
    v == null ? null : f(num(v));

const integralType = (v: number, type?: DataTypeName | null): boolean =>
  type ? isInteger(type) : isIntegralNumber(v);

/** MathOperation.ABS: integral abs keeps the integral type and checks its range. */
export function abs(v: unknown, type?: DataTypeName | null): number | null {
  if (v == null) return null;
  const x = num(v);
  if (!integralType(x, type))
    return type === 'FLOAT' || type === 'HALF_FLOAT' ? Math.fround(Math.abs(x)) : Math.abs(x);
  if (x <= -9223372036854775808) {
    throw qlIllegalArgument(
      '[' + x.toFixed(0) + '] cannot be negated since the result is outside the range',
    );
  }
  const a = Math.abs(x);
  if (type === 'INTEGER') {
    if (x === -2147483648) {
      throw qlIllegalArgument(
        '[' + a + '] cannot be negated since the result is outside the range',
      );
    }
    return safeToInt(a);
  }
  if (type === 'SHORT') return safeToShort(a);
  if (type === 'BYTE') return safeToByte(a);
  return a;
}

export const acos = unary(Math.acos);
export const asin = unary(Math.asin);
export const atan = unary(Math.atan);
export const cbrt = unary(Math.cbrt);
export const cos = unary(Math.cos);
export const cosh = unary(Math.cosh);
export const cot = unary((x) => 1.0 / Math.tan(x));
export const degrees = unary((x) => x * 57.29577951308232);
export const exp = unary(Math.exp);
export const expm1 = unary(Math.expm1);
export const log = unary(Math.log);
export const log10 = unary(Math.log10);
export const radians = unary((x) => x * 0.017453292519943295);
export const sin = unary(Math.sin);
export const sinh = unary(Math.sinh);
export const sqrt = unary(Math.sqrt);
export const tan = unary(Math.tan);
export const e = (): number => Math.E;
export const pi = (): number => Math.PI;

/**
 * CEIL/FLOOR: Math.ceil/floor; with an integral result type (ES folds CEIL(x) to
 * DataTypeConverter.toInteger) the value is rounded and range-checked like ES's fold.
 */
export function ceil(v: unknown, resultType?: DataTypeName | null): number | null {
  if (v == null) return null;
  const r = Math.ceil(num(v));
  return resultType && isInteger(resultType) ? toIntegerOfType(r, resultType) : r;
}

export function floor(v: unknown, resultType?: DataTypeName | null): number | null {
  if (v == null) return null;
  const r = Math.floor(num(v));
  return resultType && isInteger(resultType) ? toIntegerOfType(r, resultType) : r;
}

/** MathOperation.SIGN: Math.signum for rationals, Long.signum for integrals. */
export function sign(v: unknown, type?: DataTypeName | null): number | null {
  if (v == null) return null;
  const x = num(v);
  if (!integralType(x, type)) return Number.isNaN(x) ? NaN : x > 0 ? 1 : x < 0 ? -1 : x;
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

// ---- java.util.Random ------------------------------------------------------------------------

const MULT = 0x5deece66dn;
const MASK = (1n << 48n) - 1n;

/** `new java.util.Random(seed).nextDouble()`. */
export function javaRandomNextDouble(seed: number): number {
  let s = (BigInt.asIntN(64, BigInt(Math.trunc(seed))) ^ MULT) & MASK;
  const next = (bits: number): bigint => {
    s = (s * MULT + 0xbn) & MASK;
    return BigInt.asIntN(32, s >> BigInt(48 - bits));
  };
  const hi = next(26);
  const lo = next(27);
  return Number((hi << 27n) + lo) * 2 ** -53;
}

/** RANDOM(seed): seeded values are reproducible (java.util.Random), no seed is Math.random. */
export function random(seed: unknown): number {
  if (seed == null) return Math.random();
  return javaRandomNextDouble(num(seed));
}

// ---- binary ----------------------------------------------------------------------------------

export function atan2(l: unknown, r: unknown): number | null {
  if (l == null || r == null) return null;
  return Math.atan2(num(l), num(r));
}

export function power(l: unknown, r: unknown): number | null {
  if (l == null || r == null) return null;
  return Math.pow(num(l), num(r));
}

/** MOD(a, b): Arithmetics.mod. */
export function mod(l: unknown, r: unknown, type?: DataTypeName | null): number | null {
  if (l == null || r == null) return null;
  num(l);
  num(r);
  return arithmeticMod(l, r, type);
}

function checkScale(r: unknown): number {
  if (r == null) return 0;
  if (typeof r !== 'number') throw sqlIllegalArgument('A number is required; received [{}]', [r]);
  if (!Number.isInteger(r)) {
    throw sqlIllegalArgument('An integer number is required; received [{}] as second parameter', [
      r,
    ]);
  }
  return r;
}

/** ROUND(x[, scale]): ES rounds |x| * 10^scale half up and restores the sign (0 gives -0.0). */
export function round(l: unknown, r?: unknown): number | null {
  if (l == null) return null;
  const x = num(l);
  const scale = checkScale(r);
  const tenAtScale = Math.pow(10, scale);
  const middle = x * tenAtScale;
  const s = middle > 0 ? 1 : -1;
  return (javaRound(Math.abs(middle)) / tenAtScale) * s;
}

/** TRUNCATE(x[, scale]). */
export function truncate(l: unknown, r?: unknown): number | null {
  if (l == null) return null;
  const x = num(l);
  const scale = checkScale(r);
  const tenAtScale = Math.pow(10, scale);
  const g = x * tenAtScale;
  return (x < 0 ? Math.ceil(g) : Math.floor(g)) / tenAtScale;
}
