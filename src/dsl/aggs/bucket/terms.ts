/**
 * terms (ES TermsAggregationBuilder, GlobalOrdinalsStringTermsAggregator / StringTerms-,
 * LongTerms-, DoubleTermsAggregator, InternalTerms): string keys from ordinal columns (segment
 * ordinals mapped once per segment to shard term ids), long/double keys from numeric columns,
 * script values as strings. Shards keep the top `shard_size` buckets (default size*1.5+10 unless
 * ordered by key) and report `sum_other_doc_count`; the reduce computes
 * `doc_count_error_upper_bound` per shard exactly as InternalTerms.doReduce.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import {
  BATCH,
  BucketsAggregator,
  NO_SCORES,
  ROOT_ORDS,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
  type FusedSum,
} from '../collect/aggregator.js';
import { orderValue } from '../collect/order-path.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { parseObject } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import {
  bucketProperty,
  countInnerBuckets,
  isSingleBucket,
  pathStrings,
  singleValue,
} from '../reduce/property.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { bucketCountDecls } from '../parse/bucket-count-thresholds.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { BucketHash, growI32, TermIds } from '../support/arrays.js';
import { formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import {
  isRegexBased,
  mergeIncludeExclude,
  numericFilter,
  parseExclude,
  parseInclude,
  stringFilter,
  type IncludeExclude,
} from '../support/include-exclude.js';
import {
  compileComparator,
  DEFAULT_TERMS_ORDER,
  isCountDesc,
  isKeyOrder,
  parseOrder,
  type BucketOrder,
  type OrderElement,
} from '../support/order.js';
import { topN } from '../support/top-n.js';
import { hasMissing } from '../support/column-stats.js';
import { ordinalKernelSpec } from '../support/ordinal-kernel-spec.js';
import { javaDoubleToString } from '../../script/index.js';
import {
  BytesReader,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from '../types.js';
import { columnOf } from '../support/values-source.js';
import { loadGlobalOrdinals, type GlobalOrdinals } from '../support/global-ordinals.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import {
  countOrdsList,
  STRIPES,
  stripeSum,
  sumOrdsList,
  type KernelSpec,
} from '../../../search/parallel/agg-kernels.js';

export interface TermsParams {
  source: ValuesSourceParams;
  size: number;
  shardSize: number;
  minDocCount: number;
  shardMinDocCount: number;
  order: BucketOrder;
  includeExclude: IncludeExclude | null;
  showTermDocCountError: boolean;
  executionHint: string | null;
}

export type TermsKind = 'string' | 'long' | 'double' | 'unmapped';

export interface TermsBucket extends InternalBucket {
  /** Raw term (indexed form) for string terms; the number for numeric terms. */
  term: string | number;
  docCountError: number;
}

export interface InternalTerms extends InternalAgg {
  kind: TermsKind;
  format: DocFormat;
  order: BucketOrder;
  requiredSize: number;
  minDocCount: number;
  shardSize: number;
  showTermDocCountError: boolean;
  otherDocCount: number;
  docCountError: number;
  buckets: TermsBucket[];
}

const EXECUTION_HINTS = [
  'map',
  'global_ordinals',
  'global_ordinals_hash',
  'global_ordinals_low_cardinality',
];

function parseTerms(
  json: unknown,
  name: string,
  pc: { warnings: string[] | undefined },
): TermsParams {
  const p: TermsParams = {
    source: emptyValuesSource(),
    size: 10,
    shardSize: -1,
    minDocCount: 1,
    shardMinDocCount: 0,
    order: DEFAULT_TERMS_ORDER,
    includeExclude: null,
    showTermDocCountError: false,
    executionHint: null,
  };
  parseObject('terms', json, [
    ...valuesSourceDecls('terms', p.source),
    ...bucketCountDecls(p, name),
    {
      names: ['show_term_doc_count_error'],
      kind: 'boolean',
      set: (v) => (p.showTermDocCountError = v as boolean),
    },
    { names: ['execution_hint'], kind: 'string', set: (v) => (p.executionHint = v as string) },
    {
      names: ['collect_mode'],
      kind: 'string',
      set: (v) => {
        if (v !== 'depth_first' && v !== 'breadth_first') {
          throw new EsError(
            'parse_exception',
            `no [collect_mode] found for value [${String(v)}]`,
            400,
          );
        }
      },
    },
    { names: ['order'], kind: 'object_array', set: (v) => (p.order = parseOrder(v, pc.warnings)) },
    {
      names: ['include'],
      kind: 'object_array_or_string',
      set: (v) => (p.includeExclude = mergeIncludeExclude(parseInclude(v), p.includeExclude)),
    },
    {
      names: ['exclude'],
      kind: 'value_array',
      set: (v) => (p.includeExclude = mergeIncludeExclude(p.includeExclude, parseExclude(v))),
    },
  ]);
  return p;
}

/** Resolved shard_size (TermsAggregatorFactory + BucketCountThresholds.ensureValidity). */
export function effectiveShardSize(p: {
  size: number;
  shardSize: number;
  order: BucketOrder;
}): number {
  let shardSize = p.shardSize;
  if (!isKeyOrder(p.order) && shardSize === -1) shardSize = Math.trunc(p.size * 1.5 + 10);
  if (shardSize < p.size) shardSize = p.size;
  return shardSize;
}

export interface Candidate {
  ord: number;
  term: string | number;
  count: number;
}

export class TermsAggregator extends BucketsAggregator {
  protected readonly p: TermsParams;
  protected readonly kind: TermsKind;
  private readonly hash = new BucketHash();
  private readonly termIds = new TermIds();
  private readonly strFilter: ((t: string) => boolean) | null = null;
  private readonly numFilter: ((v: number) => boolean) | null = null;
  private bytes: BytesReader | null = null;
  private num: NumericReader | null = null;
  /** Segment ordinal → shard term id (-1 unknown, -2 excluded). */
  private segTerm = new Int32Array(0);
  /** Segment ordinal → bucket ordinal for owning bucket 0 (-1 unknown). */
  private seg0 = new Int32Array(0);
  private readonly dicts = new Set<readonly string[]>();
  private ownerIndex: Map<number, number[]> | null = null;
  protected shardSize: number;
  /**
   * Root collection without sub-aggregations, or with an exact-summable avg/sum over a column
   * without missing values: doc counts (and value sums) per segment ordinal + 1, in STRIPES
   * interleaved copies (see agg-kernels.ts), turned into buckets when the segment is done.
   */
  private segCounts = new Int32Array(0);
  private segSums = new Float64Array(0);
  private segCounted = false;
  private segSummed = false;
  /** The lone sub-aggregator when it may be updated inline (Aggregator.fusedSum). */
  private readonly fusable: Aggregator | null;
  /** Global ordinals (execution modes other than `map`) and global ordinal → term id. */
  private global: GlobalOrdinals | null = null;
  private globalTerm = new Int32Array(0);
  private segToGlobal: Int32Array | null = null;

  constructor(
    node: AggNode,
    ac: AggregatorContext,
    subs: ReturnType<typeof createSubAggregators>,
    protected readonly rv: ResolvedValues | null,
  ) {
    // A script reading `_score` needs the scores collected (ES ScoreMode.COMPLETE).
    super(node, subs, rv?.script?.needsScore ?? false);
    this.p = node.params as TermsParams;
    this.kind = !rv ? 'unmapped' : rv.kind === 'bytes' ? 'string' : rv.floating ? 'double' : 'long';
    this.shardSize = effectiveShardSize(this.p);
    this.fusable = subs.length === 1 && subs[0]!.fusedSum ? subs[0]! : null;
    if (this.p.executionHint !== null && !EXECUTION_HINTS.includes(this.p.executionHint)) {
      throw illegalArgument(
        `Unknown \`execution_hint\`: [${this.p.executionHint}], expected any of [map, global_ordinals, global_ordinals_hash, global_ordinals_low_cardinality]`,
      );
    }
    const ie = this.p.includeExclude;
    if (rv && ie) {
      if (rv.kind === 'bytes') {
        if (isRegexBased(ie) && rv.format !== RAW) {
          throw new EsError(
            'aggregation_execution_exception',
            `Aggregation [${node.name}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses`,
            500,
          );
        }
        this.strFilter = stringFilter(ie, rv.format);
      } else {
        this.numFilter = numericFilter(ie, rv.format, rv.floating, node.name, () => ac.shard.now);
      }
    }
    this.ac = ac;
  }
  protected readonly ac: AggregatorContext;

  override setSegment(seg: AggSegment): void {
    this.flushSegCounts();
    super.setSegment(seg);
    this.sub.flush();
    const rv = this.rv;
    if (!rv) return;
    if (rv.kind === 'bytes') {
      this.bytes = new BytesReader(rv, seg.ls);
      const col = this.bytes.ordinals;
      if (col) {
        this.dicts.add(col.dict);
        const size = col.dict.length + 1;
        if (this.segTerm.length < size) {
          this.segTerm = new Int32Array(size);
          this.seg0 = new Int32Array(size);
        }
        this.segTerm.fill(-1, 0, size);
        this.seg0.fill(-1, 0, size);
        this.segToGlobal = this.globalOrdinalsOf(seg);
        // one count per ordinal, and slot 0 for docs without a value
        if (this.bytes.single && this.segCounts.length !== size * STRIPES) {
          this.segCounts = new Int32Array(size * STRIPES);
          if (this.hasSubs) this.segSums = new Float64Array(size * STRIPES);
        }
      }
    } else this.num = new NumericReader(rv, seg.ls);
  }

  /**
   * ES TermsAggregatorFactory: every execution mode but `map` loads the field's global ordinals
   * (a term seen in several segments is then resolved once). A single segment's ordinals are
   * already global (SortedSetDVOrdinalsIndexFieldData.loadGlobal), so nothing is built for it.
   */
  private globalOrdinalsOf(seg: AggSegment): Int32Array | null {
    const rv = this.rv!;
    const snapshot = this.ac.shard.snapshot;
    if (this.p.executionHint === 'map' || !rv.field || rv.script || rv.constant !== undefined)
      return null;
    if (seg.path !== null || snapshot.segments.length <= 1) return null;
    const si = snapshot.segments.indexOf(seg.ls);
    if (si < 0) return null;
    if (!this.global) {
      const field = rv.field;
      this.global = loadGlobalOrdinals(
        snapshot,
        field.path,
        (ls) => {
          const c = columnOf(ls, field);
          return c && c.kind === 'ordinal' ? c : null;
        },
        this.ac.shard.counters,
      );
      this.globalTerm = new Int32Array(this.global.valueCount).fill(-1);
    }
    return this.global.segmentToGlobal[si] ?? null;
  }

  private termId(term: string): number {
    if (this.strFilter && !this.strFilter(term)) return -2;
    return this.termIds.id(term);
  }

  /** Bucket ordinal for segment ordinal `so` under owning bucket `owner`, or -1 (excluded). */
  private bucketOfOrd(so: number, owner: number): number {
    if (owner === 0) {
      const b = this.seg0[so]!;
      if (b >= 0) return b;
    }
    let t = this.segTerm[so]!;
    if (t === -1) {
      const g = this.segToGlobal && so < this.segToGlobal.length ? this.segToGlobal[so]! : -1;
      if (g >= 0) {
        t = this.globalTerm[g]!;
        if (t === -1) t = this.globalTerm[g] = this.termId(this.bytes!.termOfOrd(so));
        this.segTerm[so] = t;
      } else t = this.segTerm[so] = this.termId(this.bytes!.termOfOrd(so));
    }
    if (t < 0) return -1;
    const b = this.hash.add(owner, t);
    if (owner === 0) this.seg0[so] = b;
    return b;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    if (!this.rv) return;
    if (this.bytes) {
      const r = this.bytes;
      if (r.ordinals) {
        const single = r.single;
        if (single) {
          const fused = this.fusable ? this.fusable.fusedSum!(this.docCounts.length, n) : null;
          if (fused) {
            this.collectFusedSum(docs, ords, n, single, fused);
            return;
          }
          this.collectSingleOrds(docs, ords, n, scores, single);
        } else {
          for (let i = 0; i < n; i++) {
            const doc = docs[i]!;
            const c = r.readOrds(doc);
            for (let j = 0; j < c; j++) {
              const b = this.bucketOfOrd(r.ords[j]!, ords[i]!);
              if (b >= 0) this.collectBucket(doc, b, scores[i]!);
            }
          }
        }
      } else {
        for (let i = 0; i < n; i++) {
          const doc = docs[i]!;
          const c = r.read(doc, scores[i]!);
          let prev: string | null = null;
          for (let j = 0; j < c; j++) {
            const t = r.terms[j]!;
            if (t === prev) continue;
            prev = t;
            const id = this.termId(t);
            if (id < 0) continue;
            this.collectBucket(doc, this.hash.add(ords[i]!, id), scores[i]!);
          }
        }
      }
    } else {
      const r = this.num!;
      const single = r.single;
      const filter = this.numFilter;
      if (single) {
        for (let i = 0; i < n; i++) {
          const v = single[docs[i]!]!;
          if (v !== v || (filter && !filter(v))) continue;
          this.collectBucket(docs[i]!, this.hash.add(ords[i]!, v), scores[i]!);
        }
      } else {
        for (let i = 0; i < n; i++) {
          const doc = docs[i]!;
          const c = r.read(doc, scores[i]!);
          for (let j = 0; j < c; j++) {
            const v = r.buf[j]!;
            if (j > 0 && v === r.buf[j - 1]) continue;
            if (filter && !filter(v)) continue;
            this.collectBucket(doc, this.hash.add(ords[i]!, v), scores[i]!);
          }
        }
      }
    }
    this.sub.flush();
  }

  /**
   * Top-level collection (owning bucket 0, no scores) of a single-valued ordinal column: without
   * sub-aggregations docs are counted per segment ordinal and turned into buckets when the
   * segment is done (only ordinals that were seen get a term and a bucket); a lone avg/sum
   * sub-aggregation is accumulated in the same loop.
   */
  collectRoot(docs: Int32Array, n: number): void {
    const single = this.bytes?.single;
    if (!single) {
      this.collect(docs, ROOT_ORDS, n, NO_SCORES);
      return;
    }
    const size = this.segCounts.length / STRIPES;
    if (!this.hasSubs) {
      countOrdsList(docs, 0, n, single, this.segCounts, size);
      this.segCounted = true;
      return;
    }
    const fused = this.fusable ? this.fusable.fusedSum!(this.docCounts.length, n) : null;
    if (fused) {
      // every sum exact: the order of additions does not matter, so add per segment ordinal
      if (
        fused.exact &&
        !hasMissing(fused.values) &&
        this.segSums.length === this.segCounts.length
      ) {
        sumOrdsList(docs, 0, n, single, fused.values, this.segCounts, this.segSums, size);
        this.segCounted = this.segSummed = true;
      } else if (fused.exact) this.rootExactSum(docs, n, single, fused);
      else {
        // the compensated sums go on from the exact ones
        this.flushSegCounts();
        this.collectFusedSum(docs, ROOT_ORDS, n, single, fused);
      }
      return;
    }
    this.collectSingleOrds(docs, ROOT_ORDS, n, NO_SCORES, single);
    this.sub.flush();
  }

  /** Turns the per-ordinal counts of the finished segment into bucket counts. */
  private flushSegCounts(): void {
    if (!this.segCounted) return;
    this.segCounted = false;
    const sc = this.segCounts;
    const ss = this.segSums;
    const metric = this.segSummed ? this.subs[0]! : null;
    this.segSummed = false;
    const size = sc.length / STRIPES;
    for (let so = 0; so + 1 < size; so++) {
      const c = stripeSum(sc, so + 1, size);
      if (c === 0) continue;
      const b = this.bucketOfOrd(so, 0);
      if (b < 0) continue;
      if (b >= this.docCounts.length) this.docCounts = growI32(this.docCounts, b + 1);
      this.docCounts[b]! += c;
      if (metric) metric.addSum!(b, c, stripeSum(ss, so + 1, size));
    }
    sc.fill(0);
    if (metric) ss.fill(0);
  }

  finish(): void {
    this.flushSegCounts();
  }

  /**
   * collectFusedSum for owning bucket 0 when plain addition is exact (FusedSum.exact): no
   * compensation, no infinity checks.
   */
  private rootExactSum(docs: Int32Array, n: number, single: Int32Array, f: FusedSum): void {
    const seg0 = this.seg0;
    let mc = f.counts;
    let ms = f.sums;
    for (let i = exactSumRun(docs, 0, n, single, seg0, this.docCounts, f.values, mc, ms); i < n;) {
      // doc i's ordinal has no bucket yet: create it (or mark the term excluded), then resume
      const so = single[docs[i]!]!;
      const b = this.bucketOfOrd(so, 0);
      if (b < 0) seg0[so] = -2;
      else if (b >= this.docCounts.length) {
        this.docCounts = growI32(this.docCounts, b + 1);
        const g = this.fusable!.fusedSum!(this.docCounts.length, 0)!;
        mc = g.counts;
        ms = g.sums;
      }
      i = exactSumRun(docs, i, n, single, seg0, this.docCounts, f.values, mc, ms);
    }
  }

  /**
   * Hot path (single-valued keyword): cached segment ordinal → bucket for owner 0, counts and the
   * sub-aggregation buffer handled inline.
   */
  private collectSingleOrds(
    docs: Int32Array,
    ords: Int32Array,
    n: number,
    scores: Float64Array,
    single: Int32Array,
  ): void {
    const seg0 = this.seg0;
    let counts = this.docCounts;
    const hasSubs = this.hasSubs;
    const sub = this.sub;
    const sd = sub.docs;
    const sb = sub.ords;
    const ss = sub.scores;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const so = single[doc]!;
      if (so < 0) continue;
      const o = ords[i]!;
      let b = o === 0 ? seg0[so]! : -1;
      if (b < 0) {
        b = this.bucketOfOrd(so, o);
        if (b < 0) continue;
      }
      if (b >= counts.length) counts = this.docCounts = growI32(counts, b + 1);
      counts[b]!++;
      if (hasSubs) {
        const k = sub.n;
        sd[k] = doc;
        sb[k] = b;
        ss[k] = scores[i]!;
        if ((sub.n = k + 1) === BATCH) sub.flush();
      }
    }
  }

  /**
   * The single-valued keyword hot path with a lone avg/sum sub-aggregation over a single-valued
   * numeric column: the metric's count and Kahan sum are updated in the same loop (as the
   * metric's own collect would), saving the (doc, bucket) buffer round trip.
   */
  private collectFusedSum(
    docs: Int32Array,
    ords: Int32Array,
    n: number,
    single: Int32Array,
    f: FusedSum,
  ): void {
    const seg0 = this.seg0;
    const values = f.values;
    let counts = this.docCounts;
    let mc = f.counts;
    let ms = f.sums;
    let mk = f.comps;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const so = single[doc]!;
      if (so < 0) continue;
      const o = ords[i]!;
      let b = o === 0 ? seg0[so]! : -1;
      if (b < 0) {
        b = this.bucketOfOrd(so, o);
        if (b < 0) continue;
      }
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
      if (v - v !== 0) ms[b] = s + v;
      else if (s - s === 0) {
        const corrected = v - mk[b]!;
        const next = s + corrected;
        mk[b] = next - s - corrected;
        ms[b] = next;
      }
    }
  }

  /**
   * A single-valued keyword field with no sub-aggregation or one exact-summable avg/sum (the
   * caller checks the sums stay exact), in an order that ties break by key (so the order of
   * bucket creation does not matter).
   */
  parallelSpec(ls: LiveSegment): KernelSpec | null {
    const rv = this.rv;
    if (this.constructor !== TermsAggregator || !rv || rv.kind !== 'bytes') return null;
    if (rv.script || rv.constant !== undefined || !rv.field || rv.field.type !== 'keyword') return null; // prettier-ignore
    if (rv.missingTerm !== null || !this.p.order.some((e) => e.kind === 'key')) return null;
    return ordinalKernelSpec(ls, rv, rv.field, this.subs, { kind: 'none' });
  }

  addPartial(spec: KernelSpec, out: Float64Array, off: number): void {
    if (spec.kind !== 'terms') return;
    const size = spec.size;
    const metric = spec.values ? this.subs[0]! : null;
    for (let so = 0; so + 1 < size; so++) {
      const c = out[off + so + 1]!;
      if (c === 0) continue;
      const b = this.bucketOfOrd(so, 0);
      if (b < 0) continue;
      if (b >= this.docCounts.length) this.docCounts = growI32(this.docCounts, b + 1);
      this.docCounts[b]! += c;
      const vc = metric ? out[off + size + so]! : 0;
      if (vc > 0) metric!.addSum!(b, vc, out[off + 2 * size + so]!);
    }
  }

  protected bucketsOf(owner: number): number[] {
    if (!this.ownerIndex) {
      this.ownerIndex = new Map();
      for (let o = 0; o < this.hash.size; o++) {
        const ow = this.hash.owners[o]!;
        let l = this.ownerIndex.get(ow);
        if (!l) this.ownerIndex.set(ow, (l = []));
        l.push(o);
      }
    }
    return this.ownerIndex.get(owner) ?? [];
  }

  protected keyOf(ord: number): string | number {
    const k = this.hash.keys[ord]!;
    return this.kind === 'string' ? this.termIds.terms[k]! : k;
  }

  /** min_doc_count 0: every term (or value) of the field on this shard, as zero-count candidates. */
  protected zeroCandidates(present: Set<string | number>, owned: number): Candidate[] {
    const out: Candidate[] = [];
    const rv = this.rv!;
    if (this.kind === 'string') {
      const all = new Set<string>();
      for (const ls of this.ac.shard.snapshot.segments) {
        const col = rv.field ? columnOf(ls, rv.field) : null;
        if (col && col.kind === 'ordinal') for (const t of col.dict) all.add(t);
      }
      for (const d of this.dicts) for (const t of d) all.add(t);
      for (const t of all) {
        if (present.has(t) || (this.strFilter && !this.strFilter(t))) continue;
        out.push({ ord: -1, term: t, count: 0 });
      }
      return out;
    }
    if (isCountDesc(this.p.order) && owned >= this.p.size) return out;
    for (const ls of this.ac.shard.snapshot.segments) {
      const col = rv.field ? columnOf(ls, rv.field) : null;
      if (!col || col.kind !== 'numeric') continue;
      const vals = col.single ?? col.values!;
      for (let i = 0; i < vals.length; i++) {
        const v = vals[i]!;
        if (v !== v || present.has(v) || (this.numFilter && !this.numFilter(v))) continue;
        present.add(v);
        out.push({ ord: -1, term: v, count: 0 });
      }
    }
    return out;
  }

  build(owner: number): InternalTerms | InternalAgg {
    if (!this.rv) return this.buildEmpty();
    const cands: Candidate[] = this.bucketsOf(owner).map((ord) => ({
      ord,
      term: this.keyOf(ord),
      count: this.docCount(ord),
    }));
    if (this.p.minDocCount === 0) {
      const present = new Set<string | number>(cands.map((c) => c.term));
      cands.push(...this.zeroCandidates(present, cands.length));
    }
    let other = 0;
    const qualifying: Candidate[] = [];
    for (const c of cands) {
      other += c.count;
      if (c.count >= this.p.shardMinDocCount) qualifying.push(c);
    }
    const top = topN(qualifying, Math.min(cands.length, this.shardSize), this.shardComparator());
    for (let i = 0; i < top.length; i++) this.ac.consumer.accept(1);
    const buckets: TermsBucket[] = top.map((c) => {
      other -= c.count;
      return this.bucket(
        c.term,
        c.count,
        c.ord >= 0 && c.count > 0 ? this.subResults(c.ord) : this.emptySubResults(),
      );
    });
    return this.result(buckets, other);
  }

  private cmp: ((a: Candidate, b: Candidate) => number) | null = null;
  private shardComparator(): (a: Candidate, b: Candidate) => number {
    if (this.cmp) return this.cmp;
    const values = new Map<OrderElement, (ord: number) => number>();
    for (const e of this.p.order) if (e.kind === 'agg') values.set(e, orderValue(this, e));
    const keyCmp =
      this.kind === 'string'
        ? (a: Candidate, b: Candidate) =>
            (a.term as string) < (b.term as string)
              ? -1
              : (a.term as string) > (b.term as string)
                ? 1
                : 0
        : (a: Candidate, b: Candidate) => (a.term as number) - (b.term as number);
    return (this.cmp = compileComparator<Candidate>(
      this.p.order,
      keyCmp,
      (c) => c.count,
      (c, e) => values.get(e)!(c.ord),
    ));
  }

  private bucket(term: string | number, docCount: number, aggs: InternalAgg[]): TermsBucket {
    const fmt = this.rv?.format ?? RAW;
    return {
      term,
      key: typeof term === 'string' ? fmt.formatTerm(term) : term,
      docCount,
      docCountError: 0,
      aggs,
    };
  }

  buildEmpty(): InternalTerms | InternalAgg {
    return this.result([], 0);
  }

  private result(buckets: TermsBucket[], other: number): InternalTerms {
    return {
      spec: 'terms',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      kind: this.kind,
      format: this.rv?.format ?? RAW,
      order: this.p.order,
      requiredSize: this.p.size,
      minDocCount: this.p.minDocCount,
      shardSize: this.shardSize,
      showTermDocCountError: this.p.showTermDocCountError,
      otherDocCount: other,
      docCountError: 0,
      buckets,
    };
  }
}

/**
 * The loop of TermsAggregator.rootExactSum (monomorphic, typed arrays only): counts docs and
 * sums values per bucket from `from`, returns the index of the first doc whose ordinal has no
 * bucket yet (`seg0` -1; -2 marks an excluded term), or `n`.
 */
function exactSumRun(
  docs: Int32Array,
  from: number,
  n: number,
  single: Int32Array,
  seg0: Int32Array,
  counts: Int32Array,
  values: Float64Array,
  mc: Float64Array,
  ms: Float64Array,
): number {
  for (let i = from; i < n; i++) {
    const doc = docs[i]!;
    const so = single[doc]!;
    if (so < 0) continue;
    const b = seg0[so]!;
    if (b < 0) {
      if (b === -2) continue;
      return i;
    }
    counts[b]!++;
    const v = values[doc]!;
    if (v !== v) continue;
    mc[b]!++;
    ms[b]! += v;
  }
  return n;
}

// ---- reduce --------------------------------------------------------------------------------------

function keyCompare(kind: TermsKind): (a: TermsBucket, b: TermsBucket) => number {
  if (kind === 'string' || kind === 'unmapped') {
    return (a, b) =>
      (a.term as string) < (b.term as string)
        ? -1
        : (a.term as string) > (b.term as string)
          ? 1
          : 0;
  }
  return (a, b) => (a.term as number) - (b.term as number);
}

/** The value of a reduced bucket along an order path (InternalOrder.Aggregation). */
export function reducedOrderValue(b: InternalBucket, containing: string, e: OrderElement): number {
  const v = bucketProperty(b, containing, pathStrings(e.path!));
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && 'spec' in v && isSingleBucket(v as InternalAgg)) {
    return (v as unknown as { docCount: number }).docCount;
  }
  const n = singleValue(v);
  if (n === null) {
    throw new EsError('aggregation_execution_exception', `Invalid order path [${e.path}]`, 500);
  }
  return n;
}

function toDoubleTerms(t: InternalTerms): InternalTerms {
  return { ...t, kind: 'double', format: t.format };
}

function reduceTerms(parts: InternalTerms[], rc: ReduceContext): InternalTerms {
  const mapped = parts.filter((p) => p.kind !== 'unmapped');
  if (mapped.length === 0) return parts[0]!;
  // LongTerms/DoubleTerms.doReduce: RAW longs mixed with doubles are promoted to doubles
  if (mapped.some((p) => p.kind === 'double') && mapped.some((p) => p.kind === 'long')) {
    const promote = mapped.some((p) => p.kind === 'long' && p.format === RAW);
    if (promote) parts = parts.map((p) => (p.kind === 'long' ? toDoubleTerms(p) : p));
  }
  const reference = parts.find((p) => p.kind !== 'unmapped')!;
  for (const p of parts) {
    if (p.kind !== 'unmapped' && p.kind !== reference.kind) {
      throw new EsError(
        'aggregation_execution_exception',
        `Merging/Reducing the aggregations failed when computing the aggregation [${reference.name}] because the field you gave in the aggregation query existed as two different types in two different indices`,
        500,
      );
    }
  }
  const first = parts[0]!;
  const shardSize = first.shardSize;
  const order = reference.order;
  let sumDocCountError = 0;
  let otherDocCount = 0;
  const groups = new Map<string | number, TermsBucket[]>();
  for (const t of parts) {
    otherDocCount += t.otherDocCount;
    let err: number;
    if (t.buckets.length < shardSize || isKeyOrder(order)) err = 0;
    else if (isCountDesc(order))
      err = t.docCountError > 0 ? t.docCountError : t.buckets[t.buckets.length - 1]!.docCount;
    else err = -1;
    if (sumDocCountError !== -1) sumDocCountError = err === -1 ? -1 : sumDocCountError + err;
    for (const b of t.buckets) {
      const copy = { ...b, docCountError: b.docCountError - err };
      const g = groups.get(b.term);
      if (g) g.push(copy);
      else groups.set(b.term, [copy]);
    }
  }
  const reduced: TermsBucket[] = [];
  for (const g of groups.values()) {
    let docCount = 0;
    let err = 0;
    for (const b of g) {
      docCount += b.docCount;
      if (err !== -1) err = b.docCountError === -1 ? -1 : err + b.docCountError;
    }
    const aggs = reduceAggList(
      g.map((b) => b.aggs),
      rc,
    );
    const b: TermsBucket = {
      ...g[0]!,
      docCount,
      docCountError: sumDocCountError === -1 ? -1 : err + sumDocCountError,
      aggs,
    };
    reduced.push(b);
  }
  const cmp = compileComparator<TermsBucket>(
    order,
    keyCompare(reference.kind),
    (b) => b.docCount,
    (b, e) => reducedOrderValue(b, reference.name, e),
  );
  const kept: TermsBucket[] = [];
  for (const b of reduced) {
    if (b.docCount >= reference.minDocCount) kept.push(b);
  }
  const top = topN(kept, Math.min(reference.requiredSize, kept.length), cmp);
  const topSet = new Set(top);
  // ES: dropped buckets give back their inner buckets; kept ones count one each
  for (const b of reduced) {
    if (topSet.has(b)) continue;
    if (b.docCount >= reference.minDocCount) otherDocCount += b.docCount;
    rc.consumer.accept(-countInnerBuckets(b));
  }
  for (let i = 0; i < top.length; i++) rc.consumer.accept(1);
  const docCountError = sumDocCountError === -1 ? -1 : parts.length === 1 ? 0 : sumDocCountError;
  return { ...reference, otherDocCount, docCountError, buckets: top };
}

function renderTerms(t: InternalTerms, rc: ReduceContext): Record<string, unknown> {
  return {
    doc_count_error_upper_bound: t.kind === 'unmapped' ? 0 : t.docCountError,
    sum_other_doc_count: t.kind === 'unmapped' ? 0 : t.otherDocCount,
    buckets: t.buckets.map((b) => {
      const out: Record<string, unknown> = {};
      if (t.kind === 'string' || t.kind === 'unmapped') out.key = b.key;
      else {
        out.key = b.term;
        if (t.format !== RAW) out.key_as_string = formatToString(t.format, b.term as number);
      }
      out.doc_count = b.docCount;
      if (t.showTermDocCountError) out.doc_count_error_upper_bound = b.docCountError;
      return renderAggs(b.aggs, rc, out);
    }),
  };
}

const result: ResultSpec<InternalTerms> = {
  reduce: reduceTerms,
  render: renderTerms,
  typedType: (t) => (t.kind === 'long' ? 'lterms' : t.kind === 'double' ? 'dterms' : 'sterms'),
  keyAsString: (t, b) => {
    const tb = b as TermsBucket;
    if (typeof tb.term === 'string') return String(tb.key);
    if (t.format === RAW)
      return t.kind === 'double' ? javaDoubleToString(tb.term) : String(tb.term);
    return formatToString(t.format, tb.term);
  },
};

registerAgg<TermsParams>(
  {
    type: 'terms',
    category: 'bucket',
    leaf: false,
    factoryName: 'TermsAggregatorFactory',
    parse: parseTerms,
    create: (node, ac, space) => {
      const p = node.params as TermsParams;
      const rv = resolveValues(p.source, ac.shard, null, node.name);
      return new TermsAggregator(node, ac, createSubAggregators(node, ac, space), rv);
    },
  },
  result,
);
