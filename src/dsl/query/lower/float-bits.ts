/**
 * IEEE bit-level helpers for numeric range bounds: Java Math.nextUp/nextDown for doubles and
 * floats, and Lucene HalfFloatPoint's half-precision rounding (to nearest, ties to even) with its
 * nextUp/nextDown over representable half floats.
 */

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

export function nextUpDouble(d: number): number {
  if (Number.isNaN(d) || d === Infinity) return d;
  if (d === 0) return Number.MIN_VALUE;
  f64[0] = d;
  i64[0]! += d > 0 ? 1n : -1n;
  return f64[0]!;
}

export function nextDownDouble(d: number): number {
  if (Number.isNaN(d) || d === -Infinity) return d;
  if (d === 0) return -Number.MIN_VALUE;
  f64[0] = d;
  i64[0]! += d > 0 ? -1n : 1n;
  return f64[0]!;
}

const FLOAT_MIN = 1.401298464324817e-45;

export function nextUpFloat(v: number): number {
  const x = Math.fround(v);
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return FLOAT_MIN;
  f32[0] = x;
  i32[0]! += x > 0 ? 1 : -1;
  return f32[0]!;
}

export function nextDownFloat(v: number): number {
  const x = Math.fround(v);
  if (Number.isNaN(x) || x === -Infinity) return x;
  if (x === 0) return -FLOAT_MIN;
  f32[0] = x;
  i32[0]! += x > 0 ? -1 : 1;
  return f32[0]!;
}

// ---- half floats (Lucene HalfFloatPoint) ------------------------------------------------------

function roundShift(i: number, shift: number): number {
  i += 1 << (shift - 1);
  i -= (i >>> shift) & 1;
  return i >>> shift;
}

function halfFloatToShortBits(v: number): number {
  f32[0] = v;
  const floatBits = i32[0]!;
  const sign = floatBits >>> 31;
  let exp = (floatBits >>> 23) & 0xff;
  let mantissa = floatBits & 0x7fffff;
  if (exp === 0xff) {
    exp = 0x1f;
    mantissa >>>= 13;
  } else if (exp === 0) {
    mantissa = 0;
  } else {
    exp = exp - 127 + 15;
    if (exp >= 0x1f) {
      exp = 0x1f;
      mantissa = 0;
    } else if (exp <= 0) {
      const shift = 23 - 10 - exp + 1;
      if (shift >= 32) {
        exp = 0;
        mantissa = 0;
      } else {
        mantissa |= 0x800000;
        mantissa = roundShift(mantissa, shift);
        exp = mantissa >>> 10;
        mantissa &= 0x3ff;
      }
    } else {
      mantissa = roundShift((exp << 23) | mantissa, 13);
      exp = mantissa >>> 10;
      mantissa &= 0x3ff;
    }
  }
  return toShort((sign << 15) | (exp << 10) | mantissa);
}

const toShort = (x: number): number => (x << 16) >> 16;

function shortBitsToHalfFloat(s: number): number {
  const u = s & 0xffff;
  const sign = u >>> 15;
  let exp = (u >>> 10) & 0x1f;
  let mantissa = u & 0x3ff;
  if (exp === 0x1f) {
    exp = 0xff;
    mantissa <<= 13;
  } else if (mantissa === 0 && exp === 0) {
    // zero
  } else {
    if (exp === 0) {
      const shift = Math.clz32(mantissa) - (32 - 11);
      mantissa = (mantissa << shift) & 0x3ff;
      exp = exp - shift + 1;
    }
    exp = exp + 127 - 15;
    mantissa <<= 13;
  }
  i32[0] = (sign << 31) | (exp << 23) | mantissa;
  return f32[0]!;
}

const sortableShortBits = (s: number): number => toShort(s ^ ((s >> 15) & 0x7fff));

const halfToSortable = (v: number): number => sortableShortBits(halfFloatToShortBits(v));
const sortableToHalf = (s: number): number => shortBitsToHalfFloat(sortableShortBits(toShort(s)));

/** The value a half_float field stores for `v`. */
export const toHalfFloat = (v: number): number => sortableToHalf(halfToSortable(v));

export function halfNextUp(v: number): number {
  if (Number.isNaN(v) || v === Infinity) return v;
  const s = halfToSortable(v);
  let r = sortableToHalf(s);
  if (r <= v) r = sortableToHalf(s + 1);
  return r;
}

export function halfNextDown(v: number): number {
  if (Number.isNaN(v) || v === -Infinity) return v;
  const s = halfToSortable(v);
  let r = sortableToHalf(s);
  if (r >= v) r = sortableToHalf(s - 1);
  return r;
}
