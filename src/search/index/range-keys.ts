/**
 * Range field values (integer_range … ip_range) as the index keeps them: each bound as a
 * fixed-width hex key whose string order is the value order (Lucene's sortable point bytes), so
 * one comparison serves numbers and 128-bit addresses alike. A segment's ranges sit sorted by
 * their lower bound (a flat stand-in for Lucene's 2-dimensional BKD tree of (min, max)).
 */
import { ipToSortable } from './field-values.js';

export type RangeRelation = 'intersects' | 'within' | 'contains';

/** A segment's range values: (min, max, doc) triples sorted by min key, then doc. */
export interface RangeIndex {
  readonly mins: readonly string[];
  readonly maxs: readonly string[];
  readonly docs: Int32Array;
}

export function isRangeFieldType(t: string): boolean {
  return (
    t === 'integer_range' ||
    t === 'long_range' ||
    t === 'float_range' ||
    t === 'double_range' ||
    t === 'date_range' ||
    t === 'ip_range'
  );
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/**
 * A double as 16 hex chars that sort as the numbers do (NumericUtils.doubleToSortableLong): the
 * sign bit flipped for positives, every bit flipped for negatives, so -0 sorts before 0.
 */
export function numberKey(v: number): string {
  f64[0] = v;
  let hi = u32[1]!;
  let lo = u32[0]!;
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else hi = (hi | 0x80000000) >>> 0;
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The value a numberKey stands for. */
export function numberFromKey(key: string): number {
  let hi = parseInt(key.slice(0, 8), 16) >>> 0;
  let lo = parseInt(key.slice(8, 16), 16) >>> 0;
  if (hi & 0x80000000) hi = (hi & 0x7fffffff) >>> 0;
  else {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  }
  u32[1] = hi;
  u32[0] = lo;
  return f64[0]!;
}

/**
 * The key of one bound of a range value: numbers (date ranges in epoch millis) as numberKey,
 * addresses as the 32 hex chars of their 16-byte IPv6 form. Integral types have no negative zero.
 */
export function rangeKey(type: string, v: number | string): string {
  if (type === 'ip_range') return ipToSortable(String(v));
  const n = typeof v === 'number' ? v : Number(v);
  if (n === 0 && type !== 'float_range' && type !== 'double_range') return numberKey(0);
  return numberKey(n);
}

/**
 * Whether an indexed range [min, max] stands in `relation` to the query range [qMin, qMax]
 * (all inclusive keys). `within`: the indexed range lies inside the query's; `contains`: it holds
 * the whole query range.
 */
export function rangeRelates(
  relation: RangeRelation,
  min: string,
  max: string,
  qMin: string,
  qMax: string,
): boolean {
  switch (relation) {
    case 'intersects':
      return min <= qMax && max >= qMin;
    case 'within':
      return min >= qMin && max <= qMax;
    case 'contains':
      return min <= qMin && max >= qMax;
  }
}

/** First index in the sorted keys whose key is > `key` (or >= when `orEqual` is false). */
function upperBound(keys: readonly string[], key: string, orEqual: boolean): number {
  let l = 0;
  let h = keys.length;
  while (l < h) {
    const m = (l + h) >>> 1;
    const k = keys[m]!;
    if (orEqual ? k <= key : k < key) l = m + 1;
    else h = m;
  }
  return l;
}

/**
 * The sorted unique docs with a range value in `relation` to [qMin, qMax]. Sorting by min
 * narrows each relation to one slice of candidates: intersects and contains need min at most
 * qMax (resp. qMin), within needs min in [qMin, qMax]; only max is then checked per value.
 */
export function rangeDocs(
  index: RangeIndex,
  relation: RangeRelation,
  qMin: string,
  qMax: string,
): Int32Array {
  if (qMin > qMax) return new Int32Array(0);
  const { mins, maxs, docs } = index;
  let from = 0;
  let to: number;
  switch (relation) {
    case 'intersects':
      to = upperBound(mins, qMax, true);
      break;
    case 'contains':
      to = upperBound(mins, qMin, true);
      break;
    case 'within':
      from = upperBound(mins, qMin, false);
      to = upperBound(mins, qMax, true);
      break;
  }
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    if (rangeRelates(relation, mins[i]!, maxs[i]!, qMin, qMax)) out.push(docs[i]!);
  }
  const sorted = Int32Array.from(out).sort();
  let w = sorted.length > 0 ? 1 : 0;
  for (let r = 1; r < sorted.length; r++) if (sorted[r] !== sorted[w - 1]) sorted[w++] = sorted[r]!;
  return w === sorted.length ? sorted : sorted.slice(0, w);
}

/** Sorts (min, max, doc) triples into a RangeIndex. */
export function buildRangeIndex(
  mins: readonly string[],
  maxs: readonly string[],
  docs: ArrayLike<number>,
): RangeIndex {
  const n = mins.length;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    const x = mins[a]!;
    const y = mins[b]!;
    return x < y ? -1 : x > y ? 1 : docs[a]! - docs[b]!;
  });
  return {
    mins: order.map((i) => mins[i]!),
    maxs: order.map((i) => maxs[i]!),
    docs: Int32Array.from(order, (i) => docs[i]!),
  };
}
