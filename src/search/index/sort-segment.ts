/**
 * Renumbers a segment's documents into a new order (Lucene's SortingLeafReader, applied once when
 * a sorted index flushes or merges): every per-doc array is permuted, postings are re-sorted per
 * term with their freqs and positions, points and range values re-sorted by (value, new doc).
 */
import { buildRangeIndex } from './range-keys.js';
import { packedInts, packedMax } from './packed-ints.js';
import type {
  InvertedField,
  NestedBlock,
  NumericColumn,
  OrdinalColumn,
  PointsIndex,
  Segment,
  SegmentField,
} from './segment.js';

/** `order[newDoc] = oldDoc`, a permutation of the segment's docs. */
export function sortSegment(seg: Segment, order: Int32Array): Segment {
  const n = seg.maxDoc;
  const newOf = new Int32Array(n);
  for (let i = 0; i < n; i++) newOf[order[i]!] = i;
  const ids = Array.from(order, (d) => seg.ids[d]!);
  const routing = new Map<number, string>();
  for (const [d, r] of seg.routing) routing.set(newOf[d]!, r);
  const fields = new Map<string, SegmentField>();
  for (const [path, f] of seg.fields) {
    fields.set(path, {
      path: f.path,
      type: f.type,
      inverted: f.inverted && sortInverted(f.inverted, order, newOf),
      points: f.points && sortPoints(f.points, newOf),
      docValues: f.docValues && sortColumn(f.docValues, order),
      ranges:
        f.ranges &&
        buildRangeIndex(
          f.ranges.mins,
          f.ranges.maxs,
          Array.from(f.ranges.docs, (d) => newOf[d]!),
        ),
    });
  }
  const nested = new Map<string, NestedBlock>();
  for (const [path, nb] of seg.nested) nested.set(path, sortNested(nb, newOf));
  return {
    id: seg.id,
    maxDoc: n,
    ids,
    // the docs in id order are the same docs, renamed
    idOrder: Int32Array.from(seg.idOrder, (d) => newOf[d]!),
    seqNos: Float64Array.from(order, (d) => seg.seqNos[d]!),
    versions: Float64Array.from(order, (d) => seg.versions[d]!),
    routing,
    fields,
    fieldNames: sortInverted(seg.fieldNames, order, newOf),
    nested,
  };
}

/** Children follow their renumbered parents, in their previous order among siblings. */
function sortNested(nb: NestedBlock, newOf: Int32Array): NestedBlock {
  const parents = Array.from(nb.parentOf, (p) => newOf[p]!);
  const children = Int32Array.from(parents.keys()).sort(
    (a, b) => parents[a]! - parents[b]! || a - b,
  );
  const identity = children.every((c, i) => c === i);
  return {
    segment: identity ? nb.segment : sortSegment(nb.segment, children),
    parentOf: Int32Array.from(children, (c) => parents[c]!),
  };
}

function sortInverted(inv: InvertedField, order: Int32Array, newOf: Int32Array): InvertedField {
  const nPost = inv.docs.length;
  const docs = new Int32Array(nPost);
  const freqs = inv.freqs ? packedInts(packedMax([inv.freqs]), nPost) : null;
  const positions =
    inv.positions && inv.posStart
      ? packedInts(packedMax([inv.positions]), inv.positions.length)
      : null;
  const nTerms = inv.terms.length;
  let idx = new Int32Array(16);
  let posAt = new Int32Array(16);
  for (let t = 0; t < nTerms; t++) {
    const s = inv.termStart[t]!;
    const e = inv.termStart[t + 1]!;
    const len = e - s;
    if (idx.length < len) {
      idx = new Int32Array(len * 2);
      posAt = new Int32Array(len * 2);
    }
    // where each posting's positions start, before reordering
    if (positions) {
      let p = inv.posStart![t]!;
      for (let i = 0; i < len; i++) {
        posAt[i] = p;
        p += inv.freqs ? inv.freqs[s + i]! : 1;
      }
    }
    for (let i = 0; i < len; i++) idx[i] = i;
    const view = idx.subarray(0, len);
    view.sort((a, b) => newOf[inv.docs[s + a]!]! - newOf[inv.docs[s + b]!]!);
    let w = positions ? inv.posStart![t]! : 0;
    for (let i = 0; i < len; i++) {
      const k = view[i]!;
      docs[s + i] = newOf[inv.docs[s + k]!]!;
      const fq = inv.freqs ? inv.freqs[s + k]! : 1;
      if (freqs) freqs[s + i] = fq;
      if (positions) {
        const from = posAt[k]!;
        for (let j = 0; j < fq; j++) positions[w++] = inv.positions![from + j]!;
      }
    }
  }
  const norms = inv.norms ? Uint8Array.from(order, (d) => inv.norms![d]!) : null;
  return { ...inv, docs, freqs, positions, norms };
}

function sortPoints(pts: PointsIndex, newOf: Int32Array): PointsIndex {
  const n = pts.values.length;
  const docs = Int32Array.from(pts.docs, (d) => newOf[d]!);
  // values stay in order; docs of equal values are sorted again
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => pts.values[a]! - pts.values[b]! || docs[a]! - docs[b]!);
  return {
    values: Float64Array.from(idx, (i) => pts.values[i]!),
    docs: Int32Array.from(idx, (i) => docs[i]!),
  };
}

function sortColumn(
  col: NumericColumn | OrdinalColumn,
  order: Int32Array,
): NumericColumn | OrdinalColumn {
  if (col.kind === 'numeric') {
    if (col.single) return { ...col, single: Float64Array.from(order, (d) => col.single![d]!) };
    const [offsets, values] = permuteMulti(col.offsets!, col.values!, order, Float64Array);
    return { ...col, offsets, values };
  }
  if (col.single) return { ...col, single: Int32Array.from(order, (d) => col.single![d]!) };
  const [offsets, ords] = permuteMulti(col.offsets!, col.ords!, order, Int32Array);
  return { ...col, offsets, ords };
}

function permuteMulti<A extends Float64Array | Int32Array>(
  offsets: Int32Array,
  values: A,
  order: Int32Array,
  Ctor: { new (n: number): A },
): [Int32Array, A] {
  const n = order.length;
  const outOffsets = new Int32Array(n + 1);
  const out = new Ctor(values.length);
  let w = 0;
  for (let i = 0; i < n; i++) {
    const d = order[i]!;
    outOffsets[i] = w;
    for (let j = offsets[d]!; j < offsets[d + 1]!; j++) out[w++] = values[j]!;
  }
  outOffsets[n] = w;
  return [outOffsets, out];
}
