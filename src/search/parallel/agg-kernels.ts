/**
 * The per-segment aggregation loops of a parallel search (parallel-aggs.ts in the DSL layer),
 * as plain typed-array code that runs the same on the main thread and on a search worker: one
 * task is a slice of one segment's matching docs; its partial results (counts and exact
 * integer sums per segment ordinal or per range, and the number of live matches) are written
 * into a Float64Array at the task's offset and merged segment by segment by the caller.
 */

import {
  countBelowAll,
  countBelowList,
  rangeBounds,
  rangeCount,
  type RangeBounds,
} from './range-counts.js';

/** The slice of a segment's matches a task reads: a doc id range, or a range of a doc list. */
export type TaskDocs =
  | { readonly kind: 'all'; readonly from: number; readonly to: number }
  | {
      readonly kind: 'list';
      readonly docs: Int32Array;
      readonly from: number;
      readonly to: number;
    };

/**
 * What one top-level aggregation computes over a segment. `terms`: docs per segment ordinal + 1
 * (slot 0: no value), then with `values` the value count and the sum per segment ordinal, each
 * followed by those of the docs without an ordinal (`dense`: the column has no missing value,
 * so the value count is the doc count); `range`: docs per range
 * (from the counts below each bound, see range-counts.ts); `none`: nothing (the field is absent
 * from the segment).
 */
export type KernelSpec =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'terms';
      readonly ords: Int32Array;
      readonly size: number;
      readonly values: Float64Array | null;
      readonly dense: boolean;
    }
  | {
      readonly kind: 'range';
      readonly values: Float64Array;
      readonly bounds: RangeBounds;
    };

export interface KernelTask {
  readonly docs: TaskDocs;
  /** Live docs bits of the segment, null when none is deleted. */
  readonly live: Uint32Array | null;
  readonly specs: readonly KernelSpec[];
  /** Where this task's results start in the output: the live match count, then each spec's. */
  readonly out: number;
}

/** Number of output slots of a spec. */
export function specSlots(s: KernelSpec): number {
  return s.kind === 'terms' ? (s.values ? 3 * s.size : s.size) : s.kind === 'range' ? s.bounds.lo.length : 0; // prettier-ignore
}

/** Output slots of a task: the match count and each spec's. */
export function taskSlots(specs: readonly KernelSpec[]): number {
  let n = 1;
  for (const s of specs) n += specSlots(s);
  return n;
}

/** Live matches are gathered this many at a time when the segment has deletions. */
const BATCH = 4096;
/**
 * Per-ordinal counters are kept in this many interleaved copies (doc i updates copy i % 4), so
 * that runs of docs with the same ordinal do not wait on each other's increments.
 */
export const STRIPES = 4;

/** Runs one task, adding into `out` (which the caller zeroed). */
export function runTask(t: KernelTask, out: Float64Array): void {
  const d = t.docs;
  const live = t.live;
  if (live === null) {
    // every doc of the slice matches: the loops read the doc list (or the id range) directly
    const docs = d.kind === 'list' ? d.docs : null;
    let off = t.out + 1;
    for (const spec of t.specs) {
      runSpec(spec, docs, d.from, d.to, out, off);
      off += specSlots(spec);
    }
    out[t.out] += d.to - d.from;
    return;
  }
  const batch = new Int32Array(BATCH);
  let total = 0;
  for (let s = d.from; s < d.to;) {
    // the next batch of live matches
    let n = 0;
    const e = Math.min(d.to, s + BATCH);
    if (d.kind === 'all') {
      for (let x = s; x < e; x++) if (live[x >>> 5]! & (1 << (x & 31))) batch[n++] = x;
    } else {
      const docs = d.docs;
      for (let i = s; i < e; i++) {
        const x = docs[i]!;
        if (live[x >>> 5]! & (1 << (x & 31))) batch[n++] = x;
      }
    }
    s = e;
    total += n;
    let off = t.out + 1;
    for (const spec of t.specs) {
      runSpec(spec, batch, 0, n, out, off);
      off += specSlots(spec);
    }
  }
  out[t.out] += total;
}

/** One spec over docs[from..to) (docs null: the doc ids from..to), adding into out at off. */
function runSpec(
  spec: KernelSpec,
  docs: Int32Array | null,
  from: number,
  to: number,
  out: Float64Array,
  off: number,
): void {
  if (spec.kind === 'range') {
    const below = new Float64Array(spec.bounds.bounds.length);
    if (docs) countBelowList(docs, from, to, spec.values, spec.bounds.bounds, below);
    else countBelowAll(from, to, spec.values, spec.bounds.bounds, below);
    for (let k = 0; k < spec.bounds.lo.length; k++) out[off + k] += rangeCount(spec.bounds, below, k); // prettier-ignore
    return;
  }
  if (spec.kind !== 'terms') return;
  const size = spec.size;
  const cnt = new Int32Array(size * STRIPES);
  if (!spec.values) {
    if (docs) countOrdsList(docs, from, to, spec.ords, cnt, size);
    else countOrdsAll(from, to, spec.ords, cnt, size);
    for (let o = 0; o < size; o++) out[off + o] += stripeSum(cnt, o, size);
    return;
  }
  const sum = new Float64Array(size * STRIPES);
  if (spec.dense) {
    if (docs) sumOrdsList(docs, from, to, spec.ords, spec.values, cnt, sum, size);
    else sumOrdsAll(from, to, spec.ords, spec.values, cnt, sum, size);
    for (let o = 0; o < size; o++) {
      const c = stripeSum(cnt, o, size);
      out[off + o] += c;
      if (c === 0) continue;
      // slot 0 (docs without an ordinal) keeps its value count and sum in the last slots
      const at = o === 0 ? size - 1 : o - 1;
      out[off + size + at] += c;
      out[off + 2 * size + at] += stripeSum(sum, o, size);
    }
    return;
  }
  const vc = new Int32Array(size);
  termsSumSparse(docs, from, to, spec.ords, spec.values, cnt, vc, sum);
  for (let o = 0; o < size; o++) {
    out[off + o] += cnt[o]!;
    if (vc[o] === 0) continue;
    const at = o === 0 ? size - 1 : o - 1;
    out[off + size + at] += vc[o]!;
    out[off + 2 * size + at] += sum[o]!;
  }
}

/** Slot `o` summed over its STRIPES copies. */
export function stripeSum(a: Int32Array | Float64Array, o: number, size: number): number {
  return a[o]! + a[o + size]! + a[o + 2 * size]! + a[o + 3 * size]!;
}

/** cnt[copy * size + ords[d] + 1]++ for the docs of the list (see STRIPES). */
export function countOrdsList(
  docs: Int32Array,
  from: number,
  to: number,
  ords: Int32Array,
  cnt: Int32Array,
  size: number,
): void {
  const s2 = 2 * size;
  const s3 = 3 * size;
  let i = from;
  for (; i + 3 < to; i += 4) {
    cnt[ords[docs[i]!]! + 1]!++;
    cnt[ords[docs[i + 1]!]! + 1 + size]!++;
    cnt[ords[docs[i + 2]!]! + 1 + s2]!++;
    cnt[ords[docs[i + 3]!]! + 1 + s3]!++;
  }
  for (; i < to; i++) cnt[ords[docs[i]!]! + 1]!++;
}

function countOrdsAll(
  from: number,
  to: number,
  ords: Int32Array,
  cnt: Int32Array,
  size: number,
): void {
  const s2 = 2 * size;
  const s3 = 3 * size;
  let d = from;
  for (; d + 3 < to; d += 4) {
    cnt[ords[d]! + 1]!++;
    cnt[ords[d + 1]! + 1 + size]!++;
    cnt[ords[d + 2]! + 1 + s2]!++;
    cnt[ords[d + 3]! + 1 + s3]!++;
  }
  for (; d < to; d++) cnt[ords[d]! + 1]!++;
}

/**
 * Counts and sums per ordinal + 1 of a column without missing values (slot 0, docs without an
 * ordinal, sums values nobody reads): no branch per doc.
 */
export function sumOrdsList(
  docs: Int32Array,
  from: number,
  to: number,
  ords: Int32Array,
  values: Float64Array,
  cnt: Int32Array,
  sum: Float64Array,
  size: number,
): void {
  const s2 = 2 * size;
  const s3 = 3 * size;
  let i = from;
  for (; i + 3 < to; i += 4) {
    let d = docs[i]!;
    let o = ords[d]! + 1;
    cnt[o]!++;
    sum[o]! += values[d]!;
    d = docs[i + 1]!;
    o = ords[d]! + 1 + size;
    cnt[o]!++;
    sum[o]! += values[d]!;
    d = docs[i + 2]!;
    o = ords[d]! + 1 + s2;
    cnt[o]!++;
    sum[o]! += values[d]!;
    d = docs[i + 3]!;
    o = ords[d]! + 1 + s3;
    cnt[o]!++;
    sum[o]! += values[d]!;
  }
  for (; i < to; i++) {
    const d = docs[i]!;
    const o = ords[d]! + 1;
    cnt[o]!++;
    sum[o]! += values[d]!;
  }
}

function sumOrdsAll(
  from: number,
  to: number,
  ords: Int32Array,
  values: Float64Array,
  cnt: Int32Array,
  sum: Float64Array,
  size: number,
): void {
  const s2 = 2 * size;
  const s3 = 3 * size;
  let d = from;
  for (; d + 3 < to; d += 4) {
    let o = ords[d]! + 1;
    cnt[o]!++;
    sum[o]! += values[d]!;
    o = ords[d + 1]! + 1 + size;
    cnt[o]!++;
    sum[o]! += values[d + 1]!;
    o = ords[d + 2]! + 1 + s2;
    cnt[o]!++;
    sum[o]! += values[d + 2]!;
    o = ords[d + 3]! + 1 + s3;
    cnt[o]!++;
    sum[o]! += values[d + 3]!;
  }
  for (; d < to; d++) {
    const o = ords[d]! + 1;
    cnt[o]!++;
    sum[o]! += values[d]!;
  }
}

/** A column with missing values (NaN): value counts and sums only for docs with a value. */
function termsSumSparse(
  docs: Int32Array | null,
  from: number,
  to: number,
  ords: Int32Array,
  values: Float64Array,
  cnt: Int32Array,
  vc: Int32Array,
  sum: Float64Array,
): void {
  for (let i = from; i < to; i++) {
    const d = docs ? docs[i]! : i;
    const o = ords[d]! + 1;
    cnt[o]!++;
    const v = values[d]!;
    if (v !== v) continue;
    vc[o]!++;
    sum[o]! += v;
  }
}

/**
 * Runs every loop over synthetic data until the JIT has optimized them, so a worker that takes
 * few tasks does not run them cold (a worker does this once at start).
 */
export function warmKernels(): void {
  const n = 1 << 15;
  const ords = new Int32Array(n);
  const values = new Float64Array(n);
  const docs = new Int32Array(n);
  const live = new Uint32Array(n >>> 5).fill(0xfffffffe);
  for (let i = 0; i < n; i++) {
    ords[i] = (i % 51) - 1;
    values[i] = i % 7 === 0 ? NaN : i;
    docs[i] = i;
  }
  const tos = Float64Array.of(1000, 10000, 100000, Infinity);
  const froms = Float64Array.of(-Infinity, 1000, 10000, 100000);
  const dense = values.map((v) => (v === v ? v : 0));
  const specs: KernelSpec[] = [
    { kind: 'terms', ords, size: 51, values, dense: false },
    { kind: 'terms', ords, size: 51, values: dense, dense: true },
    { kind: 'terms', ords, size: 51, values: null, dense: false },
    { kind: 'range', values, bounds: rangeBounds(froms, tos)! },
  ];
  const out = new Float64Array(taskSlots(specs));
  for (let r = 0; r < 40; r++) {
    const list = r % 2 === 0;
    const d: TaskDocs = list ? { kind: 'list', docs, from: 0, to: n } : { kind: 'all', from: 0, to: n }; // prettier-ignore
    runTask({ docs: d, live: r % 4 < 2 ? live : null, specs, out: 0 }, out);
  }
}
