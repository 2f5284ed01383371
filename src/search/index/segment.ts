/**
 * An immutable segment: the documents of one refresh (or merge), with per-field inverted index
 * (sorted term dictionary, postings with freqs and positions, one-byte norms), points for numeric
 * ranges, and columnar doc values for sorting and aggregations. Everything is typed arrays.
 */
import type { FieldType } from '../../mapping/types.js';
import type { PackedInts } from './packed-ints.js';
import type { RangeIndex } from './range-keys.js';
import { searchBlock, stringBlockOf } from './string-block.js';

export type { PackedInts } from './packed-ints.js';

/** Term dictionary and postings of one field. */
export interface InvertedField {
  /** Sorted unique terms. */
  readonly terms: string[];
  /** termStart[t]..termStart[t+1] indexes docs/freqs of term t. */
  readonly termStart: Int32Array;
  readonly docs: Int32Array;
  /**
   * Per posting term frequency, in the narrowest array that holds the field's largest (usually
   * bytes); null when only docs are indexed (freq is 1).
   */
  readonly freqs: PackedInts | null;
  /** posStart[t]..: positions of term t's postings, in posting order; null without positions. */
  readonly posStart: Int32Array | null;
  /** Narrowest array that holds the largest position (usually 16 bits). */
  readonly positions: PackedInts | null;
  /** Per doc one-byte length norm (0 = no value); null when norms are disabled. */
  readonly norms: Uint8Array | null;
  /** Docs with at least one token, total tokens, total postings: BM25 collection statistics. */
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  readonly sumDocFreq: number;
}

/** Numeric doc values (SortedNumericDocValues); NaN marks a missing single value. */
export interface NumericColumn {
  readonly kind: 'numeric';
  /** Single-valued fast path: value per doc (NaN = missing). */
  readonly single: Float64Array | null;
  /** Multi-valued: values of doc d are values[offsets[d]..offsets[d+1]], sorted ascending. */
  readonly offsets: Int32Array | null;
  readonly values: Float64Array | null;
}

/** Keyword-like doc values (SortedSetDocValues): ordinals into the field's sorted terms. */
export interface OrdinalColumn {
  readonly kind: 'ordinal';
  readonly dict: string[];
  /** Single-valued fast path: ord per doc, -1 = missing. */
  readonly single: Int32Array | null;
  readonly offsets: Int32Array | null;
  readonly ords: Int32Array | null;
}

/** Numeric points: (value, doc) pairs sorted by value then doc (a flat stand-in for a BKD tree). */
export interface PointsIndex {
  readonly values: Float64Array;
  readonly docs: Int32Array;
}

export interface SegmentField {
  readonly path: string;
  readonly type: FieldType;
  readonly inverted: InvertedField | null;
  readonly points: PointsIndex | null;
  readonly docValues: NumericColumn | OrdinalColumn | null;
  /** Range field values (integer_range … ip_range), sorted by lower bound. */
  readonly ranges: RangeIndex | null;
}

export interface Segment {
  readonly id: number;
  readonly maxDoc: number;
  /** `_id` per doc, and doc ids sorted by `_id` for lookups. */
  readonly ids: string[];
  readonly idOrder: Int32Array;
  readonly seqNos: Float64Array;
  readonly versions: Float64Array;
  /** Sparse custom routing values. */
  readonly routing: ReadonlyMap<number, string>;
  readonly fields: ReadonlyMap<string, SegmentField>;
  /** `_field_names`: for each field or object path, the sorted docs that have it. */
  readonly fieldNames: InvertedField;
  /** Nested documents per nested path (child docs + parent doc per child), if any. */
  readonly nested: ReadonlyMap<string, NestedBlock>;
}

/** Nested docs of one path, stored as their own mini-segment with a parent pointer per child. */
export interface NestedBlock {
  readonly segment: Segment;
  readonly parentOf: Int32Array;
}

/** First and end (exclusive) child of a parent doc in a nested block (parentOf ascends). */
export function nestedChildren(block: NestedBlock, parent: number): [number, number] {
  const parentOf = block.parentOf;
  let lo = 0;
  let hi = parentOf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (parentOf[mid]! < parent) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < parentOf.length && parentOf[end] === parent) end++;
  return [lo, end];
}

/** Binary search of a sorted string array. */
export function findTerm(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = terms[mid]!;
    if (t < term) lo = mid + 1;
    else if (t > term) hi = mid - 1;
    else return mid;
  }
  return -(lo + 1);
}

/** First index whose term is >= `term` (for prefix and range scans). */
export function seekCeil(terms: readonly string[], term: string): number {
  const i = findTerm(terms, term);
  return i >= 0 ? i : -i - 1;
}

export function lookupId(seg: Segment, id: string): number {
  const order = seg.idOrder;
  const ids = seg.ids;
  const block = stringBlockOf(ids);
  if (block) return searchBlock(block, order, id);
  let lo = 0;
  let hi = order.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = order[mid]!;
    const t = ids[d]!;
    if (t < id) lo = mid + 1;
    else if (t > id) hi = mid - 1;
    else return d;
  }
  return -1;
}

export function docFreq(f: InvertedField, ord: number): number {
  return f.termStart[ord + 1]! - f.termStart[ord]!;
}

export function totalTermFreq(f: InvertedField, ord: number): number {
  const s = f.termStart[ord]!;
  const e = f.termStart[ord + 1]!;
  if (!f.freqs) return e - s;
  let n = 0;
  for (let i = s; i < e; i++) n += f.freqs[i]!;
  return n;
}

/** Number of values of a doc in a column (0 when missing). */
export function valueCount(col: NumericColumn | OrdinalColumn, doc: number): number {
  if (col.kind === 'numeric') {
    if (col.single) return Number.isNaN(col.single[doc]!) ? 0 : 1;
    return col.offsets![doc + 1]! - col.offsets![doc]!;
  }
  if (col.single) return col.single[doc]! < 0 ? 0 : 1;
  return col.offsets![doc + 1]! - col.offsets![doc]!;
}
