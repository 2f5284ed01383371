/**
 * Ordering buckets by a sub-aggregation on the shard (ES AggregationPath.validate and
 * TermsAggregator.bucketComparator): the path may go through single-bucket aggregations and
 * must end at a single-bucket aggregation (its doc count) or a numeric metric (`avg`,
 * `stats.max`, `percentiles[99]`). Values are read by bucket ordinal, as ES does, because
 * single-bucket aggregations keep their parent's ordinals.
 */
import { EsError } from '../../../common/errors.js';
import type { OrderElement } from '../support/order.js';
import type { Aggregator } from './aggregator.js';

const execError = (msg: string) => new EsError('aggregation_execution_exception', msg, 500);

const SINGLE_BUCKET = new Set([
  'filter',
  'missing',
  'nested',
  'reverse_nested',
  'children',
  'parent',
  'global',
  'sampler',
  'diversified_sampler',
]);
const SINGLE_VALUE = new Set([
  'avg',
  'sum',
  'min',
  'max',
  'value_count',
  'cardinality',
  'weighted_avg',
  'median_absolute_deviation',
]);
const MULTI_VALUE = new Set(['stats', 'extended_stats', 'percentiles', 'percentile_ranks']);

const SUFFIX =
  '. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.';

/** Returns `ord → value` for an `agg` order element, validating the path like ES. */
export function orderValue(root: Aggregator, e: OrderElement): (ord: number) => number {
  const path = e.path!;
  const elements = e.elements!;
  let agg: Aggregator | undefined = root;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    agg = agg!.subAggregator?.(el.name);
    if (!agg) {
      throw execError(`Invalid aggregator order path [${path}]. Unknown aggregation [${el.name}]`);
    }
    if (i < elements.length - 1 && (!SINGLE_BUCKET.has(agg.node.type) || el.key !== null)) {
      const sub = elements
        .slice(0, i + 1)
        .map((x) => x.full)
        .join('>');
      throw execError(
        `Invalid aggregation order path [${path}]${SUFFIX.slice(0, -1)}. Sub-path [${sub}] points to non single-bucket aggregation`,
      );
    }
  }
  const last = elements[elements.length - 1]!;
  const a = agg!;
  if (SINGLE_BUCKET.has(a.node.type)) {
    if (last.key !== null && last.key !== 'doc_count') {
      throw execError(
        `Invalid aggregation order path [${path}]. Ordering on a single-bucket aggregation can only be done on its doc_count. Either drop the key (a la "${last.name}") or change it to "doc_count" (a la "${last.name}.doc_count")`,
      );
    }
    return (ord) => a.bucketDocCount!(ord);
  }
  if (SINGLE_VALUE.has(a.node.type)) {
    if (last.key !== null && last.key !== 'value') {
      throw execError(
        `Invalid aggregation order path [${path}]. Ordering on a single-value metrics aggregation can only be done on its value. Either drop the key (a la "${last.name}") or change it to "value" (a la "${last.name}.value")`,
      );
    }
    return (ord) => a.metric!(ord, null);
  }
  if (MULTI_VALUE.has(a.node.type)) {
    if (last.key === null) {
      throw execError(
        `Invalid aggregation order path [${path}]. When ordering on a multi-value metrics aggregation a metric name must be specified`,
      );
    }
    const key = last.key;
    if (!metricKnown(a, key)) {
      throw execError(
        `Invalid aggregation order path [${path}]. Unknown metric name [${key}] on multi-value metrics aggregation [${last.name}]`,
      );
    }
    return (ord) => a.metric!(ord, key);
  }
  throw execError(`Invalid aggregation order path [${path}]${SUFFIX}`);
}

const STATS_NAMES = ['count', 'sum', 'min', 'max', 'avg'];
const EXT_NAMES = [
  ...STATS_NAMES,
  'sum_of_squares',
  'variance',
  'std_deviation',
  'std_upper',
  'std_lower',
];

function metricKnown(a: Aggregator, key: string): boolean {
  switch (a.node.type) {
    case 'stats':
      return STATS_NAMES.includes(key);
    case 'extended_stats':
      return EXT_NAMES.includes(key);
    default:
      return !Number.isNaN(Number(key));
  }
}
