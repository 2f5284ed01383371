/**
 * Elasticsearch 6.8 aggregations over columnar doc values: parse the request's `aggs`, collect
 * per shard (createShardAggregator), reduce shard results and run pipelines
 * (reduceAggregations), rendering ES's JSON.
 */
import './all-aggs.js';
import { splitTopLevel, validateAggregations } from './parse/parse-aggs.js';
import { PIPELINES } from './registry.js';
import { reduceAggList, renderAggs } from './reduce/reduce.js';
import { BucketConsumer } from './support/bucket-consumer.js';
import type {
  AggNode,
  ReduceContext,
  ScriptMethods,
  ShardAggResult,
  TopHitsOptions,
} from './types.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';

export { parseAggregations, validateAggregations } from './parse/parse-aggs.js';
export { createShardAggregator, type ShardAggregator } from './collect/shard-aggregator.js';
export type {
  AggHit,
  AggNode,
  InternalAgg,
  ShardAggContext,
  ShardAggResult,
  TopHitsOptions,
  ScriptMethods,
} from './types.js';

export interface ReduceOptions {
  typedKeys?: boolean;
  /** search.max_buckets; -1 = ES 6.8 default (no limit, deprecation warning past 10000). */
  maxBuckets: number;
  scriptMethods?: ScriptMethods;
  /** Receives deprecation warnings (ES Warning headers), deduplicated. */
  warnings?: string[];
  fetchHits?: (hits: CollectedHit[], opts: TopHitsOptions) => unknown[];
  /** Position of a shard (ShardAggContext.origin) in the request's shard list. */
  shardOrder?: (origin: object | undefined) => number;
  /** Memory circuit breaker over the running bucket count. */
  breaker?: (buckets: number) => void;
}

/**
 * Merges the shard results of `aggs` (ES InternalAggregations.reduce, final reduce), runs the
 * pipeline aggregations and renders the `aggregations` object of the search response.
 */
export function reduceAggregations(
  aggs: AggNode[],
  shards: ShardAggResult[],
  opts: ReduceOptions,
): Record<string, unknown> {
  validateAggregations(aggs);
  const warnings = opts.warnings ?? [];
  const rc: ReduceContext = {
    typedKeys: opts.typedKeys ?? false,
    maxBuckets: opts.maxBuckets,
    scriptMethods: opts.scriptMethods,
    warnings,
    fetchHits: opts.fetchHits,
    ...(opts.shardOrder ? { shardOrder: opts.shardOrder } : {}),
    consumer: new BucketConsumer(opts.maxBuckets, warnings, opts.breaker),
  };
  if (shards.length === 0) return {};
  const reduced = reduceAggList(
    shards.map((s) => s.aggs),
    rc,
  );
  for (const p of splitTopLevel(aggs).pipelines) {
    reduced.push(PIPELINES.get(p.type)!.computeSibling!(p, reduced, rc));
  }
  return renderAggs(reduced, rc);
}
