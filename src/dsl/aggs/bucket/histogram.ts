/**
 * histogram and date_histogram (ES HistogramAggregator / DateHistogramAggregator,
 * InternalHistogram / InternalDateHistogram): values are rounded to bucket keys (floor((v -
 * offset) / interval) * interval + offset, or a calendar/fixed date rounding with offset), shards
 * return buckets sorted by key, and the final reduce merges them, drops buckets under
 * min_doc_count, fills empty buckets (min_doc_count 0, extended_bounds) and applies the order.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import { javaDoubleToString } from '../../script/index.js';
import {
  BATCH,
  BucketsAggregator,
  type AggregatorContext,
  type AggSegment,
} from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { isObj, parseObject, tokenOf, toLong } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { BucketHash, growI32 } from '../support/arrays.js';
import {
  calendarRounding,
  daysFromCivil,
  fixedRounding,
  parseDateHistogramInterval,
  parseTimeValue,
  timeZone,
  UTC,
  yearMonth,
  type Rounding,
} from '../support/dates.js';
import { formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import {
  compileComparator,
  isKeyAsc,
  isKeyDesc,
  KEY_ASC,
  parseOrder,
  type BucketOrder,
} from '../support/order.js';
import { NumericReader, resolveValues, type ResolvedValues } from '../support/values-source.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from '../types.js';
import { reducedOrderValue } from './terms.js';

type Kind = 'histogram' | 'date_histogram';

interface HistogramParams {
  source: ValuesSourceParams;
  /** histogram: the interval; date_histogram: unused (see dateInterval). */
  interval: number;
  dateInterval: string | number | null;
  offset: number;
  minDocCount: number;
  keyed: boolean;
  order: BucketOrder;
  /** histogram: doubles; date_histogram: longs or date strings. */
  boundsMin: number | string | null;
  boundsMax: number | string | null;
}

interface EmptyBucketInfo {
  /** Next key after `key` (InternalHistogram.nextKey / rounding.nextRoundingValue). */
  next: (key: number) => number;
  round: (key: number) => number;
  min: number | null;
  max: number | null;
  subAggs: InternalAgg[];
}

export interface HistogramBucket extends InternalBucket {
  numKey: number;
}

export interface InternalHistogram extends InternalAgg {
  kind: Kind;
  buckets: HistogramBucket[];
  order: BucketOrder;
  minDocCount: number;
  keyed: boolean;
  format: DocFormat;
  empty: EmptyBucketInfo | null;
}

function parseHistogram(
  kind: Kind,
  json: unknown,
  name: string,
  pc: { warnings: string[] | undefined },
): HistogramParams {
  const p: HistogramParams = {
    source: emptyValuesSource(),
    interval: NaN,
    dateInterval: null,
    offset: 0,
    minDocCount: kind === 'histogram' ? 0 : 0,
    keyed: false,
    order: [KEY_ASC],
    boundsMin: null,
    boundsMax: null,
  };
  parseObject(kind, json, [
    ...valuesSourceDecls(kind, p.source, {
      target: 'numeric',
      timezoneAware: kind === 'date_histogram',
    }),
    kind === 'histogram'
      ? {
          names: ['interval'],
          kind: 'double',
          set: (v) => {
            if ((v as number) <= 0)
              throw illegalArgument(`[interval] must be >0 for histogram aggregation [${name}]`);
            p.interval = v as number;
          },
        }
      : {
          names: ['interval'],
          kind: 'number_or_string',
          set: (v) => (p.dateInterval = typeof v === 'number' ? toLong(v) : String(v)),
        },
    kind === 'histogram'
      ? { names: ['offset'], kind: 'double', set: (v) => (p.offset = v as number) }
      : {
          names: ['offset'],
          kind: 'number_or_string',
          set: (v) => (p.offset = typeof v === 'number' ? toLong(v) : parseStringOffset(String(v))),
        },
    { names: ['keyed'], kind: 'boolean', set: (v) => (p.keyed = v as boolean) },
    {
      names: ['min_doc_count'],
      kind: 'long',
      set: (v) => {
        if ((v as number) < 0) {
          throw illegalArgument(
            `[minDocCount] must be greater than or equal to 0. Found [${v}] in [${name}]`,
          );
        }
        p.minDocCount = v as number;
      },
    },
    {
      names: ['extended_bounds'],
      kind: 'object',
      set: (v) => {
        if (!isObj(v)) return;
        for (const [k, b] of Object.entries(v)) {
          if (k !== 'min' && k !== 'max') {
            throw new EsError(
              'x_content_parse_exception',
              `[extended_bounds] unknown field [${k}], parser not found`,
              400,
            );
          }
          let val: number | string | null;
          if (b === null) val = null;
          else if (typeof b === 'number') val = kind === 'histogram' ? b : Math.trunc(b);
          else if (typeof b === 'string') val = kind === 'histogram' ? Number(b) : b;
          else throw illegalArgument(`Unsupported token [${tokenOf(b)}]`);
          if (k === 'min') p.boundsMin = val;
          else p.boundsMax = val;
        }
        if (kind === 'histogram') {
          const mn = p.boundsMin as number | null;
          const mx = p.boundsMax as number | null;
          if (mn !== null && !Number.isFinite(mn))
            throw illegalArgument(`minBound must be finite, got: ${mn}`);
          if (mx !== null && !Number.isFinite(mx))
            throw illegalArgument(`maxBound must be finite, got: ${mx}`);
          if (mn !== null && mx !== null && mx < mn) {
            throw illegalArgument(
              `maxBound [${javaDoubleToString(mx)}] must be greater than minBound [${javaDoubleToString(mn)}]`,
            );
          }
        }
      },
    },
    { names: ['order'], kind: 'object_array', set: (v) => (p.order = parseOrder(v, pc.warnings)) },
  ]);
  return p;
}

/** DateHistogramAggregationBuilder.parseStringOffset: "+1h", "-30m", "2d". */
function parseStringOffset(s: string): number {
  if (s.startsWith('-'))
    return -parseTimeValue(s.slice(1), 'DateHistogramAggregationBuilder.parseOffset');
  return parseTimeValue(
    s.startsWith('+') ? s.slice(1) : s,
    'DateHistogramAggregationBuilder.parseOffset',
  );
}

/**
 * How values become buckets: `index(v)` is an integer bucket number (dense for histograms, fixed
 * date intervals and calendar units in fixed-offset zones, so the root level can map it through
 * an array), `keyOf(index)` the bucket key. Zones with transitions fall back to the rounding
 * itself, using the rounded key as the index.
 */
interface Keying {
  /**
   * Inline fast paths for the collect loop (no closure call per value): 1 = floor((v + shift) /
   * step), 2 = Monday weeks, 3 = calendar months of `months` length; 0 = call index().
   */
  mode: 0 | 1 | 2 | 3;
  shift: number;
  step: number;
  months: number;
  index(v: number): number;
  keyOf(index: number): number;
  empty(rv: ResolvedValues | null, now: number): Omit<EmptyBucketInfo, 'subAggs'>;
  /** The key rounding of empty buckets (rebuilt from the request when results cross nodes). */
  rounding: Pick<EmptyBucketInfo, 'round' | 'next'>;
}

/** The `round`/`next` of a histogram's empty bucket info, from its request node. */
export function emptyBucketRounding(node: AggNode): Pick<EmptyBucketInfo, 'round' | 'next'> {
  const p = node.params as HistogramParams;
  const k = node.type === 'histogram' ? histogramKeying(p, node.name) : dateKeying(p, node.name);
  return k.rounding;
}

function histogramKeying(p: HistogramParams, name: string): Keying {
  if (!(p.interval > 0))
    throw illegalArgument(`[interval] must be >0 for histogram aggregation [${name}]`);
  const interval = p.interval;
  const offset = p.offset;
  const round = (k: number) => Math.floor((k - offset) / interval) * interval + offset;
  return {
    // HistogramAggregator: key = floor((value - offset) / interval) * interval + offset
    mode: 1,
    shift: -offset,
    step: interval,
    months: 0,
    index: (v) => Math.floor((v - offset) / interval),
    keyOf: (i) => i * interval + offset,
    empty: () => ({
      round,
      // InternalHistogram.nextKey: round(key + interval + interval / 2)
      next: (k) => round(k + interval + interval / 2),
      min: p.boundsMin as number | null,
      max: p.boundsMax as number | null,
    }),
    rounding: { round, next: (k) => round(k + interval + interval / 2) },
  };
}

const DAY = 86400000;

function dateKeying(p: HistogramParams, name: string): Keying {
  if (p.dateInterval === null) {
    throw illegalArgument(`[interval] must be 1 or greater for histogram aggregation [${name}]`);
  }
  const zone = p.source.timeZone !== null ? timeZone(p.source.timeZone) : UTC;
  const iv = parseDateHistogramInterval(p.dateInterval, name);
  const rounding: Rounding =
    'calendar' in iv ? calendarRounding(iv.calendar, zone) : fixedRounding(iv.fixedMillis, zone);
  const offset = p.offset;
  const dateRounding = {
    round: (k: number) => rounding.round(k - offset) + offset,
    next: (k: number) => rounding.nextRoundingValue(k - offset) + offset,
  };
  const empty = (rv: ResolvedValues | null, now: number): Omit<EmptyBucketInfo, 'subAggs'> => {
    const fmt = rv?.format ?? RAW;
    const parse = (b: number | string | null) =>
      b === null
        ? null
        : typeof b === 'number'
          ? b
          : Math.trunc(fmt.parseDouble(b, false, () => now));
    const min = parse(p.boundsMin);
    const max = parse(p.boundsMax);
    if (min !== null && max !== null && min > max) {
      throw new EsError(
        'search_parse_exception',
        `[extended_bounds.min][${min}] cannot be greater than [extended_bounds.max][${max}] for histogram aggregation [${name}]`,
        400,
      );
    }
    return {
      ...dateRounding,
      min: min === null ? null : rounding.round(min) + offset,
      max: max === null ? null : rounding.round(max) + offset,
    };
  };
  if (zone.fixed) {
    // local = utc + zoneOffset; buckets start at local boundaries (ES TimeUnitRounding /
    // TimeIntervalRounding in a fixed zone), shifted by `offset`
    const shift = zone.offsetAt(0) - offset;
    const back = offset - zone.offsetAt(0);
    let step = 0;
    if ('fixedMillis' in iv) step = iv.fixedMillis;
    else {
      const fixedUnits: Record<string, number> = {
        day: DAY,
        hour: 3600000,
        minute: 60000,
        second: 1000,
      };
      step = fixedUnits[iv.calendar] ?? 0;
    }
    if (step > 0) {
      return {
        mode: 1,
        shift,
        step,
        months: 0,
        index: (v) => Math.floor((v + shift) / step),
        keyOf: (i) => i * step + back,
        empty,
        rounding: dateRounding,
      };
    }
    const unit = (iv as { calendar: string }).calendar;
    if (unit === 'week') {
      // Monday-based weeks; 1970-01-01 was a Thursday
      return {
        mode: 2,
        shift,
        step: DAY,
        months: 0,
        index: (v) => Math.floor((Math.floor((v + shift) / DAY) + 3) / 7),
        keyOf: (i) => (i * 7 - 3) * DAY + back,
        empty,
        rounding: dateRounding,
      };
    }
    const months = unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1;
    return {
      mode: 3,
      shift,
      step: DAY,
      months,
      index: (v) => Math.floor(monthOfDay(Math.floor((v + shift) / DAY)) / months),
      keyOf: (i) => {
        const ym = i * months;
        const y = Math.floor(ym / 12);
        return daysFromCivil(y, ym - y * 12 + 1, 1) * DAY + back;
      },
      empty,
      rounding: dateRounding,
    };
  }
  return {
    mode: 0,
    shift: 0,
    step: 0,
    months: 0,
    index: (v) => rounding.round(v - offset) + offset,
    keyOf: (k) => k,
    empty,
    rounding: dateRounding,
  };
}

// Day number → year*12+month, memoised in a small direct-mapped cache (dates cluster by day).
const MONTH_CACHE = 8192;
const monthDays = new Float64Array(MONTH_CACHE).fill(NaN);
const monthVals = new Int32Array(MONTH_CACHE);

function monthOfDay(day: number): number {
  const slot = day & (MONTH_CACHE - 1);
  if (monthDays[slot] === day) return monthVals[slot]!;
  const ym = yearMonth(day);
  monthDays[slot] = day;
  monthVals[slot] = ym;
  return ym;
}

/** Largest index range mapped through a dense array at the root level. */
const DENSE_LIMIT = 1 << 20;

class HistogramAggregator extends BucketsAggregator {
  private readonly hash = new BucketHash();
  private dense = new Int32Array(0);
  /** Bucket keys (indexes) of the current batch. */
  private readonly keys = new Float64Array(BATCH);
  private denseBase = 0;
  private reader: NumericReader | null = null;
  private readonly p: HistogramParams;
  private readonly keying: Keying;

  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: ReturnType<typeof createSubAggregators>,
    private readonly kind: Kind,
    private readonly rv: ResolvedValues | null,
  ) {
    super(node, subs);
    this.p = node.params as HistogramParams;
    this.keying =
      kind === 'histogram' ? histogramKeying(this.p, node.name) : dateKeying(this.p, node.name);
  }

  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    this.reader = this.rv ? new NumericReader(this.rv, seg.ls) : null;
  }

  /** Bucket ordinal of index `idx` under owner 0, through the dense map when it fits. */
  private ord0(idx: number): number {
    let j = idx - this.denseBase;
    if (this.dense.length === 0) {
      this.denseBase = idx - 64;
      this.dense = new Int32Array(128).fill(-1);
      j = 64;
    } else if (j < 0 || j >= this.dense.length) {
      const lo = Math.min(this.denseBase, idx);
      const hi = Math.max(this.denseBase + this.dense.length, idx + 1);
      const span = hi - lo;
      if (span > DENSE_LIMIT) return this.hash.add(0, idx);
      const size = Math.min(DENSE_LIMIT, Math.max(span * 2, this.dense.length * 2));
      const grown = new Int32Array(size).fill(-1);
      const newBase = j < 0 ? Math.max(hi - size, lo - (size - span)) : lo;
      grown.set(this.dense, this.denseBase - newBase);
      this.dense = grown;
      this.denseBase = newBase;
      j = idx - newBase;
    }
    let b = this.dense[j]!;
    if (b < 0) b = this.dense[j] = this.hash.add(0, idx);
    return b;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const r = this.reader;
    if (!r) return;
    const k = this.keying;
    const index = k.index;
    const single = r.single;
    if (single) {
      let counts = this.docCounts;
      const hasSubs = this.hasSubs;
      const mode = k.mode;
      const shift = k.shift;
      const step = k.step;
      const months = k.months;
      // Keys first (one loop per keying mode, NaN for docs without a value), then buckets.
      const keys = this.keys;
      if (mode === 1) {
        for (let i = 0; i < n; i++) keys[i] = Math.floor((single[docs[i]!]! + shift) / step);
      } else if (mode === 2) {
        for (let i = 0; i < n; i++) {
          keys[i] = Math.floor((Math.floor((single[docs[i]!]! + shift) / DAY) + 3) / 7);
        }
      } else if (mode === 3) {
        for (let i = 0; i < n; i++) {
          const v = single[docs[i]!]!;
          keys[i] = v === v ? Math.floor(monthOfDay(Math.floor((v + shift) / DAY)) / months) : NaN;
        }
      } else {
        for (let i = 0; i < n; i++) {
          const v = single[docs[i]!]!;
          keys[i] = v === v ? index(v) : NaN;
        }
      }
      let dense = this.dense;
      let base = this.denseBase;
      for (let i = 0; i < n; i++) {
        const idx = keys[i]!;
        if (idx !== idx) continue;
        const o = ords[i]!;
        let b: number;
        if (o === 0) {
          const j = idx - base;
          b = j >= 0 && j < dense.length ? dense[j]! : -1;
          if (b < 0) {
            b = this.ord0(idx);
            dense = this.dense;
            base = this.denseBase;
          }
        } else b = this.hash.add(o, idx);
        if (b >= counts.length) counts = this.docCounts = growI32(counts, b + 1);
        counts[b]!++;
        if (hasSubs) this.sub.push(docs[i]!, b, scores[i]!);
      }
    } else {
      for (let i = 0; i < n; i++) {
        const doc = docs[i]!;
        const c = r.read(doc, scores[i]!);
        let prev = NaN;
        for (let j = 0; j < c; j++) {
          const idx = index(r.buf[j]!);
          if (idx === prev) continue;
          prev = idx;
          const o = ords[i]!;
          this.collectBucket(doc, o === 0 ? this.ord0(idx) : this.hash.add(o, idx), scores[i]!);
        }
      }
    }
    this.sub.flush();
  }

  build(owner: number): InternalHistogram {
    const buckets: HistogramBucket[] = [];
    for (let o = 0; o < this.hash.size; o++) {
      if (this.hash.owners[o] !== owner) continue;
      const k = this.keying.keyOf(this.hash.keys[o]!);
      buckets.push(this.bucket(k, this.docCount(o), this.subResults(o)));
    }
    this.ac.consumer.accept(buckets.length);
    buckets.sort((a, b) => a.numKey - b.numKey);
    return this.result(buckets);
  }

  buildEmpty(): InternalHistogram {
    return this.result([]);
  }

  private bucket(k: number, docCount: number, aggs: InternalAgg[]): HistogramBucket {
    return { numKey: k, key: this.kind === 'histogram' ? k : new Date(k), docCount, aggs };
  }

  private result(buckets: HistogramBucket[]): InternalHistogram {
    const fmt = this.rv?.format ?? (this.kind === 'date_histogram' ? RAW : RAW);
    return {
      spec: this.kind,
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      kind: this.kind,
      buckets,
      order: this.p.order,
      minDocCount: this.p.minDocCount,
      keyed: this.p.keyed,
      format: fmt,
      empty:
        this.p.minDocCount === 0
          ? { ...this.keying.empty(this.rv, this.ac.shard.now), subAggs: this.emptySubResults() }
          : null,
    };
  }
}

// ---- reduce -------------------------------------------------------------------------------------

function reduceHistogram(parts: InternalHistogram[], rc: ReduceContext): InternalHistogram {
  const first = parts[0]!;
  // merge the key-sorted shard lists
  const byKey = new Map<number, HistogramBucket[]>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const g = byKey.get(b.numKey);
      if (g) g.push(b);
      else byKey.set(b.numKey, [b]);
    }
  }
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  let list: HistogramBucket[] = [];
  for (const k of keys) {
    const g = byKey.get(k)!;
    const docCount = g.reduce((s, b) => s + b.docCount, 0);
    const aggs = reduceAggList(
      g.map((b) => b.aggs),
      rc,
    );
    const reduced: HistogramBucket = { ...g[0]!, docCount, aggs };
    if (docCount >= first.minDocCount) {
      rc.consumer.accept(1);
      list.push(reduced);
    } else rc.consumer.accept(-countInner(reduced));
  }
  const empty = parts.find((p) => p.empty)?.empty ?? null;
  if (first.minDocCount === 0 && empty) list = addEmptyBuckets(first, list, empty, rc);
  if (isKeyDesc(first.order)) list.reverse();
  else if (!isKeyAsc(first.order)) {
    const cmp = compileComparator<HistogramBucket>(
      first.order,
      (a, b) => a.numKey - b.numKey,
      (b) => b.docCount,
      (b, e) => reducedOrderValue(b, first.name, e),
    );
    list.sort(cmp);
  }
  return { ...first, buckets: list, empty };
}

function countInner(b: InternalBucket): number {
  let n = 0;
  for (const a of b.aggs) {
    const m = a as { buckets?: InternalBucket[] };
    if (Array.isArray(m.buckets)) for (const x of m.buckets) n += 1 + countInner(x);
  }
  return n;
}

function addEmptyBuckets(
  h: InternalHistogram,
  list: HistogramBucket[],
  e: EmptyBucketInfo,
  rc: ReduceContext,
): HistogramBucket[] {
  const subAggs = reduceAggList([e.subAggs], rc);
  const make = (k: number): HistogramBucket => {
    rc.consumer.accept(1);
    return {
      numKey: k,
      key: h.kind === 'histogram' ? k : new Date(k),
      docCount: 0,
      aggs: subAggs.map((a) => ({ ...a })),
    };
  };
  const out: HistogramBucket[] = [];
  const minB = e.min;
  const maxB = e.max;
  if (list.length === 0) {
    if (h.kind === 'histogram') {
      if (minB !== null && maxB !== null) {
        for (let k = e.round(minB); k <= maxB; k = e.next(k)) out.push(make(k));
      }
    } else if (minB !== null && maxB !== null) {
      for (let k = minB; k <= maxB; k = e.next(k)) out.push(make(k));
    }
    return out;
  }
  const first = list[0]!;
  if (minB !== null) {
    let k = h.kind === 'histogram' ? e.round(minB) : minB;
    for (; k < first.numKey; k = e.next(k)) out.push(make(k));
  }
  let last: HistogramBucket | null = null;
  for (const b of list) {
    if (last) {
      for (let k = e.next(last.numKey); k < b.numKey; k = e.next(k)) out.push(make(k));
    }
    out.push(b);
    last = b;
  }
  if (maxB !== null) {
    for (let k = e.next(last!.numKey); k <= maxB; k = e.next(k)) out.push(make(k));
  }
  return out;
}

function keyAsString(h: InternalHistogram, b: HistogramBucket): string {
  if (h.format === RAW)
    return h.kind === 'histogram' ? javaDoubleToString(b.numKey) : String(b.numKey);
  return formatToString(h.format, b.numKey);
}

function renderHistogram(h: InternalHistogram, rc: ReduceContext): Record<string, unknown> {
  const render = (b: HistogramBucket) => {
    const out: Record<string, unknown> = {};
    if (h.format !== RAW) out.key_as_string = keyAsString(h, b);
    out.key = b.numKey;
    out.doc_count = b.docCount;
    return renderAggs(b.aggs, rc, out);
  };
  if (h.keyed) {
    const obj: Record<string, unknown> = {};
    for (const b of h.buckets) obj[keyAsString(h, b)] = render(b);
    return { buckets: obj };
  }
  return { buckets: h.buckets.map(render) };
}

for (const kind of ['histogram', 'date_histogram'] as const) {
  const result: ResultSpec<InternalHistogram> = {
    reduce: reduceHistogram,
    render: renderHistogram,
    typedType: () => kind,
    keyAsString: (h, b) => keyAsString(h, b as HistogramBucket),
  };
  registerAgg<HistogramParams>(
    {
      type: kind,
      category: 'bucket',
      leaf: false,
      factoryName:
        kind === 'histogram' ? 'HistogramAggregatorFactory' : 'DateHistogramAggregatorFactory',
      parse: (json, name, pc) => parseHistogram(kind, json, name, pc),
      create: (node, ac, space) => {
        const p = node.params as HistogramParams;
        const src =
          kind === 'date_histogram' && p.source.valueType === null
            ? { ...p.source, valueType: 'date' as const }
            : p.source;
        const rv = resolveValues(src, ac.shard, 'numeric', node.name);
        return new HistogramAggregator(node, ac, createSubAggregators(node, ac, space), kind, rv);
      },
    },
    result,
  );
}
