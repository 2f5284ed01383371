/**
 * MurmurHash3 x64 128-bit (Austin Appleby's published algorithm, public domain), over bytes, as
 * two unsigned 64-bit halves. BigInt keeps the 64-bit wrap-around exact; callers hash short terms.
 */

const MASK = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & MASK;
const mul = (a: bigint, b: bigint) => (a * b) & MASK;

function fmix(k: bigint): bigint {
  k ^= k >> 33n;
  k = mul(k, 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = mul(k, 0xc4ceb9fe1a85ec53n);
  return k ^ (k >> 33n);
}

/** Little-endian 64-bit word of `bytes` from `at`, `n` bytes (1..8). */
function word(bytes: Uint8Array, at: number, n: number): bigint {
  let k = 0n;
  for (let i = n - 1; i >= 0; i--) k = (k << 8n) | BigInt(bytes[at + i]!);
  return k;
}

export interface Hash128 {
  /** The first half (h1). */
  readonly low: bigint;
  /** The second half (h2). */
  readonly high: bigint;
}

export function murmur3x64_128(bytes: Uint8Array, seed = 0): Hash128 {
  let h1 = BigInt(seed >>> 0);
  let h2 = h1;
  const len = bytes.length;
  const blocks = len - (len % 16);
  for (let i = 0; i < blocks; i += 16) {
    let k1 = word(bytes, i, 8);
    let k2 = word(bytes, i + 8, 8);
    k1 = mul(rotl(mul(k1, C1), 31n), C2);
    h1 ^= k1;
    h1 = (mul(rotl(h1, 27n) + h2, 5n) + 0x52dce729n) & MASK;
    k2 = mul(rotl(mul(k2, C2), 33n), C1);
    h2 ^= k2;
    h2 = (mul(rotl(h2, 31n) + h1, 5n) + 0x38495ab5n) & MASK;
  }
  const tail = len - blocks;
  if (tail > 8) {
    const k2 = mul(rotl(mul(word(bytes, blocks + 8, tail - 8), C2), 33n), C1);
    h2 ^= k2;
  }
  if (tail > 0) {
    const k1 = mul(rotl(mul(word(bytes, blocks, Math.min(tail, 8)), C1), 31n), C2);
    h1 ^= k1;
  }
  h1 ^= BigInt(len);
  h2 ^= BigInt(len);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  return { low: h1, high: h2 };
}
