/**
 * percentiles, percentile_ranks (t-digest, ES TDigestPercentilesAggregator /
 * InternalTDigestPercentiles(Ranks), or `hdr`: HDRPercentilesAggregator with HdrHistogram's
 * DoubleHistogram) and median_absolute_deviation (ES MedianAbsoluteDeviationAggregator): one
 * state per bucket, merged on reduce. Keys render as Java doubles ("99.0"); `keyed: false` gives
 * a list of {key, value}. Empty states give NaN ("NaN" in JSON) for percentiles and null for
 * MAD, as 6.8 does.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import { javaDoubleToString } from '../../script/index.js';
import type { Aggregator, AggregatorContext, AggSegment } from '../collect/aggregator.js';
import { isObj, parseObject, tokenOf, toDouble } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import { jnum } from '../support/json.js';
import { NumericReader, resolveValues, type ResolvedValues } from '../support/values-source.js';
import type { AggNode, InternalAgg } from '../types.js';
import { DoubleHistogram } from './hdr-histogram.js';
import { TDigest } from './tdigest.js';
import { valueBody } from './metric-base.js';

type Kind = 'percentiles' | 'percentile_ranks' | 'median_absolute_deviation';

interface Params {
  source: ValuesSourceParams;
  keys: number[];
  keyed: boolean;
  compression: number;
  method: 'tdigest' | 'hdr';
  /** hdr.number_of_significant_value_digits */
  digits: number;
}

export interface InternalPercentiles extends InternalAgg {
  kind: Kind;
  digest: TDigest;
  /** The state with `hdr` (digest is then an unused empty t-digest). */
  hdr: DoubleHistogram | null;
  keys: number[];
  keyed: boolean;
  format: DocFormat;
}

const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

function parsePercentiles(kind: Kind, json: unknown, name: string): Params {
  const p: Params = {
    source: emptyValuesSource(),
    keys: kind === 'percentiles' ? DEFAULT_PERCENTS : [],
    keyed: true,
    compression: kind === 'median_absolute_deviation' ? 1000 : 100,
    method: 'tdigest',
    digits: 3,
  };
  let valuesSet = false;
  const checkCompression = (c: number) => {
    if (kind === 'median_absolute_deviation') {
      if (c <= 0) {
        throw illegalArgument(
          `[compression] must be greater than 0. Found [${javaDoubleToString(c)}] in [${name}]`,
        );
      }
    } else if (c < 0) {
      throw illegalArgument(
        `[compression] must be greater than or equal to 0. Found [${javaDoubleToString(c)}] in [${name}]`,
      );
    }
    p.compression = c;
  };
  let methods = 0;
  const decls = [...valuesSourceDecls(kind, p.source, { target: 'numeric' })];
  if (kind === 'median_absolute_deviation') {
    decls.push({
      names: ['compression'],
      kind: 'double',
      set: (v) => checkCompression(v as number),
    });
  } else {
    decls.push(
      { names: ['keyed'], kind: 'boolean', set: (v) => (p.keyed = v as boolean) },
      {
        names: [kind === 'percentiles' ? 'percents' : 'values'],
        kind: 'double_array',
        set: (v) => {
          valuesSet = true;
          p.keys = [...(v as number[])].sort((a, b) => a - b);
        },
      },
      {
        names: ['tdigest'],
        kind: 'object',
        set: (v) => {
          methods++;
          p.method = 'tdigest';
          for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
            if (k !== 'compression')
              throw new EsError(
                'x_content_parse_exception',
                `[tdigest] unknown field [${k}], parser not found`,
                400,
              );
            checkCompression(toDouble(x));
          }
        },
      },
      {
        names: ['hdr'],
        kind: 'object',
        set: (v) => {
          methods++;
          p.method = 'hdr';
          for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
            if (k !== 'number_of_significant_value_digits') {
              throw new EsError(
                'x_content_parse_exception',
                `[hdr] unknown field [${k}], parser not found`,
                400,
              );
            }
            const d = Math.trunc(toDouble(x));
            if (d < 0 || d > 5)
              throw illegalArgument(
                `[numberOfSignificantValueDigits] must be between 0 and 5: [${name}]`,
              );
            p.digits = d;
          }
        },
      },
    );
  }
  parseObject(kind, json, decls);
  if (methods > 1)
    throw new EsError(
      'illegal_state_exception',
      'Only one percentiles method should be declared.',
      500,
    );
  if (
    kind !== 'median_absolute_deviation' &&
    p.keys.length === 0 &&
    (valuesSet || kind === 'percentiles')
  ) {
    throw illegalArgument(
      `[${kind === 'percentiles' ? 'percents' : 'values'}] must not be empty: [${name}]`,
    );
  }
  if (kind === 'percentile_ranks' && !valuesSet)
    throw illegalArgument(`[values] must not be null: [${name}]`);
  if (!isObj(json))
    throw new EsError('parsing_exception', `Unexpected token ${tokenOf(json)}`, 400);
  return p;
}

class PercentilesAggregator implements Aggregator {
  /** A script reading `_score` needs the scores collected. */
  readonly needsScores: boolean;
  private readonly digests: TDigest[] = [];
  private readonly hdrs: DoubleHistogram[] = [];
  private reader: NumericReader | null = null;
  private readonly p: Params;
  private readonly hdr: boolean;

  constructor(
    readonly node: AggNode,
    private readonly kind: Kind,
    private readonly rv: ResolvedValues | null,
  ) {
    this.needsScores = rv?.script?.needsScore ?? false;
    this.p = node.params as Params;
    this.hdr = this.p.method === 'hdr';
  }

  setSegment(seg: AggSegment): void {
    this.reader = this.rv ? new NumericReader(this.rv, seg.ls) : null;
  }

  private digest(ord: number): TDigest {
    let d = this.digests[ord];
    if (!d) this.digests[ord] = d = new TDigest(this.p.compression);
    return d;
  }

  /** ES creates a bucket's histogram on its first doc, with or without values. */
  private histogram(ord: number): DoubleHistogram {
    let h = this.hdrs[ord];
    if (!h) this.hdrs[ord] = h = new DoubleHistogram(this.p.digits);
    return h;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const r = this.reader;
    if (!r) return;
    if (this.hdr) {
      for (let i = 0; i < n; i++) {
        const h = this.histogram(ords[i]!);
        const c = r.read(docs[i]!, scores[i]!);
        for (let j = 0; j < c; j++) h.recordValue(r.buf[j]!);
      }
      return;
    }
    const single = r.single;
    for (let i = 0; i < n; i++) {
      if (single) {
        const v = single[docs[i]!]!;
        if (v === v) this.digest(ords[i]!).add(v);
        continue;
      }
      const c = r.read(docs[i]!, scores[i]!);
      if (c === 0) continue;
      const d = this.digest(ords[i]!);
      for (let j = 0; j < c; j++) d.add(r.buf[j]!);
    }
  }

  build(ord: number): InternalPercentiles {
    if (this.hdr) return this.result(null, this.hdrs[ord] ?? new DoubleHistogram(this.p.digits));
    return this.result(this.digests[ord] ?? new TDigest(this.p.compression), null);
  }
  buildEmpty(): InternalPercentiles {
    if (this.hdr) return this.result(null, new DoubleHistogram(this.p.digits));
    return this.result(new TDigest(this.p.compression), null);
  }
  metric(ord: number, key: string | null): number {
    const r = ord >= 0 ? this.build(ord) : this.buildEmpty();
    return percentileValue(r, key);
  }
  private result(digest: TDigest | null, hdr: DoubleHistogram | null): InternalPercentiles {
    return {
      spec: this.kind,
      kind: this.kind,
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      digest: digest ?? new TDigest(this.p.compression),
      hdr,
      keys: this.p.keys,
      keyed: this.p.keyed,
      format: this.rv?.format ?? RAW,
    };
  }
}

/** InternalMedianAbsoluteDeviation.computeMedianAbsoluteDeviation. */
function mad(d: TDigest): number {
  if (d.count === 0) return NaN;
  const median = d.quantile(0.5);
  const dev = new TDigest(d.compression);
  for (const c of d.centroids()) dev.add(Math.abs(median - c.mean), c.count);
  return dev.quantile(0.5);
}

function rank(d: TDigest, v: number): number {
  let r = d.cdf(v);
  if (r < 0) r = 0;
  else if (r > 1) r = 1;
  return r * 100;
}

function valueOf(a: InternalPercentiles, key: number): number {
  if (a.hdr) {
    // InternalHDRPercentiles(Ranks).value
    if (a.hdr.totalCount === 0) return NaN;
    return a.kind === 'percentiles'
      ? a.hdr.getValueAtPercentile(key)
      : a.hdr.getPercentileAtOrBelowValue(key);
  }
  return a.kind === 'percentiles' ? a.digest.quantile(key / 100) : rank(a.digest, key);
}

export function percentileValue(a: InternalPercentiles, key: string | null): number {
  if (a.kind === 'median_absolute_deviation') return mad(a.digest);
  if (key === null) throw illegalArgument(`Unknown value [null] in percentiles aggregation`);
  const k = Number(key);
  if (Number.isNaN(k))
    throw new EsError('number_format_exception', `For input string: "${key}"`, 400);
  return valueOf(a, k);
}

function render(a: InternalPercentiles): Record<string, unknown> {
  if (a.kind === 'median_absolute_deviation') {
    return valueBody(a.digest.count > 0 ? mad(a.digest) : null, a.format);
  }
  if (a.keyed) {
    const values: Record<string, unknown> = {};
    for (const k of a.keys) {
      const key = javaDoubleToString(k);
      const v = valueOf(a, k);
      values[key] = jnum(v);
      if (a.format !== RAW) values[`${key}_as_string`] = formatToString(a.format, v);
    }
    return { values };
  }
  return {
    values: a.keys.map((k) => {
      const v = valueOf(a, k);
      const o: Record<string, unknown> = { key: k, value: jnum(v) };
      if (a.format !== RAW) o.value_as_string = formatToString(a.format, v);
      return o;
    }),
  };
}

for (const kind of ['percentiles', 'percentile_ranks', 'median_absolute_deviation'] as const) {
  const result: ResultSpec<InternalPercentiles> = {
    reduce: (parts) => {
      if (parts[0]!.hdr) {
        // AbstractInternalHDRPercentiles.doReduce: a copy of the first state's model, then add()
        const merged = DoubleHistogram.emptyLike(parts[0]!.hdr);
        for (const p of parts) merged.add(p.hdr!);
        return { ...parts[0]!, hdr: merged };
      }
      const merged = new TDigest(parts[0]!.digest.compression);
      for (const p of parts) merged.merge(p.digest);
      return { ...parts[0]!, digest: merged };
    },
    render,
    typedType: (a) =>
      kind === 'median_absolute_deviation'
        ? 'median_absolute_deviation'
        : `${a.hdr ? 'hdr' : 'tdigest'}_${kind}`,
    value: percentileValue,
    ...(kind === 'median_absolute_deviation'
      ? {}
      : { valueNames: (a: InternalPercentiles) => a.keys.map((k) => String(k)) }),
  };
  registerAgg<Params, InternalPercentiles>(
    {
      type: kind,
      category: 'metric',
      leaf: true,
      factoryName:
        kind === 'percentiles'
          ? 'TDigestPercentilesAggregatorFactory'
          : kind === 'percentile_ranks'
            ? 'TDigestPercentileRanksAggregatorFactory'
            : 'MedianAbsoluteDeviationAggregatorFactory',
      parse: (json, name) => parsePercentiles(kind, json, name),
      create: (node, ac: AggregatorContext) =>
        new PercentilesAggregator(
          node,
          kind,
          resolveValues((node.params as Params).source, ac.shard, 'numeric', node.name),
        ),
    },
    result,
  );
}
