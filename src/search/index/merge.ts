/**
 * Merging segments into one (Lucene SegmentMerger): deleted docs are dropped, doc order is kept
 * (parts in order, docs in order), term dictionaries are merged in sorted order, postings and
 * positions copied with remapped doc ids, and columns and points concatenated.
 */
import type { Bitset } from './bitset.js';
import { packedInts, packedMax } from './packed-ints.js';
import { buildRangeIndex, type RangeIndex } from './range-keys.js';
import { buildOrdinalColumn } from './segment-builder.js';
import { StreamedArray, type SegmentPieces } from './segment-codec.js';
import { blockStrings, stringBlockOf, type StringBlock } from './string-block.js';
import type {
  InvertedField,
  NestedBlock,
  NumericColumn,
  PackedInts,
  OrdinalColumn,
  PointsIndex,
  Segment,
  SegmentField,
} from './segment.js';

export interface MergePart {
  readonly segment: Segment;
  readonly live: Bitset | null;
}

let mergedCounter = 1_000_000;

/** Where each part's docs land in the merged segment (deleted docs: -1), and its size. */
interface DocMapping {
  readonly maxDoc: number;
  readonly map: (pi: number, d: number) => number;
}

function docMapping(parts: readonly MergePart[]): DocMapping {
  const docMaps: Array<Int32Array | null> = [];
  const bases: number[] = [];
  let maxDoc = 0;
  for (const p of parts) {
    bases.push(maxDoc);
    if (!p.live) {
      docMaps.push(null);
      maxDoc += p.segment.maxDoc;
      continue;
    }
    const m = new Int32Array(p.segment.maxDoc);
    for (let d = 0; d < m.length; d++) m[d] = p.live.get(d) ? maxDoc++ : -1;
    docMaps.push(m);
  }
  const map = (pi: number, d: number): number => {
    const m = docMaps[pi];
    return m ? m[d]! : bases[pi]! + d;
  };
  return { maxDoc, map };
}

/**
 * A merge computed piece by piece as it is encoded (`encodeSegmentStreaming`): the per-doc arrays
 * at once, each field, `_field_names` and each nested block only when reached and not kept, so
 * the encoder holds one merged field at a time. Its encoding equals `mergeSegments(parts)`'s.
 */
/**
 * Parts whose arrays are read when needed (segment-codec `decodeSegmentFromFile`): `load` reads
 * the arrays an object holds, `unload` lets them go.
 */
export interface PartArrays {
  load(o: object | null): void;
  unload(o: object | null): void;
  /**
   * Set: the merged postings (docs, freqs, positions) of a field with at least this many are
   * `StreamedArray`s, computed block by block as the streaming encoder writes them
   * (`encodeSegmentToFile` only).
   */
  readonly streamPostingsFrom?: number;
  /**
   * Set: the parts are the merge's own (read for it from their files): their `_id`s, read whole
   * (24 bytes a document), are let go of once the merged ones are computed, not held while every
   * field is merged.
   */
  readonly dropIds?: boolean;
}

/**
 * The merged `_id`s as one encoded block (string-block.ts) when every part keeps its `_id`s
 * encoded (decoded from a blob, as parts on a build worker are): the bytes are copied as they
 * are, never a heap string per document (about 50 bytes each, 250 MB for 5M documents); null
 * when a part holds strings.
 */
function mergeIdBlocks(parts: readonly MergePart[], { maxDoc, map }: DocMapping): string[] | null {
  const blocks = parts.map((p) => stringBlockOf(p.segment.ids));
  if (blocks.some((b) => b === undefined)) return null;
  const offsets = new Uint32Array(maxDoc + 1);
  // lengths first (at nd + 1), then their running sum: the offsets
  blocks.forEach((b, pi) => {
    const o = b!.offsets;
    for (let d = 0; d + 1 < o.length; d++) {
      const nd = map(pi, d);
      if (nd >= 0) offsets[nd + 1] = o[d + 1]! - o[d]!;
    }
  });
  for (let i = 1; i <= maxDoc; i++) offsets[i] += offsets[i - 1]!;
  const bytes = Buffer.allocUnsafeSlow(offsets[maxDoc]!);
  blocks.forEach((b, pi) => {
    const o = b!.offsets;
    for (let d = 0; d + 1 < o.length; d++) {
      const nd = map(pi, d);
      if (nd >= 0) b!.bytes.copy(bytes, offsets[nd]!, o[d]!, o[d + 1]!);
    }
  });
  return blockStrings({ bytes, offsets });
}

/** The per-document columns of the merged segment: each kept document's id, seq_no, version, routing. */
function mergeDocColumns(parts: readonly MergePart[], dm: DocMapping) {
  const { maxDoc, map } = dm;
  const blockIds = mergeIdBlocks(parts, dm);
  const ids = blockIds ?? new Array<string>(maxDoc);
  const seqNos = new Float64Array(maxDoc);
  const versions = new Float64Array(maxDoc);
  const routing = new Map<number, string>();
  parts.forEach((p, pi) => {
    const s = p.segment;
    for (let d = 0; d < s.maxDoc; d++) {
      const nd = map(pi, d);
      if (nd < 0) continue;
      if (blockIds === null) ids[nd] = s.ids[d]!;
      seqNos[nd] = s.seqNos[d]!;
      versions[nd] = s.versions[d]!;
      const r = s.routing.get(d);
      if (r !== undefined) routing.set(nd, r);
    }
  });
  return { ids, seqNos, versions, routing };
}

export function mergePieces(parts: readonly MergePart[], arrays?: PartArrays): SegmentPieces {
  for (const p of parts) arrays?.load(p.segment);
  const dm = docMapping(parts);
  const { maxDoc, map } = dm;
  const docs = mergeDocColumns(parts, dm);
  let ids: string[] | null = docs.ids;
  const { routing } = docs;
  let columns: ReturnType<SegmentPieces['docColumns']> | null = {
    idOrder: mergeIdOrders(parts, map, ids),
    seqNos: docs.seqNos,
    versions: docs.versions,
  };
  for (const p of parts) arrays?.unload(p.segment);
  if (arrays?.dropIds) for (const p of parts) (p.segment as { ids: string[] }).ids = [];
  const paths = new Set<string>();
  for (const p of parts) for (const k of p.segment.fields.keys()) paths.add(k);
  const ranges: Array<{ path: string; ranges: RangeIndex }> = [];
  for (const path of paths) {
    const fparts = parts.map((p) => p.segment.fields.get(path) ?? null);
    if (!fparts.some((f) => f?.ranges)) continue;
    for (const f of fparts) arrays?.load(f?.ranges ?? null);
    const r = mergeRanges(
      fparts.map((f) => f?.ranges ?? null),
      map,
    );
    for (const f of fparts) arrays?.unload(f?.ranges ?? null);
    if (r) ranges.push({ path, ranges: r });
  }
  const nestedPaths = new Set<string>();
  for (const p of parts) for (const k of p.segment.nested.keys()) nestedPaths.add(k);
  return {
    maxDoc,
    ids: () => {
      const all = ids;
      if (!all) throw new Error('merged ids asked for twice');
      ids = null;
      return all;
    },
    docColumns: () => {
      const all = columns;
      if (!all) throw new Error('merged doc columns asked for twice');
      columns = null;
      return all;
    },
    routing,
    fieldCount: paths.size,
    *fields() {
      for (const path of paths) {
        const fparts = parts.map((p) => p.segment.fields.get(path) ?? null);
        const held = fparts.flatMap((f) => (f ? [f.inverted, f.points, f.docValues] : []));
        for (const o of held) arrays?.load(o);
        const merged = mergeField(path, parts, dm, arrays?.streamPostingsFrom);
        for (const o of held) arrays?.unload(o);
        yield merged;
      }
    },
    fieldNames: () => {
      for (const p of parts) arrays?.load(p.segment.fieldNames);
      const invs = parts.map((p) => p.segment.fieldNames);
      let postings = 0;
      for (const i of invs) postings += i.docs.length;
      // a posting per field of every document: streamed as a large field's are
      const merged =
        postings >= (arrays?.streamPostingsFrom ?? Infinity)
          ? mergeInvertedStreamed(invs, map, maxDoc, parts)
          : mergeInverted(invs, parts, map, maxDoc);
      for (const p of parts) arrays?.unload(p.segment.fieldNames);
      return merged;
    },
    nestedCount: nestedPaths.size,
    *nested() {
      for (const path of nestedPaths) {
        const { childParts, parentOf } = nestedParts(path, parts, map);
        yield { path, parentOf, pieces: mergePieces(childParts, arrays) };
      }
    },
    ranges,
  };
}

export function mergeSegments(parts: readonly MergePart[]): Segment {
  return segmentOf(mergePieces(parts));
}

/** A merge's pieces held whole as one segment: each field with its range values, nested blocks too. */
function segmentOf(p: SegmentPieces): Segment {
  const ranges = new Map(p.ranges.map((r) => [r.path, r.ranges]));
  const fields = new Map<string, SegmentField>();
  for (const f of p.fields()) fields.set(f.path, { ...f, ranges: ranges.get(f.path) ?? null });
  const nested = new Map<string, NestedBlock>();
  for (const n of p.nested())
    nested.set(n.path, { segment: segmentOf(n.pieces), parentOf: n.parentOf });
  return {
    id: mergedCounter++,
    maxDoc: p.maxDoc,
    ids: p.ids(),
    ...p.docColumns(),
    routing: p.routing,
    fields,
    fieldNames: p.fieldNames(),
    nested,
  };
}

/** One field of the merged segment, its range values left out (merged apart: `ranges`). */
function mergeField(
  path: string,
  parts: readonly MergePart[],
  { maxDoc, map }: DocMapping,
  streamFrom = Infinity,
): SegmentField {
  const fparts = parts.map((p) => p.segment.fields.get(path) ?? null);
  const proto = fparts.find((f) => f !== null)!;
  const invs = fparts.map((f) => f?.inverted ?? null);
  // an ordinal column is built from the merged postings: those are merged whole
  const ordinal = fparts.some((f) => f?.docValues?.kind === 'ordinal');
  let postings = 0;
  for (const i of invs) postings += i?.docs.length ?? 0;
  const inverted = !invs.some((x) => x)
    ? null
    : !ordinal && postings >= streamFrom
      ? mergeInvertedStreamed(invs, map, maxDoc, parts)
      : mergeInverted(invs, parts, map, maxDoc);
  const points = fparts.some((f) => f?.points)
    ? mergePoints(
        fparts.map((f) => f?.points ?? null),
        map,
      )
    : null;
  let docValues: NumericColumn | OrdinalColumn | null = null;
  const dvs = fparts.map((f) => f?.docValues ?? null);
  const firstDv = dvs.find((d) => d !== null);
  if (firstDv?.kind === 'numeric')
    docValues = mergeNumeric(dvs as Array<NumericColumn | null>, parts, map, maxDoc);
  else if (firstDv?.kind === 'ordinal') {
    docValues = inverted
      ? buildOrdinalColumn(inverted, maxDoc)
      : mergeOrdinals(dvs as Array<OrdinalColumn | null>, parts, map, maxDoc);
  }
  return { path, type: proto.type, inverted, points, docValues, ranges: null };
}

/** A nested path's child docs as merge parts (a child survives when its parent does). */
function nestedParts(
  path: string,
  parts: readonly MergePart[],
  map: (pi: number, d: number) => number,
): { childParts: MergePart[]; parentOf: Int32Array } {
  const childParts: MergePart[] = [];
  const parentOf: number[] = [];
  parts.forEach((p, pi) => {
    const nb = p.segment.nested.get(path);
    if (!nb) return;
    const { Bitset: B } = {
      Bitset: (p.live ?? null)?.constructor as (new (n: number) => Bitset) | undefined,
    };
    let live: Bitset | null = null;
    if (p.live && B) {
      live = new B(nb.segment.maxDoc);
      for (let c = 0; c < nb.segment.maxDoc; c++) if (p.live.get(nb.parentOf[c]!)) live.set(c);
    }
    childParts.push({ segment: nb.segment, live });
    for (let c = 0; c < nb.segment.maxDoc; c++) {
      const np = map(pi, nb.parentOf[c]!);
      if (np >= 0) parentOf.push(np);
    }
  });
  return { childParts, parentOf: Int32Array.from(parentOf) };
}

function mergeInverted(
  invs: Array<InvertedField | null>,
  parts: readonly MergePart[],
  map: (pi: number, d: number) => number,
  maxDoc: number,
): InvertedField {
  const withFreqs = invs.some((i) => i?.freqs);
  const withPos = invs.some((i) => i?.positions);
  let cap = 0;
  let posCap = 0;
  for (const i of invs) {
    if (!i) continue;
    cap += i.docs.length;
    posCap += i.positions?.length ?? 0;
  }
  const docs = new Int32Array(cap);
  // Each part's arrays are as narrow as its values allow; the merged values fit the widest.
  const freqs = withFreqs ? packedInts(packedMax(invs.map((i) => i?.freqs ?? null)), cap) : null;
  const positions = withPos
    ? packedInts(packedMax(invs.map((i) => i?.positions ?? null)), posCap)
    : null;
  let k = 0;
  let pk = 0;
  const t = mergedTerms(invs, map, withPos, maxDoc, (inv, _i, nd, fr, srcPos) => {
    docs[k] = nd;
    if (freqs) freqs[k] = fr;
    if (positions && inv.positions)
      for (let j = 0; j < fr; j++) positions[pk++] = inv.positions[srcPos + j]!;
    k++;
  });
  const norms = mergeNorms(invs, parts, map, maxDoc);
  return {
    terms: t.terms,
    termStart: t.termStart,
    // Without deletions the arrays are exactly full: no trimmed copy.
    docs: k === cap ? docs : docs.slice(0, k),
    freqs: freqs && k < cap ? freqs.slice(0, k) : freqs,
    posStart: withPos ? t.posStart : null,
    positions: positions && pk < posCap ? positions.slice(0, pk) : positions,
    norms,
    docCount: t.docCount,
    sumTotalTermFreq: t.sumTotalTermFreq,
    sumDocFreq: t.postings,
  };
}

/** A merged field's terms, where each starts, and its statistics (see `mergedTerms`). */
interface MergedTerms {
  readonly terms: string[];
  /** Each term's first posting, then the number of postings. */
  readonly termStart: Int32Array;
  /** Each term's first position, then the number of positions. */
  readonly posStart: Int32Array;
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  /** Kept postings (the field's sumDocFreq). */
  readonly postings: number;
}

/**
 * One walk of the merged postings (`walkMerged`) that gathers the merged terms and statistics,
 * and hands each kept posting to `visit` too (the in-memory merge copies it; the streamed merge
 * walks again for each array).
 */
function mergedTerms(
  invs: ReadonlyArray<InvertedField | null>,
  map: (pi: number, d: number) => number,
  withPos: boolean,
  maxDoc: number,
  visit: ((inv: InvertedField, i: number, nd: number, fr: number, srcPos: number) => void) | null,
): MergedTerms {
  const terms: string[] = [];
  const termStart: number[] = [];
  const posStart: number[] = [];
  const seen = new Uint8Array(maxDoc);
  let docCount = 0;
  let sumTotalTermFreq = 0;
  let k = 0;
  let pk = 0;
  walkMerged(
    invs,
    map,
    withPos,
    (inv, i, nd, fr, srcPos) => {
      visit?.(inv, i, nd, fr, srcPos);
      if (!seen[nd]) {
        seen[nd] = 1;
        docCount++;
      }
      sumTotalTermFreq += fr;
      k++;
      if (withPos && inv.positions) pk += fr;
    },
    (t, start, pstart) => {
      terms.push(t);
      termStart.push(start);
      posStart.push(pstart);
    },
  );
  termStart.push(k);
  posStart.push(pk);
  return {
    terms,
    termStart: Int32Array.from(termStart),
    posStart: Int32Array.from(posStart),
    docCount,
    sumTotalTermFreq,
    postings: k,
  };
}

/** The parts' norms at their new doc numbers, or null when no part has norms. */
function mergeNorms(
  invs: ReadonlyArray<InvertedField | null>,
  parts: readonly MergePart[],
  map: (pi: number, d: number) => number,
  maxDoc: number,
): Uint8Array | null {
  if (!invs.some((i) => i?.norms)) return null;
  const norms = new Uint8Array(maxDoc);
  invs.forEach((inv, pi) => {
    if (!inv?.norms) return;
    const n = inv.norms;
    for (let d = 0; d < parts[pi]!.segment.maxDoc; d++) {
      const nd = map(pi, d);
      if (nd >= 0) norms[nd] = n[d]!;
    }
  });
  return norms;
}

/** Elements of a streamed array's blocks. */
const STREAM_BLOCK = 1 << 18;

/**
 * Walks the merged postings of `invs` in merged order (`mergeInverted` and each streamed array
 * of `mergeInvertedStreamed` are such walks): `visit`
 * sees each kept posting (its part's field, index, new doc, freq and first position), `term`
 * each merged term with the index of its first posting and position.
 */
function walkMerged(
  invs: ReadonlyArray<InvertedField | null>,
  map: (pi: number, d: number) => number,
  withPos: boolean,
  visit: ((inv: InvertedField, i: number, nd: number, fr: number, srcPos: number) => void) | null,
  term: ((t: string, start: number, pstart: number) => void) | null,
): void {
  const cursors = invs.map(() => 0);
  let k = 0;
  let pk = 0;
  for (;;) {
    let min: string | null = null;
    for (let pi = 0; pi < invs.length; pi++) {
      const inv = invs[pi];
      if (!inv || cursors[pi]! >= inv.terms.length) continue;
      const t = inv.terms[cursors[pi]!]!;
      if (min === null || t < min) min = t;
    }
    if (min === null) break;
    const start = k;
    const pstart = pk;
    for (let pi = 0; pi < invs.length; pi++) {
      const inv = invs[pi];
      if (!inv || cursors[pi]! >= inv.terms.length || inv.terms[cursors[pi]!] !== min) continue;
      const t = cursors[pi]!++;
      const withPositions = withPos && inv.positions !== null;
      let srcPos = inv.posStart ? inv.posStart[t]! : 0;
      for (let i = inv.termStart[t]!; i < inv.termStart[t + 1]!; i++) {
        const fr = inv.freqs ? inv.freqs[i]! : 1;
        const nd = map(pi, inv.docs[i]!);
        if (nd >= 0) {
          visit?.(inv, i, nd, fr, srcPos);
          if (withPositions) pk += fr;
          k++;
        }
        srcPos += fr;
      }
    }
    if (k !== start) term?.(min, start, pstart);
  }
}

/**
 * `mergeInverted` whose docs, freqs and positions are `StreamedArray`s, each computed by a walk
 * of its own when the encoder writes it: the parts' postings are held, the merged ones never
 * whole (a text field's are the largest arrays of a merge: hundreds of MB at 10M documents).
 * The encoding is the same.
 */
function mergeInvertedStreamed(
  invs0: Array<InvertedField | null>,
  map: (pi: number, d: number) => number,
  maxDoc: number,
  parts: readonly MergePart[],
): InvertedField {
  // the parts' arrays as loaded now: the walks run after the caller lets go of them
  const invs = invs0.map((i) => (i ? { ...i } : null));
  const withFreqs = invs.some((i) => i?.freqs);
  const withPos = invs.some((i) => i?.positions);
  const t = mergedTerms(invs, map, withPos, maxDoc, null);
  /** A streamed array of blocks of `empty`'s type, filled by a walk that calls `put`. */
  const streamed = (empty: PackedInts, walk: (put: (v: number) => void) => void): StreamedArray =>
    new StreamedArray(empty, (push) => {
      const Ctor = empty.constructor as new (n: number) => PackedInts;
      let block = new Ctor(STREAM_BLOCK);
      let n = 0;
      walk((v) => {
        block[n++] = v;
        if (n === STREAM_BLOCK) {
          push(block);
          block = new Ctor(STREAM_BLOCK);
          n = 0;
        }
      });
      if (n > 0) push(block.subarray(0, n));
    });
  const docs = streamed(new Int32Array(0), (put) =>
    walkMerged(invs, map, withPos, (_inv, _i, nd) => put(nd), null),
  );
  const freqs = withFreqs
    ? streamed(packedInts(packedMax(invs.map((i) => i?.freqs ?? null)), 0), (put) =>
        walkMerged(invs, map, withPos, (_inv, _i, _nd, fr) => put(fr), null),
      )
    : null;
  const positions = withPos
    ? streamed(packedInts(packedMax(invs.map((i) => i?.positions ?? null)), 0), (put) =>
        walkMerged(
          invs,
          map,
          withPos,
          (inv, _i, _nd, fr, srcPos) => {
            const src = inv.positions;
            if (src) for (let j = 0; j < fr; j++) put(src[srcPos + j]!);
          },
          null,
        ),
      )
    : null;
  const norms = mergeNorms(invs, parts, map, maxDoc);
  return {
    terms: t.terms,
    termStart: t.termStart,
    // the encoder takes these where it takes typed arrays (see StreamedArray)
    docs: docs as unknown as Int32Array,
    freqs: freqs as unknown as PackedInts | null,
    posStart: withPos ? t.posStart : null,
    positions: positions as unknown as PackedInts | null,
    norms,
    docCount: t.docCount,
    sumTotalTermFreq: t.sumTotalTermFreq,
    sumDocFreq: t.postings,
  };
}

/**
 * The merged segment's docs in `_id` order, from each part's own order (already sorted): runs
 * merged pairwise, n log(parts) comparisons instead of a full sort.
 */
function mergeIdOrders(
  parts: readonly MergePart[],
  map: (pi: number, d: number) => number,
  ids: readonly string[],
): Int32Array {
  const runs: Int32Array[] = parts.map((p, pi) => {
    const order = p.segment.idOrder;
    const out = new Int32Array(order.length);
    let k = 0;
    for (let i = 0; i < order.length; i++) {
      const nd = map(pi, order[i]!);
      if (nd >= 0) out[k++] = nd;
    }
    return k === out.length ? out : out.subarray(0, k);
  });
  const block = stringBlockOf(ids);
  return mergeRuns(runs, block ? (a, b) => blockLess(block, a, b) : (a, b) => ids[a]! < ids[b]!);
}

/**
 * Whether string `a` of `block` sorts before string `b` as JS strings do (UTF-16 units): bytes
 * compared until they differ, which orders the same as long as one of the two differing bytes is
 * ASCII; past two non-ASCII bytes the two strings are decoded and compared.
 */
function blockLess({ bytes, offsets }: StringBlock, a: number, b: number): boolean {
  let i = offsets[a]!;
  const ie = offsets[a + 1]!;
  let j = offsets[b]!;
  const je = offsets[b + 1]!;
  for (; i < ie && j < je; i++, j++) {
    const x = bytes[i]!;
    const y = bytes[j]!;
    if (x === y) continue;
    if (x < 0x80 || y < 0x80) return x < y;
    const sa = bytes.toString('utf8', offsets[a]!, ie);
    const sb = bytes.toString('utf8', offsets[b]!, je);
    return sa < sb;
  }
  return ie - i < je - j;
}

/** Merges sorted runs pairwise (a balanced tree of two-way merges); `less` is strict. */
function mergeRuns(runs: Int32Array[], less: (a: number, b: number) => boolean): Int32Array {
  if (runs.length === 0) return new Int32Array(0);
  while (runs.length > 1) {
    const next: Int32Array[] = [];
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const x = runs[r]!;
      const y = runs[r + 1]!;
      const out = new Int32Array(x.length + y.length);
      let i = 0;
      let j = 0;
      let k = 0;
      // Ties take the left run first, which keeps earlier parts first.
      while (i < x.length && j < y.length) out[k++] = less(y[j]!, x[i]!) ? y[j++]! : x[i++]!;
      while (i < x.length) out[k++] = x[i++]!;
      while (j < y.length) out[k++] = y[j++]!;
      next.push(out);
    }
    if (runs.length % 2 === 1) next.push(runs[runs.length - 1]!);
    runs = next;
  }
  return runs[0]!;
}

/** Range values of the parts with remapped docs, sorted again by (min, doc). */
function mergeRanges(
  parts: Array<RangeIndex | null>,
  map: (pi: number, d: number) => number,
): RangeIndex | null {
  const mins: string[] = [];
  const maxs: string[] = [];
  const docs: number[] = [];
  parts.forEach((r, pi) => {
    if (!r) return;
    for (let i = 0; i < r.docs.length; i++) {
      const nd = map(pi, r.docs[i]!);
      if (nd < 0) continue;
      mins.push(r.mins[i]!);
      maxs.push(r.maxs[i]!);
      docs.push(nd);
    }
  });
  return docs.length > 0 ? buildRangeIndex(mins, maxs, docs) : null;
}

/**
 * Points of the parts merged by (value, new doc): each part's points are already in order, so
 * their runs are merged straight into the output (ties, never across parts, keep a part's own
 * order), without remapped copies or index runs of every point beside it.
 */
function mergePoints(
  pts: Array<PointsIndex | null>,
  map: (pi: number, d: number) => number,
): PointsIndex {
  let n = 0;
  for (const p of pts) n += p?.values.length ?? 0;
  const parts = pts.length;
  const next = new Int32Array(parts);
  const headValue = new Float64Array(parts);
  const headDoc = new Int32Array(parts);
  const more = new Uint8Array(parts);
  /** Moves part `pi`'s head to its next point of a kept doc. */
  const advance = (pi: number): void => {
    const p = pts[pi]!;
    for (let i = next[pi]!; i < p.values.length; i++) {
      const nd = map(pi, p.docs[i]!);
      if (nd < 0) continue;
      headValue[pi] = p.values[i]!;
      headDoc[pi] = nd;
      next[pi] = i + 1;
      more[pi] = 1;
      return;
    }
    next[pi] = p.values.length;
    more[pi] = 0;
  };
  for (let pi = 0; pi < parts; pi++) if (pts[pi]) advance(pi);
  const values = new Float64Array(n);
  const docs = new Int32Array(n);
  let k = 0;
  for (;;) {
    let best = -1;
    for (let pi = 0; pi < parts; pi++) {
      if (!more[pi]) continue;
      if (best < 0) best = pi;
      else {
        const v = headValue[pi]!;
        const bv = headValue[best]!;
        if (v < bv || (v === bv && headDoc[pi]! < headDoc[best]!)) best = pi;
      }
    }
    if (best < 0) break;
    values[k] = headValue[best]!;
    docs[k++] = headDoc[best]!;
    advance(best);
  }
  // Without deletions the arrays are exactly full: no trimmed copy.
  return k === n ? { values, docs } : { values: values.slice(0, k), docs: docs.slice(0, k) };
}

function mergeNumeric(
  cols: Array<NumericColumn | null>,
  parts: readonly MergePart[],
  map: (pi: number, d: number) => number,
  maxDoc: number,
): NumericColumn {
  const multi = cols.some((c) => c && !c.single);
  if (!multi) {
    const single = new Float64Array(maxDoc).fill(NaN);
    cols.forEach((c, pi) => {
      if (!c) return;
      for (let d = 0; d < parts[pi]!.segment.maxDoc; d++) {
        const nd = map(pi, d);
        if (nd >= 0) single[nd] = c.single![d]!;
      }
    });
    return { kind: 'numeric', single, offsets: null, values: null };
  }
  const offsets = new Int32Array(maxDoc + 1);
  const tmp: number[][] = new Array(maxDoc);
  cols.forEach((c, pi) => {
    if (!c) return;
    for (let d = 0; d < parts[pi]!.segment.maxDoc; d++) {
      const nd = map(pi, d);
      if (nd < 0) continue;
      if (c.single) {
        if (!Number.isNaN(c.single[d]!)) tmp[nd] = [c.single[d]!];
      } else {
        const s = c.offsets![d]!;
        const e = c.offsets![d + 1]!;
        if (e > s) tmp[nd] = Array.from(c.values!.subarray(s, e));
      }
    }
  });
  let n = 0;
  for (let d = 0; d < maxDoc; d++) {
    offsets[d] = n;
    n += tmp[d]?.length ?? 0;
  }
  offsets[maxDoc] = n;
  const values = new Float64Array(n);
  for (let d = 0; d < maxDoc; d++) if (tmp[d]) values.set(tmp[d]!, offsets[d]!);
  return { kind: 'numeric', single: null, offsets, values };
}

function mergeOrdinals(
  cols: Array<OrdinalColumn | null>,
  parts: readonly MergePart[],
  map: (pi: number, d: number) => number,
  maxDoc: number,
): OrdinalColumn {
  const all = new Set<string>();
  for (const c of cols) if (c) for (const t of c.dict) all.add(t);
  const dict = [...all].sort();
  const index = new Map(dict.map((t, i) => [t, i]));
  const per: number[][] = new Array(maxDoc);
  cols.forEach((c, pi) => {
    if (!c) return;
    const remap = c.dict.map((t) => index.get(t)!);
    for (let d = 0; d < parts[pi]!.segment.maxDoc; d++) {
      const nd = map(pi, d);
      if (nd < 0) continue;
      if (c.single) {
        if (c.single[d]! >= 0) per[nd] = [remap[c.single[d]!]!];
      } else {
        const arr: number[] = [];
        for (let i = c.offsets![d]!; i < c.offsets![d + 1]!; i++) arr.push(remap[c.ords![i]!]!);
        if (arr.length) per[nd] = arr.sort((a, b) => a - b);
      }
    }
  });
  const multi = per.some((x) => x && x.length > 1);
  if (!multi) {
    const single = new Int32Array(maxDoc).fill(-1);
    for (let d = 0; d < maxDoc; d++) if (per[d]) single[d] = per[d]![0]!;
    return { kind: 'ordinal', dict, single, offsets: null, ords: null };
  }
  const offsets = new Int32Array(maxDoc + 1);
  let n = 0;
  for (let d = 0; d < maxDoc; d++) {
    offsets[d] = n;
    n += per[d]?.length ?? 0;
  }
  offsets[maxDoc] = n;
  const ords = new Int32Array(n);
  for (let d = 0; d < maxDoc; d++) if (per[d]) ords.set(per[d]!, offsets[d]!);
  return { kind: 'ordinal', dict, single: null, offsets, ords };
}
