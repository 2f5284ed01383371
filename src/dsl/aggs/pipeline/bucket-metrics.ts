/**
 * Sibling bucket-metric pipelines (ES BucketMetricsPipelineAggregator): avg_bucket, max_bucket,
 * min_bucket, sum_bucket, stats_bucket, extended_stats_bucket and percentiles_bucket read one value
 * per bucket of a sibling multi-bucket aggregation (gap policy skip by default) and produce a
 * simple value, a bucket_metric_value with the winning keys, stats, or nearest-rank percentiles.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import { javaDoubleToString } from '../../script/index.js';
import { toDouble } from '../parse/object-parser.js';
import {
  isMultiBucket,
  pathStrings,
  resolveBucketValue,
  type GapPolicy,
} from '../reduce/property.js';
import { AGGS, registerPipeline, registerResult, resultSpec } from '../registry.js';
import { formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import { jnum } from '../support/json.js';
import type { AggNode, InternalAgg, MultiBucketInternal } from '../types.js';
import type { InternalStats } from '../metrics/stats-family.js';
import { statsValue } from '../metrics/stats-family.js';
import {
  missingBucketsPath,
  parsePipelineObject,
  pipelineFormat,
  simpleValue,
  type InternalBucketMetricValue,
} from './common.js';

type Kind =
  | 'avg_bucket'
  | 'max_bucket'
  | 'min_bucket'
  | 'sum_bucket'
  | 'stats_bucket'
  | 'extended_stats_bucket'
  | 'percentiles_bucket';

interface Params {
  path: string;
  format: string | null;
  gapPolicy: GapPolicy;
  sigma: number;
  percents: number[];
}

const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

function parse(kind: Kind, json: unknown, name: string): Params {
  let sigma = 2;
  let percents = DEFAULT_PERCENTS;
  const r = parsePipelineObject(kind, name, json, (k, v) => {
    if (kind === 'extended_stats_bucket' && k === 'sigma') {
      sigma = toDouble(v);
      if (sigma < 0) throw illegalArgument('sigma must be a non-negative double');
      return true;
    }
    if (kind === 'percentiles_bucket' && k === 'percents') {
      const arr = (Array.isArray(v) ? v : [v]).map((x) => toDouble(x));
      for (const pct of arr) {
        if (pct < 0 || pct > 100)
          throw illegalArgument(
            'percents must only contain non-null doubles from 0.0-100.0 inclusive',
          );
      }
      percents = arr;
      return true;
    }
    return false;
  });
  if (!r.bucketsPaths) throw missingBucketsPath(name);
  // ES BucketMetricsParser reads bucketsPaths[0] unchecked: an empty array fails in Java
  if (r.bucketsPaths.length === 0)
    throw new EsError(
      'array_index_out_of_bounds_exception',
      'Index 0 out of bounds for length 0',
      500,
    );
  return {
    path: r.bucketsPaths[0]!,
    format: r.format,
    gapPolicy: r.gapPolicy ?? 'skip',
    sigma,
    percents,
  };
}

const CLASS_NAMES: Record<string, string> = {
  avg: 'org.elasticsearch.search.aggregations.metrics.avg.AvgAggregationBuilder',
  sum: 'org.elasticsearch.search.aggregations.metrics.sum.SumAggregationBuilder',
  min: 'org.elasticsearch.search.aggregations.metrics.min.MinAggregationBuilder',
  max: 'org.elasticsearch.search.aggregations.metrics.max.MaxAggregationBuilder',
  stats: 'org.elasticsearch.search.aggregations.metrics.stats.StatsAggregationBuilder',
  filter: 'org.elasticsearch.search.aggregations.bucket.filter.FilterAggregationBuilder',
};

const MULTI_BUCKET = new Set([
  'terms',
  'histogram',
  'date_histogram',
  'range',
  'date_range',
  'ip_range',
  'filters',
  'adjacency_matrix',
  'composite',
  'significant_terms',
]);

/** BucketMetricsPipelineAggregationBuilder.doValidate. */
function validate(node: AggNode, siblings: readonly AggNode[]): void {
  const p = node.params as Params;
  const first = p.path.split(/[>.]/)[0]!;
  const agg = siblings.find((s) => s.name === first);
  if (!agg) {
    throw illegalArgument(
      `buckets_path aggregation does not exist for aggregation [${node.name}]: ${p.path}`,
    );
  }
  if (!MULTI_BUCKET.has(agg.type) || !AGGS.has(agg.type)) {
    throw illegalArgument(
      `The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation [${node.name}] found :${CLASS_NAMES[agg.type] ?? agg.type} for buckets path: ${p.path}`,
    );
  }
}

/** BucketMetricsPipelineAggregator.doReduce: the (key, value) pairs of the path's buckets. */
function collectValues(
  node: AggNode,
  siblings: InternalAgg[],
): Array<{ key: string; value: number }> {
  const p = node.params as Params;
  const path = pathStrings(p.path);
  const out: Array<{ key: string; value: number }> = [];
  for (const agg of siblings) {
    if (agg.name !== path[0]) continue;
    if (!isMultiBucket(agg)) continue;
    const rest = path.slice(1);
    const spec = resultSpec(agg);
    for (const b of (agg as MultiBucketInternal).buckets) {
      const v = resolveBucketValue(agg as MultiBucketInternal, b, rest, p.gapPolicy);
      if (!Number.isNaN(v))
        out.push({ key: spec.keyAsString ? spec.keyAsString(agg, b) : String(b.key), value: v });
    }
  }
  return out;
}

export interface InternalPercentilesBucket extends InternalAgg {
  percents: number[];
  values: number[];
  format: DocFormat;
}

registerResult<InternalPercentilesBucket>('percentiles_bucket', {
  reduce: () => {
    throw new EsError('unsupported_operation_exception', 'Not supported', 500);
  },
  render: (a) => {
    const values: Record<string, unknown> = {};
    a.percents.forEach((pct, i) => {
      const key = javaDoubleToString(pct);
      const v = a.values[i]!;
      const has = Number.isFinite(v);
      values[key] = has ? jnum(v) : null;
      if (has && a.format !== RAW) values[`${key}_as_string`] = formatToString(a.format, v);
    });
    return { values };
  },
  typedType: () => 'percentiles_bucket',
  value: (a, key) => {
    const i = a.percents.indexOf(Number(key));
    if (i < 0) {
      throw illegalArgument(
        `Percent requested [${key}] was not one of the computed percentiles.  Available keys are: [${a.percents.join(', ')}]`,
      );
    }
    return a.values[i]!;
  },
  valueNames: (a) => a.percents.map((x) => String(x)),
});

// stats_bucket / extended_stats_bucket render like stats / extended_stats under their own type
for (const [result, base] of [
  ['stats_bucket', 'stats'],
  ['extended_stats_bucket', 'extended_stats'],
] as const) {
  registerResult<InternalStats>(result, {
    reduce: () => {
      throw new EsError('unsupported_operation_exception', 'Not supported', 500);
    },
    render: (a, rc) =>
      resultSpec({ ...a, spec: base } as InternalAgg).render(
        { ...a, spec: base } as InternalAgg,
        rc,
      ),
    typedType: () => result,
    value: (a, key) => statsValue(a, key),
    valueNames: () => ['count', 'sum', 'min', 'max', 'avg'],
  });
}

function compute(kind: Kind, node: AggNode, siblings: InternalAgg[]): InternalAgg {
  const p = node.params as Params;
  const format = pipelineFormat(p.format);
  const values = collectValues(node, siblings);
  switch (kind) {
    case 'avg_bucket': {
      let sum = 0;
      for (const v of values) sum += v.value;
      return simpleValue(node, values.length === 0 ? NaN : sum / values.length, format);
    }
    case 'sum_bucket': {
      let sum = 0;
      for (const v of values) sum += v.value;
      return simpleValue(node, sum, format);
    }
    case 'max_bucket':
    case 'min_bucket': {
      const isMax = kind === 'max_bucket';
      let best = isMax ? -Infinity : Infinity;
      let keys: string[] = [];
      for (const { key, value } of values) {
        if (isMax ? value > best : value < best) {
          keys = [key];
          best = value;
        } else if (value === best) keys.push(key);
      }
      const r: InternalBucketMetricValue = {
        spec: 'bucket_metric_value',
        name: node.name,
        meta: node.meta,
        node,
        value: best,
        keys,
        format,
      };
      return r;
    }
    case 'stats_bucket':
    case 'extended_stats_bucket': {
      let sum = 0;
      let min = Infinity;
      let max = -Infinity;
      let sq = 0;
      for (const { value } of values) {
        sum += value;
        min = Math.min(min, value);
        max = Math.max(max, value);
        sq += value * value;
      }
      const r: InternalStats = {
        spec: kind,
        kind: kind === 'stats_bucket' ? 'stats' : 'extended_stats',
        name: node.name,
        meta: node.meta,
        node,
        count: values.length,
        sum,
        min,
        max,
        sumOfSqrs: sq,
        sigma: p.sigma,
        format,
      };
      return r;
    }
    case 'percentiles_bucket': {
      const data = values.map((v) => v.value).sort((a, b) => a - b);
      const out = p.percents.map((pct) => {
        if (data.length === 0) return NaN;
        const index = Math.floor((pct / 100) * (data.length - 1) + 0.5);
        return data[index]!;
      });
      const r: InternalPercentilesBucket = {
        spec: 'percentiles_bucket',
        name: node.name,
        meta: node.meta,
        node,
        percents: p.percents,
        values: out,
        format,
      };
      return r;
    }
  }
}

for (const kind of [
  'avg_bucket',
  'max_bucket',
  'min_bucket',
  'sum_bucket',
  'stats_bucket',
  'extended_stats_bucket',
  'percentiles_bucket',
] as const) {
  registerPipeline<Params>({
    type: kind,
    category: 'pipeline',
    kind: 'sibling',
    parse: (json, name) => parse(kind, json, name),
    bucketsPaths: (p) => [p.path],
    validate: (node, _parent, siblings) => validate(node, siblings),
    computeSibling: (node, siblings) => compute(kind, node, siblings),
  });
}
