/**
 * HyperLogLog++ as ES 6.8's HyperLogLogPlusPlus computes it, so counts agree: linear counting on
 * 25-bit encoded hashes (set capacity m/4, upgraded past 75% load) then 2^p one-byte registers,
 * bias correction from the HLL++ tables for raw estimates up to 5m, linear counting while
 * registers are zero, and ES's per-precision thresholds.
 */
import { BIAS_DATA, RAW_ESTIMATE_DATA } from './hll-bias-data.js';

export const DEFAULT_PRECISION = 14;
const P2 = 25;
const BIAS_K = 6;
const THRESHOLDS = [
  10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 11500, 20000, 50000, 120000, 350000,
];

/** HyperLogLogPlusPlus.precisionFromThreshold. */
export function precisionFromThreshold(count: number): number {
  // a huge or non-finite threshold (1e308) would never end the loop below; ES caps at 18
  if (!(count < 2 ** 40)) return 18;
  const entries = Math.ceil(count / 0.75);
  const v = entries * 4;
  // PackedInts.bitsRequired: 64 - numberOfLeadingZeros (min 1)
  let bits = v <= 0 ? 1 : Math.floor(Math.log2(v)) + 1;
  while (bits > 1 && 2 ** (bits - 1) > v) bits--;
  while (2 ** bits <= v) bits++;
  return Math.min(18, Math.max(4, bits));
}

function linearCounting(m: number, v: number): number {
  return Math.floor(m * Math.log(m / v) + 0.5);
}

/** numberOfLeadingZeros of the 64-bit value hi:lo. */
function nlz64(hi: number, lo: number): number {
  if (hi !== 0) return Math.clz32(hi);
  return 32 + Math.clz32(lo);
}

/** One HLL++ sketch (one bucket). */
export class HllSketch {
  readonly m: number;
  private set: Set<number> | null = new Set();
  private registers: Uint8Array | null = null;
  private readonly threshold: number;
  private readonly alphaMM: number;

  constructor(readonly p: number) {
    this.m = 1 << p;
    this.threshold = Math.floor((this.m / 4) * 0.75);
    const alpha = p === 4 ? 0.673 : p === 5 ? 0.697 : 0.7213 / (1 + 1.079 / this.m);
    this.alphaMM = alpha * this.m * this.m;
  }

  /** Adds a 64-bit hash given as unsigned 32-bit halves. */
  collect(hi: number, lo: number): void {
    if (this.set) this.collectLcEncoded(this.encode(hi, lo));
    else {
      const p = this.p;
      const index = hi >>> (32 - p);
      // hash << p, then leading zeros, capped at 64 - p
      const sh = ((hi << p) | (lo >>> (32 - p))) >>> 0;
      const sl = (lo << p) >>> 0;
      const runLen = 1 + Math.min(nlz64(sh, sl), 64 - p);
      this.collectHll(index, runLen);
    }
  }

  /** HyperLogLogPlusPlus.encodeHash. */
  private encode(hi: number, lo: number): number {
    const e = hi >>> (32 - P2);
    const maskBits = P2 - this.p;
    if ((e & ((1 << maskBits) - 1)) === 0) {
      // hash << P2: the low 39 bits moved to the top
      const sh = ((hi << P2) | (lo >>> (32 - P2))) >>> 0;
      const sl = (lo << P2) >>> 0;
      const runLen = 1 + Math.min(nlz64(sh, sl), 64 - P2);
      return ((e << 7) | (runLen << 1) | 1) >>> 0;
    }
    return (e << 1) >>> 0;
  }

  private decodeRunLen(encoded: number): number {
    if (encoded & 1) return ((encoded >>> 1) & 0x3f) + (P2 - this.p);
    const bits = (encoded << (31 + this.p - P2)) >>> 0;
    return 1 + Math.clz32(bits);
  }

  private decodeIndex(encoded: number): number {
    const index = encoded & 1 ? encoded >>> 7 : encoded >>> 1;
    return index >>> (P2 - this.p);
  }

  private collectLcEncoded(k: number): void {
    const set = this.set!;
    set.add(k);
    if (set.size > this.threshold) this.upgrade();
  }

  private collectHll(index: number, runLen: number): void {
    const r = this.registers!;
    if (runLen > r[index]!) r[index] = runLen;
  }

  private upgrade(): void {
    const set = this.set!;
    this.set = null;
    this.registers = new Uint8Array(this.m);
    for (const k of set) this.collectHll(this.decodeIndex(k), this.decodeRunLen(k));
  }

  /** HyperLogLogPlusPlus.merge. */
  merge(other: HllSketch): void {
    if (other.set) {
      for (const k of other.set) {
        if (this.set) this.collectLcEncoded(k);
        else this.collectHll(this.decodeIndex(k), this.decodeRunLen(k));
      }
      return;
    }
    if (this.set) this.upgrade();
    const r = this.registers!;
    const o = other.registers!;
    for (let i = 0; i < this.m; i++) if (o[i]! > r[i]!) r[i] = o[i]!;
  }

  cardinality(): number {
    if (this.set) {
      const m = 2 ** P2;
      return linearCounting(m, m - this.set.size);
    }
    const r = this.registers!;
    let inverseSum = 0;
    let zeros = 0;
    for (let i = 0; i < this.m; i++) {
      const runLen = r[i]!;
      inverseSum += 1 / 2 ** runLen;
      if (runLen === 0) zeros++;
    }
    const e1 = this.alphaMM / inverseSum;
    const e2 = e1 <= 5 * this.m ? e1 - this.estimateBias(e1) : e1;
    const h = zeros !== 0 ? linearCounting(this.m, zeros) : Math.floor(e2 + 0.5);
    return h <= THRESHOLDS[this.p - 4]! ? h : Math.floor(e2 + 0.5);
  }

  private estimateBias(e: number): number {
    const raw = RAW_ESTIMATE_DATA[this.p - 4]!;
    const bias = BIAS_DATA[this.p - 4]!;
    const weights = new Float64Array(BIAS_K);
    let index = bias.length - BIAS_K;
    for (let i = 0; i < raw.length; i++) {
      const w = 1 / Math.abs(raw[i]! - e);
      const j = i % BIAS_K;
      if (!Number.isFinite(w)) return bias[i]!;
      if (weights[j]! >= w) {
        index = i - BIAS_K;
        break;
      }
      weights[j] = w;
    }
    let weightSum = 0;
    let biasSum = 0;
    for (let i = 0, j = index; i < BIAS_K; i++, j++) {
      const w = weights[i]!;
      biasSum += w * bias[j]!;
      weightSum += w;
    }
    return biasSum / weightSum;
  }

  clone(): HllSketch {
    const c = new HllSketch(this.p);
    c.set = this.set ? new Set(this.set) : null;
    c.registers = this.registers ? this.registers.slice() : null;
    return c;
  }
}
