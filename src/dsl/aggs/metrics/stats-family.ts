/**
 * avg, sum, min, max, stats and extended_stats (ES AvgAggregator ... ExtendedStatsAggregator):
 * one aggregator keeping per-bucket count, Kahan-compensated sum, min, max and sum of squares in
 * typed arrays (only what the type needs), and the InternalAvg/Sum/Min/Max/Stats/ExtendedStats
 * results with ES's reduce and rendering (null for no values; extended_stats formulas exactly as
 * InternalExtendedStats: variance = (sumOfSqrs - sum*sum/count) / count, clamped at 0).
 */
import { illegalArgument } from '../../../common/errors.js';
import { javaDoubleToString } from '../../script/index.js';
import type { Aggregator, AggregatorContext, AggSegment, FusedSum } from '../collect/aggregator.js';
import { KahanSum } from '../reduce/reduce.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { growF64 } from '../support/arrays.js';
import { EXACT_INT_LIMIT, integralMaxAbs } from '../support/column-stats.js';
import { formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import { jnum } from '../support/json.js';
import { columnOf, type NumericReader, type ResolvedValues } from '../support/values-source.js';
import type { AggNode, InternalAgg } from '../types.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import {
  formatOf,
  numericSource,
  parseNumericMetric,
  readerFor,
  valueBody,
  type NumericMetricParams,
} from './metric-base.js';

type StatsType = 'avg' | 'sum' | 'min' | 'max' | 'stats' | 'extended_stats';

interface StatsParams extends NumericMetricParams {
  sigma: number;
}

export interface InternalStats extends InternalAgg {
  readonly kind: StatsType;
  count: number;
  sum: number;
  min: number;
  max: number;
  sumOfSqrs: number;
  sigma: number;
  format: DocFormat;
}

class StatsAggregator implements Aggregator {
  /** A script reading `_score` needs the scores collected. */
  readonly needsScores: boolean;
  private reader: NumericReader | null = null;
  private counts = new Float64Array(0);
  private sums = new Float64Array(0);
  private comps = new Float64Array(0);
  private mins = new Float64Array(0);
  private maxes = new Float64Array(0);
  private sqs = new Float64Array(0);
  private sqComps = new Float64Array(0);
  private readonly minMax: boolean;
  private readonly sum: boolean;
  private readonly squares: boolean;
  /**
   * Fused sums only (FusedSum.exact): every value added so far was an integer, and `absBound`
   * bounds the sum of their magnitudes.
   */
  private exactSoFar = true;
  private absBound = 0;

  constructor(
    readonly node: AggNode,
    private readonly kind: StatsType,
    private readonly rv: ResolvedValues | null,
  ) {
    this.needsScores = rv?.script?.needsScore ?? false;
    this.minMax = kind !== 'avg' && kind !== 'sum';
    this.sum = kind !== 'min' && kind !== 'max';
    this.squares = kind === 'extended_stats';
  }

  setSegment(seg: AggSegment): void {
    this.reader = readerFor(this.rv, seg);
  }

  fusedSum(size: number, n: number): FusedSum | null {
    const values = this.reader?.single;
    if (!values || (this.kind !== 'avg' && this.kind !== 'sum')) return null;
    if (size > this.counts.length) this.grow(size);
    let exact = false;
    if (this.exactSoFar) {
      const m = integralMaxAbs(values);
      if (m < 0) this.exactSoFar = false;
      else {
        this.absBound += m * n;
        exact = this.absBound < EXACT_INT_LIMIT;
        this.exactSoFar = exact;
      }
    }
    return { values, counts: this.counts, sums: this.sums, comps: this.comps, exact };
  }

  sumColumn(ls: LiveSegment): { readonly values: Float64Array | null } | null {
    if (this.kind !== 'avg' && this.kind !== 'sum') return null;
    const rv = this.rv;
    if (!rv || !rv.field || rv.script || rv.constant !== undefined || rv.missingNumber !== null) return null; // prettier-ignore
    if (!columnOf(ls, rv.field)) return { values: null };
    const values = readerFor(rv, { ls, path: null, parent: null, parentOf: null })?.single;
    return values ? { values } : null;
  }

  addSum(o: number, count: number, sum: number): void {
    if (o >= this.counts.length) this.grow(o + 1);
    this.counts[o]! += count;
    this.sums[o]! += sum;
  }

  private grow(n: number): void {
    this.counts = growF64(this.counts, n);
    if (this.sum) {
      this.sums = growF64(this.sums, n);
      this.comps = growF64(this.comps, n);
    }
    if (this.minMax) {
      this.mins = growF64(this.mins, n, Infinity);
      this.maxes = growF64(this.maxes, n, -Infinity);
    }
    if (this.squares) {
      this.sqs = growF64(this.sqs, n);
      this.sqComps = growF64(this.sqComps, n);
    }
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const r = this.reader;
    if (!r) return;
    this.exactSoFar = false;
    const single = r.single;
    if (single && this.kind === 'avg') {
      // Hot path of terms+avg: count and Kahan sum only.
      let counts = this.counts;
      let sums = this.sums;
      let comps = this.comps;
      for (let i = 0; i < n; i++) {
        const v = single[docs[i]!]!;
        if (v !== v) continue;
        const o = ords[i]!;
        if (o >= counts.length) {
          this.grow(o + 1);
          counts = this.counts;
          sums = this.sums;
          comps = this.comps;
        }
        counts[o]!++;
        const s = sums[o]!;
        if (v - v !== 0) sums[o] = s + v;
        else if (s - s === 0) {
          const corrected = v - comps[o]!;
          const next = s + corrected;
          comps[o] = next - s - corrected;
          sums[o] = next;
        }
      }
      return;
    }
    if (single) {
      for (let i = 0; i < n; i++) {
        const v = single[docs[i]!]!;
        if (v === v) this.add(ords[i]!, v);
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      const c = r.read(docs[i]!, scores[i]!);
      if (c === 0) continue;
      const o = ords[i]!;
      const buf = r.buf;
      for (let j = 0; j < c; j++) this.add(o, buf[j]!);
    }
  }

  private add(o: number, v: number): void {
    if (o >= this.counts.length) this.grow(o + 1);
    this.counts[o]!++;
    if (this.sum) {
      const s = this.sums[o]!;
      if (!Number.isFinite(v)) {
        this.sums[o] = s + v;
        if (this.squares) this.sqs[o] = this.sqs[o]! + v * v;
      } else {
        if (Number.isFinite(s)) {
          const corrected = v - this.comps[o]!;
          const next = s + corrected;
          this.comps[o] = next - s - corrected;
          this.sums[o] = next;
        }
        if (this.squares) {
          const q = this.sqs[o]!;
          if (Number.isFinite(q)) {
            const corrected = v * v - this.sqComps[o]!;
            const next = q + corrected;
            this.sqComps[o] = next - q - corrected;
            this.sqs[o] = next;
          }
        }
      }
    }
    if (this.minMax) {
      if (v < this.mins[o]!) this.mins[o] = v;
      if (v > this.maxes[o]!) this.maxes[o] = v;
    }
  }

  build(ord: number): InternalStats {
    const has = ord < this.counts.length;
    return this.result(
      has ? this.counts[ord]! : 0,
      has && this.sum ? this.sums[ord]! : 0,
      has && this.minMax ? this.mins[ord]! : Infinity,
      has && this.minMax ? this.maxes[ord]! : -Infinity,
      has && this.squares ? this.sqs[ord]! : 0,
    );
  }

  buildEmpty(): InternalStats {
    return this.result(0, 0, Infinity, -Infinity, 0);
  }

  private result(count: number, sum: number, min: number, max: number, sq: number): InternalStats {
    return {
      spec: this.kind,
      kind: this.kind,
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      count,
      sum,
      min,
      max,
      sumOfSqrs: sq,
      sigma: (this.node.params as StatsParams).sigma,
      format: formatOf(this.rv),
    };
  }

  metric(ord: number, key: string | null): number {
    const r = ord >= 0 && ord < this.counts.length ? this.build(ord) : this.buildEmpty();
    return statsValue(r, key);
  }
}

const avgOf = (s: InternalStats) => s.sum / s.count;

function variance(s: InternalStats): number {
  const v = (s.sumOfSqrs - (s.sum * s.sum) / s.count) / s.count;
  return v < 0 ? 0 : v;
}

/** The value of a stats result for buckets_path / order keys (InternalStats.value(name)). */
export function statsValue(s: InternalStats, key: string | null): number {
  switch (s.kind) {
    case 'avg':
      return avgOf(s);
    case 'sum':
      return s.sum;
    case 'min':
      return s.min;
    case 'max':
      return s.max;
  }
  switch (key) {
    case 'count':
      return s.count;
    case 'sum':
      return s.sum;
    case 'min':
      return s.min;
    case 'max':
      return s.max;
    case 'avg':
      return avgOf(s);
  }
  if (s.kind === 'extended_stats') {
    switch (key) {
      case 'sum_of_squares':
        return s.sumOfSqrs;
      case 'variance':
        return variance(s);
      case 'std_deviation':
        return Math.sqrt(variance(s));
      case 'std_upper':
        return avgOf(s) + Math.sqrt(variance(s)) * s.sigma;
      case 'std_lower':
        return avgOf(s) - Math.sqrt(variance(s)) * s.sigma;
    }
  }
  throw illegalArgument(`Unknown value [${key}] in common stats aggregation`);
}

function reduceStats(parts: InternalStats[]): InternalStats {
  const first = parts[0]!;
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  const sum = new KahanSum();
  const sq = new KahanSum();
  for (const p of parts) {
    count += p.count;
    min = Math.min(min, p.min);
    max = Math.max(max, p.max);
    sum.add(p.sum);
    sq.add(p.sumOfSqrs);
  }
  return { ...first, count, sum: sum.sum, min, max, sumOfSqrs: sq.sum };
}

function fmt(f: DocFormat, v: number): string {
  return formatToString(f, v);
}

function renderStats(s: InternalStats): Record<string, unknown> {
  const f = s.format;
  switch (s.kind) {
    case 'avg':
      return valueBody(s.count !== 0 ? avgOf(s) : null, f);
    case 'sum':
      return valueBody(s.sum, f);
    case 'min':
      return valueBody(Number.isFinite(s.min) || Number.isNaN(s.min) ? s.min : null, f);
    case 'max':
      return valueBody(Number.isFinite(s.max) || Number.isNaN(s.max) ? s.max : null, f);
  }
  const out: Record<string, unknown> = { count: s.count };
  if (s.count !== 0) {
    out.min = jnum(s.min);
    out.max = jnum(s.max);
    out.avg = jnum(avgOf(s));
    out.sum = jnum(s.sum);
    if (f !== RAW) {
      out.min_as_string = fmt(f, s.min);
      out.max_as_string = fmt(f, s.max);
      out.avg_as_string = fmt(f, avgOf(s));
      out.sum_as_string = fmt(f, s.sum);
    }
  } else {
    out.min = null;
    out.max = null;
    out.avg = null;
    out.sum = null;
  }
  if (s.kind === 'extended_stats') {
    if (s.count !== 0) {
      const v = variance(s);
      const sd = Math.sqrt(v);
      const avg = avgOf(s);
      out.sum_of_squares = jnum(s.sumOfSqrs);
      out.variance = jnum(v);
      out.std_deviation = jnum(sd);
      out.std_deviation_bounds = {
        upper: jnum(avg + sd * s.sigma),
        lower: jnum(avg - sd * s.sigma),
      };
      if (f !== RAW) {
        out.sum_of_squares_as_string = fmt(f, s.sumOfSqrs);
        out.variance_as_string = fmt(f, v);
        out.std_deviation_as_string = fmt(f, sd);
        out.std_deviation_bounds_as_string = {
          upper: fmt(f, avg + sd * s.sigma),
          lower: fmt(f, avg - sd * s.sigma),
        };
      }
    } else {
      out.sum_of_squares = null;
      out.variance = null;
      out.std_deviation = null;
      out.std_deviation_bounds = { upper: null, lower: null };
    }
  }
  return out;
}

const STATS_NAMES = ['count', 'sum', 'min', 'max', 'avg'];
const EXT_NAMES = [
  ...STATS_NAMES,
  'sum_of_squares',
  'variance',
  'std_deviation',
  'std_upper',
  'std_lower',
];

function register(kind: StatsType): void {
  const result: ResultSpec<InternalStats> = {
    reduce: (parts) => reduceStats(parts),
    render: (s) => renderStats(s),
    typedType: () => kind,
    value: (s, key) => statsValue(s, key),
    ...(kind === 'stats' ? { valueNames: () => STATS_NAMES } : {}),
    ...(kind === 'extended_stats' ? { valueNames: () => EXT_NAMES } : {}),
  };
  registerAgg<StatsParams>(
    {
      type: kind,
      category: 'metric',
      leaf: true,
      factoryName: `${kind === 'extended_stats' ? 'ExtendedStats' : kind[0]!.toUpperCase() + kind.slice(1)}AggregatorFactory`,
      parse: (json, name) =>
        parseNumericMetric<StatsParams>(
          kind,
          json,
          (p) =>
            kind === 'extended_stats'
              ? [
                  {
                    names: ['sigma'],
                    kind: 'double',
                    set: (v) => {
                      if ((v as number) < 0) {
                        throw illegalArgument(
                          `[sigma] must be greater than or equal to 0. Found [${javaDoubleToString(v as number)}] in [${name}]`,
                        );
                      }
                      p.sigma = v as number;
                    },
                  },
                ]
              : [],
          { sigma: 2 },
        ),
      create: (node: AggNode, ac: AggregatorContext) =>
        new StatsAggregator(node, kind, numericSource(node, ac)),
    },
    result,
  );
}

for (const k of ['avg', 'sum', 'min', 'max', 'stats', 'extended_stats'] as const) register(k);
