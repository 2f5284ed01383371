/**
 * The per-segment aggregation loops of a parallel search (parallel-aggs.ts in the DSL layer),
 * as plain typed-array code that runs the same on the main thread and on a search worker: one
 * task is a slice of one segment's matching docs; its partial results (counts and exact
 * integer sums per segment ordinal or per range, and the number of live matches) are written
 * into a Float64Array at the task's offset and merged segment by segment by the caller.
 */

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
 * (slot 0: no value), then with `values` the per-ordinal value count and sum; `range`: docs per
 * (disjoint, sorted) range; `none`: nothing (the field is absent from the segment).
 */
export type KernelSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'terms'; readonly ords: Int32Array; readonly size: number; readonly values: Float64Array | null } // prettier-ignore
  | {
      readonly kind: 'range';
      readonly values: Float64Array;
      readonly froms: Float64Array;
      readonly tos: Float64Array;
    }; // prettier-ignore;

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
  return s.kind === 'terms' ? (s.values ? 3 * s.size : s.size) : s.kind === 'range' ? s.froms.length : 0; // prettier-ignore
}

/** Output slots of a task: the match count and each spec's. */
export function taskSlots(specs: readonly KernelSpec[]): number {
  let n = 1;
  for (const s of specs) n += specSlots(s);
  return n;
}

const BATCH = 1024;

/** Runs one task, adding into `out` (which the caller zeroed). */
export function runTask(t: KernelTask, out: Float64Array): void {
  const batch = new Int32Array(BATCH);
  const d = t.docs;
  const live = t.live;
  let total = 0;
  for (let s = d.from; s < d.to;) {
    // the next batch of live matches
    let n = 0;
    if (d.kind === 'all') {
      const e = Math.min(d.to, s + BATCH);
      if (live === null) for (let x = s; x < e; x++) batch[n++] = x;
      else for (let x = s; x < e; x++) if (live[x >>> 5]! & (1 << (x & 31))) batch[n++] = x;
      s = e;
    } else {
      const docs = d.docs;
      const e = Math.min(d.to, s + BATCH);
      if (live === null) for (let i = s; i < e; i++) batch[n++] = docs[i]!;
      else
        for (let i = s; i < e; i++) {
          const x = docs[i]!;
          if (live[x >>> 5]! & (1 << (x & 31))) batch[n++] = x;
        }
      s = e;
    }
    total += n;
    let off = t.out + 1;
    for (const spec of t.specs) {
      if (spec.kind === 'terms') {
        if (spec.values) termsSum(batch, n, spec.ords, spec.values, spec.size, out, off);
        else termsCount(batch, n, spec.ords, out, off);
      } else if (spec.kind === 'range') rangeCount(batch, n, spec.values, spec.froms, spec.tos, out, off); // prettier-ignore
      off += specSlots(spec);
    }
  }
  out[t.out] += total;
}

function termsCount(
  docs: Int32Array,
  n: number,
  ords: Int32Array,
  out: Float64Array,
  off: number,
): void {
  for (let i = 0; i < n; i++) out[off + ords[docs[i]!]! + 1]!++;
}

/** Counts per ordinal + 1, then value counts at off + size + o and sums at off + 2 * size + o. */
function termsSum(
  docs: Int32Array,
  n: number,
  ords: Int32Array,
  values: Float64Array,
  size: number,
  out: Float64Array,
  off: number,
): void {
  const vc = off + size;
  const vs = off + 2 * size;
  for (let i = 0; i < n; i++) {
    const d = docs[i]!;
    const o = ords[d]!;
    out[off + o + 1]!++;
    if (o < 0) continue;
    const v = values[d]!;
    if (v !== v) continue;
    out[vc + o]!++;
    out[vs + o]! += v;
  }
}

/** Disjoint sorted ranges: the first range whose (exclusive) end lies above v, if v is in it. */
function rangeCount(
  docs: Int32Array,
  n: number,
  values: Float64Array,
  froms: Float64Array,
  tos: Float64Array,
  out: Float64Array,
  off: number,
): void {
  const nr = tos.length;
  for (let i = 0; i < n; i++) {
    const v = values[docs[i]!]!;
    if (v !== v) continue;
    let j = 0;
    if (nr <= 8) {
      // branch-free count of the ends at or below v (ends ascend), as RangeAggregator does
      for (let t = 0; t < nr; t++) j += Number(v >= tos[t]!);
    } else {
      let hi = nr;
      while (j < hi) {
        const m = (j + hi) >>> 1;
        if (v >= tos[m]!) j = m + 1;
        else hi = m;
      }
    }
    if (j < nr && v >= froms[j]!) out[off + j]!++;
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
  const specs: KernelSpec[] = [
    { kind: 'terms', ords, size: 51, values },
    { kind: 'terms', ords, size: 51, values: null },
    { kind: 'range', values, froms, tos },
  ];
  const out = new Float64Array(taskSlots(specs));
  for (let r = 0; r < 40; r++) {
    const list = r % 2 === 0;
    const d: TaskDocs = list ? { kind: 'list', docs, from: 0, to: n } : { kind: 'all', from: 0, to: n }; // prettier-ignore
    runTask({ docs: d, live: r % 4 < 2 ? live : null, specs, out: 0 }, out);
  }
}
