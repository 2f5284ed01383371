/**
 * weighted_avg (ES WeightedAvgAggregator / InternalWeightedAvg): Σ(value·weight) / Σ weight with
 * Kahan sums, `value` and `weight` each a field/script config with its own `missing`. Documents
 * whose weight field holds several values are rejected as in ES.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import type { Aggregator, AggregatorContext, AggSegment } from '../collect/aggregator.js';
import { isObj, parseObject } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { KahanSum } from '../reduce/reduce.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { growF64 } from '../support/arrays.js';
import { RAW, type DocFormat } from '../support/doc-format.js';
import { NumericReader, resolveValues, type ResolvedValues } from '../support/values-source.js';
import type { AggNode, InternalAgg } from '../types.js';
import { valueBody } from './metric-base.js';

interface Params {
  value: ValuesSourceParams | null;
  weight: ValuesSourceParams | null;
  format: string | null;
  valueType: string | null;
}

export interface InternalWeightedAvg extends InternalAgg {
  sum: number;
  weight: number;
  format: DocFormat;
}

function parseField(json: unknown, which: string): ValuesSourceParams {
  const p = emptyValuesSource();
  if (!isObj(json)) throw illegalArgument(`[${which}] must be an object`);
  parseObject(
    which,
    json,
    valuesSourceDecls(which, p, { formattable: false }).filter(
      (d) => !d.names.includes('value_type'),
    ),
  );
  if (p.field === null && p.script === null) {
    throw illegalArgument(`Must specify either a script or a field for [${which}]`);
  }
  return p;
}

class WeightedAvgAggregator implements Aggregator {
  /** A script reading `_score` needs the scores collected. */
  readonly needsScores: boolean;
  private sums = new Float64Array(0);
  private comps = new Float64Array(0);
  private weights = new Float64Array(0);
  private wcomps = new Float64Array(0);
  private vr: NumericReader | null = null;
  private wr: NumericReader | null = null;

  constructor(
    readonly node: AggNode,
    private readonly value: ResolvedValues | null,
    private readonly weight: ResolvedValues | null,
  ) {
    this.needsScores = !!(value?.script?.needsScore || weight?.script?.needsScore);
  }

  setSegment(seg: AggSegment): void {
    this.vr = this.value ? new NumericReader(this.value, seg.ls) : null;
    this.wr = this.weight ? new NumericReader(this.weight, seg.ls) : null;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const vr = this.vr;
    const wr = this.wr;
    if (!vr || !wr) return;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const wc = wr.read(doc, scores[i]!);
      const vc = vr.read(doc, scores[i]!);
      if (wc === 0 || vc === 0) continue;
      if (wc > 1) {
        throw new EsError(
          'aggregation_execution_exception',
          `Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.`,
          500,
        );
      }
      const w = wr.buf[0]!;
      const o = ords[i]!;
      if (o >= this.sums.length) {
        this.sums = growF64(this.sums, o + 1);
        this.comps = growF64(this.comps, o + 1);
        this.weights = growF64(this.weights, o + 1);
        this.wcomps = growF64(this.wcomps, o + 1);
      }
      for (let j = 0; j < vc; j++) {
        kahan(this.sums, this.comps, o, vr.buf[j]! * w);
        kahan(this.weights, this.wcomps, o, w);
      }
    }
  }

  build(ord: number): InternalWeightedAvg {
    return this.result(
      ord < this.sums.length ? this.sums[ord]! : 0,
      ord < this.weights.length ? this.weights[ord]! : 0,
    );
  }
  buildEmpty(): InternalWeightedAvg {
    return this.result(0, 0);
  }
  metric(ord: number): number {
    const r = ord >= 0 ? this.build(ord) : this.buildEmpty();
    return r.sum / r.weight;
  }
  private result(sum: number, weight: number): InternalWeightedAvg {
    return {
      spec: 'weighted_avg',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      sum,
      weight,
      format: this.value?.format ?? RAW,
    };
  }
}

function kahan(sums: Float64Array, comps: Float64Array, o: number, v: number): void {
  const s = sums[o]!;
  if (!Number.isFinite(v)) sums[o] = s + v;
  else if (Number.isFinite(s)) {
    const corrected = v - comps[o]!;
    const next = s + corrected;
    comps[o] = next - s - corrected;
    sums[o] = next;
  }
}

const result: ResultSpec<InternalWeightedAvg> = {
  reduce: (parts) => {
    const sum = new KahanSum();
    const weight = new KahanSum();
    for (const p of parts) {
      sum.add(p.sum);
      weight.add(p.weight);
    }
    return { ...parts[0]!, sum: sum.sum, weight: weight.sum };
  },
  render: (a) => valueBody(a.weight !== 0 ? a.sum / a.weight : null, a.format),
  typedType: () => 'weighted_avg',
  value: (a) => a.sum / a.weight,
};

registerAgg<Params, InternalWeightedAvg>(
  {
    type: 'weighted_avg',
    category: 'metric',
    leaf: true,
    factoryName: 'WeightedAvgAggregatorFactory',
    parse: (json) => {
      const p: Params = { value: null, weight: null, format: null, valueType: null };
      parseObject('weighted_avg', json, [
        { names: ['value'], kind: 'object', set: (v) => (p.value = parseField(v, 'value')) },
        { names: ['weight'], kind: 'object', set: (v) => (p.weight = parseField(v, 'weight')) },
        { names: ['format'], kind: 'string', set: (v) => (p.format = v as string) },
        { names: ['value_type'], kind: 'string', set: (v) => (p.valueType = v as string) },
      ]);
      if (!p.value) throw illegalArgument('[value] must not be null');
      if (!p.weight) throw illegalArgument('[weight] must not be null');
      return p;
    },
    create: (node, ac: AggregatorContext) => {
      const p = node.params as Params;
      const value = resolveValues(
        { ...p.value!, format: p.format },
        ac.shard,
        'numeric',
        node.name,
      );
      const weight = resolveValues(p.weight!, ac.shard, 'numeric', node.name);
      return new WeightedAvgAggregator(node, value, weight);
    },
  },
  result,
);
