/**
 * 64-bit hashing in 32-bit halves, matching the Java longs ES hashes with: HPPC BitMixer.mix64
 * (cardinality of numbers, terms partitions), MurmurHash3's fmix64, the h1 half
 * of MurmurHash3 x64 128 (cardinality of strings and IPs), Double.doubleToLongBits and
 * NumericUtils.doubleToSortableLong. Results are {hi, lo} pairs of unsigned 32-bit words.
 */

export interface U64 {
  hi: number;
  lo: number;
}

/** Scratch results of mul64/add64/rotl64/getLong (a typed array: unboxed, no allocation). */
const R = new Uint32Array(2);

/** (ah:al) * (bh:bl) mod 2^64 into R (hi, lo). */
function mul64(ah: number, al: number, bh: number, bl: number): void {
  // low word: al*bl mod 2^32; high word: the carry of al*bl (16-bit halves, no division or
  // modulo: those go through slow floating-point paths) plus the cross products mod 2^32
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = ((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  R[1] = Math.imul(al, bl);
  R[0] = carry + Math.imul(ah, bl) + Math.imul(al, bh);
}

function add64(ah: number, al: number, bh: number, bl: number): void {
  const lo = al + bl;
  R[1] = lo >>> 0;
  R[0] = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

function rotl64(h: number, l: number, r: number): void {
  if (r === 32) {
    R[0] = l;
    R[1] = h;
    return;
  }
  if (r > 32) {
    const t = h;
    h = l;
    l = t;
    r -= 32;
  }
  R[0] = ((h << r) | (l >>> (32 - r))) >>> 0;
  R[1] = ((l << r) | (h >>> (32 - r))) >>> 0;
}

/** fmix64 (BitMixer.mix64) into R (hi, lo). */
function fmix(h: number, l: number): void {
  // z ^= z >>> 33
  l = (l ^ (h >>> 1)) >>> 0;
  mul64(h, l, 0xff51afd7, 0xed558ccd);
  h = R[0]!;
  l = R[1]!;
  l = (l ^ (h >>> 1)) >>> 0;
  mul64(h, l, 0xc4ceb9fe, 0x1a85ec53);
  h = R[0]!;
  l = R[1]!;
  l = (l ^ (h >>> 1)) >>> 0;
  R[0] = h;
  R[1] = l;
}

/**
 * HPPC BitMixer.mix64 (David Stafford's variant 9 of the MurmurHash3 finaliser), which ES uses
 * for cardinality of numbers and for terms partitions of numeric fields.
 */
export function mix64(v: U64): U64 {
  mix64Into(v.hi, v.lo);
  return { hi: MIX[0]!, lo: MIX[1]! };
}

/** Result of mix64Into as [hi, lo] (no allocation on hot paths). */
export const MIX = new Uint32Array(2);

export function mix64Into(hi: number, lo: number): void {
  let h = hi >>> 0;
  let l = lo >>> 0;
  // z = (z ^ (z >>> 32)) * 0x4cd6944c5cc20b6d
  l = (l ^ h) >>> 0;
  mul64(h, l, 0x4cd6944c, 0x5cc20b6d);
  h = R[0]!;
  l = R[1]!;
  // z = (z ^ (z >>> 29)) * 0xfc12c5b19d3259e9
  l = (l ^ ((h << 3) | (l >>> 29))) >>> 0;
  h = (h ^ (h >>> 29)) >>> 0;
  mul64(h, l, 0xfc12c5b1, 0x9d3259e9);
  h = R[0]!;
  l = R[1]!;
  // z ^ (z >>> 32)
  MIX[0] = h;
  MIX[1] = (l ^ h) >>> 0;
}

/** mix64 of a Java long given as a number (exact within ±2^53), into MH:ML. */
export function mixLong(v: number): void {
  const hi = Math.floor(v / 4294967296);
  mix64Into(hi >>> 0, (v - hi * 4294967296) >>> 0);
}

/** mix64 of Double.doubleToLongBits(v), into MH:ML. */
export function mixDouble(v: number): void {
  if (Number.isNaN(v)) {
    mix64Into(0x7ff80000, 0);
    return;
  }
  f64[0] = v;
  mix64Into(u32[1]!, u32[0]!);
}

/** A Java long (exact within ±2^53) as two words. */
export function longBits(v: number): U64 {
  const hi = Math.floor(v / 4294967296);
  const lo = v - hi * 4294967296;
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Double.doubleToLongBits (NaN canonicalised). */
export function doubleBits(d: number): U64 {
  if (Number.isNaN(d)) return { hi: 0x7ff80000, lo: 0 };
  f64[0] = d;
  return { hi: u32[1]!, lo: u32[0]! };
}

/** NumericUtils.doubleToSortableLong. */
export function doubleToSortableLong(d: number): U64 {
  const b = doubleBits(d);
  if (b.hi & 0x80000000) return { hi: (b.hi ^ 0x7fffffff) >>> 0, lo: (b.lo ^ 0xffffffff) >>> 0 };
  return b;
}

/** Math.floorMod(long, int) for a positive modulus. */
export function floorMod64(v: U64, n: number): number {
  const x = BigInt.asIntN(64, (BigInt(v.hi) << 32n) | BigInt(v.lo));
  const m = BigInt(n);
  return Number(((x % m) + m) % m);
}

const C1H = 0x87c37b91;
const C1L = 0x114253d5;
const C2H = 0x4cf5ad43;
const C2L = 0x2745937f;

function getLong(b: Uint8Array, i: number): void {
  R[1] = (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
  R[0] = (b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24)) >>> 0;
}

/** h1 of MurmurHash3 x64 128 (seed 0 in ES's cardinality). */
export function murmur3x64h1(bytes: Uint8Array, offset: number, len: number, seed = 0): U64 {
  let h1h = 0;
  let h1l = seed >>> 0;
  let h2h = 0;
  let h2l = seed >>> 0;
  const nblocks = len >>> 4;
  for (let i = 0; i < nblocks; i++) {
    const p = offset + i * 16;
    getLong(bytes, p);
    let k1h = R[0]!;
    let k1l = R[1]!;
    getLong(bytes, p + 8);
    let k2h = R[0]!;
    let k2l = R[1]!;
    mul64(k1h, k1l, C1H, C1L);
    rotl64(R[0]!, R[1]!, 31);
    mul64(R[0]!, R[1]!, C2H, C2L);
    k1h = R[0]!;
    k1l = R[1]!;
    h1h = (h1h ^ k1h) >>> 0;
    h1l = (h1l ^ k1l) >>> 0;
    rotl64(h1h, h1l, 27);
    add64(R[0]!, R[1]!, h2h, h2l);
    mul64(R[0]!, R[1]!, 0, 5);
    add64(R[0]!, R[1]!, 0, 0x52dce729);
    h1h = R[0]!;
    h1l = R[1]!;
    mul64(k2h, k2l, C2H, C2L);
    rotl64(R[0]!, R[1]!, 33);
    mul64(R[0]!, R[1]!, C1H, C1L);
    k2h = R[0]!;
    k2l = R[1]!;
    h2h = (h2h ^ k2h) >>> 0;
    h2l = (h2l ^ k2l) >>> 0;
    rotl64(h2h, h2l, 31);
    add64(R[0]!, R[1]!, h1h, h1l);
    mul64(R[0]!, R[1]!, 0, 5);
    add64(R[0]!, R[1]!, 0, 0x38495ab5);
    h2h = R[0]!;
    h2l = R[1]!;
  }
  const tail = offset + nblocks * 16;
  const rem = len & 15;
  let k1h = 0;
  let k1l = 0;
  let k2h = 0;
  let k2l = 0;
  for (let i = rem - 1; i >= 8; i--) {
    const byte = bytes[tail + i]!;
    const shift = (i - 8) * 8;
    if (shift >= 32) k2h = (k2h ^ (byte << (shift - 32))) >>> 0;
    else k2l = (k2l ^ (byte << shift)) >>> 0;
  }
  if (rem > 8) {
    mul64(k2h, k2l, C2H, C2L);
    rotl64(R[0]!, R[1]!, 33);
    mul64(R[0]!, R[1]!, C1H, C1L);
    h2h = (h2h ^ R[0]!) >>> 0;
    h2l = (h2l ^ R[1]!) >>> 0;
  }
  for (let i = Math.min(rem, 8) - 1; i >= 0; i--) {
    const byte = bytes[tail + i]!;
    const shift = i * 8;
    if (shift >= 32) k1h = (k1h ^ (byte << (shift - 32))) >>> 0;
    else k1l = (k1l ^ (byte << shift)) >>> 0;
  }
  if (rem > 0) {
    mul64(k1h, k1l, C1H, C1L);
    rotl64(R[0]!, R[1]!, 31);
    mul64(R[0]!, R[1]!, C2H, C2L);
    h1h = (h1h ^ R[0]!) >>> 0;
    h1l = (h1l ^ R[1]!) >>> 0;
  }
  h1l = (h1l ^ len) >>> 0;
  h2l = (h2l ^ len) >>> 0;
  add64(h1h, h1l, h2h, h2l);
  h1h = R[0]!;
  h1l = R[1]!;
  add64(h2h, h2l, h1h, h1l);
  h2h = R[0]!;
  h2l = R[1]!;
  fmix(h1h, h1l);
  h1h = R[0]!;
  h1l = R[1]!;
  fmix(h2h, h2l);
  h2h = R[0]!;
  h2l = R[1]!;
  add64(h1h, h1l, h2h, h2l);
  return { hi: R[0]!, lo: R[1]! };
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a term (BytesRef of a keyword). */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Bytes of an IP's 16-byte sortable form (the 32 hex chars our ip terms are). */
export function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >>> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
