/**
 * Sorting by doc values (ES FieldSortBuilder → Lucene SortField): numeric and keyword columns,
 * `_score`, `_doc`, asc/desc, `missing` (_last, _first or a value) and `mode` for multi-valued
 * fields. Sort values are what the response's `sort` array shows.
 */
import type { LiveSegment } from '../index/live-segment.js';
import type { NumericColumn, OrdinalColumn } from '../index/segment.js';
import { uninvertedColumn } from '../index/segment-builder.js';
import type { IndexSort } from '../index/index-sort.js';

export type SortValue = number | string | null;

export interface SortKey {
  /** `id`: the document's `_id` (fielddata on `_id`; `_uid` adds the `type#` prefix). */
  kind: 'score' | 'doc' | 'field' | 'id' | 'script';
  field: string;
  order: 'asc' | 'desc';
  /** '_last' | '_first' | a value to use for docs without one. */
  missing: '_last' | '_first' | number | string;
  mode: 'min' | 'max' | 'sum' | 'avg' | 'median' | null;
  /** How values render: 'long' prints integers, 'double' keeps decimals, 'string' for keywords. */
  valueType: 'long' | 'double' | 'string' | 'date' | 'boolean';
  /** Map a sortable keyword term to its display form (e.g. IPs). */
  display?: (term: string) => string;
  /**
   * The order key of a shown value, when `display` changes the order (IPs sort by address, not
   * as text: `27.58.6.220` before `172.16.1.1`); also applies to `search_after` values.
   */
  orderKey?: (shown: string) => string;
  /** `id` keys: text put before the id (`_uid` sorts on `type#id`). */
  idPrefix?: string;
  /** `script` keys (ES ScriptSortBuilder): the values of one segment's docs. */
  forSegment?: (ls: LiveSegment) => (doc: number, score: number) => SortValue;
  /** The values read `_score` (collectors then compute scores). */
  needsScore?: boolean;
  /** A text field with fielddata: its values are its uninverted terms. */
  uninvert?: boolean;
}

export interface CompiledKey {
  value(doc: number, score: number): SortValue;
}

const LONG_MAX = 9223372036854775807;
const LONG_MIN = -9223372036854775808;

function numericPick(col: NumericColumn, doc: number, mode: SortKey['mode'], asc: boolean): number {
  if (col.single) return col.single[doc]!;
  const s = col.offsets![doc]!;
  const e = col.offsets![doc + 1]!;
  if (e === s) return NaN;
  const v = col.values!;
  switch (mode ?? (asc ? 'min' : 'max')) {
    case 'min':
      return v[s]!;
    case 'max':
      return v[e - 1]!;
    case 'sum': {
      let t = 0;
      for (let i = s; i < e; i++) t += v[i]!;
      return t;
    }
    case 'avg': {
      let t = 0;
      for (let i = s; i < e; i++) t += v[i]!;
      return t / (e - s);
    }
    case 'median': {
      const n = e - s;
      const m = s + (n >> 1);
      return n % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
    }
  }
  return v[s]!;
}

function ordinalPick(col: OrdinalColumn, doc: number, mode: SortKey['mode'], asc: boolean): number {
  if (col.single) return col.single[doc]!;
  const s = col.offsets![doc]!;
  const e = col.offsets![doc + 1]!;
  if (e === s) return -1;
  return (mode ?? (asc ? 'min' : 'max')) === 'max' ? col.ords![e - 1]! : col.ords![s]!;
}

export function missingNumber(k: SortKey): number {
  const asc = k.order === 'asc';
  if (typeof k.missing === 'number') return k.missing;
  if (typeof k.missing === 'string' && k.missing !== '_last' && k.missing !== '_first')
    return Number(k.missing);
  const last = k.missing !== '_first';
  // ES substitutes the extreme value of the type so missing docs sort last (or first).
  const big = k.valueType === 'double' ? Infinity : LONG_MAX;
  const small = k.valueType === 'double' ? -Infinity : LONG_MIN;
  return asc === last ? big : small;
}

export function compileSort(keys: SortKey[], ls: LiveSegment): CompiledKey[] {
  return keys.map((k): CompiledKey => {
    if (k.forSegment) return { value: k.forSegment(ls) };
    if (k.kind === 'score') return { value: (_d, s) => s };
    if (k.kind === 'doc') return { value: (d) => ls.docBase + d };
    if (k.kind === 'id') {
      const ids = ls.segment.ids;
      const prefix = k.idPrefix ?? '';
      return { value: (d) => prefix + ids[d]! };
    }
    const asc = k.order === 'asc';
    const sf = ls.segment.fields.get(k.field);
    const dv =
      sf?.docValues ??
      (k.uninvert && sf?.inverted ? uninvertedColumn(sf.inverted, ls.segment.maxDoc) : null);
    if (k.valueType === 'string') {
      const missing =
        typeof k.missing === 'string' && k.missing !== '_last' && k.missing !== '_first'
          ? k.missing
          : null;
      if (!dv || dv.kind !== 'ordinal') return { value: () => missing };
      const disp = k.display;
      return {
        value: (d) => {
          const o = ordinalPick(dv, d, k.mode, asc);
          if (o < 0) return missing;
          const t = dv.dict[o]!;
          return disp ? disp(t) : t;
        },
      };
    }
    const miss = missingNumber(k);
    if (!dv || dv.kind !== 'numeric') return { value: () => miss };
    return {
      value: (d) => {
        const v = numericPick(dv, d, k.mode, asc);
        return Number.isNaN(v) ? miss : v;
      },
    };
  });
}

/** Negative when `a` sorts before `b`. */
export function compareSortValues(keys: SortKey[], a: SortValue[], b: SortValue[]): number {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    let c: number;
    if (x === y) c = 0;
    else if (x === null || y === null) {
      // Missing strings: last unless `_first` (independent of order, as ES does for _last/_first).
      const first = k.missing === '_first';
      c = x === null ? (first ? -1 : 1) : first ? 1 : -1;
      if (k.kind === 'score' || k.kind === 'doc') c = 0;
      if (c !== 0) return c;
      continue;
    } else if (k.orderKey && typeof x === 'string' && typeof y === 'string') {
      const ox = k.orderKey(x);
      const oy = k.orderKey(y);
      c = ox < oy ? -1 : ox > oy ? 1 : 0;
    } else c = x < y ? -1 : x > y ? 1 : 0;
    if (k.order === 'desc') c = -c;
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * A single numeric field key read in tight loops: `single` is the column when the value is the
 * doc's only value (NaN = missing, shown as `miss`), else `pick(doc)` gives the value
 * compileSort's key shows. Null when the key is not a numeric field key or `missing` is no number.
 */
export interface NumericKeyReader {
  readonly single: Float64Array | null;
  readonly miss: number;
  pick(doc: number): number;
}

export function numericKeyReader(k: SortKey, ls: LiveSegment): NumericKeyReader | null {
  if (k.kind !== 'field' || k.valueType === 'string' || k.forSegment) return null;
  const miss = missingNumber(k);
  if (Number.isNaN(miss)) return null;
  const dv = ls.segment.fields.get(k.field)?.docValues ?? null;
  if (!dv || dv.kind !== 'numeric') return { single: null, miss, pick: () => miss };
  const asc = k.order === 'asc';
  if (dv.single) {
    const s = dv.single;
    return { single: s, miss, pick: (d) => (s[d]! === s[d]! ? s[d]! : miss) };
  }
  return {
    single: null,
    miss,
    pick: (d) => {
      const v = numericPick(dv, d, k.mode, asc);
      return Number.isNaN(v) ? miss : v;
    },
  };
}

/** Per segment: key (field, order, mode) → missing value → order. */
const orderCache = new WeakMap<object, Map<string, Map<number, Int32Array>>>();

/**
 * Every doc of the segment in the key's sort order, ties by doc id (the order TopFieldCollector
 * ranks them in), computed once per immutable segment and key (orderByValue).
 */
export function sortedDocOrder(k: SortKey, ls: LiveSegment, r: NumericKeyReader): Int32Array {
  const seg = ls.segment;
  let byKey = orderCache.get(seg);
  if (!byKey) orderCache.set(seg, (byKey = new Map()));
  const ck = `${k.field}\u0000${k.order}\u0000${k.mode}`;
  let byMiss = byKey.get(ck);
  if (!byMiss) byKey.set(ck, (byMiss = new Map()));
  const hit = byMiss.get(r.miss);
  if (hit) return hit;
  const n = seg.maxDoc;
  const vals = new Float64Array(n);
  for (let d = 0; d < n; d++) vals[d] = r.pick(d);
  const order = orderByValue(vals, k.order === 'desc');
  byMiss.set(r.miss, order);
  return order;
}

/** Below this many docs the order is built by ranking; above it by a radix sort. */
const RADIX_MIN = 4096;

/**
 * The docs 0..n-1 by their value in `vals` (ascending, or descending), ties by doc id; -0 and 0
 * are one value, as compareSortValues sees them.
 */
export function orderByValue(vals: Float64Array, desc: boolean, radixMin = RADIX_MIN): Int32Array {
  return (vals.length >= radixMin && radixOrder(vals, desc)) || rankOrder(vals, desc);
}

/**
 * Ranks each doc's value among the sorted distinct values and places docs per rank in doc order
 * (counting sort), so no comparator runs per pair.
 */
function rankOrder(vals: Float64Array, desc: boolean): Int32Array {
  const n = vals.length;
  const sorted = vals.slice().sort();
  // distinct values (-0 and 0 are one value, as compareSortValues sees them)
  let u = 0;
  for (let i = 0; i < n; i++) if (u === 0 || sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i]!;
  const rank = new Int32Array(n);
  const start = new Int32Array(u + 1);
  for (let d = 0; d < n; d++) {
    const v = vals[d]!;
    let l = 0;
    let h = u;
    while (l < h) {
      const m = (l + h) >>> 1;
      if (sorted[m]! < v) l = m + 1;
      else h = m;
    }
    const rk = desc ? u - 1 - l : l;
    rank[d] = rk;
    start[rk + 1]!++;
  }
  for (let i = 0; i < u; i++) start[i + 1]! += start[i]!;
  const order = new Int32Array(n);
  for (let d = 0; d < n; d++) order[start[rank[d]!]!++] = d;
  return order;
}

/**
 * A stable LSD radix sort of the docs by the value's bits made order-preserving as unsigned
 * integers (sign flipped, negatives inverted; all inverted again for desc), 16 bits a pass from
 * the low end, passes whose digit is the same for every doc skipped (the low bits of integers
 * held as doubles): linear in the docs where ranking costs a binary search per doc. Null when a
 * value is NaN (no order).
 */
function radixOrder(vals: Float64Array, desc: boolean): Int32Array | null {
  const n = vals.length;
  const words = new Uint32Array(vals.buffer, vals.byteOffset, 2 * n);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  // little-endian platforms (every Node target): word 2d is the low half of vals[d]
  const little = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;
  const loAt = little ? 0 : 1;
  const flip = desc ? 0xffffffff : 0;
  for (let d = 0; d < n; d++) {
    const v = vals[d]!;
    if (v !== v) return null;
    let h: number;
    let l: number;
    if (v === 0) {
      h = 0x80000000; // +0 and -0 alike
      l = 0;
    } else {
      h = words[2 * d + 1 - loAt]!;
      l = words[2 * d + loAt]!;
      if (h & 0x80000000) {
        h = ~h;
        l = ~l;
      } else h |= 0x80000000;
    }
    hi[d] = (h ^ flip) >>> 0;
    lo[d] = (l ^ flip) >>> 0;
  }
  let order = new Int32Array(n);
  for (let d = 0; d < n; d++) order[d] = d;
  let tmp = new Int32Array(n);
  const count = new Int32Array(0x10001);
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? lo : hi;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let d = 0; d < n; d++) count[((key[d]! >>> shift) & 0xffff) + 1]!++;
    // one digit for every doc: this pass would not move any
    if (count[((key[0]! >>> shift) & 0xffff) + 1] === n) continue;
    for (let i = 0; i < 0x10000; i++) count[i + 1]! += count[i]!;
    for (let i = 0; i < n; i++) {
      const d = order[i]!;
      tmp[count[(key[d]! >>> shift) & 0xffff]!++] = d;
    }
    const t = order;
    order = tmp;
    tmp = t;
  }
  return order;
}

/**
 * Lucene's canEarlyTerminate: the search sort is a prefix of the index sort (same fields,
 * directions, multi-value modes and missing placement), so every segment's docs already come in
 * the search's order.
 */
export function sortsLikeIndex(keys: readonly SortKey[], indexSort: IndexSort | null): boolean {
  if (!indexSort || keys.length === 0 || keys.length > indexSort.length) return false;
  return keys.every((k, i) => {
    const s = indexSort[i]!;
    const reverse = k.order === 'desc';
    return (
      k.kind === 'field' &&
      !k.uninvert &&
      k.field === s.field &&
      reverse === s.reverse &&
      (k.mode ?? (reverse ? 'max' : 'min')) === s.mode &&
      k.missing === (s.missingFirst ? '_first' : '_last')
    );
  });
}
