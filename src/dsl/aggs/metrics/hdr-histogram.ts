/**
 * The HDR histogram ES 6.8's HDRPercentilesAggregator keeps per bucket (HdrHistogram 2.1.9's
 * DoubleHistogram semantics): doubles auto-ranged onto an integer histogram through a power-of-two
 * conversion ratio, the integer range resized when a shift would lose precision, and states merged
 * on reduce by re-recording each bucket's value. Written to give the same results bit for bit (ES's
 * YAML tests pin values such as 51.0302734375; checked against the Java library, see the fixture),
 * including 2.1.9's quirks. Counts live at canonical indexes (shifts remap them) rather than behind
 * a normalising offset. Integer values are JS numbers: exact below 2^53.
 */
import { EsError } from '../../../common/errors.js';
import { javaDoubleToString } from '../../script/index.js';

const TWO32 = 4294967296;
/**
 * Long.MAX_VALUE (2^63 - 1) stands in as 2^63 - 1024, the largest double below 2^63: it falls in
 * the same histogram bucket and sub-bucket.
 */
const LONG_MAX = 2 ** 63 - 1024;

export function aioobe(message: string): EsError {
  return new EsError('array_index_out_of_bounds_exception', message, 500);
}

/** Java's `(long) d`. */
function toLong(d: number): number {
  if (d !== d) return 0;
  if (d >= 2 ** 63) return LONG_MAX;
  if (d <= -(2 ** 63)) return -(2 ** 63);
  return Math.trunc(d);
}

/** Long.numberOfLeadingZeros of a non-negative integer below 2^64. */
function nlz64(v: number): number {
  if (v >= TWO32) return Math.clz32(Math.floor(v / TWO32));
  return 32 + Math.clz32(v);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Math.ulp for finite doubles. */
function ulp(d: number): number {
  f64[0] = d;
  const e = (u32[1]! >>> 20) & 0x7ff;
  if (e === 0) return 2 ** -1074;
  if (e === 0x7ff) return Math.abs(d);
  return 2 ** (e - 1075);
}

/** "java.lang.ArrayIndexOutOfBoundsException: …" as Java's exception toString(). */
function causedBy(e: unknown): string {
  const msg = e instanceof EsError ? e.reason : e instanceof Error ? e.message : String(e);
  return `java.lang.ArrayIndexOutOfBoundsException: ${msg}`;
}

/** AbstractHistogram / Histogram with lowestDiscernibleValue 1 (unitMagnitude 0). */
export class IntHistogram {
  readonly subBucketHalfCountMagnitude: number;
  readonly subBucketCount: number;
  readonly subBucketHalfCount: number;
  readonly subBucketMask: number;
  readonly leadingZeroCountBase: number;
  /** highestTrackableValue is always 2^highestTrackableOrder - 1 (kept as the exponent). */
  highestTrackableOrder = 0;
  countsArrayLength = 0;
  counts: Float64Array;
  totalCount = 0;
  maxValue = 0;
  minNonZeroValue = Infinity;

  constructor(
    highestTrackableOrder: number,
    readonly digits: number,
  ) {
    const largestValueWithSingleUnitResolution = 2 * Math.trunc(Math.pow(10, digits));
    const subBucketCountMagnitude = Math.ceil(
      Math.log(largestValueWithSingleUnitResolution) / Math.log(2),
    );
    this.subBucketHalfCountMagnitude =
      (subBucketCountMagnitude > 1 ? subBucketCountMagnitude : 1) - 1;
    this.subBucketCount = Math.pow(2, this.subBucketHalfCountMagnitude + 1);
    this.subBucketHalfCount = this.subBucketCount / 2;
    this.subBucketMask = this.subBucketCount - 1;
    this.establishSize(highestTrackableOrder);
    this.leadingZeroCountBase = 64 - this.subBucketHalfCountMagnitude - 1;
    this.counts = new Float64Array(this.countsArrayLength);
  }

  private establishSize(order: number): void {
    this.countsArrayLength =
      (this.bucketsNeededToCoverOrder(order) + 1) * (this.subBucketCount / 2);
    this.highestTrackableOrder = order;
  }

  /** getBucketsNeededToCoverValue(2^order - 1), exactly (powers of two: s <= 2^order - 1 iff s < 2^order). */
  private bucketsNeededToCoverOrder(order: number): number {
    let smallestUntrackableValue = this.subBucketCount;
    let bucketsNeeded = 1;
    while (smallestUntrackableValue < 2 ** order) {
      // (> Long.MAX_VALUE / 2 for these powers of two)
      if (smallestUntrackableValue >= 2 ** 62) return bucketsNeeded + 1;
      smallestUntrackableValue *= 2;
      bucketsNeeded++;
    }
    return bucketsNeeded;
  }

  private bucketIndex(value: number): number {
    const z = value >= TWO32 ? nlz64(value) : 32 + Math.clz32((value | this.subBucketMask) >>> 0);
    return this.leadingZeroCountBase - z;
  }

  countsArrayIndex(value: number): number {
    if (value < 0) throw aioobe('Histogram recorded value cannot be negative.');
    const b = this.bucketIndex(value);
    const sub = Math.floor(value / 2 ** b);
    return ((b + 1) << this.subBucketHalfCountMagnitude) + (sub - this.subBucketHalfCount);
  }

  valueFromIndex(index: number): number {
    let b = (index >> this.subBucketHalfCountMagnitude) - 1;
    let sub = (index & (this.subBucketHalfCount - 1)) + this.subBucketHalfCount;
    if (b < 0) {
      sub -= this.subBucketHalfCount;
      b = 0;
    }
    return sub * 2 ** b;
  }

  private sizeOfEquivalentValueRange(value: number): number {
    const b = this.bucketIndex(value);
    const sub = Math.floor(value / 2 ** b);
    return 2 ** (sub >= this.subBucketCount ? b + 1 : b);
  }

  lowestEquivalentValue(value: number): number {
    const b = this.bucketIndex(value);
    return Math.floor(value / 2 ** b) * 2 ** b;
  }

  nextNonEquivalentValue(value: number): number {
    return this.lowestEquivalentValue(value) + this.sizeOfEquivalentValueRange(value);
  }

  highestEquivalentValue(value: number): number {
    return this.nextNonEquivalentValue(value) - 1;
  }

  private updateMinAndMax(value: number): void {
    if (value > this.maxValue) this.maxValue = value;
    if (value < this.minNonZeroValue && value !== 0) this.minNonZeroValue = value;
  }

  /** recordValueWithCount (no auto-resize: the DoubleHistogram keeps values in range). */
  record(value: number, count: number): void {
    const index = this.countsArrayIndex(value);
    if (index >= this.countsArrayLength) {
      throw aioobe(`value outside of histogram covered range. Caused by: ${causedBy(`${index}`)}`);
    }
    this.counts[index] = this.counts[index]! + count;
    this.updateMinAndMax(value);
    this.totalCount += count;
  }

  /** Values × 2^k (AbstractHistogram.shiftValuesLeft). */
  shiftValuesLeft(k: number): void {
    if (k === 0 || this.totalCount === this.counts[0]) return;
    const shiftAmount = k << this.subBucketHalfCountMagnitude;
    // countsArrayIndex(getMaxValue()): the highest equivalent value shares maxValue's bucket
    const maxValueIndex = this.countsArrayIndex(this.maxValue);
    if (maxValueIndex >= this.countsArrayLength - shiftAmount) {
      throw aioobe('Operation would overflow, would discard recorded value counts');
    }
    const maxBefore = this.maxValue;
    const minBefore = this.minNonZeroValue;
    this.maxValue = 0;
    this.minNonZeroValue = Infinity;
    const next = new Float64Array(this.countsArrayLength);
    next[0] = this.counts[0]!;
    for (let i = 1; i < this.countsArrayLength; i++) {
      const c = this.counts[i]!;
      if (c === 0) continue;
      // upper half buckets move by shiftAmount; the lowest half bucket is re-recorded
      const to = i >= this.subBucketHalfCount ? i + shiftAmount : this.countsArrayIndex(i * 2 ** k);
      next[to] = next[to]! + c;
    }
    this.counts = next;
    this.updateMinAndMax(maxBefore * 2 ** k);
    if (minBefore !== Infinity) this.updateMinAndMax(minBefore * 2 ** k);
  }

  /** Values ÷ 2^k (AbstractHistogram.shiftValuesRight). */
  shiftValuesRight(k: number): void {
    if (k === 0 || this.totalCount === this.counts[0]) return;
    const shiftAmount = this.subBucketHalfCount * k;
    // countsArrayIndex(getMinNonZeroValue()), likewise (there is a non-zero value here)
    const minNonZeroValueIndex = this.countsArrayIndex(this.minNonZeroValue);
    if (minNonZeroValueIndex < shiftAmount + this.subBucketHalfCount) {
      throw aioobe('Operation would underflow and lose precision of already recorded value counts');
    }
    const maxBefore = this.maxValue;
    const minBefore = this.minNonZeroValue;
    this.maxValue = 0;
    this.minNonZeroValue = Infinity;
    const next = new Float64Array(this.countsArrayLength);
    next[0] = this.counts[0]!;
    for (let i = 1; i < this.countsArrayLength; i++) {
      const c = this.counts[i]!;
      if (c !== 0) next[i - shiftAmount] = next[i - shiftAmount]! + c;
    }
    this.counts = next;
    this.updateMinAndMax(Math.floor(maxBefore / 2 ** k));
    if (minBefore !== Infinity) this.updateMinAndMax(Math.floor(minBefore / 2 ** k));
  }

  resize(order: number): void {
    this.establishSize(order);
    const next = new Float64Array(this.countsArrayLength);
    next.set(this.counts.subarray(0, Math.min(this.counts.length, next.length)));
    this.counts = next;
  }

  getValueAtPercentile(percentile: number): number {
    const requested = Math.min(percentile, 100);
    let countAtPercentile = toLong((requested / 100) * this.totalCount + 0.5);
    countAtPercentile = Math.max(countAtPercentile, 1);
    let total = 0;
    for (let i = 0; i < this.countsArrayLength; i++) {
      total += this.counts[i]!;
      if (total >= countAtPercentile) {
        const v = this.valueFromIndex(i);
        return percentile === 0 ? this.lowestEquivalentValue(v) : this.highestEquivalentValue(v);
      }
    }
    return 0;
  }

  getPercentileAtOrBelowValue(value: number): number {
    if (this.totalCount === 0) return 100;
    const target = Math.min(this.countsArrayIndex(value), this.countsArrayLength - 1);
    let total = 0;
    for (let i = 0; i <= target; i++) total += this.counts[i]!;
    return (100 * total) / this.totalCount;
  }
}

/** 64 - Long.numberOfLeadingZeros(n). */
function containingBinaryOrderOfMagnitude(n: number): number {
  return 64 - nlz64(n);
}

function internalHighestToLowestValueRatio(external: number): number {
  return 2 ** (containingBinaryOrderOfMagnitude(external) + 1);
}

const HIGHEST_ALLOWED_VALUE_EVER = (() => {
  let v = 1.0;
  while (v < Number.MAX_VALUE / 4.0) v *= 2;
  return v;
})();

export class DoubleHistogram {
  private configuredHighestToLowestValueRatio: number;
  private currentLowestValueInAutoRange = 0;
  private currentHighestValueLimitInAutoRange = 0;
  private integerToDoubleValueConversionRatio = 0;
  private doubleToIntegerValueConversionRatio = 0;
  private readonly h: IntHistogram;

  /** new DoubleHistogram(numberOfSignificantValueDigits), auto-resizing; or a copy's model. */
  constructor(digits: number, source?: DoubleHistogram) {
    if (source) {
      // DoubleHistogram(DoubleHistogram source): same model and range, no counts
      this.configuredHighestToLowestValueRatio = source.configuredHighestToLowestValueRatio;
      this.h = new IntHistogram(source.h.highestTrackableOrder, source.h.digits);
      this.init(2 ** 800);
      this.setTrackableValueRange(
        source.currentLowestValueInAutoRange,
        source.currentHighestValueLimitInAutoRange,
      );
      return;
    }
    this.configuredHighestToLowestValueRatio = 2;
    const subBuckets = Math.pow(
      2,
      Math.ceil(Math.log(2 * Math.trunc(Math.pow(10, digits))) / Math.log(2)),
    );
    // highestTrackableValue integerValueRange - 1, a power of two minus one
    const integerValueRange = (subBuckets / 2) * internalHighestToLowestValueRatio(2);
    this.h = new IntHistogram(Math.log2(integerValueRange), digits);
    this.init(2 ** 800);
  }

  /** Copy of the model and covered range of `source` without its counts (as ES's reduce starts). */
  static emptyLike(source: DoubleHistogram): DoubleHistogram {
    return new DoubleHistogram(source.h.digits, source);
  }

  private init(lowestTrackableUnitValue: number): void {
    this.setTrackableValueRange(
      lowestTrackableUnitValue,
      lowestTrackableUnitValue *
        internalHighestToLowestValueRatio(this.configuredHighestToLowestValueRatio),
    );
  }

  private setTrackableValueRange(lowest: number, highest: number): void {
    this.currentLowestValueInAutoRange = lowest;
    this.currentHighestValueLimitInAutoRange = highest;
    this.integerToDoubleValueConversionRatio = lowest / this.h.subBucketHalfCount;
    this.doubleToIntegerValueConversionRatio = 1.0 / this.integerToDoubleValueConversionRatio;
  }

  get totalCount(): number {
    return this.h.totalCount;
  }

  recordValue(value: number, count = 1): void {
    if (
      value < this.currentLowestValueInAutoRange ||
      value >= this.currentHighestValueLimitInAutoRange
    ) {
      this.autoAdjustRangeForValue(value);
    }
    this.h.record(toLong(value * this.doubleToIntegerValueConversionRatio), count);
  }

  /** add(DoubleHistogram): re-records each non-empty bucket's value with its count. */
  add(from: DoubleHistogram): void {
    const fh = from.h;
    for (let i = 0; i < fh.countsArrayLength; i++) {
      const c = fh.counts[i]!;
      if (c > 0)
        this.recordValue(fh.valueFromIndex(i) * from.integerToDoubleValueConversionRatio, c);
    }
  }

  getValueAtPercentile(percentile: number): number {
    return this.h.getValueAtPercentile(percentile) * this.integerToDoubleValueConversionRatio;
  }

  getPercentileAtOrBelowValue(value: number): number {
    return this.h.getPercentileAtOrBelowValue(
      toLong(value * this.doubleToIntegerValueConversionRatio),
    );
  }

  private autoAdjustRangeForValue(value: number): void {
    if (value === 0) return;
    try {
      if (value < this.currentLowestValueInAutoRange) {
        if (value < 0) throw aioobe('Negative values cannot be recorded');
        do {
          const shift = this.findCappedContainingBinaryOrderOfMagnitude(
            Math.ceil(this.currentLowestValueInAutoRange / value) - 1.0,
          );
          this.shiftCoveredRangeToTheRight(shift);
        } while (value < this.currentLowestValueInAutoRange);
      } else if (value >= this.currentHighestValueLimitInAutoRange) {
        if (value > HIGHEST_ALLOWED_VALUE_EVER) {
          throw aioobe(
            `Values above ${javaDoubleToString(HIGHEST_ALLOWED_VALUE_EVER)} cannot be recorded`,
          );
        }
        do {
          const shift = this.findCappedContainingBinaryOrderOfMagnitude(
            Math.ceil((value + ulp(value)) / this.currentHighestValueLimitInAutoRange) - 1.0,
          );
          this.shiftCoveredRangeToTheLeft(shift);
        } while (value >= this.currentHighestValueLimitInAutoRange);
      }
    } catch (e) {
      if (!(e instanceof EsError) || e.type !== 'array_index_out_of_bounds_exception') throw e;
      throw aioobe(
        `The value ${javaDoubleToString(value)} is out of bounds for histogram, current covered range [${javaDoubleToString(this.currentLowestValueInAutoRange)}, ${javaDoubleToString(this.currentHighestValueLimitInAutoRange)}) cannot be extended any further.\nCaused by: ${causedBy(e)}`,
      );
    }
  }

  private shiftCoveredRangeToTheRight(k: number): void {
    let newLowest = this.currentLowestValueInAutoRange;
    let newHighest = this.currentHighestValueLimitInAutoRange;
    try {
      const shiftMultiplier = 1.0 / 2 ** k;
      this.currentHighestValueLimitInAutoRange *= shiftMultiplier;
      if (this.h.totalCount > this.h.counts[0]!) {
        try {
          this.h.shiftValuesLeft(k);
        } catch (e) {
          this.handleShiftValuesException(k, e);
          newHighest /= shiftMultiplier;
          this.h.shiftValuesLeft(k);
        }
      }
      newLowest *= shiftMultiplier;
      newHighest *= shiftMultiplier;
    } finally {
      this.setTrackableValueRange(newLowest, newHighest);
    }
  }

  private shiftCoveredRangeToTheLeft(k: number): void {
    let newLowest = this.currentLowestValueInAutoRange;
    let newHighest = this.currentHighestValueLimitInAutoRange;
    try {
      const shiftMultiplier = 1.0 * 2 ** k;
      this.currentLowestValueInAutoRange *= shiftMultiplier;
      if (this.h.totalCount > this.h.counts[0]!) {
        try {
          this.h.shiftValuesRight(k);
          // (2.1.9 scales the range here and again below)
          newLowest *= shiftMultiplier;
          newHighest *= shiftMultiplier;
        } catch (e) {
          this.handleShiftValuesException(k, e);
          newLowest /= shiftMultiplier;
        }
      }
      newLowest *= shiftMultiplier;
      newHighest *= shiftMultiplier;
    } finally {
      this.setTrackableValueRange(newLowest, newHighest);
    }
  }

  private handleShiftValuesException(k: number, e: unknown): void {
    if (!(e instanceof EsError) || e.type !== 'array_index_out_of_bounds_exception') throw e;
    // containing order of magnitude of 2^order - 1 is order
    const newOrder = k + this.h.highestTrackableOrder;
    if (newOrder > 63) {
      throw aioobe(
        `Cannot resize histogram covered range beyond (1L << 63) / (1L << ${this.h.subBucketHalfCountMagnitude}) - 1.\nCaused by: ${causedBy(e)}`,
      );
    }
    this.h.resize(newOrder);
    this.configuredHighestToLowestValueRatio *= 2 ** k;
  }

  private findCappedContainingBinaryOrderOfMagnitude(d: number): number {
    if (d > this.configuredHighestToLowestValueRatio) {
      return Math.trunc(Math.log(this.configuredHighestToLowestValueRatio) / Math.log(2));
    }
    if (d > Math.pow(2.0, 50)) return 50;
    return containingBinaryOrderOfMagnitude(toLong(Math.ceil(d)));
  }
}
