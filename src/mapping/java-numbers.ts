/**
 * Java number semantics that leak into Elasticsearch's behaviour and messages: Double.parseDouble
 * (what it accepts, its NumberFormatException wording), Long.parseLong, BigDecimal-based long
 * coercion (ES AbstractXContentParser.toLong), Double/Float.toString, and half-float rounding
 * (Lucene HalfFloatPoint).
 */
import type { EsError } from '../common/errors.js';
import { illegalArgument, numberFormat } from './errors.js';

// Java FloatingDecimal grammar: sign, NaN/Infinity, decimal with optional exponent, optional
// f/F/d/D suffix; or a hexadecimal floating literal. Leading/trailing chars <= ' ' are trimmed.
const DECIMAL_RE = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/;
const HEX_RE = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)[fFdD]?$/;

function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Java Double.parseDouble; returns undefined instead of throwing. */
export function tryParseJavaDouble(text: string): number | undefined {
  const s = javaTrim(text);
  if (s.length === 0) return undefined;
  if (DECIMAL_RE.test(s)) {
    const last = s.charCodeAt(s.length - 1);
    // strip a trailing type suffix (f, F, d, D)
    const body = last === 102 || last === 70 || last === 100 || last === 68 ? s.slice(0, -1) : s;
    if (body.endsWith('NaN')) return NaN;
    if (body.endsWith('Infinity')) return body.charCodeAt(0) === 45 ? -Infinity : Infinity;
    return Number(body);
  }
  const m = HEX_RE.exec(s);
  if (m && ((m[2] ?? '').length > 0 || (m[3] ?? '').length > 0)) {
    const intPart = m[2] ?? '';
    const frac = m[3] ?? '';
    let mant = 0;
    for (const c of intPart + frac) mant = mant * 16 + parseInt(c, 16);
    const v = mant * Math.pow(2, Number(m[4]) - 4 * frac.length);
    return m[1] === '-' ? -v : v;
  }
  return undefined;
}

/** Java Double.parseDouble; throws number_format_exception with Java's message. */
export function parseJavaDouble(text: string): number {
  const v = tryParseJavaDouble(text);
  if (v === undefined) throw javaDoubleError(text);
  return v;
}

export function javaDoubleError(text: string): EsError {
  const s = javaTrim(text);
  return numberFormat(s.length === 0 ? 'empty String' : `For input string: "${s}"`);
}

const LONG_RE = /^[+-]?\d+$/;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Java Long.parseLong: undefined when it would throw. */
export function tryParseJavaLong(s: string): bigint | undefined {
  if (!LONG_RE.test(s)) return undefined;
  const v = BigInt(s);
  return v < LONG_MIN || v > LONG_MAX ? undefined : v;
}

// Java BigDecimal(String) grammar.
const BIG_DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * ES AbstractXContentParser.toLong: a string to a long, via BigDecimal when Long.parseLong fails;
 * truncates fractions when `coerce`, else "has a decimal part". Returns a JS number (longs beyond
 * 2^53 lose precision).
 */
export function stringToLong(s: string, coerce: boolean): number {
  const direct = tryParseJavaLong(s);
  if (direct !== undefined) return Number(direct);
  const m = BIG_DECIMAL_RE.exec(s);
  const intDigits = m?.[2] ?? '';
  const fracDigits = m?.[3] ?? '';
  if (!m || (intDigits.length === 0 && fracDigits.length === 0)) {
    throw illegalArgument(`For input string: "${s}"`);
  }
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  // value = digits × 10^(exp - fracDigits.length)
  const digits = (intDigits + fracDigits).replace(/^0+/, '');
  const scaleExp = exp - fracDigits.length;
  const negative = m[1] === '-';
  if (digits.length === 0) return 0;
  const integerDigitCount = digits.length + scaleExp;
  // out of range when |value| >= 2^63 + 1 (weak bounds as in ES); 20+ integer digits always are
  if (integerDigitCount > 19) throw illegalArgument(`Value [${s}] is out of range for a long`);
  let intPart: bigint;
  let hasFraction: boolean;
  if (scaleExp >= 0) {
    intPart = BigInt(digits) * 10n ** BigInt(scaleExp);
    hasFraction = false;
  } else if (integerDigitCount <= 0) {
    intPart = 0n;
    hasFraction = true;
  } else {
    intPart = BigInt(digits.slice(0, integerDigitCount));
    hasFraction = /[1-9]/.test(digits.slice(integerDigitCount));
  }
  if (negative) intPart = -intPart;
  // BigDecimal range check happens before truncation: value >= MAX+1 or <= MIN-1
  if (intPart > LONG_MAX || intPart < LONG_MIN) {
    throw illegalArgument(`Value [${s}] is out of range for a long`);
  }
  if (hasFraction && !coerce) throw illegalArgument(`Value [${s}] has a decimal part`);
  return Number(intPart);
}

/** Java Double.toString. */
export function javaDoubleToString(d: number): string {
  return formatJava(d, String(Math.abs(d)));
}

/** Java Float.toString for a value already rounded to float precision. */
export function javaFloatToString(f: number): string {
  if (!Number.isFinite(f) || f === 0) return formatJava(f, '0');
  const a = Math.abs(f);
  let digits = String(a);
  for (let p = 1; p <= 9; p++) {
    const s = a.toPrecision(p);
    if (Math.fround(Number(s)) === a) {
      digits = String(Number(s));
      break;
    }
  }
  return formatJava(f, digits);
}

function formatJava(d: number, absRepr: string): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const sign = d < 0 ? '-' : '';
  const a = Math.abs(d);
  // decompose the shortest repr into digits and a decimal exponent
  let mant: string;
  let exp: number;
  const e = absRepr.indexOf('e');
  if (e >= 0) {
    mant = absRepr.slice(0, e);
    exp = Number(absRepr.slice(e + 1));
  } else {
    mant = absRepr;
    exp = 0;
  }
  const dot = mant.indexOf('.');
  let digits = dot >= 0 ? mant.slice(0, dot) + mant.slice(dot + 1) : mant;
  let pointPos = (dot >= 0 ? dot : mant.length) + exp; // position of the decimal point in digits
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  pointPos -= lead;
  digits = digits.replace(/0+$/, '') || '0';
  if (a >= 1e-3 && a < 1e7) {
    let out: string;
    if (pointPos <= 0) out = '0.' + '0'.repeat(-pointPos) + digits;
    else if (pointPos >= digits.length) out = digits + '0'.repeat(pointPos - digits.length) + '.0';
    else out = digits.slice(0, pointPos) + '.' + digits.slice(pointPos);
    return sign + out;
  }
  const frac = digits.length > 1 ? digits.slice(1) : '0';
  return `${sign}${digits[0]}.${frac}E${pointPos - 1}`;
}

/**
 * Java's rendering of a JSON-ish value inside messages (Map.toString, List.toString …). Written
 * iteratively: request values can be nested thousands of levels deep.
 */
export function javaToString(v: unknown): string {
  const out: string[] = [];
  const todo: ({ text: string } | { value: unknown })[] = [{ value: v }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const x = item.value;
    if (x === null || x === undefined) out.push('null');
    else if (typeof x === 'string') out.push(x);
    else if (typeof x === 'number')
      out.push(Number.isInteger(x) ? String(x) : javaDoubleToString(x));
    else if (typeof x === 'boolean') out.push(String(x));
    else if (Array.isArray(x)) {
      todo.push({ text: ']' });
      for (let i = x.length - 1; i >= 0; i--) {
        todo.push({ value: x[i] });
        if (i > 0) todo.push({ text: ', ' });
      }
      todo.push({ text: '[' });
    } else if (typeof x === 'object') {
      const entries = Object.entries(x as Record<string, unknown>);
      todo.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        todo.push({ value: entries[i]![1] }, { text: `${entries[i]![0]}=` });
        if (i > 0) todo.push({ text: ', ' });
      }
      todo.push({ text: '{' });
    } else out.push(String(x));
  }
  return out.join('');
}

// ---- half floats (IEEE 754 binary16), Lucene HalfFloatPoint ----

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Rounds a float to the nearest half-float (round half to even) and back. */
export function roundToHalfFloat(v: number): number {
  return halfToFloat(floatToHalf(v));
}

function floatToHalf(v: number): number {
  f32[0] = v;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    const rounded = rem > mid || (rem === mid && (half & 1) === 1) ? half + 1 : half;
    return sign | rounded;
  }
  const half = mant >>> 13;
  const rem = mant & 0x1fff;
  let out = (e << 10) | half;
  if (rem > 0x1000 || (rem === 0x1000 && (half & 1) === 1)) out += 1; // may carry into exponent
  e = out >>> 10;
  if (e >= 0x1f) return sign | 0x7c00;
  return sign | out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * Math.pow(2, -24);
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * Math.pow(2, exp - 15);
}
