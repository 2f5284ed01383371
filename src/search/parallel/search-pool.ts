/**
 * The search worker pool: worker threads that run slices of a large shard's aggregation
 * collection (agg-kernels.ts) while the main thread runs its own slice. Sized by the node setting
 * `search.workers` (default: the machine's parallelism less one, at least one; 0: off); only
 * shards of at least `search.parallel_min_docs` documents (default 200,000) are split.
 *
 * A search stays synchronous: the main thread posts the job's tasks to the workers and takes tasks
 * from the same queue itself, then sleeps on a shared counter (Atomics.wait) until the tasks the
 * workers took are finished (a busy machine leaves most tasks to the main thread instead of
 * waiting for a worker to be scheduled). The segment arrays the tasks read are shared
 * (shared-arrays.ts), never copied per request. A worker that is not up yet takes no part; one
 * that fails or does not finish in time leaves its tasks to the main thread.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { runTask, taskSlots, type KernelTask } from './agg-kernels.js';

export const SEARCH_WORKERS_SETTING = 'search.workers';
export const PARALLEL_MIN_DOCS_SETTING = 'search.parallel_min_docs';
const DEFAULT_MIN_DOCS = 200_000;
/** Tests (workers only): how long the main thread waits for a worker's task. */
const WAIT_MS = 10_000;

/**
 * Tasks that the main thread and every ready worker take from one shared queue (a task is taken
 * by whoever claims its index first), each writing its results into its own range of `out`.
 */
export interface SearchJob {
  /** Units of work, each a few segment slices taken together. */
  readonly tasks: readonly (readonly KernelTask[])[];
  readonly out: Float64Array;
  /** [0] next task to claim, [1] tasks finished, [2] 1 when a worker failed, then per task 1 = finished. */ // prettier-ignore
  readonly ctrl: Int32Array;
}

const NEXT = 0;
const FINISHED = 1;
const FAILED = 2;
const FLAGS = 3;

export function searchJob(tasks: readonly (readonly KernelTask[])[], slots: number): SearchJob {
  // one shared allocation per search: the control words, then the results (8-byte aligned)
  const ctrlBytes = (((FLAGS + tasks.length) * 4 + 7) >>> 3) << 3;
  const sab = new SharedArrayBuffer(ctrlBytes + Math.max(1, slots) * 8);
  return {
    tasks,
    out: new Float64Array(sab, ctrlBytes, Math.max(1, slots)),
    ctrl: new Int32Array(sab, 0, FLAGS + tasks.length),
  };
}

/** Claims and runs tasks of `job` until none is left (the main thread and the workers alike). */
export function drainJob(job: SearchJob): void {
  const { tasks, out, ctrl } = job;
  for (;;) {
    const i = Atomics.add(ctrl, NEXT, 1);
    if (i >= tasks.length) return;
    try {
      for (const t of tasks[i]!) runTask(t, out);
    } catch (e) {
      Atomics.store(ctrl, FAILED, 1);
      Atomics.notify(ctrl, FINISHED);
      throw e;
    }
    Atomics.store(ctrl, FLAGS + i, 1);
    Atomics.add(ctrl, FINISHED, 1);
    Atomics.notify(ctrl, FINISHED);
  }
}

interface PoolWorker {
  readonly worker: Worker;
  /** Set to 1 by the worker once it listens. */
  readonly ready: Int32Array;
  /** Jobs go on this port; the worker sleeps on `bell` (not its event loop) between them. */
  readonly jobs: MessagePort;
  readonly bell: Int32Array;
  dead: boolean;
}

let configured = 0;
let minDocs = DEFAULT_MIN_DOCS;
let pool: PoolWorker[] = [];
/** Tasks run, tasks the main thread took from the queue, worker tasks it ran again itself. */
const stats = { tasks: 0, mainTasks: 0, local: 0 };
/** Tests: the main thread takes no task (so that the workers' part is exercised). */
let workersOnly = false;

export function searchJobStats(): Readonly<typeof stats> {
  return { ...stats };
}

export function setSearchWorkersOnly(on: boolean): void {
  workersOnly = on;
}

/** The pool size a setting value asks for (absent: parallelism less one, at least one). */
export function searchWorkerCount(setting: string | undefined): number {
  if (setting === undefined || setting === '') {
    // run from sources (tests, tsx) the pool is off unless asked for (a worker compiles first)
    if (import.meta.url.endsWith('.ts')) return 0;
    return Math.max(1, availableParallelism() - 1);
  }
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`[${SEARCH_WORKERS_SETTING}] must be a whole number >= 0, got [${setting}]`);
  return n;
}

/** The split threshold a setting value asks for (absent: 200,000 docs). */
export function parallelMinDocs(setting: string | undefined): number {
  if (setting === undefined || setting === '') return DEFAULT_MIN_DOCS;
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`[${PARALLEL_MIN_DOCS_SETTING}] must be a whole number >= 0, got [${setting}]`); // prettier-ignore
  return n;
}

/**
 * Sets the pool size and the split threshold (the node does at start; tests and the bench switch
 * them). Workers start on first use; a smaller size stops the extra ones.
 */
export function configureSearchWorkers(n: number, min = DEFAULT_MIN_DOCS): void {
  configured = n;
  minDocs = min;
  if (pool.length > n) {
    const extra = pool.slice(n);
    pool = pool.slice(0, n);
    for (const w of extra) void w.worker.terminate();
  }
}

/** Shards with fewer documents are not split. */
export function searchParallelMinDocs(): number {
  return minDocs;
}

function newWorker(workerData: unknown, transferList: MessagePort[]): Worker {
  const self = import.meta.url;
  const opts = { name: 'quarry-search', workerData, transferList };
  if (!self.endsWith('.ts')) return new Worker(new URL('./search-worker.js', self), opts);
  const url = JSON.stringify(new URL('./search-worker.ts', self).href);
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${url}); })`;
  return new Worker(boot, { ...opts, eval: true });
}

function startWorker(): PoolWorker {
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const bell = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = newWorker({ ready, bell, jobs: port2 }, [port2]);
  const w: PoolWorker = { worker, ready, jobs: port1, bell, dead: false };
  worker.on('error', () => (w.dead = true));
  worker.on('exit', () => (w.dead = true));
  worker.unref();
  return w;
}

/**
 * The workers ready to take a slice now (starting the pool on first use: until a worker listens,
 * searches run on the main thread alone).
 */
export function readySearchWorkers(): number {
  if (configured === 0) return 0;
  pool = pool.filter((w) => !w.dead);
  while (pool.length < configured) pool.push(startWorker());
  let n = 0;
  for (const w of pool) if (Atomics.load(w.ready, 0) === 1) n++;
  return n;
}

/** Resolves once `n` workers listen (tests and benches, which must not time a cold pool). */
export async function searchWorkersReady(n = configured, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (readySearchWorkers() < n) {
    if (Date.now() - t0 > timeoutMs) throw new Error('search workers did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Runs `job` here and on the ready workers and returns its results. Once the queue is empty the
 * main thread waits for the tasks the workers took, but never much longer than a task takes it:
 * a task a worker has not finished by then (a busy machine did not schedule the worker, or it
 * failed) is run here too, into a copy, and that result is used.
 */
export function runSearchJob(job: SearchJob): Float64Array {
  for (const w of pool) {
    if (w.dead || Atomics.load(w.ready, 0) !== 1) continue;
    // a futex wake is quicker than waking the worker's event loop with a message
    w.jobs.postMessage(job);
    Atomics.add(w.bell, 0, 1);
    Atomics.notify(w.bell, 0);
  }
  const { tasks, out, ctrl } = job;
  stats.tasks += tasks.length;
  const t0 = performance.now();
  const before = Atomics.load(ctrl, FINISHED);
  if (!workersOnly) drainJob(job);
  const mine = Atomics.load(ctrl, FINISHED) - before;
  stats.mainTasks += mine;
  // how long to give the workers once the queue is empty: what one of our tasks took, with slack
  const patience = workersOnly ? WAIT_MS : Math.max(0.05, ((performance.now() - t0) / Math.max(1, mine)) * 1.5); // prettier-ignore
  let copy: Float64Array | null = null;
  const redone = new Uint8Array(tasks.length);
  // one deadline for all the workers' tasks: past it, whatever is unfinished is redone here
  const until = performance.now() + patience;
  for (;;) {
    const done = Atomics.load(ctrl, FINISHED);
    if (done >= tasks.length) break;
    let next = -1;
    for (let i = 0; i < tasks.length && next < 0; i++)
      if (redone[i] === 0 && Atomics.load(ctrl, FLAGS + i) === 0) next = i;
    if (next < 0) break;
    const left = until - performance.now();
    if (left > 0 && Atomics.load(ctrl, FAILED) === 0 && Atomics.wait(ctrl, FINISHED, done, left) !== 'timed-out') continue; // prettier-ignore
    if (Atomics.load(ctrl, FLAGS + next) === 1) continue;
    copy ??= new Float64Array(out.length);
    for (const t of tasks[next]!) runTask(t, copy);
    redone[next] = 1;
    stats.local++;
  }
  if (!copy) return out;
  // the redone tasks' results replace whatever a worker may still be writing
  const res = out.slice();
  for (let i = 0; i < tasks.length; i++) {
    if (redone[i] === 0) continue;
    for (const t of tasks[i]!) res.set(copy.subarray(t.out, t.out + taskSlots(t.specs)), t.out);
  }
  return res;
}
