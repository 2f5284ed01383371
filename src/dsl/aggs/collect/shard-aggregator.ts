/**
 * The per-shard entry point: builds the aggregator tree for a request, receives matching docs
 * one at a time from the executor (buffered into batches), and produces the shard result.
 * `global` aggregations ignore the query: they iterate every live doc of the snapshot
 * themselves in finish(), after the executor's collection.
 */
import type { LiveSegment } from '../../../search/index/live-segment.js';
import { validateAggregations, splitTopLevel } from '../parse/parse-aggs.js';
import { AGGS, type SegmentSpace } from '../registry.js';
import { BucketConsumer } from '../support/bucket-consumer.js';
import type { AggNode, ShardAggContext, ShardAggResult } from '../types.js';
import {
  BATCH,
  NO_SCORES,
  ROOT_ORDS,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
} from './aggregator.js';

export interface ShardAggregator {
  /** True when some aggregation reads scores (top_hits by score, scripts using _score). */
  readonly needsScores: boolean;
  onSegment(ls: LiveSegment, segIndex: number): void;
  collect(doc: number, score: number): void;
  /**
   * The same as n collect() calls, for executors that have matching docs in batches: docs[0..n)
   * of the current segment in increasing order; scores null when they are not computed.
   */
  collectBatch(docs: Int32Array, n: number, scores: Float64Array | null): void;
  finish(): ShardAggResult;
  /** The top-level aggregators (parallel collection reads their parallelSpec). */
  readonly roots: readonly Aggregator[];
}

export const ROOT_SPACE: SegmentSpace = { nestedPath: null, parent: null };

/** Creates the aggregator of `node` (and, through its factory, its sub-aggregators). */
export function createAggregator(
  node: AggNode,
  ac: AggregatorContext,
  space: SegmentSpace,
): Aggregator {
  const spec = AGGS.get(node.type)!;
  // Reserve the slot first so that `all` lists parents before their children.
  const slot = ac.all.length;
  ac.all.push(undefined as unknown as Aggregator);
  const agg = spec.create(node, ac, space);
  ac.all[slot] = agg;
  return agg;
}

export function createSubAggregators(
  node: AggNode,
  ac: AggregatorContext,
  space: SegmentSpace,
): Aggregator[] {
  return node.subAggs.map((n) => createAggregator(n, ac, space));
}

export function rootSegment(ls: LiveSegment): AggSegment {
  return { ls, path: null, parent: null, parentOf: null };
}

export function createShardAggregator(nodes: AggNode[], ctx: ShardAggContext): ShardAggregator {
  validateAggregations(nodes);
  const { aggs } = splitTopLevel(nodes);
  const consumer = new BucketConsumer(ctx.maxBuckets, ctx.warnings, ctx.breaker);
  const ac: AggregatorContext = { shard: ctx, consumer, all: [] };
  const roots = aggs.map((n) => createAggregator(n, ac, ROOT_SPACE));
  return new RootCollector(roots, ac);
}

/**
 * The executor calls collect() once per matching doc, so it only buffers; a class method (not a
 * per-request closure) keeps that call site monomorphic and inlinable.
 */
class RootCollector implements ShardAggregator {
  readonly needsScores: boolean;
  private readonly docs = new Int32Array(BATCH);
  private readonly scores = new Float64Array(BATCH).fill(NaN);
  private n = 0;
  /** Per root: its collectRoot() applies (it has one and reads no scores). */
  private readonly rootFast: boolean[];

  constructor(
    readonly roots: Aggregator[],
    private readonly ac: AggregatorContext,
  ) {
    this.needsScores = roots.some((r) => r.needsScores);
    this.rootFast = roots.map((r) => r.collectRoot !== undefined && !r.needsScores);
  }

  private collectRoots(docs: Int32Array, n: number, scores: Float64Array): void {
    const roots = this.roots;
    for (let i = 0; i < roots.length; i++) {
      const r = roots[i]!;
      if (this.rootFast[i]) r.collectRoot!(docs, n);
      else r.collect(docs, ROOT_ORDS, n, scores);
    }
  }

  private flush(): void {
    const n = this.n;
    if (n === 0) return;
    this.n = 0;
    this.collectRoots(this.docs, n, this.scores);
  }

  onSegment(ls: LiveSegment): void {
    this.flush();
    const seg = rootSegment(ls);
    for (const r of this.roots) r.setSegment(seg);
  }

  collect(doc: number, score: number): void {
    const n = this.n;
    this.docs[n] = doc;
    this.scores[n] = score;
    if ((this.n = n + 1) === BATCH) this.flush();
  }

  collectBatch(docs: Int32Array, n: number, scores: Float64Array | null): void {
    this.flush();
    for (let s = 0; s < n; s += BATCH) {
      const m = Math.min(BATCH, n - s);
      const d = s === 0 && m === docs.length ? docs : docs.subarray(s, s + m);
      const sc = scores
        ? s === 0 && m === scores.length
          ? scores
          : scores.subarray(s, s + m)
        : NO_SCORES;
      this.collectRoots(d, m, sc);
    }
  }

  finish(): ShardAggResult {
    this.flush();
    // Parents finish before children (global feeds its sub-tree before they finish).
    const all = this.ac.all;
    for (let i = 0; i < all.length; i++) all[i]!.finish?.();
    const out = this.roots.map((r) => r.build(0));
    return { aggs: out, bucketCount: this.ac.consumer.count };
  }
}
