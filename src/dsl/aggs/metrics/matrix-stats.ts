/**
 * matrix_stats (ES aggs-matrix-stats module: MatrixStatsParser, MatrixStatsAggregator,
 * InternalMatrixStats): count, mean, variance, skewness, kurtosis, covariance and correlation of
 * several numeric fields over the documents that have a value (or a `missing` substitute) for
 * every field; multi-valued fields are reduced to one value per document by `mode`.
 */
import { illegalArgument, parsingException } from '../../../common/errors.js';
import type { Aggregator, AggregatorContext, AggSegment } from '../collect/aggregator.js';
import { isObj, tokenOf, unexpectedToken } from '../parse/object-parser.js';
import { emptyValuesSource } from '../parse/values-source-params.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { jnum } from '../support/json.js';
import { NumericReader, resolveValues, type ResolvedValues } from '../support/values-source.js';
import type { AggNode, InternalAgg } from '../types.js';
import {
  addDoc,
  computeResults,
  javaHashMapOrder,
  mergeStats,
  newRunningStats,
  type RunningStats,
} from './running-stats.js';

/** ES MultiValueMode values allowed for matrix_stats. */
type Mode = 'avg' | 'min' | 'max' | 'sum' | 'median';

interface Params {
  fields: string[];
  mode: Mode;
  /** Per-field `missing` values as given (XContent objectText). */
  missing: Map<string, unknown>;
}

export interface InternalMatrixStats extends InternalAgg {
  /** null: nothing collected (ES keeps no RunningStats). */
  stats: RunningStats | null;
}

const MODES: readonly Mode[] = ['avg', 'min', 'max', 'sum', 'median'];

/** ArrayValuesSourceParser (numeric, formattable) + MatrixStatsParser's `mode`. */
function parse(json: unknown, name: string): Params {
  const p: Params = { fields: [], mode: 'avg', missing: new Map() };
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  for (const [key, v] of Object.entries(json)) {
    const tok = tokenOf(v);
    const noScripts = () =>
      parsingException(
        `Unexpected token ${tok} [${key}] in [${name}]. Multi-field aggregations do not support scripts.`,
      );
    if (tok === 'VALUE_STRING') {
      if (key === 'fields') p.fields = [v as string];
      else if (key === 'format')
        continue; // accepted, unused: the output has no *_as_string
      else if (key === 'value_type' || key === 'valueType') throw noScripts();
      else if (key === 'mode') {
        const m = (v as string).toLowerCase();
        if (!(MODES as readonly string[]).includes(m)) {
          // MultiValueMode.fromString
          throw illegalArgument(`Illegal sort mode: ${v as string}`);
        }
        p.mode = m as Mode;
      } else throw unexpectedToken(tok, key, name);
    } else if (tok === 'START_OBJECT') {
      if (key === 'missing') {
        for (const [f, mv] of Object.entries(v as Record<string, unknown>)) p.missing.set(f, mv);
      } else if (key === 'script') throw noScripts();
      else throw unexpectedToken(tok, key, name);
    } else if (tok === 'START_ARRAY') {
      if (key === 'script') throw noScripts();
      if (key !== 'fields') throw unexpectedToken(tok, key, name);
      p.fields = (v as unknown[]).map((f) => {
        if (typeof f !== 'string') throw unexpectedToken(tokenOf(f), key, name);
        return f;
      });
    } else throw unexpectedToken(tok, key, name);
  }
  return p;
}

/** MultiValueMode.pick over a doc's sorted values. */
function pick(mode: Mode, buf: Float64Array, n: number): number {
  switch (mode) {
    case 'min':
      return buf[0]!;
    case 'max':
      return buf[n - 1]!;
    case 'median':
      return n % 2 === 0 ? (buf[n / 2 - 1]! + buf[n / 2]!) / 2 : buf[(n - 1) / 2]!;
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += buf[i]!;
  return mode === 'sum' ? total : total / n;
}

class MatrixStatsAggregator implements Aggregator {
  readonly needsScores = false;
  private readers: NumericReader[] = [];
  private readonly stats: (RunningStats | undefined)[] = [];
  private readonly vals: Float64Array;
  private readonly deltas: Float64Array;

  /** `names` and `sources` in ES's collection order (see javaHashMapOrder). */
  constructor(
    readonly node: AggNode,
    private readonly names: readonly string[],
    private readonly sources: readonly ResolvedValues[],
    private readonly mode: Mode,
  ) {
    this.vals = new Float64Array(names.length);
    this.deltas = new Float64Array(names.length);
  }

  setSegment(seg: AggSegment): void {
    this.readers = this.sources.map((rv) => new NumericReader(rv, seg.ls));
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const k = this.names.length;
    if (k === 0) return;
    const readers = this.readers;
    const vals = this.vals;
    outer: for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      for (let f = 0; f < k; f++) {
        const r = readers[f]!;
        const single = r.single;
        let v: number;
        if (single) {
          v = single[doc]!;
          if (v !== v) continue outer;
        } else {
          const c = r.read(doc, scores[i]!);
          if (c === 0) continue outer;
          v = c === 1 ? r.buf[0]! : pick(this.mode, r.buf, c);
        }
        // ES: TODO in MatrixStatsAggregator.includeDocument, -Infinity drops the doc
        if (v === -Infinity) continue outer;
        vals[f] = v;
      }
      const o = ords[i]!;
      let s = this.stats[o];
      if (!s) this.stats[o] = s = newRunningStats(this.names);
      addDoc(s, vals, this.deltas);
    }
  }

  build(ord: number): InternalMatrixStats {
    return this.result(this.stats[ord] ?? null);
  }

  buildEmpty(): InternalMatrixStats {
    return this.result(null);
  }

  private result(stats: RunningStats | null): InternalMatrixStats {
    return {
      spec: 'matrix_stats',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      stats,
    };
  }
}

function create(node: AggNode, ac: AggregatorContext): Aggregator {
  const p = node.params as Params;
  const names: string[] = [];
  const sources: ResolvedValues[] = [];
  // ArrayValuesSourceAggregatorFactory: unmapped fields without `missing` have no values source
  // and are left out (documents are not required to have them)
  for (const field of javaHashMapOrder(p.fields)) {
    const src = emptyValuesSource();
    src.field = field;
    src.missing = p.missing.get(field) ?? null;
    const rv = resolveValues(src, ac.shard, 'numeric', node.name);
    if (rv) {
      names.push(field);
      sources.push(rv);
    }
  }
  return new MatrixStatsAggregator(node, names, sources, p.mode);
}

/** InternalMatrixStats.doReduce: merge the shards that collected something, in shard order. */
function reduce(parts: InternalMatrixStats[]): InternalMatrixStats {
  let merged: RunningStats | null = null;
  for (const part of parts) {
    const s = part.stats;
    if (!s) continue;
    if (!merged) merged = newRunningStats(s.fields);
    mergeStats(merged, s);
  }
  return { ...parts[0]!, stats: merged };
}

function render(a: InternalMatrixStats): Record<string, unknown> {
  const s = a.stats;
  if (!s || s.fields.length === 0) return { doc_count: s ? s.docCount : 0 };
  const r = computeResults(s);
  const k = r.fields.length;
  const fields = r.fields.map((f, i) => {
    const covariance: Record<string, unknown> = {};
    const correlation: Record<string, unknown> = {};
    for (let j = 0; j < k; j++) {
      covariance[r.fields[j]!.name] = jnum(r.covariance[i * k + j]!);
      correlation[r.fields[j]!.name] = jnum(r.correlation[i * k + j]!);
    }
    return {
      name: f.name,
      count: f.count,
      mean: jnum(f.mean),
      variance: jnum(f.variance),
      skewness: jnum(f.skewness),
      kurtosis: jnum(f.kurtosis),
      covariance,
      correlation,
    };
  });
  return { doc_count: r.docCount, fields };
}

const result: ResultSpec<InternalMatrixStats> = {
  reduce,
  render,
  typedType: () => 'matrix_stats',
};

registerAgg<Params>(
  {
    type: 'matrix_stats',
    category: 'metric',
    leaf: true,
    factoryName: 'MatrixStatsAggregatorFactory',
    parse,
    create,
  },
  result,
);
