/**
 * Shard-side aggregators (ES Aggregator/LeafBucketCollector), fed in batches: `collect(docs,
 * ords, n, scores)` hands over n (doc, owning bucket ordinal) pairs of the current segment in
 * doc order. Bucket aggregators assign their own bucket ordinals and pass (doc, bucket) pairs to
 * their sub-aggregators through a buffer, so metric state lives in typed arrays indexed by
 * bucket ordinal and no per-document objects are created.
 */
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { KernelSpec } from '../../../search/parallel/agg-kernels.js';
import type { AggNode, InternalAgg, ShardAggContext } from '../types.js';
import { growI32 } from '../support/arrays.js';
import type { BucketConsumer } from '../support/bucket-consumer.js';

/** A segment as aggregators see it: nested blocks keep a pointer to their parent segment. */
export interface AggSegment {
  readonly ls: LiveSegment;
  /** Nested path of these docs (null at the root). */
  readonly path: string | null;
  readonly parent: AggSegment | null;
  /** For nested docs: the parent doc of each doc (in `parent`'s doc space). */
  readonly parentOf: Int32Array | null;
}

export interface AggregatorContext {
  readonly shard: ShardAggContext;
  readonly consumer: BucketConsumer;
  /** All aggregators (to finish global / min_doc_count 0 work at the end). */
  readonly all: Aggregator[];
}

export const BATCH = 1024;

/** Owning bucket 0 for every doc of a batch (top-level collection). */
export const ROOT_ORDS = new Int32Array(BATCH);
/** Scores of a batch when they are not computed. */
export const NO_SCORES = new Float64Array(BATCH).fill(NaN);

export interface Aggregator {
  readonly node: AggNode;
  /** True when this aggregator (or a sub-aggregator) reads scores. */
  readonly needsScores: boolean;
  setSegment(seg: AggSegment): void;
  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void;
  /**
   * Top-level collection when scores are not needed: the same as collect(docs, ROOT_ORDS, n,
   * NO_SCORES) (n <= BATCH), for aggregators with a tighter loop for owning bucket 0.
   */
  collectRoot?(docs: Int32Array, n: number): void;
  /** Shard result for owning bucket `ord`. */
  build(ord: number): InternalAgg;
  /** Result for a bucket that collected nothing (ES buildEmptyAggregation). */
  buildEmpty(): InternalAgg;
  /** Numeric value for ordering parent buckets by this (metric) aggregator; key = `stats.avg` part. */
  metric?(ord: number, key: string | null): number;
  /** For single-bucket aggregators in order paths (`filter>avg`, `filter._count`). */
  subAggregator?(name: string): Aggregator | undefined;
  bucketDocCount?(ord: number): number;
  /** Called once after all segments were collected (before any build()). */
  finish?(): void;
  /**
   * Sum-family metrics (avg, sum) over a single-valued numeric column in the current segment:
   * arrays (grown to at least `size` buckets) that a parent's hot loop updates inline instead of
   * buffering (doc, bucket) pairs; null when values need the general path (multi-valued,
   * `missing`, scripts). `n` is the number of docs the caller is about to add.
   */
  fusedSum?(size: number, n: number): FusedSum | null;
  /**
   * Parallel collection (dsl/search/parallel-aggs.ts), top-level aggregators only: the loop
   * (agg-kernels.ts) that computes this aggregation's partial result over `ls`, or null when it
   * needs the serial path. Reads no collection state.
   */
  parallelSpec?(ls: LiveSegment): KernelSpec | null;
  /**
   * Adds the partial result of `spec` (from parallelSpec for the current segment, computed into
   * `out` at `off`) as if the segment's docs had been collected; called after setSegment.
   */
  addPartial?(spec: KernelSpec, out: Float64Array, off: number): void;
  /**
   * Sub-aggregation of a parallel terms: the single-valued column summed (avg, sum; values null
   * when the segment has no such column), or null when it needs the serial path.
   */
  sumColumn?(ls: LiveSegment): { readonly values: Float64Array | null } | null;
  /** Adds `count` values summing to `sum` (exact: integers below 2^53) to bucket `ord`. */
  addSum?(ord: number, count: number, sum: number): void;
}

/** See Aggregator.fusedSum: per-bucket value count and Kahan-compensated sum. */
export interface FusedSum {
  readonly values: Float64Array;
  readonly counts: Float64Array;
  readonly sums: Float64Array;
  readonly comps: Float64Array;
  /**
   * True when plain addition gives exactly the Kahan sums for the next `n` values: every value
   * so far and in this column is an integer and all partial sums stay below 2^53, so every
   * addition is exact and the compensation stays 0.
   */
  readonly exact: boolean;
}

/** Buffers (doc, bucket, score) triples for sub-aggregators and flushes them in batches. */
export class SubCollector {
  readonly docs = new Int32Array(BATCH);
  readonly ords = new Int32Array(BATCH);
  readonly scores = new Float64Array(BATCH);
  n = 0;
  constructor(readonly subs: readonly Aggregator[]) {}

  push(doc: number, ord: number, score: number): void {
    const i = this.n;
    this.docs[i] = doc;
    this.ords[i] = ord;
    this.scores[i] = score;
    if (++this.n === BATCH) this.flush();
  }

  flush(): void {
    const n = this.n;
    if (n === 0) return;
    this.n = 0;
    const subs = this.subs;
    for (let i = 0; i < subs.length; i++) subs[i]!.collect(this.docs, this.ords, n, this.scores);
  }
}

/**
 * Common state of bucket aggregators (ES BucketsAggregator): per-bucket doc counts and the
 * sub-aggregators, which see the same segment unless the subclass changes the doc space.
 */
export abstract class BucketsAggregator implements Aggregator {
  docCounts = new Int32Array(16);
  readonly sub: SubCollector;
  readonly hasSubs: boolean;
  readonly needsScores: boolean;

  constructor(
    readonly node: AggNode,
    readonly subs: Aggregator[],
    needsOwnScores = false,
  ) {
    this.sub = new SubCollector(subs);
    this.hasSubs = subs.length > 0;
    this.needsScores = needsOwnScores || subs.some((s) => s.needsScores);
  }

  setSegment(seg: AggSegment): void {
    for (const s of this.subs) s.setSegment(seg);
  }

  abstract collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void;
  abstract build(ord: number): InternalAgg;
  abstract buildEmpty(): InternalAgg;

  /** Counts `doc` into `bucket` and forwards it to the sub-aggregators. */
  protected collectBucket(doc: number, bucket: number, score: number): void {
    if (bucket >= this.docCounts.length) this.docCounts = growI32(this.docCounts, bucket + 1);
    this.docCounts[bucket]!++;
    if (this.hasSubs) this.sub.push(doc, bucket, score);
  }

  protected docCount(bucket: number): number {
    return bucket < this.docCounts.length ? this.docCounts[bucket]! : 0;
  }

  bucketDocCount(ord: number): number {
    return this.docCount(ord);
  }

  /** Sub-aggregation results of a bucket (ES bucketAggregations). */
  protected subResults(bucket: number): InternalAgg[] {
    return this.subs.map((s) => s.build(bucket));
  }

  protected emptySubResults(): InternalAgg[] {
    return this.subs.map((s) => s.buildEmpty());
  }

  subAggregator(name: string): Aggregator | undefined {
    return this.subs.find((s) => s.node.name === name);
  }
}
