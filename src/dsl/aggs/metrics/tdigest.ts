/**
 * t-digest as ES 6.8's TDigestState (t-digest 3.2 AVLTreeDigest): centroids kept sorted by mean
 * (equal means after existing ones), each value merged into the nearest centroid with room under
 * the size bound 4·n·q·(1-q)/compression or added as a new centroid, compression when the summary
 * grows past 20·compression, and AVLTreeDigest's quantile/cdf interpolation (including its
 * min/max end interpolation). The library breaks ties and shuffles with java.util.Random; here a
 * seeded generator keeps results reproducible (small inputs never reach those paths).
 */
import { illegalArgument } from '../../../common/errors.js';

export class TDigest {
  private means = new Float64Array(16);
  private counts = new Float64Array(16);
  private n = 0;
  count = 0;
  min = Infinity;
  max = -Infinity;
  private seed = 0x2545f491;

  constructor(readonly compression: number) {}

  get centroidCount(): number {
    return this.n;
  }

  /** Deterministic stand-in for java.util.Random.nextDouble(). */
  private random(): number {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    return (x >>> 0) / 4294967296;
  }

  /** First index whose mean is > x (insertion point after equal means). */
  private upper(x: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.means[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(i: number, mean: number, count: number): void {
    if (this.n === this.means.length) {
      const m = new Float64Array(this.n * 2);
      m.set(this.means);
      this.means = m;
      const c = new Float64Array(this.n * 2);
      c.set(this.counts);
      this.counts = c;
    }
    this.means.copyWithin(i + 1, i, this.n);
    this.counts.copyWithin(i + 1, i, this.n);
    this.means[i] = mean;
    this.counts[i] = count;
    this.n++;
  }

  private remove(i: number): void {
    this.means.copyWithin(i, i + 1, this.n);
    this.counts.copyWithin(i, i + 1, this.n);
    this.n--;
  }

  add(x: number, w = 1): void {
    if (Number.isNaN(x)) throw new Error('Cannot add NaN');
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    if (this.n === 0) {
      this.insert(0, x, w);
      this.count = w;
      return;
    }
    // floor(x): last centroid with mean <= x, else the first
    let start = this.upper(x) - 1;
    if (start < 0) start = 0;
    let minDistance = Number.MAX_VALUE;
    let lastNeighbor = this.n;
    for (let i = start; i < this.n; i++) {
      const z = Math.abs(this.means[i]! - x);
      if (z < minDistance) {
        start = i;
        minDistance = z;
      } else if (z > minDistance) {
        lastNeighbor = i;
        break;
      }
    }
    let closest = -1;
    let sum = 0;
    for (let i = 0; i < start; i++) sum += this.counts[i]!;
    let candidates = 0;
    const count = this.count;
    for (let i = start; i < lastNeighbor; i++) {
      const c = this.counts[i]!;
      const q = count === 1 ? 0.5 : (sum + (c - 1) / 2) / (count - 1);
      const k = (4 * count * q * (1 - q)) / this.compression;
      if (c + w <= k) {
        candidates++;
        if (this.random() < 1 / candidates) closest = i;
      }
      sum += c;
    }
    if (closest < 0) this.insert(this.upper(x), x, w);
    else {
      const mean = weightedAverage(this.means[closest]!, this.counts[closest]!, x, w);
      const c = this.counts[closest]! + w;
      const left = closest > 0 ? this.means[closest - 1]! : -Infinity;
      const right = closest < this.n - 1 ? this.means[closest + 1]! : Infinity;
      if (mean >= left && mean <= right) {
        this.means[closest] = mean;
        this.counts[closest] = c;
      } else {
        this.remove(closest);
        this.insert(this.upper(mean), mean, c);
      }
    }
    this.count += w;
    if (this.n > 20 * this.compression) this.compress();
  }

  /** AVLTreeDigest.compress: re-adds the centroids in shuffled order. */
  compress(): void {
    if (this.n <= 1) return;
    const means = Array.from(this.means.subarray(0, this.n));
    const counts = Array.from(this.counts.subarray(0, this.n));
    const order = means.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    this.n = 0;
    this.count = 0;
    for (const i of order) this.add(means[i]!, counts[i]!);
  }

  /** TDigest.add(TDigest): the other digest's centroids, min and max. */
  merge(other: TDigest): void {
    for (let i = 0; i < other.n; i++) this.add(other.means[i]!, other.counts[i]!);
  }

  centroids(): Array<{ mean: number; count: number }> {
    const out: Array<{ mean: number; count: number }> = [];
    for (let i = 0; i < this.n; i++) out.push({ mean: this.means[i]!, count: this.counts[i]! });
    return out;
  }

  quantile(q: number): number {
    if (q < 0 || q > 1) throw illegalArgument(`q should be in [0,1], got ${q}`);
    const n = this.n;
    if (n === 0) return NaN;
    if (n === 1) return this.means[0]!;
    const index = q * this.count;
    let currentWeight = this.counts[0]!;
    let weightSoFar = currentWeight / 2;
    if (index < weightSoFar) {
      return (this.min * index + this.means[0]! * (weightSoFar - index)) / weightSoFar;
    }
    for (let i = 0; i < n - 1; i++) {
      const nextWeight = this.counts[i + 1]!;
      const dw = (currentWeight + nextWeight) / 2;
      if (weightSoFar + dw > index) {
        const z1 = index - weightSoFar;
        const z2 = weightSoFar + dw - index;
        return weightedAverage(this.means[i]!, z2, this.means[i + 1]!, z1);
      }
      weightSoFar += dw;
      currentWeight = nextWeight;
    }
    const z1 = index - weightSoFar;
    const z2 = currentWeight / 2 - z1;
    return weightedAverage(this.means[n - 1]!, z2, this.max, z1);
  }

  cdf(x: number): number {
    const n = this.n;
    if (n === 0) return NaN;
    if (n === 1) return x < this.means[0]! ? 0 : 1;
    let r = 0;
    let aMean = this.means[0]!;
    let aCount = this.counts[0]!;
    let bMean = this.means[1]!;
    let left = (bMean - aMean) / 2;
    let right = left;
    let i = 1;
    while (i < n - 1) {
      if (x < aMean + right) {
        const v = (r + aCount * interpolate(x, aMean - left, aMean + right)) / this.count;
        return v > 0 ? v : 0;
      }
      r += aCount;
      aMean = bMean;
      aCount = this.counts[i]!;
      left = right;
      i++;
      bMean = this.means[i]!;
      right = (bMean - aMean) / 2;
    }
    if (x < aMean + right) {
      return (r + aCount * interpolate(x, aMean - left, aMean + right)) / this.count;
    }
    return 1;
  }
}

function interpolate(x: number, x0: number, x1: number): number {
  return (x - x0) / (x1 - x0);
}

/** AbstractTDigest.weightedAverage (clamped between the two points). */
function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  if (x1 > x2) return weightedAverage(x2, w2, x1, w1);
  const x = (x1 * w1 + x2 * w2) / (w1 + w2);
  return Math.max(x1, Math.min(x, x2));
}
