/**
 * cardinality (ES CardinalityAggregator / InternalCardinality): HyperLogLog++ sketches per bucket
 * fed with ES's hashes — BitMixer.mix64 of the long (or of Double.doubleToLongBits for floating
 * fields) for numbers, MurmurHash3 x64 128 h1 of the term bytes for keyword/ip — so counts match
 * ES, exact below precision_threshold. Ordinal fields hash each distinct segment term once.
 */
import { illegalArgument } from '../../../common/errors.js';
import type { Aggregator, AggregatorContext, AggSegment } from '../collect/aggregator.js';
import { parseObject } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { hexBytes, MIX, mixDouble, mixLong, murmur3x64h1, utf8 } from '../support/hash64.js';
import {
  BytesReader,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import type { AggNode, InternalAgg } from '../types.js';
import { DEFAULT_PRECISION, HllSketch, precisionFromThreshold } from './hyperloglog.js';

interface Params {
  source: ValuesSourceParams;
  precisionThreshold: number | null;
}

export interface InternalCardinality extends InternalAgg {
  sketch: HllSketch | null;
}

class CardinalityAggregator implements Aggregator {
  /** A script reading `_score` needs the scores collected. */
  readonly needsScores: boolean;
  private readonly sketches: HllSketch[] = [];
  private readonly precision: number;
  private num: NumericReader | null = null;
  private bytes: BytesReader | null = null;
  /** Ordinal fields: ords seen per bucket in the current segment, hashed at segment end. */
  private seen = new Map<number, Uint8Array>();
  private dictSize = 0;
  private lastBytes: BytesReader | null = null;

  constructor(
    readonly node: AggNode,
    private readonly rv: ResolvedValues | null,
  ) {
    this.needsScores = rv?.script?.needsScore ?? false;
    const t = (node.params as Params).precisionThreshold;
    this.precision = t === null ? DEFAULT_PRECISION : precisionFromThreshold(t);
  }

  private sketch(ord: number): HllSketch {
    let s = this.sketches[ord];
    if (!s) this.sketches[ord] = s = new HllSketch(this.precision);
    return s;
  }

  setSegment(seg: AggSegment): void {
    this.flushOrdinals();
    if (!this.rv) return;
    if (this.rv.kind === 'numeric') this.num = new NumericReader(this.rv, seg.ls);
    else {
      this.bytes = new BytesReader(this.rv, seg.ls);
      this.dictSize = this.bytes.ordinals ? this.bytes.ordinals.dict.length + 1 : 0;
    }
  }

  /** Hashes the distinct terms each bucket saw in the finished segment (OrdinalsCollector). */
  private flushOrdinals(): void {
    const r = this.lastBytes;
    if (!r || this.seen.size === 0) {
      this.seen = new Map();
      return;
    }
    const hashes = new Map<number, { hi: number; lo: number }>();
    for (const [bucket, bits] of this.seen) {
      const sk = this.sketch(bucket);
      for (let o = 0; o < bits.length; o++) {
        if (!bits[o]) continue;
        let h = hashes.get(o);
        if (!h) hashes.set(o, (h = this.hashTerm(r.termOfOrd(o))));
        sk.collect(h.hi, h.lo);
      }
    }
    this.seen = new Map();
  }

  private hashTerm(t: string): { hi: number; lo: number } {
    const b = this.rv!.format.kind === 'ip' ? hexBytes(t) : utf8(t);
    return murmur3x64h1(b, 0, b.length, 0);
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    if (!this.rv) return;
    if (this.num) {
      const r = this.num;
      const floating = this.rv.floating;
      const single = r.single;
      for (let i = 0; i < n; i++) {
        if (single) {
          const v = single[docs[i]!]!;
          if (v !== v) continue;
          if (floating) mixDouble(v);
          else mixLong(v);
          this.sketch(ords[i]!).collect(MIX[0]!, MIX[1]!);
          continue;
        }
        const c = r.read(docs[i]!, scores[i]!);
        if (c === 0) continue;
        const sk = this.sketch(ords[i]!);
        for (let j = 0; j < c; j++) {
          const v = r.buf[j]!;
          if (floating) mixDouble(v);
          else mixLong(v);
          sk.collect(MIX[0]!, MIX[1]!);
        }
      }
      return;
    }
    const r = this.bytes!;
    if (r.ordinals) {
      this.lastBytes = r;
      const single = r.single;
      let owner = -1;
      let bits: Uint8Array | null = null;
      for (let i = 0; i < n; i++) {
        const b = ords[i]!;
        if (b !== owner) {
          owner = b;
          bits = this.seen.get(b) ?? null;
          if (!bits) this.seen.set(b, (bits = new Uint8Array(this.dictSize)));
        }
        if (single) {
          const so = single[docs[i]!]!;
          if (so >= 0) bits![so] = 1;
          continue;
        }
        const c = r.readOrds(docs[i]!);
        for (let j = 0; j < c; j++) bits![r.ords[j]!] = 1;
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      const c = r.read(docs[i]!, scores[i]!);
      for (let j = 0; j < c; j++) {
        const h = this.hashTerm(r.terms[j]!);
        this.sketch(ords[i]!).collect(h.hi, h.lo);
      }
    }
  }

  finish(): void {
    this.flushOrdinals();
  }

  build(ord: number): InternalCardinality {
    this.flushOrdinals();
    return this.result(this.rv ? (this.sketches[ord] ?? new HllSketch(this.precision)) : null);
  }

  buildEmpty(): InternalCardinality {
    return this.result(this.rv ? new HllSketch(this.precision) : null);
  }

  metric(ord: number): number {
    this.flushOrdinals();
    return this.sketches[ord]?.cardinality() ?? 0;
  }

  private result(sketch: HllSketch | null): InternalCardinality {
    return {
      spec: 'cardinality',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      sketch,
    };
  }
}

const result: ResultSpec<InternalCardinality> = {
  reduce: (parts) => {
    let merged: HllSketch | null = null;
    for (const p of parts) {
      if (!p.sketch) continue;
      if (!merged) merged = new HllSketch(p.sketch.p);
      merged.merge(p.sketch);
    }
    return merged ? { ...parts[0]!, sketch: merged } : parts[0]!;
  },
  render: (a) => ({ value: a.sketch ? a.sketch.cardinality() : 0 }),
  typedType: () => 'cardinality',
  value: (a) => (a.sketch ? a.sketch.cardinality() : 0),
};

registerAgg<Params, InternalCardinality>(
  {
    type: 'cardinality',
    category: 'metric',
    leaf: true,
    factoryName: 'CardinalityAggregatorFactory',
    parse: (json, name) => {
      const p: Params = { source: emptyValuesSource(), precisionThreshold: null };
      parseObject('cardinality', json, [
        ...valuesSourceDecls('cardinality', p.source, { formattable: false }),
        {
          names: ['precision_threshold'],
          kind: 'long',
          set: (v) => {
            if ((v as number) < 0) {
              throw illegalArgument(
                `[precisionThreshold] must be greater than or equal to 0. Found [${v}] in [${name}]`,
              );
            }
            p.precisionThreshold = v as number;
          },
        },
        { names: ['rehash'], kind: 'boolean', set: () => undefined },
      ]);
      return p;
    },
    create: (node, ac: AggregatorContext) =>
      new CardinalityAggregator(
        node,
        resolveValues((node.params as Params).source, ac.shard, null, node.name),
      ),
  },
  result,
);
