/**
 * Static members scripts can use without imports: java.lang.Math, boxed-type parsers and
 * constants, String.valueOf, and ES's MovingFunctions (moving_fn scripts). Each entry says whether
 * an integral argument keeps the result integral (Math.abs/max/min on ints), so typed arithmetic
 * stays Java-like.
 */
import { illegalArg, ScriptRuntimeError } from './errors.js';
import { javaRound } from './java-number.js';
import { javaString, toNum } from './runtime.js';

export type StaticFn = (...args: unknown[]) => unknown;

const n = toNum;

function parseJavaInt(v: unknown, bits: 32 | 64): number {
  const s = String(v);
  if (!/^[+-]?\d+$/.test(s)) {
    throw new ScriptRuntimeError('number_format_exception', `For input string: "${s}"`);
  }
  const x = Number(s);
  const lim = bits === 32 ? 2147483648 : 9223372036854775808;
  if (x >= lim || x < -lim) {
    throw new ScriptRuntimeError('number_format_exception', `For input string: "${s}"`);
  }
  return x;
}

export const MATH: Record<string, StaticFn> = {
  abs: (a) => Math.abs(n(a)),
  max: (a, b) => Math.max(n(a), n(b)),
  min: (a, b) => Math.min(n(a), n(b)),
  pow: (a, b) => Math.pow(n(a), n(b)),
  sqrt: (a) => Math.sqrt(n(a)),
  cbrt: (a) => Math.cbrt(n(a)),
  exp: (a) => Math.exp(n(a)),
  expm1: (a) => Math.expm1(n(a)),
  log: (a) => Math.log(n(a)),
  log10: (a) => Math.log10(n(a)),
  log1p: (a) => Math.log1p(n(a)),
  floor: (a) => Math.floor(n(a)),
  ceil: (a) => Math.ceil(n(a)),
  rint: (a) => {
    const x = n(a);
    const r = Math.round(x);
    // round half to even
    return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
  },
  round: (a) => javaRound(n(a)),
  signum: (a) => Math.sign(n(a)),
  sin: (a) => Math.sin(n(a)),
  cos: (a) => Math.cos(n(a)),
  tan: (a) => Math.tan(n(a)),
  asin: (a) => Math.asin(n(a)),
  acos: (a) => Math.acos(n(a)),
  atan: (a) => Math.atan(n(a)),
  atan2: (a, b) => Math.atan2(n(a), n(b)),
  sinh: (a) => Math.sinh(n(a)),
  cosh: (a) => Math.cosh(n(a)),
  tanh: (a) => Math.tanh(n(a)),
  hypot: (a, b) => Math.hypot(n(a), n(b)),
  toRadians: (a) => (n(a) / 180) * Math.PI,
  toDegrees: (a) => (n(a) * 180) / Math.PI,
  random: () => Math.random(),
  floorDiv: (a, b) => Math.floor(n(a) / n(b)),
  floorMod: (a, b) => n(a) - Math.floor(n(a) / n(b)) * n(b),
};

/** Math functions whose result is integral when all arguments are (Java overloads). */
export const MATH_INT_PRESERVING = new Set(['abs', 'max', 'min', 'floorDiv', 'floorMod', 'round']);

export const MATH_FIELDS: Record<string, number> = { PI: Math.PI, E: Math.E };

export const STATIC_FIELDS: Record<string, Record<string, unknown>> = {
  Math: MATH_FIELDS,
  Integer: { MAX_VALUE: 2147483647, MIN_VALUE: -2147483648 },
  Long: { MAX_VALUE: 9223372036854775807, MIN_VALUE: -9223372036854775808 },
  Double: {
    MAX_VALUE: Number.MAX_VALUE,
    MIN_VALUE: Number.MIN_VALUE,
    NaN: NaN,
    POSITIVE_INFINITY: Infinity,
    NEGATIVE_INFINITY: -Infinity,
  },
  Float: { NaN: NaN, POSITIVE_INFINITY: Infinity, NEGATIVE_INFINITY: -Infinity },
};

export const STATIC_METHODS: Record<string, Record<string, StaticFn>> = {
  Math: MATH,
  Integer: {
    parseInt: (s) => parseJavaInt(s, 32),
    valueOf: (s: unknown) => (typeof s === 'number' ? s : parseJavaInt(s, 32)),
    toString: (v: unknown) => javaString(v),
  },
  Long: {
    parseLong: (s) => parseJavaInt(s, 64),
    valueOf: (s: unknown) => (typeof s === 'number' ? s : parseJavaInt(s, 64)),
    toString: (v: unknown) => javaString(v),
  },
  Double: {
    parseDouble: (s) => {
      const x = Number(String(s).trim());
      if (Number.isNaN(x) && String(s).trim() !== 'NaN') {
        throw new ScriptRuntimeError('number_format_exception', `For input string: "${String(s)}"`);
      }
      return x;
    },
    valueOf: (s: unknown) => Number(s),
    isNaN: (v) => Number.isNaN(n(v)),
    isInfinite: (v) => Math.abs(n(v)) === Infinity,
    compare: (a, b) => (n(a) < n(b) ? -1 : n(a) > n(b) ? 1 : 0),
    toString: (v: unknown) => javaString(n(v), true),
  },
  Boolean: {
    parseBoolean: (s) => String(s).toLowerCase() === 'true',
    valueOf: (s: unknown) => (typeof s === 'boolean' ? s : String(s).toLowerCase() === 'true'),
  },
  String: {
    valueOf: (v: unknown) => javaString(v),
    join: (sep, parts) => (parts as unknown[]).map((p) => javaString(p)).join(String(sep)),
  },
  Objects: {
    equals: (a, b) => a === b || (a !== null && a !== undefined && a === b),
    isNull: (a) => a === null || a === undefined,
    nonNull: (a) => a !== null && a !== undefined,
  },
  MovingFunctions: {
    max: (v) => movMax(nums(v)),
    min: (v) => movMin(nums(v)),
    sum: (v) => movSum(nums(v)),
    unweightedAvg: (v) => unweightedAvg(nums(v)),
    stdDev: (v, avg) => stdDev(nums(v), n(avg)),
    linearWeightedAvg: (v) => linearWeightedAvg(nums(v)),
    ewma: (v, alpha) => ewma(nums(v), n(alpha)),
    holt: (v, alpha, beta) => holt(nums(v), n(alpha), n(beta)),
    holtWinters: (v, a, b, g, p, m) => holtWinters(nums(v), n(a), n(b), n(g), n(p), Boolean(m)),
  },
};

function nums(v: unknown): number[] {
  if (Array.isArray(v)) return v.map((x) => (x === null ? NaN : n(x)));
  if (v instanceof Float64Array) return [...v];
  throw illegalArg('expected an array of doubles');
}

// ES MovingFunctions semantics: NaN values are skipped; empty windows give NaN (sum gives 0).
export function movMax(v: number[]): number {
  return v.length ? Math.max(...v) : NaN;
}
export function movMin(v: number[]): number {
  return v.length ? Math.min(...v) : NaN;
}
export function movSum(v: number[]): number {
  let s = 0;
  for (const x of v) if (!Number.isNaN(x)) s += x;
  return s;
}
export function unweightedAvg(v: number[]): number {
  let s = 0;
  let c = 0;
  for (const x of v) {
    if (Number.isNaN(x)) continue;
    s += x;
    c++;
  }
  return c === 0 ? NaN : s / c;
}
export function stdDev(v: number[], avg: number): number {
  if (Number.isNaN(avg)) return NaN;
  let sq = 0;
  let c = 0;
  for (const x of v) {
    if (Number.isNaN(x)) continue;
    sq += Math.pow(x - avg, 2);
    c++;
  }
  return Math.sqrt(sq / c);
}
export function linearWeightedAvg(v: number[]): number {
  let s = 0;
  let total = 1;
  let w = 1;
  for (const x of v) {
    if (Number.isNaN(x)) continue;
    s += x * w;
    total += w;
    w++;
  }
  return total === 1 ? NaN : s / total;
}
export function ewma(v: number[], alpha: number): number {
  let avg = NaN;
  let first = true;
  for (const x of v) {
    if (Number.isNaN(x)) continue;
    if (first) {
      avg = x;
      first = false;
    } else avg = x * alpha + avg * (1 - alpha);
  }
  return avg;
}
export function holtForecast(
  v: number[],
  alpha: number,
  beta: number,
  forecasts: number,
): number[] {
  let s = 0;
  let b = 0;
  let lastS = 0;
  let lastB = 0;
  let count = 0;
  for (const x of v) {
    if (Number.isNaN(x)) continue;
    if (count === 0) {
      s = x;
      b = 0;
    } else {
      s = alpha * x + (1 - alpha) * (lastS + lastB);
      b = beta * (s - lastS) + (1 - beta) * lastB;
    }
    count++;
    lastS = s;
    lastB = b;
  }
  const out: number[] = [];
  for (let i = 0; i < forecasts; i++) out.push(count === 0 ? NaN : s + i * b);
  return out;
}
export function holt(v: number[], alpha: number, beta: number): number {
  return v.length === 0 ? NaN : holtForecast(v, alpha, beta, 1)[0]!;
}
export function holtWintersForecast(
  values: number[],
  alpha: number,
  beta: number,
  gamma: number,
  period: number,
  padding: number,
  multiplicative: boolean,
  forecasts: number,
): number[] {
  if (values.length < period * 2) {
    throw illegalArg(
      `Holt-Winters aggregation requires at least (2 * period == 2 * ${period} == ${2 * period}) data-points to function.  Only [${values.length}] were provided.`,
    );
  }
  const vs = new Float64Array(values.length);
  let count = 0;
  for (const x of values) if (!Number.isNaN(x)) vs[count++] = x + padding;
  if (count === 0) return new Array<number>(forecasts).fill(NaN);
  let s = 0;
  let b = 0;
  for (let i = 0; i < period; i++) {
    s += vs[i]!;
    b += (vs[i + period]! - vs[i]!) / period;
  }
  s /= period;
  b /= period;
  let lastS = s;
  let lastB = 0;
  const seasonal = new Float64Array(values.length);
  if (s !== 0) for (let i = 0; i < period; i++) seasonal[i] = vs[i]! / s;
  for (let i = period; i < vs.length; i++) {
    s = multiplicative
      ? alpha * (vs[i]! / seasonal[i - period]!) + (1 - alpha) * (lastS + lastB)
      : alpha * (vs[i]! - seasonal[i - period]!) + (1 - alpha) * (lastS + lastB);
    b = beta * (s - lastS) + (1 - beta) * lastB;
    seasonal[i] = multiplicative
      ? gamma * (vs[i]! / (lastS + lastB)) + (1 - gamma) * seasonal[i - period]!
      : gamma * (vs[i]! - (lastS - lastB)) + (1 - gamma) * seasonal[i - period]!;
    lastS = s;
    lastB = b;
  }
  const out: number[] = [];
  for (let i = 1; i <= forecasts; i++) {
    const idx = values.length - period + ((i - 1) % period);
    out.push(multiplicative ? (s + i * b) * seasonal[idx]! : s + i * b + seasonal[idx]!);
  }
  return out;
}
export function holtWinters(
  v: number[],
  alpha: number,
  beta: number,
  gamma: number,
  period: number,
  multiplicative: boolean,
): number {
  if (v.length === 0) return NaN;
  const padding = multiplicative ? 0.0000000001 : 0;
  return holtWintersForecast(v, alpha, beta, gamma, period, padding, multiplicative, 1)[0]!;
}
