/**
 * Shared parts of pipeline aggregations: parsing of `buckets_path` / `gap_policy` / `format`
 * (ES AbstractPipelineAggregationBuilder and the hand-written pipeline parsers), the result types
 * they produce (InternalSimpleValue `simple_value`, InternalBucketMetricValue
 * `bucket_metric_value`, InternalDerivative), and the parent checks
 * (validateSequentiallyOrderedParentAggs, sibling-only at the top level).
 */
import { EsError, parsingException } from '../../../common/errors.js';
import { isObj, tokenOf, type Token } from '../parse/object-parser.js';
import type { GapPolicy } from '../reduce/property.js';
import { registerResult } from '../registry.js';
import { decimalFormat, formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import { jnum } from '../support/json.js';
import type { AggNode, InternalAgg, InternalBucket } from '../types.js';

export function parseGapPolicy(text: string): GapPolicy {
  if (text === 'skip') return 'skip';
  if (text === 'insert_zeros') return 'insert_zeros';
  throw parsingException(`Invalid gap policy: [${text}], accepted values: [skip, insert_zeros]`);
}

export function pipelineFormat(format: string | null): DocFormat {
  return format === null ? RAW : decimalFormat(format);
}

export interface FieldHandler {
  /** Returns true when the field was consumed. */
  (key: string, value: unknown, tok: Token): boolean;
}

/**
 * The hand-written parser loop shared by pipeline aggregations: `buckets_path` (string or array),
 * `format`, `gap_policy`, plus aggregation-specific fields through `extra`.
 */
export function parsePipelineObject(
  type: string,
  name: string,
  json: unknown,
  extra: FieldHandler,
  opts: { gapPolicy?: boolean } = {},
): { bucketsPaths: string[] | null; format: string | null; gapPolicy: GapPolicy | null } {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  let bucketsPaths: string[] | null = null;
  let format: string | null = null;
  let gapPolicy: GapPolicy | null = null;
  for (const [k, v] of Object.entries(json)) {
    const tok = tokenOf(v);
    if (tok === 'VALUE_STRING' && k === 'buckets_path') bucketsPaths = [v as string];
    else if (tok === 'START_ARRAY' && k === 'buckets_path')
      bucketsPaths = (v as unknown[]).map(pathText);
    else if (tok === 'VALUE_STRING' && k === 'format') format = v as string;
    else if (tok === 'VALUE_STRING' && k === 'gap_policy' && opts.gapPolicy !== false)
      gapPolicy = parseGapPolicy(v as string);
    else if (!extra(k, v, tok)) {
      if (tok === 'START_OBJECT' || tok === 'START_ARRAY' || tok === 'VALUE_NULL') {
        throw parsingException(`Unexpected token ${tok} [${k}] in [${name}].`);
      }
      throw parsingException(`Unknown key for a ${tok} in [${name}]: [${k}].`);
    }
  }
  void type;
  return { bucketsPaths, format, gapPolicy };
}

/** XContentParser.text() of one buckets_path entry: scalars as text, containers ES's 500. */
function pathText(x: unknown): string {
  if (x !== null && typeof x === 'object')
    throw new EsError('illegal_state_exception', `Can't get text on a ${tokenOf(x)}`, 500);
  return String(x);
}

export function missingBucketsPath(name: string, what = 'aggregation'): EsError {
  return parsingException(`Missing required field [buckets_path] for ${what} [${name}]`);
}

// ---- result types -------------------------------------------------------------------------------

export interface InternalSimpleValue extends InternalAgg {
  value: number;
  format: DocFormat;
}

export function simpleValue(node: AggNode, value: number, format: DocFormat): InternalSimpleValue {
  return { spec: 'simple_value', name: node.name, meta: node.meta, node, value, format };
}

function valueWithString(
  value: number,
  format: DocFormat,
  hasValue: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = { value: hasValue ? jnum(value) : null };
  if (hasValue && format !== RAW) out.value_as_string = formatToString(format, value);
  return out;
}

registerResult<InternalSimpleValue>('simple_value', {
  reduce: () => {
    throw new EsError('unsupported_operation_exception', 'Not supported', 500);
  },
  render: (a) => valueWithString(a.value, a.format, Number.isFinite(a.value)),
  typedType: () => 'simple_value',
  value: (a) => a.value,
});

export interface InternalBucketMetricValue extends InternalAgg {
  value: number;
  keys: string[];
  format: DocFormat;
}

registerResult<InternalBucketMetricValue>('bucket_metric_value', {
  reduce: () => {
    throw new EsError('unsupported_operation_exception', 'Not supported', 500);
  },
  render: (a) => ({
    ...valueWithString(a.value, a.format, a.value !== Infinity && a.value !== -Infinity),
    keys: a.keys,
  }),
  typedType: () => 'bucket_metric_value',
  value: (a, key) => {
    if (key === null || key === 'value') return a.value;
    throw new EsError(
      'invalid_aggregation_path_exception',
      `path not supported for [${a.name}]: [${key}]`,
      500,
    );
  },
});

export interface InternalDerivative extends InternalSimpleValue {
  normalizationFactor: number;
}

registerResult<InternalDerivative>('derivative', {
  reduce: () => {
    throw new EsError('unsupported_operation_exception', 'Not supported', 500);
  },
  render: (a) => {
    const out = valueWithString(a.value, a.format, Number.isFinite(a.value));
    if (a.normalizationFactor > 0) {
      const nv = a.value / a.normalizationFactor;
      const has = Number.isFinite(nv);
      out.normalized_value = has ? jnum(nv) : null;
      if (has && a.format !== RAW) out.normalized_value_as_string = formatToString(a.format, nv);
    }
    return out;
  },
  typedType: () => 'derivative',
  value: (a, key) => (key === 'normalized_value' ? a.value / a.normalizationFactor : a.value),
});

// ---- validation ---------------------------------------------------------------------------------

/** AbstractPipelineAggregationBuilder.validateSequentiallyOrderedParentAggs. */
export function validateHistogramParent(parent: AggNode | null, type: string, name: string): void {
  if (!parent || (parent.type !== 'histogram' && parent.type !== 'date_histogram')) {
    throw new EsError(
      'illegal_state_exception',
      `${type} aggregation [${name}] must have a histogram, date_histogram or auto_date_histogram as parent`,
      500,
    );
  }
  if ((parent.params as { minDocCount: number }).minDocCount !== 0) {
    throw new EsError(
      'illegal_state_exception',
      `parent histogram of ${type} aggregation [${name}] must have min_doc_count of 0`,
      500,
    );
  }
}

/** AggregationPhase: only sibling pipelines may sit at the top level. */
export function validateNotTopLevel(parent: AggNode | null, node: AggNode): void {
  if (!parent) {
    throw new EsError(
      'aggregation_execution_exception',
      `Invalid pipeline aggregation named [${node.name}] of type [${node.type}]. Only sibling pipeline aggregations are allowed at the top level`,
      500,
    );
  }
}

/** A new bucket with one more aggregation (InternalMultiBucketAggregation.createBucket). */
export function withAgg<B extends InternalBucket>(b: B, agg: InternalAgg): B {
  return { ...b, aggs: [...b.aggs, agg] };
}
