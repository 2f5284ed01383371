/**
 * value_count (ES ValueCountAggregator): the number of values (not documents) of any field type,
 * counted per bucket; rendered as a plain long.
 */
import type { Aggregator, AggregatorContext, AggSegment } from '../collect/aggregator.js';
import { parseObject } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { growF64 } from '../support/arrays.js';
import {
  BytesReader,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import type { AggNode, InternalAgg } from '../types.js';

interface Params {
  source: ValuesSourceParams;
}

export interface InternalValueCount extends InternalAgg {
  value: number;
}

class ValueCountAggregator implements Aggregator {
  /** A script reading `_score` needs the scores collected. */
  readonly needsScores: boolean;
  private counts = new Float64Array(0);
  private num: NumericReader | null = null;
  private bytes: BytesReader | null = null;

  constructor(
    readonly node: AggNode,
    private readonly rv: ResolvedValues | null,
  ) {
    this.needsScores = rv?.script?.needsScore ?? false;
  }

  setSegment(seg: AggSegment): void {
    if (!this.rv) return;
    if (this.rv.kind === 'numeric') this.num = new NumericReader(this.rv, seg.ls);
    else this.bytes = new BytesReader(this.rv, seg.ls);
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    if (!this.rv) return;
    const num = this.num;
    const single = num?.single ?? this.bytes?.single ?? null;
    for (let i = 0; i < n; i++) {
      const d = docs[i]!;
      let c: number;
      if (single)
        c =
          single instanceof Float64Array
            ? single[d]! === single[d]!
              ? 1
              : 0
            : single[d]! >= 0
              ? 1
              : 0;
      else c = num ? num.read(d, scores[i]!) : this.bytes!.read(d, scores[i]!);
      if (c === 0) continue;
      const o = ords[i]!;
      if (o >= this.counts.length) this.counts = growF64(this.counts, o + 1);
      this.counts[o] = this.counts[o]! + c;
    }
  }

  build(ord: number): InternalValueCount {
    return this.result(ord < this.counts.length ? this.counts[ord]! : 0);
  }
  buildEmpty(): InternalValueCount {
    return this.result(0);
  }
  metric(ord: number): number {
    return ord >= 0 && ord < this.counts.length ? this.counts[ord]! : 0;
  }
  private result(value: number): InternalValueCount {
    return {
      spec: 'value_count',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      value,
    };
  }
}

const result: ResultSpec<InternalValueCount> = {
  reduce: (parts) => ({ ...parts[0]!, value: parts.reduce((s, p) => s + p.value, 0) }),
  render: (a) => ({ value: a.value }),
  typedType: () => 'value_count',
  value: (a) => a.value,
};

registerAgg<Params>(
  {
    type: 'value_count',
    category: 'metric',
    leaf: true,
    factoryName: 'ValueCountAggregatorFactory',
    parse: (json) => {
      const p: Params = { source: emptyValuesSource() };
      parseObject('value_count', json, valuesSourceDecls('value_count', p.source));
      return p;
    },
    create: (node: AggNode, ac: AggregatorContext) =>
      new ValueCountAggregator(
        node,
        resolveValues((node.params as Params).source, ac.shard, null, node.name),
      ),
  },
  result,
);
