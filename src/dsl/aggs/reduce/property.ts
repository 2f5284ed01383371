/**
 * Reading values out of reduced aggregations by path (ES InternalAggregation.getProperty and
 * BucketHelpers.resolveBucketValue): `_count`, `_key`, `_bucket_count`, single-bucket descent,
 * metric values (`avg`, `stats.max`, `percentiles.99`), with gap policies for pipelines.
 */
import { EsError } from '../../../common/errors.js';
import { resultSpec } from '../registry.js';
import { parseAggPath } from '../support/agg-path.js';
import type {
  InternalAgg,
  InternalBucket,
  MultiBucketInternal,
  SingleBucketInternal,
} from '../types.js';

export type GapPolicy = 'skip' | 'insert_zeros';

const pathError = (msg: string) => new EsError('invalid_aggregation_path_exception', msg, 500);
const execError = (msg: string) => new EsError('aggregation_execution_exception', msg, 500);

export function isMultiBucket(agg: InternalAgg): agg is MultiBucketInternal {
  return Array.isArray((agg as MultiBucketInternal).buckets);
}

export function isSingleBucket(agg: InternalAgg): agg is SingleBucketInternal {
  return (
    !isMultiBucket(agg) &&
    Array.isArray((agg as SingleBucketInternal).aggs) &&
    typeof (agg as SingleBucketInternal).docCount === 'number'
  );
}

/** AggregationPath.getPathElementsAsStringList. */
export function pathStrings(path: string): string[] {
  const out: string[] = [];
  for (const e of parseAggPath(path)) {
    out.push(e.name);
    if (e.key !== null) out.push(e.key);
  }
  return out;
}

/** A bucket key as buckets_path `_key` returns it (numbers for numeric keys). */
export function bucketProperty(
  bucket: InternalBucket,
  containing: string,
  path: readonly string[],
): unknown {
  if (path.length === 0) return bucket;
  const name = path[0]!;
  if (name === '_count') {
    if (path.length > 1) throw pathError('_count must be the last element in the path');
    return bucket.docCount;
  }
  if (name === '_key') {
    if (path.length > 1) throw pathError('_key must be the last element in the path');
    return bucket.key;
  }
  const agg = bucket.aggs.find((a) => a.name === name);
  if (!agg) throw pathError(`Cannot find an aggregation named [${name}] in [${containing}]`);
  return aggProperty(agg, path.slice(1));
}

export function aggProperty(agg: InternalAgg, path: readonly string[]): unknown {
  if (path.length === 0) return agg;
  if (isMultiBucket(agg)) {
    if (path[0] === '_bucket_count') return agg.buckets.length;
    return agg.buckets.map((b) => bucketProperty(b, agg.name, path));
  }
  if (isSingleBucket(agg)) {
    const name = path[0]!;
    if (name === '_count' || name === 'doc_count') return agg.docCount;
    const sub = agg.aggs.find((a) => a.name === name);
    if (!sub) throw pathError(`Cannot find an aggregation named [${name}] in [${agg.name}]`);
    return aggProperty(sub, path.slice(1));
  }
  const spec = resultSpec(agg);
  if (!spec.value) throw pathError(`path not supported for [${agg.name}]: ${JSON.stringify(path)}`);
  if (path.length === 1) {
    if (!spec.valueNames) {
      if (path[0] !== 'value')
        throw pathError(`path not supported for [${agg.name}]: [${path.join(', ')}]`);
      return spec.value(agg, null);
    }
    return spec.value(agg, path[0]!);
  }
  throw pathError(`path not supported for [${agg.name}]: [${path.join(', ')}]`);
}

/** Whether a result is a single-value numeric metric (usable as a number at the end of a path). */
export function singleValue(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && 'spec' in v) {
    const agg = v as InternalAgg;
    const spec = resultSpec(agg);
    if (spec.value && !spec.valueNames && !isMultiBucket(agg) && !isSingleBucket(agg))
      return spec.value(agg, null);
  }
  return null;
}

/** BucketHelpers.resolveBucketValue. */
export function resolveBucketValue(
  agg: MultiBucketInternal,
  bucket: InternalBucket,
  path: string | readonly string[],
  gap: GapPolicy,
): number {
  const elements = typeof path === 'string' ? pathStrings(path) : path;
  const prop = bucketProperty(bucket, agg.name, elements);
  if (prop === null || prop === undefined) {
    throw execError(
      'buckets_path must reference either a number value or a single value numeric metric aggregation',
    );
  }
  let value: number;
  if (typeof prop === 'number') value = prop;
  else {
    const v = singleValue(prop);
    if (v === null) {
      const got = Array.isArray(prop) ? 'array' : ((prop as InternalAgg).spec ?? typeof prop);
      throw execError(
        `buckets_path must reference either a number value or a single value numeric metric aggregation, got: [${got}] at aggregation [${elements[elements.length - 1]}]`,
      );
    }
    value = v;
  }
  const isDocCount = elements.length === 1 && elements[0] === '_count';
  if (!Number.isFinite(value) || (bucket.docCount === 0 && !isDocCount)) {
    return gap === 'insert_zeros' ? 0 : NaN;
  }
  return value;
}

/** InternalMultiBucketAggregation.countInnerBucket: buckets nested inside a bucket's sub-aggregations. */
export function countInnerBuckets(bucket: { aggs: readonly InternalAgg[] }): number {
  let n = 0;
  for (const a of bucket.aggs) n += countAggBuckets(a);
  return n;
}

function countAggBuckets(agg: InternalAgg): number {
  if (isMultiBucket(agg)) {
    let n = 0;
    for (const b of agg.buckets) n += 1 + countInnerBuckets(b);
    return n;
  }
  if (isSingleBucket(agg)) return countInnerBuckets(agg);
  return 0;
}
