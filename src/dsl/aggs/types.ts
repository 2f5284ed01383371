/**
 * Shared types of the aggregation pipeline (ES: AggregationBuilder → Aggregator →
 * InternalAggregation → reduce → pipelines → XContent): the parsed tree, the shard context the
 * executor provides, shard-level intermediate results, and the reduce context.
 */
import type { ShardCounters } from '../../engine/stats.js';
import type { Analyzer } from '../../search/analysis/index.js';
import type { FieldMapping, ObjectMapping } from '../../mapping/types.js';
import type { LiveSegment, ShardSnapshot } from '../../search/index/live-segment.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import type { SortKey } from '../../search/collect/sort.js';
import type { Weight } from '../../search/query/weights.js';
import type { Deadline } from '../../search/deadline.js';
import type { BucketConsumer } from './support/bucket-consumer.js';

export type ScriptMethods = Record<string, (...args: unknown[]) => unknown>;

/** One parsed aggregation (bucket, metric or pipeline) with its sub-aggregations. */
export interface AggNode {
  readonly name: string;
  /** ES type name as written in the request, e.g. `terms`, `date_histogram`, `max_bucket`. */
  readonly type: string;
  readonly meta: Record<string, unknown> | null;
  /** Type-specific parsed parameters (see each aggregation's module). */
  readonly params: unknown;
  /** Non-pipeline sub-aggregations, in request order. */
  readonly subAggs: readonly AggNode[];
  /** Pipeline aggregations declared at this level, in dependency order (ES resolvePipelineAggregatorOrder). */
  readonly pipelines: readonly AggNode[];
}

/** A hit kept by top_hits; nested hits carry their parent and offset for `_nested`. */
export interface AggHit extends CollectedHit {
  nested?: { field: string; offset: number; parentSegment: LiveSegment; parentDoc: number };
  /** The shard that collected it (ShardAggContext.origin), set on the shard's result. */
  origin?: object;
}

export interface TopHitsOptions {
  from: number;
  size: number;
  sort: SortKey[] | null;
  /** The top_hits request object as given (for _source, docvalue_fields, highlight, ...). */
  request: Record<string, unknown>;
  trackScores: boolean;
  explain: boolean;
  version: boolean;
  seqNoPrimaryTerm: boolean;
}

export interface ShardAggContext {
  snapshot: ShardSnapshot;
  /** Mapping lookup by full path (aliases resolved). */
  field(path: string): FieldMapping | undefined;
  /** The index's join field (module parent-join), if its mapping has one: children / parent aggs. */
  joinField?(): FieldMapping | undefined;
  /** Object/nested mapping lookup (nested aggs check the path is `nested`); optional. */
  objectMapping?(path: string): ObjectMapping | undefined;
  /** Compiles a query DSL object for filter / filters / adjacency_matrix aggs. */
  compileQuery(json: unknown): Weight;
  now: number;
  /** search.max_buckets; -1 = ES 6.8 default (no limit, deprecation warning past 10000). */
  maxBuckets: number;
  fetchHits?: (hits: CollectedHit[], opts: TopHitsOptions) => unknown[];
  scriptMethods?: ScriptMethods;
  /** Deprecation warnings raised while collecting (ES Warning headers). */
  warnings?: string[];
  /**
   * The shard's identity, the same in every request (the engine's Shard): top_hits hits carry it
   * and the coordinator maps it to its own shard order (ties across shards) and fetch target. A
   * shard result holds nothing of the request's shard list, since the request cache reuses it in
   * requests that list the shards differently.
   */
  origin?: object;
  /** Index name: `_index` aggregations (terms on `_index`) and error metadata. */
  index?: string;
  /** Mapping type name (6.8 has one per index): terms on `_type`. */
  typeName?: string;
  /** Memory circuit breaker over the running bucket count (throws circuit_breaking_exception). */
  breaker?: (buckets: number) => void;
  /** A doc's parsed `_source` (significant_text re-analyses it); null when it has none. */
  sourceOf?(ls: LiveSegment, doc: number): unknown;
  /** A text field's index-time analyzer (significant_text). */
  indexAnalyzer?(field: FieldMapping): Analyzer;
  /** The shard's stats counters (fielddata memory of global ordinals). */
  counters?: ShardCounters;
  /** The search `timeout`: `global` stops collecting at the first check past it. */
  deadline?: Deadline | null;
  /**
   * The filters of the shard query (alias filter, slice) that `global` still applies (ES
   * AggregationPhase collects buildFilteredQuery(match_all)); absent: every live doc.
   */
  globalFilter?: Weight;
}

/** Base of every shard-level and reduced aggregation result (ES InternalAggregation). */
export interface InternalAgg {
  /** The result type (e.g. `terms`, `simple_value`), used to dispatch reduce/render. */
  readonly spec: string;
  readonly name: string;
  meta: Record<string, unknown> | null;
  /** The request node that produced it (its pipelines run on the reduced result). */
  readonly node: AggNode;
}

/** A bucket of a multi-bucket result. */
export interface InternalBucket {
  /** Key used by buckets_path `_key`. */
  key: unknown;
  docCount: number;
  aggs: InternalAgg[];
}

export interface MultiBucketInternal extends InternalAgg {
  buckets: InternalBucket[];
}

export interface SingleBucketInternal extends InternalAgg {
  docCount: number;
  aggs: InternalAgg[];
}

/** What one shard returns for the whole request's aggregations. */
export interface ShardAggResult {
  readonly aggs: InternalAgg[];
  /** Buckets created on the shard (for search.max_buckets accounting). */
  readonly bucketCount: number;
}

export interface ReduceContext {
  typedKeys: boolean;
  maxBuckets: number;
  scriptMethods?: ScriptMethods;
  /** Deprecation warnings (ES response Warning headers). */
  warnings: string[];
  fetchHits?: (hits: CollectedHit[], opts: TopHitsOptions) => unknown[];
  /** Position of a shard (its `origin`) in the request's shard list; ties in top_hits. */
  shardOrder?: (origin: object | undefined) => number;
  /** search.max_buckets accounting of the final reduce (ES MultiBucketConsumer). */
  consumer: BucketConsumer;
}
