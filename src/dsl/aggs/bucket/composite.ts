/**
 * composite (ES CompositeAggregationBuilder / CompositeAggregator / InternalComposite): buckets
 * keyed by a tuple of terms / histogram / date_histogram source values, sorted source by source
 * (per-source asc/desc, `missing_bucket` nulls first in ascending order), paged with `size` and
 * `after`. Each shard returns its first `size` keys after `after`; the reduce merges them, keeps
 * `size`, and `after_key` is the last key (kept when pipelines later drop buckets).
 */
import {
  EsError,
  illegalArgument,
  parsingException,
  tooManyBuckets,
} from '../../../common/errors.js';
import {
  BucketsAggregator,
  type FusedSum,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
  NO_SCORES,
  ROOT_ORDS,
} from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { isObj, parseObject, tokenOf, toLong } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  resolveValueType,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import {
  calendarRounding,
  fixedRounding,
  parseDateHistogramInterval,
  timeZone,
  UTC,
  type Rounding,
} from '../support/dates.js';
import { RAW, type DocFormat } from '../support/doc-format.js';
import { growI32 } from '../support/arrays.js';
import {
  BytesReader,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import { parseScriptSpec } from '../../script/index.js';
import { nextUp } from '../../script/field-decision.js';
import { SourceKeys, TupleBuckets, type KeyValue } from './composite-keys.js';
import { hasMissing } from '../support/column-stats.js';
import { ordinalKernelSpec } from '../support/ordinal-kernel-spec.js';
import {
  countOrdsList,
  STRIPES,
  stripeSum,
  sumOrdsList,
  type KernelSpec,
} from '../../../search/parallel/agg-kernels.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from '../types.js';

type SourceType = 'terms' | 'histogram' | 'date_histogram';

interface SourceParams {
  name: string;
  type: SourceType;
  source: ValuesSourceParams;
  missingBucket: boolean;
  order: 'asc' | 'desc';
  interval: number | string | null;
}

interface CompositeParams {
  size: number;
  sources: SourceParams[];
  after: Record<string, unknown> | null;
}

export interface CompositeBucket extends InternalBucket {
  values: KeyValue[];
}

export interface InternalComposite extends InternalAgg {
  size: number;
  names: string[];
  formats: DocFormat[];
  /** Per source: 1 asc, -1 desc; `string` marks term (bytes) sources. */
  reverseMuls: number[];
  buckets: CompositeBucket[];
  afterKey: KeyValue[] | null;
}

function parseSource(json: unknown): SourceParams {
  if (!isObj(json))
    throw parsingException(
      `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenOf(json)}]`,
    );
  const entries = Object.entries(json);
  if (entries.length === 0)
    throw parsingException(
      'Failed to parse object: expecting token of type [FIELD_NAME] but found [END_OBJECT]',
    );
  const [name, def] = entries[0]!;
  if (!isObj(def))
    throw parsingException(
      `Failed to parse object: expecting token of type [START_OBJECT] but found [${tokenOf(def)}]`,
    );
  const [type, body] = Object.entries(def)[0] ?? [];
  if (type === undefined)
    throw parsingException(
      'Failed to parse object: expecting token of type [FIELD_NAME] but found [END_OBJECT]',
    );
  if (type !== 'terms' && type !== 'histogram' && type !== 'date_histogram')
    throw parsingException(`invalid source type: ${type}`);
  const sp: SourceParams = {
    name,
    type,
    source: emptyValuesSource(),
    missingBucket: false,
    order: 'asc',
    interval: null,
  };
  parseObject(type, body, [
    { names: ['field'], kind: 'string', set: (v) => (sp.source.field = v as string) },
    { names: ['missing'], kind: 'value', set: (v) => (sp.source.missing = v) },
    { names: ['missing_bucket'], kind: 'boolean', set: (v) => (sp.missingBucket = v as boolean) },
    {
      names: ['value_type'],
      kind: 'string',
      set: (v) => {
        const t = resolveValueType(v as string);
        if (!t) throw new Error(`no valueType [${String(v)}]`);
        sp.source.valueType = t;
      },
    },
    {
      names: ['script'],
      kind: 'object_or_string',
      set: (v) => (sp.source.script = parseScriptSpec(v)),
    },
    {
      names: ['order'],
      kind: 'string',
      set: (v) => {
        const o = String(v).toLowerCase();
        if (o !== 'asc' && o !== 'desc') throw illegalArgument(`No sort order for [${String(v)}]`);
        sp.order = o;
      },
    },
    ...(type === 'terms'
      ? []
      : [
          {
            names: ['format'],
            kind: 'string' as const,
            set: (v: unknown) => (sp.source.format = v as string),
          },
        ]),
    ...(type === 'histogram'
      ? [
          {
            names: ['interval'],
            kind: 'double' as const,
            set: (v: unknown) => (sp.interval = v as number),
          },
        ]
      : []),
    ...(type === 'date_histogram'
      ? [
          {
            names: ['interval'],
            kind: 'number_or_string' as const,
            set: (v: unknown) => (sp.interval = typeof v === 'number' ? toLong(v) : String(v)),
          },
          {
            names: ['time_zone'],
            kind: 'value' as const,
            set: (v: unknown) =>
              (sp.source.timeZone = typeof v === 'number' ? Math.trunc(v) : String(v)),
          },
        ]
      : []),
  ]);
  return sp;
}

function parseComposite(json: unknown, name: string): CompositeParams {
  const p: CompositeParams = { size: 10, sources: [], after: null };
  let hasSources = false;
  parseObject('composite', json, [
    {
      names: ['size'],
      kind: 'int',
      set: (v) => {
        if ((v as number) <= 0)
          throw illegalArgument(`[size] must be greater than 0. Found [${v}] in [${name}]`);
        p.size = v as number;
      },
    },
    { names: ['after'], kind: 'object', set: (v) => (p.after = v as Record<string, unknown>) },
    {
      names: ['sources'],
      kind: 'object_array',
      set: (v) => {
        hasSources = true;
        p.sources = (Array.isArray(v) ? v : [v]).map(parseSource);
      },
    },
  ]);
  if (!hasSources) throw illegalArgument('Required [sources]');
  if (p.sources.length === 0) throw illegalArgument(`Composite [sources] cannot be null or empty`);
  const names = new Set<string>();
  for (const s of p.sources) {
    if (names.has(s.name))
      throw illegalArgument(`Composite source names must be unique, found duplicates: [${s.name}]`);
    names.add(s.name);
  }
  return p;
}

interface Source {
  sp: SourceParams;
  rv: ResolvedValues | null;
  format: DocFormat;
  mul: number;
  bytes: boolean;
  rounding: ((v: number) => number) | null;
  num: NumericReader | null;
  bytesReader: BytesReader | null;
  /** Values of the current doc: the first `n` (the array is reused, never truncated). */
  vals: KeyValue[];
  n: number;
}

function compareValues(a: KeyValue, b: KeyValue, mul: number): number {
  if (a === null) return b === null ? 0 : -mul;
  if (b === null) return mul;
  return (a < b ? -1 : a > b ? 1 : 0) * mul;
}

function compareKeys(
  a: readonly KeyValue[],
  b: readonly KeyValue[],
  muls: readonly number[],
): number {
  for (let i = 0; i < muls.length; i++) {
    const c = compareValues(a[i]!, b[i]!, muls[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

class CompositeAggregator extends BucketsAggregator {
  private readonly sources: Source[];
  /** Key tuple → bucket ordinal as nested maps (one level per source, no string per document). */
  private readonly keys = new Map<KeyValue, unknown>();
  private readonly values: KeyValue[][] = [];
  private readonly after: KeyValue[] | null;
  private readonly muls: number[];
  /** Integer-keyed collection when every source supports it (see composite-keys.ts). */
  private readonly fast: SourceKeys[] | null;
  private readonly tuples: TupleBuckets | null;
  /** One ordinal source, single-valued segment: segment ordinal → bucket (-1 unknown, -2 skipped). */
  private segBuckets = new Int32Array(0);
  /** One decision source: outcome → bucket (see collectDecided). */
  private outcomeBuckets = new Int32Array(0);
  /**
   * collectRoot over one single-valued ordinal source: doc counts (and exact sums of a lone
   * avg/sum) per segment ordinal + 1 in STRIPES interleaved copies (see agg-kernels.ts), turned
   * into buckets when the segment is done.
   */
  private segCounts = new Int32Array(0);
  private segSums = new Float64Array(0);
  private segCounted = false;
  private segSummed = false;

  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: Aggregator[],
    private readonly p: CompositeParams,
  ) {
    super(node, subs);
    const limit = ac.shard.maxBuckets === -1 ? 10000 : ac.shard.maxBuckets;
    if (p.size > limit) throw tooManyBuckets(limit, p.size);
    this.sources = p.sources.map((sp) => this.source(sp));
    this.muls = this.sources.map((s) => s.mul);
    this.after = p.after ? this.parseAfter(p.after) : null;
    const keys = this.sources.map((s) =>
      SourceKeys.of({
        rv: s.rv,
        bytes: s.bytes,
        missingBucket: s.sp.missingBucket,
        rounding: s.rounding,
      }),
    );
    this.fast = keys.every((k) => k !== null) ? (keys as SourceKeys[]) : null;
    this.tuples = this.fast ? new TupleBuckets(this.fast, (ids) => this.newBucket(ids)) : null;
    this.fusable = subs.length === 1 && subs[0]!.fusedSum ? subs[0]! : null;
  }

  /** The lone sub-aggregation when it may be updated inline (Aggregator.fusedSum). */
  private readonly fusable: Aggregator | null;

  /** A new key tuple's bucket, or -2 when it sorts at or before `after` (not collected). */
  private newBucket(ids: readonly number[]): number {
    const key = ids.map((id, i) => this.fast![i]!.values[id]!);
    if (this.after && compareKeys(key, this.after, this.muls) <= 0) return -2;
    this.values.push(key);
    return this.values.length - 1;
  }

  private source(sp: SourceParams): Source {
    if (sp.missingBucket && sp.source.missing !== null && sp.source.missing !== undefined) {
      throw new EsError(
        'query_shard_exception',
        'cannot use [missing] option in conjunction with [missing_bucket]',
        400,
      );
    }
    const shard = this.ac.shard;
    let rv: ResolvedValues | null;
    let format: DocFormat;
    let rounding: ((v: number) => number) | null = null;
    if (sp.type === 'terms') {
      rv = resolveValues(sp.source, shard, null, this.node.name);
      // dates stay epoch millis unless a format is given (TermsValuesSourceBuilder)
      format = rv
        ? rv.field?.type === 'date' && sp.source.format === null
          ? RAW
          : rv.format
        : RAW;
    } else {
      const src =
        sp.type === 'date_histogram' && sp.source.valueType === null
          ? { ...sp.source, valueType: 'date' as const }
          : sp.source;
      rv = resolveValues(src, shard, 'numeric', this.node.name);
      if (rv && rv.kind !== 'numeric')
        throw illegalArgument(`invalid source, expected numeric, got ${rv.kind}`);
      if (sp.type === 'histogram') {
        const interval = sp.interval as number;
        if (!(interval > 0))
          throw illegalArgument(`[interval] must be greater than 0 for [histogram] source`);
        rounding = (v) => Math.floor(v / interval) * interval;
        format = rv?.format ?? RAW;
      } else {
        if (sp.interval === null)
          throw illegalArgument(`[interval] must not be null: [${sp.name}]`);
        const iv = parseDateHistogramInterval(sp.interval, sp.name);
        const zone = sp.source.timeZone !== null ? timeZone(sp.source.timeZone) : UTC;
        const r: Rounding =
          'calendar' in iv
            ? calendarRounding(iv.calendar, zone)
            : fixedRounding(iv.fixedMillis, zone);
        rounding = (v) => r.round(v);
        // epoch millis unless a format is given (DateHistogramValuesSourceBuilder)
        format = sp.source.format === null ? RAW : (rv?.format ?? RAW);
      }
    }
    return {
      sp,
      rv,
      format,
      mul: sp.order === 'desc' ? -1 : 1,
      bytes: sp.type === 'terms' && rv !== null && rv.kind === 'bytes',
      rounding,
      num: null,
      bytesReader: null,
      vals: [],
      n: 0,
    };
  }

  /** CompositeAggregationBuilder.doBuild + the values sources' setAfter. */
  private parseAfter(after: Record<string, unknown>): KeyValue[] {
    const keys = Object.keys(after);
    if (keys.length !== this.sources.length) {
      throw illegalArgument(
        `[after] has ${keys.length} value(s) but [sources] has ${this.sources.length}`,
      );
    }
    return this.sources.map((s) => {
      if (!(s.sp.name in after)) throw illegalArgument(`Missing value for [after.${s.sp.name}]`);
      const v = after[s.sp.name];
      if (v === null || v === undefined) {
        if (s.sp.missingBucket) return null;
        throw illegalArgument(
          `Invalid value for [after.${s.sp.name}], expected comparable, got [null]`,
        );
      }
      if (typeof v === 'object') {
        throw illegalArgument(
          `Invalid value for [after.${s.sp.name}], expected comparable, got [${Array.isArray(v) ? 'ArrayList' : 'HashMap'}]`,
        );
      }
      const now = () => {
        throw illegalArgument('now() is not supported in [after] key');
      };
      if (s.bytes) {
        if (typeof v !== 'string')
          throw illegalArgument(
            `invalid value, expected string, got ${typeof v === 'number' ? (Number.isInteger(v) ? 'Integer' : 'Double') : 'Boolean'}`,
          );
        return s.format.parseTerm(v);
      }
      if (typeof v === 'number') return v;
      if (typeof v === 'boolean') return v ? 1 : 0;
      const d = s.format.parseDouble(String(v), false, now);
      return s.rv && !s.rv.floating && s.sp.type !== 'histogram' ? Math.floor(d) : d;
    });
  }

  override setSegment(seg: AggSegment): void {
    this.flushSegCounts();
    super.setSegment(seg);
    if (this.fast) {
      for (const k of this.fast) k.setSegment(seg.ls);
      const single = this.fast.length === 1 ? this.fast[0]!.singleOrds() : null;
      if (single) {
        const size = this.fast[0]!.segIds.length;
        if (this.segBuckets.length < size) this.segBuckets = new Int32Array(size);
        this.segBuckets.fill(-1);
        // one count per ordinal, and slot 0 for docs without a value
        if (this.segCounts.length !== (size + 1) * STRIPES) {
          this.segCounts = new Int32Array((size + 1) * STRIPES);
          this.segSums = this.hasSubs ? new Float64Array((size + 1) * STRIPES) : this.segSums;
        }
      }
      return;
    }
    for (const s of this.sources) {
      if (!s.rv) continue;
      if (s.bytes) s.bytesReader = new BytesReader(s.rv, seg.ls);
      else s.num = new NumericReader(s.rv, seg.ls);
    }
  }

  private readValues(s: Source, doc: number, score: number): void {
    const out = s.vals;
    let k = 0;
    if (s.bytesReader) {
      const n = s.bytesReader.read(doc, score);
      const terms = s.bytesReader.terms;
      for (let i = 0; i < n; i++) {
        const t = terms[i]!;
        if (k === 0 || t !== out[k - 1]) out[k++] = t;
      }
    } else if (s.num) {
      const n = s.num.read(doc, score);
      const buf = s.num.buf;
      for (let i = 0; i < n; i++) {
        const v = s.rounding ? s.rounding(buf[i]!) : buf[i]!;
        if (k === 0 || v !== out[k - 1]) out[k++] = v;
      }
    }
    if (k === 0 && s.sp.missingBucket) out[k++] = null;
    s.n = k;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    if (this.fast) {
      if (this.fast.length === 1) this.collectOne(this.fast[0]!, docs, n, scores);
      else this.collectTuples(this.fast, docs, n, scores);
      this.sub.flush();
      return;
    }
    const srcs = this.sources;
    const key: KeyValue[] = new Array(srcs.length);
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      let empty = false;
      for (const s of srcs) {
        this.readValues(s, doc, scores[i]!);
        if (s.n === 0) empty = true;
      }
      if (empty) continue;
      this.product(0, key, doc, scores[i]!);
    }
    this.sub.flush();
  }

  /**
   * Top-level collection (no scores) of one single-valued ordinal source without
   * sub-aggregations, or with a lone avg/sum whose sums are exact (FusedSum.exact) over a column
   * without missing values: counts and sums per segment ordinal (order-free, as every addition
   * is exact), made into buckets at segment end; anything else goes through collect.
   */
  collectRoot(docs: Int32Array, n: number): void {
    const k = this.fast && this.fast.length === 1 ? this.fast[0]! : null;
    const single = k ? k.singleOrds() : null;
    if (!single || (this.hasSubs && !this.fusable)) {
      this.collect(docs, ROOT_ORDS, n, NO_SCORES);
      return;
    }
    const size = this.segCounts.length / STRIPES;
    if (!this.hasSubs) {
      countOrdsList(docs, 0, n, single, this.segCounts, size);
      this.segCounted = true;
      return;
    }
    const fused = this.fusable!.fusedSum!(this.docCounts.length, n);
    if (
      fused &&
      fused.exact &&
      !hasMissing(fused.values) &&
      this.segSums.length === this.segCounts.length
    ) {
      sumOrdsList(docs, 0, n, single, fused.values, this.segCounts, this.segSums, size);
      this.segCounted = this.segSummed = true;
      return;
    }
    // the compensated (or per-document) sums go on from the exact ones
    this.flushSegCounts();
    if (fused) {
      this.collectOneFused(k!, docs, n, single, fused);
      this.sub.flush();
    } else this.collect(docs, ROOT_ORDS, n, NO_SCORES);
  }

  /** Turns the per-ordinal counts (and sums) of the finished segment into buckets. */
  private flushSegCounts(): void {
    if (!this.segCounted) return;
    this.segCounted = false;
    const sc = this.segCounts;
    const ss = this.segSums;
    const metric = this.segSummed ? this.subs[0]! : null;
    this.segSummed = false;
    const size = sc.length / STRIPES;
    for (let o = 0; o < size; o++) {
      const c = stripeSum(sc, o, size);
      if (c === 0) continue;
      const b = this.bucketOfSlot(o);
      if (b < 0) continue;
      if (b >= this.docCounts.length) this.docCounts = growI32(this.docCounts, b + 1);
      this.docCounts[b]! += c;
      // slot 0 holds the docs without a key (the null bucket with missing_bucket)
      if (metric) metric.addSum!(b, c, stripeSum(ss, o, size));
    }
    sc.fill(0);
    if (metric) ss.fill(0);
  }

  /** The bucket of segment ordinal + 1 (0: no value) of the lone ordinal source; < 0: none. */
  private bucketOfSlot(o: number): number {
    const k = this.fast![0]!;
    if (o === 0) return this.sources[0]!.sp.missingBucket ? this.tuples!.one(k.id(null)) : -1;
    const sb = this.segBuckets;
    const b = sb[o - 1]!;
    return b !== -1 ? b : (sb[o - 1] = this.tuples!.one(k.ordId(o - 1)));
  }

  finish(): void {
    this.flushSegCounts();
  }

  /**
   * Parallel collection (parallel-aggs.ts) of one `terms` source over a single-valued keyword
   * column, without sub-aggregations or with a lone avg/sum: the terms kernel's counts (and sums)
   * per segment ordinal + 1, the docs without a value in slot 0.
   */
  parallelSpec(ls: LiveSegment): KernelSpec | null {
    if (this.constructor !== CompositeAggregator || !this.fast || this.fast.length !== 1) return null; // prettier-ignore
    const s = this.sources[0]!;
    const rv = s.rv;
    if (!s.bytes || !rv || rv.script || rv.constant !== undefined || rv.missingTerm !== null) return null; // prettier-ignore
    if (!rv.field || rv.field.type !== 'keyword') return null;
    // without the column every doc has the missing key: the serial path makes that bucket
    const noColumn: KernelSpec | null = s.sp.missingBucket ? null : { kind: 'none' };
    return ordinalKernelSpec(ls, rv, rv.field, this.subs, noColumn);
  }

  addPartial(spec: KernelSpec, out: Float64Array, off: number): void {
    if (spec.kind !== 'terms') return;
    const size = spec.size;
    const metric = spec.values ? this.subs[0]! : null;
    for (let o = 0; o < size; o++) {
      const c = out[off + o]!;
      if (c === 0) continue;
      const b = this.bucketOfSlot(o);
      if (b < 0) continue;
      if (b >= this.docCounts.length) this.docCounts = growI32(this.docCounts, b + 1);
      this.docCounts[b]! += c;
      // value counts and sums per ordinal, those of slot 0 last (see agg-kernels.ts)
      const at = o === 0 ? size - 1 : o - 1;
      const vc = metric ? out[off + size + at]! : 0;
      if (vc > 0) metric!.addSum!(b, vc, out[off + 2 * size + at]!);
    }
  }

  /** One source: key id → bucket directly; single-valued ordinals through segBuckets. */
  private collectOne(k: SourceKeys, docs: Int32Array, n: number, scores: Float64Array): void {
    const t = this.tuples!;
    const single = k.singleOrds();
    if (single) {
      const fused = this.fusable ? this.fusable.fusedSum!(this.docCounts.length, n) : null;
      if (fused) {
        this.collectOneFused(k, docs, n, single, fused);
        return;
      }
      const sb = this.segBuckets;
      const missing = this.sources[0]!.sp.missingBucket;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        const so = single[doc]!;
        let b: number;
        if (so >= 0) {
          b = sb[so]!;
          if (b === -1) b = sb[so] = t.one(k.ordId(so));
        } else if (missing) b = t.one(k.id(null));
        else continue;
        if (b >= 0) this.collectBucket(doc, b, scores[i]!);
      }
      return;
    }
    const decided = k.decisionValues();
    if (decided) {
      this.collectDecided(k, decided, docs, n, scores);
      return;
    }
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const c = k.read(doc, scores[i]!);
      for (let j = 0; j < c; j++) {
        const b = t.one(k.ids[j]!);
        if (b >= 0) this.collectBucket(doc, b, scores[i]!);
      }
    }
  }

  /**
   * One CASE-like script source over a single-valued numeric column: the doc's value picks an
   * outcome, an outcome with one key has one bucket (outcomeBuckets: -1 unknown, -3 several keys).
   */
  private collectDecided(
    k: SourceKeys,
    values: Float64Array,
    docs: Int32Array,
    n: number,
    scores: Float64Array,
  ): void {
    if (!this.hasSubs && this.countDecided(k, values, docs, n, scores)) return;
    const t = this.tuples!;
    const decide = k.decider();
    let ob = this.outcomeBuckets;
    let counts = this.docCounts;
    const hasSubs = this.hasSubs;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const o = decide(values[doc]!);
      if (o >= ob.length) ob = this.outcomeBuckets = growI32(ob, o + 1, -1);
      let b = ob[o]!;
      if (b === -1) {
        const ids = k.outcome(o, doc, scores[i]!);
        b = ob[o] = ids.length === 1 ? t.one(ids[0]!) : ids.length === 0 ? -2 : -3;
      }
      if (b >= 0) {
        if (hasSubs) this.collectBucket(doc, b, scores[i]!);
        else {
          if (b >= counts.length) counts = this.docCounts = growI32(counts, b + 1);
          counts[b]!++;
        }
      } else if (b === -3) {
        for (const id of k.outcome(o, doc, scores[i]!)) {
          const x = t.one(id);
          if (x >= 0) this.collectBucket(doc, x, scores[i]!);
        }
      }
    }
  }

  /**
   * collectDecided without sub-aggregations, by region of the value instead of per document.
   * In value order the outcome is below[0], at[0], below[1], ... below[m]; between two
   * neighbours with different outcomes lies a cut, `v < k` or `v <= k` (as `v < nextUp(k)`).
   * The docs below each cut are counted by a branch-free loop (as range-counts.ts counts
   * ranges), which gives the docs of each run of one outcome; each run's count goes to its
   * outcome's bucket at once. False, with nothing counted, when a threshold is a zero or not
   * finite (JavaScript's comparisons differ from Double.compare's only at zeros) or an outcome
   * has several keys; the per-document loop then serves the docs.
   */
  private countDecided(
    k: SourceKeys,
    values: Float64Array,
    docs: Int32Array,
    n: number,
    scores: Float64Array,
  ): boolean {
    const r = k.regions();
    const ks = r.thresholds;
    const m = ks.length;
    const bounds: number[] = [];
    // runs[i]: the outcome of the values between cut i - 1 and cut i (the last: over every cut)
    const runs: number[] = [r.below[0]!];
    for (let j = 0; j < m; j++) {
      const x = ks[j]!;
      if (x === 0 || x === Infinity || x === -Infinity || x === Number.MAX_VALUE) return false;
      for (const [o, bound] of [
        [r.at[j]!, x],
        [r.below[j + 1]!, nextUp(x)],
      ] as const) {
        if (o === runs[runs.length - 1]) continue;
        bounds.push(bound);
        runs.push(o);
      }
    }
    const below = new Float64Array(bounds.length);
    const nan = countBelow(values, docs, n, bounds, below);
    // each run's docs and, after the runs, the docs without a value
    const counts = new Float64Array(runs.length + 1);
    for (let i = 0; i < runs.length; i++) {
      const upTo = i < bounds.length ? below[i]! : n - nan;
      counts[i] = upTo - (i === 0 ? 0 : below[i - 1]!);
    }
    counts[runs.length] = nan;
    runs.push(r.missing);
    // each counted outcome's bucket, from the real script on one of its docs the first time
    const t = this.tuples!;
    const decide = k.decider();
    let ob = this.outcomeBuckets;
    for (let g = 0; g < counts.length; g++) {
      if (counts[g] === 0) continue;
      const o = runs[g]!;
      if (o >= ob.length) ob = this.outcomeBuckets = growI32(ob, o + 1, -1);
      if (ob[o] === -1) {
        let i = 0;
        while (i < n && decide(values[docs[i]!]!) !== o) i++;
        if (i === n) return false;
        const ids = k.outcome(o, docs[i]!, scores[i]!);
        ob[o] = ids.length === 1 ? t.one(ids[0]!) : ids.length === 0 ? -2 : -3;
      }
      if (ob[o] === -3) return false;
    }
    let dc = this.docCounts;
    for (let g = 0; g < counts.length; g++) {
      const c = counts[g]!;
      const b = c === 0 ? -1 : ob[runs[g]!]!;
      if (b < 0) continue;
      if (b >= dc.length) dc = this.docCounts = growI32(dc, b + 1);
      dc[b]! += c;
    }
    return true;
  }

  /**
   * collectOne over single-valued ordinals with a lone avg/sum sub-aggregation over a
   * single-valued numeric column: its count and Kahan sum are updated in the same loop, as the
   * metric's own collect would (see TermsAggregator.collectFusedSum).
   */
  private collectOneFused(
    k: SourceKeys,
    docs: Int32Array,
    n: number,
    single: Int32Array,
    f: FusedSum,
  ): void {
    const t = this.tuples!;
    const sb = this.segBuckets;
    const missing = this.sources[0]!.sp.missingBucket;
    const values = f.values;
    const exact = f.exact;
    let counts = this.docCounts;
    let mc = f.counts;
    let ms = f.sums;
    let mk = f.comps;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const so = single[doc]!;
      let b: number;
      if (so >= 0) {
        b = sb[so]!;
        if (b === -1) b = sb[so] = t.one(k.ordId(so));
      } else if (missing) b = t.one(k.id(null));
      else continue;
      if (b < 0) continue;
      if (b >= counts.length) {
        counts = this.docCounts = growI32(counts, b + 1);
        const g = this.fusable!.fusedSum!(counts.length, 0)!;
        mc = g.counts;
        ms = g.sums;
        mk = g.comps;
      }
      counts[b]!++;
      const v = values[doc]!;
      if (v !== v) continue;
      mc[b]!++;
      const s = ms[b]!;
      // FusedSum.exact: integral values and sums below 2^53 make plain addition the Kahan sum
      if (exact) ms[b] = s + v;
      else if (v - v !== 0) ms[b] = s + v;
      else if (s - s === 0) {
        const corrected = v - mk[b]!;
        const next = s + corrected;
        mk[b] = next - s - corrected;
        ms[b] = next;
      }
    }
  }

  /** Several sources: every combination of the doc's key ids (an odometer over the sources). */
  private collectTuples(keys: SourceKeys[], docs: Int32Array, n: number, scores: Float64Array) {
    const t = this.tuples!;
    const w = keys.length;
    const tuple: number[] = new Array<number>(w).fill(0);
    const pos = new Int32Array(w);
    outer: for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      for (let s = 0; s < w; s++) if (keys[s]!.read(doc, scores[i]!) === 0) continue outer;
      pos.fill(0);
      for (;;) {
        for (let s = 0; s < w; s++) tuple[s] = keys[s]!.ids[pos[s]!]!;
        const b = t.tuple(tuple);
        if (b >= 0) this.collectBucket(doc, b, scores[i]!);
        let s = w - 1;
        while (s >= 0 && ++pos[s]! === keys[s]!.n) pos[s--] = 0;
        if (s < 0) break;
      }
    }
  }

  private ordOf(key: KeyValue[]): number {
    let m = this.keys;
    const last = key.length - 1;
    for (let i = 0; i < last; i++) {
      let next = m.get(key[i]!) as Map<KeyValue, unknown> | undefined;
      if (next === undefined) m.set(key[i]!, (next = new Map()));
      m = next;
    }
    let ord = m.get(key[last]!) as number | undefined;
    if (ord === undefined) {
      ord = this.values.length;
      this.values.push(key.slice());
      m.set(key[last]!, ord);
    }
    return ord;
  }

  /** Every combination of the doc's source values (multi-valued fields give several keys). */
  private product(i: number, key: KeyValue[], doc: number, score: number): void {
    if (i === this.sources.length) {
      if (this.after && compareKeys(key, this.after, this.muls) <= 0) return;
      this.collectBucket(doc, this.ordOf(key), score);
      return;
    }
    const s = this.sources[i]!;
    for (let j = 0; j < s.n; j++) {
      key[i] = s.vals[j]!;
      this.product(i + 1, key, doc, score);
    }
  }

  build(): InternalComposite {
    const ords = this.values.map((_, i) => i);
    ords.sort((a, b) => compareKeys(this.values[a]!, this.values[b]!, this.muls));
    const top = ords.slice(0, this.p.size);
    this.ac.consumer.accept(top.length);
    const buckets = top.map((o): CompositeBucket =>
      this.bucket(this.values[o]!, this.docCount(o), this.subResults(o)),
    );
    return this.result(buckets, buckets.length ? buckets[buckets.length - 1]!.values : null);
  }

  buildEmpty(): InternalComposite {
    return this.result([], null);
  }

  private bucket(values: KeyValue[], docCount: number, aggs: InternalAgg[]): CompositeBucket {
    return { values, key: null, docCount, aggs };
  }

  private result(buckets: CompositeBucket[], afterKey: KeyValue[] | null): InternalComposite {
    return {
      spec: 'composite',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      size: this.p.size,
      names: this.sources.map((s) => s.sp.name),
      formats: this.sources.map((s) => (s.bytes ? (s.rv?.format ?? RAW) : s.format)),
      reverseMuls: this.muls,
      buckets,
      afterKey,
    };
  }
}

/**
 * Counts, over the docs' values, those below each of `bounds` into `below`, four bounds per pass
 * with branch-free counters (a missing bound is -Infinity, which nothing is below); returns the
 * number of NaN values (docs without one), counted in the first pass.
 */
function countBelow(
  values: Float64Array,
  docs: Int32Array,
  n: number,
  bounds: readonly number[],
  below: Float64Array,
): number {
  const m = bounds.length;
  let nan = 0;
  for (let g = 0; g === 0 || g < m; g += 4) {
    const k0 = g < m ? bounds[g]! : -Infinity;
    const k1 = g + 1 < m ? bounds[g + 1]! : -Infinity;
    const k2 = g + 2 < m ? bounds[g + 2]! : -Infinity;
    const k3 = g + 3 < m ? bounds[g + 3]! : -Infinity;
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const v = values[docs[i]!]!;
      c0 += Number(v < k0);
      c1 += Number(v < k1);
      c2 += Number(v < k2);
      c3 += Number(v < k3);
      c += Number(v !== v);
    }
    if (g === 0) nan = c;
    if (g < m) below[g] = c0;
    if (g + 1 < m) below[g + 1] = c1;
    if (g + 2 < m) below[g + 2] = c2;
    if (g + 3 < m) below[g + 3] = c3;
  }
  return nan;
}

function reduceComposite(parts: InternalComposite[], rc: ReduceContext): InternalComposite {
  const first = parts[0]!;
  const all: CompositeBucket[] = [];
  for (const p of parts) all.push(...p.buckets);
  all.sort((a, b) => compareKeys(a.values, b.values, first.reverseMuls));
  const result: CompositeBucket[] = [];
  let i = 0;
  while (i < all.length && result.length < first.size) {
    let j = i + 1;
    while (j < all.length && compareKeys(all[j]!.values, all[i]!.values, first.reverseMuls) === 0)
      j++;
    const group = all.slice(i, j);
    rc.consumer.accept(1);
    result.push({
      ...group[0]!,
      docCount: group.reduce((s, b) => s + b.docCount, 0),
      aggs: reduceAggList(
        group.map((b) => b.aggs),
        rc,
      ),
    });
    i = j;
  }
  const afterKey = result.length > 0 ? result[result.length - 1]!.values : null;
  return { ...first, buckets: result, afterKey };
}

/** InternalComposite.formatObject. */
function formatValue(v: KeyValue, fmt: DocFormat): unknown {
  if (v === null) return null;
  if (typeof v === 'string') return fmt.formatTerm(v);
  if (fmt === RAW) return v;
  return fmt.format(v);
}

function keyMap(c: InternalComposite, values: readonly KeyValue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  c.names.forEach((n, i) => (out[n] = formatValue(values[i]!, c.formats[i]!)));
  return out;
}

function renderComposite(c: InternalComposite, rc: ReduceContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.afterKey) out.after_key = keyMap(c, c.afterKey);
  out.buckets = c.buckets.map((b) =>
    renderAggs(b.aggs, rc, { key: keyMap(c, b.values), doc_count: b.docCount }),
  );
  return out;
}

const result: ResultSpec<InternalComposite> = {
  reduce: reduceComposite,
  render: renderComposite,
  typedType: () => 'composite',
  keyAsString: (c, b) => {
    const m = keyMap(c, (b as CompositeBucket).values);
    return (
      '{' +
      Object.entries(m)
        .map(
          ([k, v]) => `${k}=${v === null ? 'null' : typeof v === 'number' ? String(v) : String(v)}`,
        )
        .join(', ') +
      '}'
    );
  },
};

registerAgg<CompositeParams, InternalComposite>(
  {
    type: 'composite',
    category: 'bucket',
    leaf: false,
    factoryName: 'CompositeAggregationFactory',
    parse: parseComposite,
    validate: (_node, _parent, ancestors) => {
      // ES checkParentIsNullOrNested: only nested aggregations may wrap a composite
      for (let i = ancestors.length - 1; i >= 0; i--) {
        const a = ancestors[i]!;
        if (a.type !== 'nested') {
          throw illegalArgument(
            `[composite] aggregation cannot be used with a parent aggregation of type: [${factoryNameOf(a.type)}]`,
          );
        }
      }
    },
    create: (node, ac, space) =>
      new CompositeAggregator(
        node,
        ac,
        createSubAggregators(node, ac, space),
        node.params as CompositeParams,
      ),
  },
  result,
);

function factoryNameOf(type: string): string {
  const names: Record<string, string> = {
    terms: 'TermsAggregatorFactory',
    histogram: 'HistogramAggregatorFactory',
    date_histogram: 'DateHistogramAggregatorFactory',
    range: 'RangeAggregatorFactory',
    date_range: 'DateRangeAggregatorFactory',
    ip_range: 'BinaryRangeAggregatorFactory',
    filter: 'FilterAggregatorFactory',
    filters: 'FiltersAggregatorFactory',
    adjacency_matrix: 'AdjacencyMatrixAggregatorFactory',
    missing: 'MissingAggregatorFactory',
    global: 'GlobalAggregatorFactory',
    reverse_nested: 'ReverseNestedAggregatorFactory',
    composite: 'CompositeAggregationFactory',
    significant_terms: 'SignificantTermsAggregatorFactory',
  };
  return names[type] ?? `${type}AggregatorFactory`;
}
