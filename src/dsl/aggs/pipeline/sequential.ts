/**
 * Pipelines over the ordered buckets of a histogram/date_histogram (ES Derivative-,
 * CumulativeSum-, SerialDiff-, MovFn- and MovAvgPipelineAggregator): derivative (with `unit`
 * normalisation), cumulative_sum, serial_diff (lag), moving_fn (a script over the window's values)
 * and the deprecated moving_avg (simple, linear, ewma, holt, holt_winters models, predictions).
 */
import { EsError, illegalArgument, parsingException } from '../../../common/errors.js';
import {
  compileScript,
  parseScriptSpec,
  type CompiledScript,
  type ScriptSpec,
} from '../../script/index.js';
import {
  ewma,
  holtForecast,
  holtWintersForecast,
  linearWeightedAvg,
  unweightedAvg,
} from '../../script/builtins.js';
import { toDouble, toLong } from '../parse/object-parser.js';
import { resolveBucketValue, type GapPolicy } from '../reduce/property.js';
import { registerPipeline, type ParseContext } from '../registry.js';
import { addWarning } from '../support/bucket-consumer.js';
import { DATE_FIELD_UNITS, parseTimeValue } from '../support/dates.js';
import type { HistogramBucket, InternalHistogram } from '../bucket/histogram.js';
import type { AggNode, InternalAgg, ReduceContext } from '../types.js';
import {
  missingBucketsPath,
  parsePipelineObject,
  pipelineFormat,
  simpleValue,
  validateHistogramParent,
  withAgg,
  type InternalDerivative,
} from './common.js';

interface SeqParams {
  path: string;
  format: string | null;
  gapPolicy: GapPolicy;
  unit: string | null;
  lag: number;
  window: number;
  script: ScriptSpec | null;
  model: string;
  settings: Record<string, unknown>;
  predict: number;
  minimize: boolean;
}

type Kind = 'derivative' | 'cumulative_sum' | 'serial_diff' | 'moving_fn' | 'moving_avg';

const MODELS = new Set(['simple', 'linear', 'ewma', 'holt', 'holt_winters']);

function parseSeq(kind: Kind, json: unknown, name: string, pc: ParseContext): SeqParams {
  const p: SeqParams = {
    path: '',
    format: null,
    gapPolicy: 'skip',
    unit: null,
    lag: 1,
    window: kind === 'moving_avg' ? 5 : -1,
    script: null,
    model: 'simple',
    settings: {},
    predict: 0,
    minimize: false,
  };
  let windowSet = false;
  const r = parsePipelineObject(
    kind,
    name,
    json,
    (k, v, tok) => {
      if (kind === 'derivative' && k === 'unit' && tok === 'VALUE_STRING') p.unit = v as string;
      else if (kind === 'serial_diff' && k === 'lag' && tok === 'VALUE_NUMBER') {
        p.lag = toLong(v);
        if (p.lag <= 0) throw illegalArgument(`[lag] must be a positive integer: [${name}]`);
      } else if (
        (kind === 'moving_fn' || kind === 'moving_avg') &&
        k === 'window' &&
        (tok === 'VALUE_NUMBER' || tok === 'VALUE_STRING')
      ) {
        p.window = toLong(v);
        windowSet = true;
        if (kind === 'moving_fn' && p.window <= 0)
          throw illegalArgument('[window] must be a positive, non-zero integer.');
        if (kind === 'moving_avg' && p.window <= 0) {
          throw parsingException(
            `[window] value must be a positive, non-zero integer.  Value supplied was [${p.window}] in [${name}].`,
          );
        }
      } else if (kind === 'moving_fn' && k === 'script') p.script = parseScriptSpec(v);
      else if (kind === 'moving_avg' && k === 'model' && tok === 'VALUE_STRING') {
        if (!MODELS.has(v as string))
          throw parsingException(
            `Unknown model [${String(v)}] specified.  Valid options are:[simple, linear, ewma, holt, holt_winters]`,
          );
        p.model = v as string;
      } else if (kind === 'moving_avg' && k === 'settings' && tok === 'START_OBJECT')
        p.settings = v as Record<string, unknown>;
      else if (kind === 'moving_avg' && k === 'predict' && tok === 'VALUE_NUMBER') {
        p.predict = toLong(v);
        if (p.predict <= 0)
          throw parsingException(
            `[predict] value must be a positive integer.  Value supplied was [${p.predict}] in [${name}].`,
          );
      } else if (kind === 'moving_avg' && k === 'minimize' && tok === 'VALUE_BOOLEAN')
        p.minimize = v as boolean;
      else return false;
      return true;
    },
    { gapPolicy: kind !== 'cumulative_sum' },
  );
  if (!r.bucketsPaths) {
    throw kind === 'cumulative_sum' ||
      kind === 'derivative' ||
      kind === 'serial_diff' ||
      kind === 'moving_avg'
      ? missingBucketsPath(name, kind === 'derivative' ? 'derivative aggregation' : 'aggregation')
      : missingBucketsPath(name);
  }
  if (r.bucketsPaths.length !== 1) {
    throw new EsError(
      'illegal_state_exception',
      `buckets_path must contain a single entry for aggregation [${name}]`,
      500,
    );
  }
  p.path = r.bucketsPaths[0]!;
  p.format = r.format;
  if (r.gapPolicy) p.gapPolicy = r.gapPolicy;
  if (kind === 'moving_fn') {
    if (!p.script) throw parsingException(`[moving_fn] required field [script] missing`);
    if (!windowSet) throw parsingException(`[moving_fn] required field [window] missing`);
  }
  if (kind === 'moving_avg') {
    addWarning(
      pc.warnings,
      'The moving_avg aggregation has been deprecated in favor of the moving_fn aggregation.',
    );
    if (p.minimize && (p.model === 'simple' || p.model === 'linear')) {
      throw new EsError(
        'illegal_state_exception',
        `The [${p.model}] model cannot be minimized for aggregation [${name}]`,
        500,
      );
    }
  }
  return p;
}

function histogram(agg: InternalAgg): InternalHistogram {
  return agg as InternalHistogram;
}

/** DerivativePipelineAggregationBuilder: `unit` as a calendar unit or a time value, in millis. */
function unitMillis(unit: string): number {
  const cal = DATE_FIELD_UNITS[unit];
  if (cal) {
    // Joda duration field unit millis (months and years are average lengths)
    const m: Record<string, number> = {
      year: 31556952000,
      quarter: 7889238000,
      month: 2629746000,
      week: 604800000,
      day: 86400000,
      hour: 3600000,
      minute: 60000,
      second: 1000,
    };
    return m[cal]!;
  }
  return parseTimeValue(unit, 'DerivativePipelineAggregationBuilder.unit');
}

function derivative(node: AggNode, agg: InternalAgg): InternalHistogram {
  const p = node.params as SeqParams;
  const h = histogram(agg);
  const format = pipelineFormat(p.format);
  const xAxisUnits = p.unit !== null ? unitMillis(p.unit) : null;
  let lastKey: number | null = null;
  let lastValue: number | null = null;
  const buckets = h.buckets.map((b) => {
    const key = b.numKey;
    const value = resolveBucketValue(h, b, p.path, p.gapPolicy);
    let out: HistogramBucket = b;
    if (lastValue !== null) {
      const gradient = value - lastValue;
      const xDiff = xAxisUnits !== null ? (key - lastKey!) / xAxisUnits : -1;
      const d: InternalDerivative = {
        ...simpleValue(node, gradient, format),
        spec: 'derivative',
        normalizationFactor: xDiff,
      };
      out = withAgg(b, d);
    }
    lastKey = key;
    lastValue = value;
    return out;
  });
  return { ...h, buckets };
}

function cumulativeSum(node: AggNode, agg: InternalAgg): InternalHistogram {
  const p = node.params as SeqParams;
  const h = histogram(agg);
  const format = pipelineFormat(p.format);
  let sum = 0;
  const buckets = h.buckets.map((b) => {
    const v = resolveBucketValue(h, b, p.path, 'insert_zeros');
    if (Number.isFinite(v)) sum += v;
    return withAgg(b, simpleValue(node, sum, format));
  });
  return { ...h, buckets };
}

function serialDiff(node: AggNode, agg: InternalAgg): InternalHistogram {
  const p = node.params as SeqParams;
  const h = histogram(agg);
  const format = pipelineFormat(p.format);
  const window: number[] = [];
  let counter = 0;
  const buckets = h.buckets.map((b) => {
    const v = resolveBucketValue(h, b, p.path, p.gapPolicy);
    counter++;
    const lagValue = counter <= p.lag ? NaN : window[0]!;
    let out: HistogramBucket = b;
    if (!Number.isNaN(v) && !Number.isNaN(lagValue))
      out = withAgg(b, simpleValue(node, v - lagValue, format));
    window.push(v);
    if (window.length > p.lag) window.shift();
    return out;
  });
  return { ...h, buckets };
}

const movFnScripts = new WeakMap<AggNode, CompiledScript>();

function movingFn(node: AggNode, agg: InternalAgg, rc: ReduceContext): InternalHistogram {
  const p = node.params as SeqParams;
  const h = histogram(agg);
  const format = pipelineFormat(p.format);
  let script = movFnScripts.get(node);
  if (!script) {
    script = compileScript(p.script!.source, {
      lang: p.script!.lang,
      params: p.script!.params,
      methods: rc.scriptMethods,
      variables: ['values'],
    });
    movFnScripts.set(node, script);
  }
  const values: number[] = [];
  const buckets = h.buckets.map((b) => {
    const v = resolveBucketValue(h, b, p.path, p.gapPolicy);
    if (Number.isNaN(v)) return b;
    const r = script!.evaluate({ params: { ...p.script!.params }, values: values.slice() });
    const out = withAgg(b, simpleValue(node, typeof r === 'number' ? r : Number(r), format));
    values.push(v);
    if (values.length > p.window) values.shift();
    return out;
  });
  return { ...h, buckets };
}

function setting(p: SeqParams, name: string, dflt: number): number {
  const v = p.settings[name];
  return v === undefined ? dflt : toDouble(v);
}

interface Model {
  hasValue(n: number): boolean;
  next(values: number[]): number;
  predict(values: number[], n: number): number[];
}

function model(p: SeqParams): Model {
  const repeat = (f: (v: number[]) => number): Model => ({
    hasValue: (n) => n > 0,
    next: f,
    predict: (v, n) => new Array<number>(n).fill(v.length === 0 ? NaN : f(v)),
  });
  switch (p.model) {
    case 'linear':
      return repeat(linearWeightedAvg);
    case 'ewma': {
      const alpha = setting(p, 'alpha', 0.3);
      return repeat((v) => ewma(v, alpha));
    }
    case 'holt': {
      const alpha = setting(p, 'alpha', 0.3);
      const beta = setting(p, 'beta', 0.1);
      return {
        hasValue: (n) => n > 0,
        next: (v) => (v.length === 0 ? NaN : holtForecast(v, alpha, beta, 1)[0]!),
        predict: (v, n) =>
          v.length === 0 ? new Array<number>(n).fill(NaN) : holtForecast(v, alpha, beta, n),
      };
    }
    case 'holt_winters': {
      const alpha = setting(p, 'alpha', 0.3);
      const beta = setting(p, 'beta', 0.1);
      const gamma = setting(p, 'gamma', 0.3);
      const period = Math.trunc(setting(p, 'period', 1));
      const multiplicative = p.settings.type === 'mult';
      const pad = p.settings.pad === true;
      const padding = multiplicative && pad ? 0.0000000001 : 0;
      return {
        hasValue: (n) => n >= period * 2,
        next: (v) =>
          holtWintersForecast(v, alpha, beta, gamma, period, padding, multiplicative, 1)[0]!,
        predict: (v, n) =>
          holtWintersForecast(v, alpha, beta, gamma, period, padding, multiplicative, n),
      };
    }
    default:
      return repeat(unweightedAvg);
  }
}

function movingAvg(node: AggNode, agg: InternalAgg, rc: ReduceContext): InternalHistogram {
  const p = node.params as SeqParams;
  const h = histogram(agg);
  const format = pipelineFormat(p.format);
  const m = model(p);
  const values: number[] = [];
  let lastValidKey = 0;
  let lastValidPosition = 0;
  let counter = 0;
  const buckets: HistogramBucket[] = [];
  for (const b of h.buckets) {
    const v = resolveBucketValue(h, b, p.path, p.gapPolicy);
    let out = b;
    if (!Number.isNaN(v)) {
      if (m.hasValue(values.length)) out = withAgg(b, simpleValue(node, m.next(values), format));
      if (p.predict > 0) {
        lastValidKey = b.numKey;
        lastValidPosition = counter;
      }
      values.push(v);
      if (values.length > p.window) values.shift();
    }
    counter++;
    buckets.push(out);
  }
  if (h.buckets.length > 0 && p.predict > 0) {
    const predictions =
      values.length === 0 ? new Array<number>(p.predict).fill(NaN) : m.predict(values, p.predict);
    const next = h.empty?.next;
    if (!next) throw new EsError('null_pointer_exception', null, 500);
    predictions.forEach((pred, i) => {
      const newKey = next(lastValidKey);
      const pos = lastValidPosition + i + 1;
      const value = simpleValue(node, pred, format);
      if (pos < buckets.length) {
        const existing = buckets[pos]!;
        buckets[pos] = {
          ...existing,
          numKey: newKey,
          key: h.kind === 'histogram' ? newKey : new Date(newKey),
          aggs: [...existing.aggs, value],
        };
      } else {
        rc.consumer.accept(0);
        buckets.push({
          numKey: newKey,
          key: h.kind === 'histogram' ? newKey : new Date(newKey),
          docCount: 0,
          aggs: [value],
        });
      }
      lastValidKey = newKey;
    });
  }
  return { ...h, buckets };
}

const APPLY: Record<Kind, (node: AggNode, agg: InternalAgg, rc: ReduceContext) => InternalAgg> = {
  derivative,
  cumulative_sum: cumulativeSum,
  serial_diff: serialDiff,
  moving_fn: movingFn,
  moving_avg: movingAvg,
};

for (const kind of [
  'derivative',
  'cumulative_sum',
  'serial_diff',
  'moving_fn',
  'moving_avg',
] as const) {
  registerPipeline<SeqParams>({
    type: kind,
    category: 'pipeline',
    kind: 'parent',
    parse: (json, name, pc) => parseSeq(kind, json, name, pc),
    bucketsPaths: (p) => [p.path],
    validate: (node, parent) => validateHistogramParent(parent, kind, node.name),
    applyToParent: APPLY[kind],
  });
}
