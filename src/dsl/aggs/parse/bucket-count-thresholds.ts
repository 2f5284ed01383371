/**
 * `size`, `shard_size`, `min_doc_count`, `shard_min_doc_count` of the terms family (ES
 * TermsAggregator.BucketCountThresholds), shared by terms and significant_terms: the same names,
 * kinds and validation messages.
 */
import { illegalArgument } from '../../../common/errors.js';
import type { FieldDecl } from './object-parser.js';

export interface BucketCountThresholds {
  size: number;
  /** -1 = derived from size (each aggregation has its own rule). */
  shardSize: number;
  minDocCount: number;
  shardMinDocCount: number;
}

/** Field declarations for parseObject that write into `p`; `name` is the aggregation's name. */
export function bucketCountDecls(p: BucketCountThresholds, name: string): FieldDecl[] {
  const positive = (field: string, v: number) => {
    if (v <= 0)
      throw illegalArgument(`[${field}] must be greater than 0. Found [${v}] in [${name}]`);
    return v;
  };
  const nonNegative = (field: string, v: number) => {
    if (v < 0)
      throw illegalArgument(
        `[${field}] must be greater than or equal to 0. Found [${v}] in [${name}]`,
      );
    return v;
  };
  return [
    { names: ['size'], kind: 'int', set: (v) => (p.size = positive('size', v as number)) },
    {
      names: ['shard_size'],
      kind: 'int',
      set: (v) => (p.shardSize = positive('shardSize', v as number)),
    },
    {
      names: ['min_doc_count'],
      kind: 'long',
      set: (v) => (p.minDocCount = nonNegative('minDocCount', v as number)),
    },
    {
      names: ['shard_min_doc_count'],
      kind: 'long',
      set: (v) => (p.shardMinDocCount = nonNegative('shardMinDocCount', v as number)),
    },
  ];
}
