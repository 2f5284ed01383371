/**
 * range, date_range and ip_range (ES RangeAggregator / BinaryRangeAggregator, InternalRange,
 * InternalDateRange, InternalBinaryRange): ranges are sorted by (from, to), `from` is inclusive
 * and `to` exclusive, keys default to "from-to" rendered with the values' format ("*-50.0",
 * "2016-01-01T00:00:00.000Z-*", "192.168.0.0-192.169.0.0"), date bounds accept date math, and
 * ip ranges accept CIDR masks.
 */
import { illegalArgument, parsingException } from '../../../common/errors.js';
import { ipToSortable, parseIp, sortableToIp } from '../../../search/index/field-values.js';
import { javaDoubleToString } from '../../script/index.js';
import {
  BATCH,
  BucketsAggregator,
  NO_SCORES,
  ROOT_ORDS,
  type AggregatorContext,
  type AggSegment,
} from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { isObj, parseObject, tokenOf } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { growI32 } from '../support/arrays.js';
import { RAW, type DocFormat } from '../support/doc-format.js';
import {
  BytesReader,
  columnOf,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from '../types.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { KernelSpec } from '../../../search/parallel/agg-kernels.js';
import {
  countBelowList,
  rangeBounds,
  rangeCount,
  type RangeBounds,
} from '../../../search/parallel/range-counts.js';

type Kind = 'range' | 'date_range' | 'ip_range';

interface RangeSpec {
  key: string | null;
  from: number | null;
  fromStr: string | null;
  to: number | null;
  toStr: string | null;
  mask: string | null;
}

interface RangeParams {
  source: ValuesSourceParams;
  keyed: boolean;
  ranges: RangeSpec[];
}

export interface RangeBucket extends InternalBucket {
  key: string;
  /** Numeric bounds (±Infinity when open) or sortable IP terms (null when open). */
  from: number | string | null;
  to: number | string | null;
  docCount: number;
}

export interface InternalRange extends InternalAgg {
  kind: Kind;
  keyed: boolean;
  format: DocFormat;
  buckets: RangeBucket[];
}

function parseRanges(kind: Kind, v: unknown): RangeSpec[] {
  const arr = Array.isArray(v) ? v : [v];
  return arr.map((r) => {
    if (!isObj(r)) throw parsingException(`Unexpected token ${tokenOf(r)} in [ranges]`);
    const s: RangeSpec = {
      key: null,
      from: null,
      fromStr: null,
      to: null,
      toStr: null,
      mask: null,
    };
    for (const [k, x] of Object.entries(r)) {
      const known =
        k === 'from' || k === 'to' || k === 'key' || (kind === 'ip_range' && k === 'mask');
      if (!known) throw parsingException(`Failed to parse object: unknown field [${k}] found`);
      if (x === null) continue;
      if (typeof x === 'number' && kind !== 'ip_range' && k !== 'key') {
        if (k === 'from') s.from = x;
        else s.to = x;
      } else if (typeof x === 'string') {
        if (k === 'from') s.fromStr = x;
        else if (k === 'to') s.toStr = x;
        else if (k === 'key') s.key = x;
        else s.mask = x;
      } else
        throw parsingException(`Failed to parse object: unexpected token [${tokenOf(x)}] found`);
    }
    if (s.mask !== null && s.key === null) s.key = s.mask;
    return s;
  });
}

function parseRange(kind: Kind, json: unknown): RangeParams {
  const p: RangeParams = { source: emptyValuesSource(), keyed: false, ranges: [] };
  parseObject(kind, json, [
    ...valuesSourceDecls(kind, p.source, {
      target: kind === 'ip_range' ? null : 'numeric',
      timezoneAware: kind === 'date_range',
      formattable: kind !== 'ip_range',
    }),
    { names: ['keyed'], kind: 'boolean', set: (v) => (p.keyed = v as boolean) },
    {
      names: ['ranges'],
      kind: 'object_array',
      set: (v) => (p.ranges = [...p.ranges, ...parseRanges(kind, v)]),
    },
  ]);
  return p;
}

interface Resolved {
  key: string | null;
  from: number;
  to: number;
  fromTerm: string | null;
  toTerm: string | null;
}

/** IpRangeAggregationBuilder.Range(key, mask): network start (null at ::) and next address after it. */
function cidr(mask: string): { from: string | null; to: string | null } {
  const slash = mask.indexOf('/');
  if (slash < 0) throw illegalArgument(`Expected [ip/prefix] but was [${mask}]`);
  const ip = mask.slice(0, slash);
  const prefix = Number(mask.slice(slash + 1));
  const bytes = parseIp(ip);
  if (!bytes) throw illegalArgument(`'${ip}' is not an IP string literal.`);
  const v4 = !ip.includes(':');
  const bits = v4 ? 32 : 128;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) {
    throw illegalArgument(`Illegal prefix length [${mask.slice(slash + 1)}] in [${mask}]`);
  }
  const off = v4 ? 12 : 0;
  const lower = bytes.slice();
  const upper = bytes.slice();
  for (let i = prefix; i < bits; i++) {
    const m = 1 << (7 - (i & 7));
    lower[off + (i >> 3)]! &= ~m;
    upper[off + (i >> 3)]! |= m;
  }
  const hex = (b: number[]) => b.map((x) => x.toString(16).padStart(2, '0')).join('');
  const from = lower.every((x) => x === 0) ? null : hex(lower);
  let to: string | null;
  if (upper.every((x) => x === 0xff)) to = null;
  else {
    // InetAddressPoint.nextUp on the 16-byte form
    const up = upper.slice();
    for (let i = 15; i >= 0; i--) {
      if (up[i]! < 0xff) {
        up[i]!++;
        break;
      }
      up[i] = 0;
    }
    to = hex(up);
  }
  return { from, to };
}

function resolveRanges(
  kind: Kind,
  p: RangeParams,
  rv: ResolvedValues | null,
  ac: AggregatorContext,
  name: string,
): Resolved[] {
  if (p.ranges.length === 0)
    throw illegalArgument(`No [ranges] specified for the [${name}] aggregation`);
  const fmt = rv?.format ?? RAW;
  const now = () => ac.shard.now;
  const out: Resolved[] = p.ranges.map((r) => {
    if (kind === 'ip_range') {
      let fromTerm: string | null;
      let toTerm: string | null;
      if (r.mask !== null) ({ from: fromTerm, to: toTerm } = cidr(r.mask));
      else {
        fromTerm = r.fromStr === null ? null : ipTerm(r.fromStr);
        toTerm = r.toStr === null ? null : ipTerm(r.toStr);
      }
      return { key: r.key, from: NaN, to: NaN, fromTerm, toTerm };
    }
    let from = -Infinity;
    let to = Infinity;
    if (kind === 'date_range') {
      // numbers are re-parsed as strings so epoch_second etc. apply (DateRangeAggregationBuilder)
      if (r.fromStr !== null) from = fmt.parseDouble(r.fromStr, false, now);
      else if (r.from !== null && Number.isFinite(r.from))
        from = fmt.parseDouble(String(Math.trunc(r.from)), false, now);
      if (r.toStr !== null) to = fmt.parseDouble(r.toStr, false, now);
      else if (r.to !== null && Number.isFinite(r.to))
        to = fmt.parseDouble(String(Math.trunc(r.to)), false, now);
    } else {
      if (r.fromStr !== null) from = fmt.parseDouble(r.fromStr, false, now);
      else if (r.from !== null) from = r.from;
      if (r.toStr !== null) to = fmt.parseDouble(r.toStr, false, now);
      else if (r.to !== null) to = r.to;
    }
    return { key: r.key, from, to, fromTerm: null, toTerm: null };
  });
  if (kind === 'ip_range') {
    const cmp = (a: string | null, b: string | null, m: number) =>
      a === null ? (b === null ? 0 : -m) : b === null ? m : a < b ? -1 : a > b ? 1 : 0;
    out.sort((a, b) => cmp(a.fromTerm, b.fromTerm, 1) || cmp(a.toTerm, b.toTerm, -1));
  } else
    out.sort((a, b) =>
      a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0,
    );
  return out;
}

function ipTerm(s: string): string {
  if (!parseIp(s)) throw illegalArgument(`'${s}' is not an IP string literal.`);
  return ipToSortable(s);
}

function formatBound(fmt: DocFormat, v: number): string {
  if (fmt === RAW) return javaDoubleToString(v);
  const r = fmt.format(v);
  return typeof r === 'string' ? r : String(r);
}

function keyOf(kind: Kind, r: Resolved, fmt: DocFormat): string {
  if (r.key !== null) return r.key;
  if (kind === 'ip_range') {
    return `${r.fromTerm === null ? '*' : sortableToIp(r.fromTerm)}-${r.toTerm === null ? '*' : sortableToIp(r.toTerm)}`;
  }
  const f = Number.isFinite(r.from) ? formatBound(fmt, r.from) : '*';
  const t = Number.isFinite(r.to) ? formatBound(fmt, r.to) : '*';
  return `${f}-${t}`;
}

class RangeAggregator extends BucketsAggregator {
  private num: NumericReader | null = null;
  private bytes: BytesReader | null = null;
  private readonly ranges: Resolved[];
  private readonly maxTo: Float64Array;
  /** Sorted ranges that do not overlap: a value falls in at most one (fast path). */
  private readonly disjoint: boolean;
  private readonly froms: Float64Array;
  private readonly tos: Float64Array;
  /** Range index per doc of the current batch (-1: none). */
  private readonly hits = new Int32Array(BATCH);
  /** The ranges as counts below their bounds (numeric kinds; see range-counts.ts). */
  private readonly bounds: RangeBounds | null;
  /** collectRoot: the number of values below each bound, over the segments collected so far. */
  private below: Float64Array | null = null;

  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: ReturnType<typeof createSubAggregators>,
    private readonly kind: Kind,
    private readonly rv: ResolvedValues | null,
  ) {
    super(node, subs);
    this.ranges = resolveRanges(kind, node.params as RangeParams, rv, ac, node.name);
    this.maxTo = new Float64Array(this.ranges.length);
    let m = -Infinity;
    this.ranges.forEach((r, i) => {
      m = Math.max(m, r.to);
      this.maxTo[i] = m;
    });
    this.froms = Float64Array.from(this.ranges, (r) => r.from);
    this.tos = Float64Array.from(this.ranges, (r) => r.to);
    this.disjoint = this.ranges.every(
      (r, i) => r.to >= r.from && (i === 0 || r.from >= this.ranges[i - 1]!.to),
    );
    this.bounds = kind === 'ip_range' ? null : rangeBounds(this.froms, this.tos);
  }

  /**
   * Top-level counts without sub-aggregations over a single-valued column: the values below each
   * bound are counted (no per-doc range choice), and turned into doc counts in finish().
   */
  collectRoot(docs: Int32Array, n: number): void {
    const single = this.num?.single;
    if (!single || this.hasSubs || !this.bounds) {
      this.collect(docs, ROOT_ORDS, n, NO_SCORES);
      return;
    }
    this.below ??= new Float64Array(this.bounds.bounds.length);
    countBelowList(docs, 0, n, single, this.bounds.bounds, this.below);
  }

  finish(): void {
    const below = this.below;
    if (!below || !this.bounds) return;
    this.below = null;
    const nr = this.ranges.length;
    if (this.docCounts.length < nr) this.docCounts = growI32(this.docCounts, nr);
    for (let k = 0; k < nr; k++) this.docCounts[k]! += rangeCount(this.bounds, below, k);
  }

  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    if (!this.rv) return;
    if (this.kind === 'ip_range') this.bytes = new BytesReader(this.rv, seg.ls);
    else this.num = new NumericReader(this.rv, seg.ls);
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    if (!this.rv) return;
    const nr = this.ranges.length;
    if (this.num && this.num.single && this.disjoint) {
      this.collectDisjoint(docs, ords, n, scores, this.num.single, nr);
      return;
    }
    if (this.num) {
      const r = this.num;
      const single = r.single;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        const owner = ords[i]!;
        if (single) {
          const v = single[doc]!;
          if (v === v) this.collectValue(doc, v, owner, scores[i]!, 0, nr);
          continue;
        }
        const c = r.read(doc, scores[i]!);
        for (let j = 0, lo = 0; j < c; j++)
          lo = this.collectValue(doc, r.buf[j]!, owner, scores[i]!, lo, nr);
      }
    } else {
      const r = this.bytes!;
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        const c = r.read(doc, scores[i]!);
        // BinaryRangeAggregator: a doc counts once per range even with several matching values
        const seen = new Set<number>();
        for (let j = 0; j < c; j++) {
          const t = r.terms[j]!;
          for (let k = 0; k < nr; k++) {
            const rg = this.ranges[k]!;
            if (
              (rg.fromTerm === null || t >= rg.fromTerm) &&
              (rg.toTerm === null || t < rg.toTerm) &&
              !seen.has(k)
            ) {
              seen.add(k);
              this.collectBucket(doc, ords[i]! * nr + k, scores[i]!);
            }
          }
        }
      }
    }
    this.sub.flush();
  }

  /** Single-valued numbers and non-overlapping ranges: the one matching range per doc. */
  private collectDisjoint(
    docs: Int32Array,
    ords: Int32Array,
    n: number,
    scores: Float64Array,
    single: Float64Array,
    nr: number,
  ): void {
    const froms = this.froms;
    const tos = this.tos;
    const hits = this.hits;
    for (let i = 0; i < n; i++) {
      const v = single[docs[i]!]!;
      let k = -1;
      if (v === v) {
        // the first range whose (exclusive) end lies above v
        let j = 0;
        if (nr <= 8) {
          // branch-free count of the ends at or below v (ends ascend)
          for (let t = 0; t < nr; t++) j += Number(v >= tos[t]!);
        } else {
          let hi = nr;
          while (j < hi) {
            const m = (j + hi) >>> 1;
            if (v >= tos[m]!) j = m + 1;
            else hi = m;
          }
        }
        if (j < nr && v >= froms[j]!) k = j;
      }
      hits[i] = k;
    }
    let counts = this.docCounts;
    const hasSubs = this.hasSubs;
    for (let i = 0; i < n; i++) {
      const k = hits[i]!;
      if (k < 0) continue;
      const b = ords[i]! * nr + k;
      if (b >= counts.length) counts = this.docCounts = growI32(counts, b + 1);
      counts[b]!++;
      if (hasSubs) this.sub.push(docs[i]!, b, scores[i]!);
    }
    this.sub.flush();
  }

  /** RangeAggregator.collect: binary searches the candidate ranges, collects every match. */
  private collectValue(
    doc: number,
    value: number,
    owner: number,
    score: number,
    lowBound: number,
    nr: number,
  ): number {
    const ranges = this.ranges;
    const maxTo = this.maxTo;
    let lo = lowBound;
    let hi = nr - 1;
    let mid = (lo + hi) >>> 1;
    while (lo <= hi) {
      if (value < ranges[mid]!.from) hi = mid - 1;
      else if (value >= maxTo[mid]!) lo = mid + 1;
      else break;
      mid = (lo + hi) >>> 1;
    }
    if (lo > hi) return lo;
    let startLo = lo;
    let startHi = mid;
    while (startLo <= startHi) {
      const m = (startLo + startHi) >>> 1;
      if (value >= maxTo[m]!) startLo = m + 1;
      else startHi = m - 1;
    }
    let endLo = mid;
    let endHi = hi;
    while (endLo <= endHi) {
      const m = (endLo + endHi) >>> 1;
      if (value < ranges[m]!.from) endHi = m - 1;
      else endLo = m + 1;
    }
    for (let i = startLo; i <= endHi; i++) {
      const r = ranges[i]!;
      if (value >= r.from && value < r.to) this.collectBucket(doc, owner * nr + i, score);
    }
    return endHi + 1;
  }

  /** Disjoint numeric ranges over a single-valued column, without sub-aggregations. */
  parallelSpec(ls: LiveSegment): KernelSpec | null {
    const rv = this.rv;
    if (this.kind === 'ip_range' || this.hasSubs || !this.disjoint || !rv) return null;
    if (rv.script || rv.constant !== undefined || !rv.field || rv.missingNumber !== null) return null; // prettier-ignore
    if (!columnOf(ls, rv.field)) return { kind: 'none' };
    const values = new NumericReader(rv, ls).single;
    return values && this.bounds ? { kind: 'range', values, bounds: this.bounds } : null;
  }

  addPartial(spec: KernelSpec, out: Float64Array, off: number): void {
    if (spec.kind !== 'range') return;
    for (let k = 0; k < spec.bounds.lo.length; k++) {
      const c = out[off + k]!;
      if (c === 0) continue;
      if (k >= this.docCounts.length) this.docCounts = growI32(this.docCounts, k + 1);
      this.docCounts[k]! += c;
    }
  }

  build(owner: number): InternalRange {
    const nr = this.ranges.length;
    this.ac.consumer.accept(nr);
    const fmt = this.rv?.format ?? RAW;
    const buckets = this.ranges.map((r, i): RangeBucket => {
      const ord = owner * nr + i;
      return {
        key: keyOf(this.kind, r, fmt),
        from: this.kind === 'ip_range' ? r.fromTerm : r.from,
        to: this.kind === 'ip_range' ? r.toTerm : r.to,
        docCount: this.docCount(ord),
        aggs: this.subResults(ord),
      };
    });
    return this.result(buckets);
  }

  buildEmpty(): InternalRange {
    const fmt = this.rv?.format ?? RAW;
    return this.result(
      this.ranges.map((r) => ({
        key: keyOf(this.kind, r, fmt),
        from: this.kind === 'ip_range' ? r.fromTerm : r.from,
        to: this.kind === 'ip_range' ? r.toTerm : r.to,
        docCount: 0,
        aggs: this.emptySubResults(),
      })),
    );
  }

  private result(buckets: RangeBucket[]): InternalRange {
    return {
      spec: this.kind,
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      kind: this.kind,
      keyed: (this.node.params as RangeParams).keyed,
      format: this.rv?.format ?? RAW,
      buckets,
    };
  }
}

function reduceRange(parts: InternalRange[], rc: ReduceContext): InternalRange {
  const first = parts[0]!;
  const buckets = first.buckets.map((b, i) => ({
    ...b,
    docCount: parts.reduce((s, p) => s + p.buckets[i]!.docCount, 0),
    aggs: reduceAggList(
      parts.map((p) => p.buckets[i]!.aggs),
      rc,
    ),
  }));
  rc.consumer.accept(buckets.length);
  return { ...first, buckets };
}

function renderRange(r: InternalRange, rc: ReduceContext): Record<string, unknown> {
  const one = (b: RangeBucket) => {
    const out: Record<string, unknown> = {};
    if (!r.keyed) out.key = b.key;
    if (r.kind === 'ip_range') {
      if (b.from !== null) out.from = sortableToIp(b.from as string);
      if (b.to !== null) out.to = sortableToIp(b.to as string);
    } else {
      const from = b.from as number;
      const to = b.to as number;
      if (Number.isFinite(from)) {
        out.from = from;
        if (r.format !== RAW) out.from_as_string = formatBound(r.format, from);
      }
      if (Number.isFinite(to)) {
        out.to = to;
        if (r.format !== RAW) out.to_as_string = formatBound(r.format, to);
      }
    }
    out.doc_count = b.docCount;
    return renderAggs(b.aggs, rc, out);
  };
  if (r.keyed) {
    const obj: Record<string, unknown> = {};
    for (const b of r.buckets) obj[b.key] = one(b);
    return { buckets: obj };
  }
  return { buckets: r.buckets.map(one) };
}

for (const kind of ['range', 'date_range', 'ip_range'] as const) {
  const result: ResultSpec<InternalRange> = {
    reduce: reduceRange,
    render: renderRange,
    typedType: () => kind,
    keyAsString: (_r, b) => String(b.key),
  };
  registerAgg<RangeParams>(
    {
      type: kind,
      category: 'bucket',
      leaf: false,
      factoryName:
        kind === 'range'
          ? 'RangeAggregatorFactory'
          : kind === 'date_range'
            ? 'DateRangeAggregatorFactory'
            : 'BinaryRangeAggregatorFactory',
      parse: (json) => parseRange(kind, json),
      create: (node, ac, space) => {
        const p = node.params as RangeParams;
        const src =
          kind === 'date_range' && p.source.valueType === null
            ? { ...p.source, valueType: 'date' as const }
            : p.source;
        const rv = resolveValues(
          src,
          ac.shard,
          kind === 'ip_range' ? 'bytes' : 'numeric',
          node.name,
        );
        return new RangeAggregator(node, ac, createSubAggregators(node, ac, space), kind, rv);
      },
    },
    result,
  );
}
