/**
 * Size-0 aggregation searches of large shards split between the main thread and the search
 * workers (search/parallel): each segment's matching docs are cut into slices, the workers run
 * theirs over shared segment arrays while the main thread runs its own, and the per-segment
 * partial results are handed to the shard's aggregators segment by segment, in segment order, as
 * if the docs had been collected here. Only shapes whose partial results add up to exactly the
 * serial result take this path (see Aggregator.parallelSpec): counts, and sums of integers that
 * stay below 2^53 (every addition exact, so equal to the serial Kahan sums); anything else, and
 * queries that are not plain filter doc sets, returns null (the caller collects as before).
 */
import type { ShardTopDocs } from '../../search/collect/top-docs.js';
import { docSetSize, filterDocSet, type DocSet } from '../../search/collect/doc-sets.js';
import type { LiveSegment, ShardSnapshot } from '../../search/index/live-segment.js';
import type { Query } from '../../search/query/query.js';
import {
  taskSlots,
  specSlots,
  type KernelSpec,
  type KernelTask,
} from '../../search/parallel/agg-kernels.js';
import {
  readySearchWorkers,
  runSearchJob,
  searchJob,
  searchParallelMinDocs,
} from '../../search/parallel/search-pool.js';
import { shared } from '../../search/parallel/shared-arrays.js';
import { isTimeExceeded, type Deadline } from '../../search/deadline.js';
import type { ShardAggregator } from '../aggs/index.js';
import { EXACT_INT_LIMIT, integralMaxAbs } from '../aggs/support/column-stats.js';

/** Below this many matching docs a split costs more than it saves (unless the threshold is lower). */
const MIN_SPLIT_WORK = 262_144;
/** Tasks are no smaller than this, and about this many per thread. */
const MIN_TASK_DOCS = 32_768;
const TASKS_PER_THREAD = 4;

interface SegmentPlan {
  readonly ls: LiveSegment;
  readonly set: DocSet;
  readonly specs: KernelSpec[];
  readonly size: number;
}

/** A slice of one segment's matches: [from, to) doc ids ('all') or list indexes ('list'). */
interface Slice {
  readonly si: number;
  readonly from: number;
  readonly to: number;
}

/** The plan of every segment, or null when some segment or aggregation needs the serial path. */
function planSegments(
  snapshot: ShardSnapshot,
  query: Query,
  agg: ShardAggregator,
): SegmentPlan[] | null {
  const roots = agg.roots;
  if (agg.needsScores || roots.length === 0) return null;
  const plans: SegmentPlan[] = [];
  const bounds = new Float64Array(roots.length);
  for (const ls of snapshot.segments) {
    const set = filterDocSet(query, ls);
    if (!set || set.kind === 'bits') return null;
    const size = docSetSize(set);
    const specs: KernelSpec[] = [];
    for (let r = 0; r < roots.length; r++) {
      const spec = roots[r]!.parallelSpec?.(ls) ?? null;
      if (!spec || !roots[r]!.addPartial) return null;
      if (spec.kind === 'terms' && spec.values) {
        const m = integralMaxAbs(spec.values);
        if (m < 0) return null;
        if ((bounds[r]! += m * size) >= EXACT_INT_LIMIT) return null;
      }
      specs.push(spec);
    }
    plans.push({ ls, set, specs, size });
  }
  return plans;
}

/**
 * Cuts the segments' matches into `parts` units of about equal numbers of docs, in doc order:
 * each unit is the slices of one or more segments.
 */
function cut(plans: readonly SegmentPlan[], work: number, parts: number): Slice[][] {
  const out: Slice[][] = [[]];
  const per = Math.ceil(work / parts);
  let room = per;
  for (let si = 0; si < plans.length; si++) {
    const { size } = plans[si]!;
    let at = 0;
    while (at < size) {
      const take = Math.min(room, size - at);
      out[out.length - 1]!.push({ si, from: at, to: at + take });
      at += take;
      room -= take;
      if (room === 0) {
        room = per;
        out.push([]);
      }
    }
  }
  if (out[out.length - 1]!.length === 0) out.pop();
  return out;
}

/**
 * Whether a doc list of `q` in `ls` is a view of the segment's own postings or points (a term, a
 * single numeric value): shared once for the segment's life. Lists computed per request
 * (conjunctions, multi-value ranges) are copied into shared memory per request.
 */
function segmentView(q: Query, ls: LiveSegment, docs: Int32Array): boolean {
  if (q.kind === 'ConstantScore') return segmentView(q.inner, ls, docs);
  const seg = ls.segment;
  if (q.kind === 'Term') {
    const inv = q.field === '_field_names' ? seg.fieldNames : seg.fields.get(q.field)?.inverted;
    return inv !== undefined && inv !== null && inv.docs.buffer === docs.buffer;
  }
  if (q.kind === 'NumericRange') {
    const pts = seg.fields.get(q.field)?.points;
    return pts !== undefined && pts !== null && pts.docs.buffer === docs.buffer;
  }
  return false;
}

function sharedDocs(set: DocSet, plan: SegmentPlan, q: Query): Int32Array | null {
  if (set.kind !== 'list') return null;
  if (segmentView(q, plan.ls, set.docs)) return shared(set.docs, plan.ls.segment);
  const copy = new Int32Array(new SharedArrayBuffer(set.docs.byteLength));
  copy.set(set.docs);
  return copy;
}

/** A slice as a task over shared arrays (see shared-arrays.ts). */
function task(
  plan: SegmentPlan,
  list: Int32Array | null,
  specs: KernelSpec[],
  s: Slice,
  out: number,
): KernelTask {
  // prettier-ignore
  const docs = list
    ? { kind: 'list' as const, docs: list, from: s.from, to: s.to }
    : { kind: 'all' as const, from: s.from, to: s.to };
  const live = plan.ls.live ? shared(plan.ls.live.words) : null;
  return { docs, live, specs, out };
}

function shareSpec(s: KernelSpec): KernelSpec {
  if (s.kind === 'terms') return { ...s, ords: shared(s.ords), values: s.values ? shared(s.values) : null }; // prettier-ignore
  if (s.kind === 'range') return { ...s, values: shared(s.values) };
  return s;
}

/**
 * Total hits and aggregations of a size-0 search, collected in parallel, or null when this path
 * does not apply (too small, no worker ready, unsupported shape): the caller collects serially.
 * With a deadline (the search `timeout`), as the serial collector: a check before the job and
 * one per segment as the partial results are merged; past it, the total and aggregations cover
 * the segments merged so far.
 */
export function parallelCountAndAggs(
  snapshot: ShardSnapshot,
  query: Query,
  agg: ShardAggregator,
  dl: Deadline | null = null,
): ShardTopDocs | null {
  const minDocs = searchParallelMinDocs();
  if (snapshot.numDocs < minDocs) return null;
  const workers = readySearchWorkers();
  if (workers === 0) return null;
  const plans = planSegments(snapshot, query, agg);
  if (!plans) return null;
  let work = 0;
  for (const p of plans) work += p.size;
  // counting loops (range, terms without a metric) cost about half a summing one per doc: they
  // need twice the docs before a split pays for waking a worker (measured on a busy machine)
  const summing = plans.some((p) => p.specs.some((s) => s.kind === 'terms' && s.values !== null));
  if ((summing ? work : work / 2) < Math.min(MIN_SPLIT_WORK, minDocs)) return null;
  // only once this path is taken: a search it declines keeps the serial collector's checks
  if (dl && !passes(dl)) return null; // the serial path stops at its first check
  // a few tasks per thread: whoever is free takes the next (see search-pool.ts)
  const chunk = Math.max(MIN_TASK_DOCS, Math.ceil(work / ((workers + 1) * TASKS_PER_THREAD)));
  const slices = cut(plans, work, Math.max(2, Math.ceil(work / chunk)));
  const units: KernelTask[][] = [];
  const where: number[] = [];
  const tasks: KernelTask[] = [];
  let slots = 0;
  const sharedSpecs = plans.map((p) => p.specs.map(shareSpec));
  const lists = plans.map((p) => sharedDocs(p.set, p, query));
  for (const unit of slices) {
    const u: KernelTask[] = [];
    for (const s of unit) {
      const plan = plans[s.si]!;
      const t = task(plan, lists[s.si]!, sharedSpecs[s.si]!, s, slots);
      u.push(t);
      tasks.push(t);
      where.push(s.si);
      slots += taskSlots(plan.specs);
    }
    units.push(u);
  }
  const out = runSearchJob(searchJob(units, slots));
  const totals = plans.map((p) => new Float64Array(taskSlots(p.specs)));
  for (let i = 0; i < tasks.length; i++) {
    const t = totals[where[i]!]!;
    const off = tasks[i]!.out;
    for (let j = 0; j < t.length; j++) t[j] += out[off + j]!;
  }
  let total = 0;
  const roots = agg.roots;
  for (let si = 0; si < plans.length; si++) {
    if (dl && !passes(dl)) break;
    const { ls, specs } = plans[si]!;
    agg.onSegment(ls, si);
    const t = totals[si]!;
    total += t[0]!;
    let off = 1;
    for (let r = 0; r < roots.length; r++) {
      roots[r]!.addPartial!(specs[r]!, t, off);
      off += specSlots(specs[r]!);
    }
  }
  // the serial collector's last check, after the last segment
  if (dl && plans.length > 0) passes(dl);
  return { totalHits: total, maxScore: NaN, hits: [], terminatedEarly: false };
}

/** Deadline.check as a boolean: false once past it (counted as a failed check). */
function passes(dl: Deadline): boolean {
  try {
    dl.check();
    return true;
  } catch (e) {
    if (!isTimeExceeded(e)) throw e;
    return false;
  }
}
