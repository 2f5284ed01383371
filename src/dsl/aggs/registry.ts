/**
 * The table of aggregation types (ES SearchModule registrations): request parsers, aggregator
 * factories, and the result types that know how to reduce, render and expose values of their
 * shard results. Each aggregation module registers itself; `all-aggs.ts` imports them all.
 */
import type { Aggregator, AggregatorContext, AggSegment } from './collect/aggregator.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from './types.js';

export interface ParseContext {
  /** Deprecation warnings raised by the request (e.g. `_term` order). */
  warnings: string[] | undefined;
}

/** How a shard/reduced result type is merged, rendered and read by buckets_path. */
export interface ResultSpec<I extends InternalAgg = InternalAgg> {
  reduce(parts: I[], rc: ReduceContext): I;
  /** Body of the aggregation's JSON object (without `meta`). */
  render(agg: I, rc: ReduceContext): Record<string, unknown>;
  /** The typed_keys prefix (ES InternalAggregation.getType()). */
  typedType(agg: I): string;
  /** Numeric value for buckets_path / order (null key = the single value). */
  value?(agg: I, key: string | null): number;
  /** Names of the values `value` accepts (for error messages). */
  valueNames?(agg: I): string[];
  /** A bucket's getKeyAsString() (sibling pipelines report bucket keys with it). */
  keyAsString?(agg: I, bucket: InternalBucket): string;
}

export interface AggSpec<P = unknown> {
  readonly type: string;
  readonly category: 'bucket' | 'metric';
  /** Metrics and top_hits cannot have sub-aggregations. */
  readonly leaf: boolean;
  /** ES factory class name, used in "parent aggregation of type [..]" messages. */
  readonly factoryName: string;
  parse(json: unknown, name: string, pc: ParseContext): P;
  /** Extra tree checks once the whole request is parsed (e.g. composite/global placement). */
  validate?(node: AggNode, parent: AggNode | null, ancestors: readonly AggNode[]): void;
  create(node: AggNode, ac: AggregatorContext, seg: SegmentSpace): Aggregator;
}

/** The doc space an aggregator is created in: root docs, or a nested path's docs. */
export interface SegmentSpace {
  readonly nestedPath: string | null;
  readonly parent: SegmentSpace | null;
}

export interface PipelineSpec<P = unknown> {
  readonly type: string;
  readonly category: 'pipeline';
  /** parent: rewrites the buckets of the aggregation it is declared in; sibling: adds a result next to it. */
  readonly kind: 'parent' | 'sibling';
  parse(json: unknown, name: string, pc: ParseContext): P;
  bucketsPaths(params: P): string[];
  /** ES PipelineAggregationBuilder.validate. */
  validate?(node: AggNode, parent: AggNode | null, siblings: readonly AggNode[]): void;
  /** parent pipelines: transform the reduced multi-bucket aggregation. */
  applyToParent?(node: AggNode, agg: InternalAgg, rc: ReduceContext): InternalAgg;
  /** sibling pipelines: compute a new result from the sibling aggregations. */
  computeSibling?(node: AggNode, siblings: InternalAgg[], rc: ReduceContext): InternalAgg;
}

export const AGGS = new Map<string, AggSpec>();
export const PIPELINES = new Map<string, PipelineSpec>();
export const RESULTS = new Map<string, ResultSpec>();

export function registerAgg<P, I extends InternalAgg = InternalAgg>(
  spec: AggSpec<P>,
  result?: ResultSpec<I>,
): void {
  AGGS.set(spec.type, spec as AggSpec);
  if (result) RESULTS.set(spec.type, result as unknown as ResultSpec);
}

export function registerPipeline<P>(spec: PipelineSpec<P>): void {
  PIPELINES.set(spec.type, spec as PipelineSpec);
}

export function registerResult<I extends InternalAgg>(name: string, spec: ResultSpec<I>): void {
  RESULTS.set(name, spec as unknown as ResultSpec);
}

export function resultSpec(agg: InternalAgg): ResultSpec {
  const s = RESULTS.get(agg.spec);
  if (!s) throw new Error(`no result spec for [${agg.spec}]`);
  return s;
}

export type { Aggregator, AggregatorContext, AggSegment };
