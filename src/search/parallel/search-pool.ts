/**
 * The search worker pool: worker threads that run slices of a large shard's aggregation
 * collection (agg-kernels.ts) while the main thread runs its own slice. Sized by the node setting
 * `search.workers` (default: the machine's parallelism less one, at least one; 0: off); only
 * shards of at least `search.parallel_min_docs` documents (default 200,000) are split.
 *
 * A search stays synchronous: the main thread posts the tasks, runs its slice, then sleeps on a
 * shared flag (Atomics.wait) until the worker has written its results into shared memory. The
 * segment arrays the tasks read are shared (shared-arrays.ts), never copied per request. A worker
 * that is not up yet, has died or does not answer in time leaves its tasks to the main thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { runTask, type KernelTask } from './agg-kernels.js';

export const SEARCH_WORKERS_SETTING = 'search.workers';
export const PARALLEL_MIN_DOCS_SETTING = 'search.parallel_min_docs';
const DEFAULT_MIN_DOCS = 200_000;
/** How long the main thread waits for a worker's slice before running it itself. */
const WAIT_MS = 10_000;

export interface SearchJob {
  readonly tasks: readonly KernelTask[];
  readonly out: Float64Array;
  /** [0]: 0 while running, 1 done, 2 failed. */
  readonly done: Int32Array;
}

interface PoolWorker {
  readonly worker: Worker;
  /** Set to 1 by the worker once it listens. */
  readonly ready: Int32Array;
  dead: boolean;
}

let configured = 0;
let minDocs = DEFAULT_MIN_DOCS;
let pool: PoolWorker[] = [];
/** Jobs answered by a worker, and jobs this thread ran itself (no worker, failure, timeout). */
const stats = { byWorker: 0, local: 0 };

export function searchJobStats(): { readonly byWorker: number; readonly local: number } {
  return { ...stats };
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

function newWorker(workerData: unknown): Worker {
  const self = import.meta.url;
  const opts = { name: 'quarry-search', workerData };
  if (!self.endsWith('.ts')) return new Worker(new URL('./search-worker.js', self), opts);
  const url = JSON.stringify(new URL('./search-worker.ts', self).href);
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${url}); })`;
  return new Worker(boot, { ...opts, eval: true });
}

function startWorker(): PoolWorker {
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const worker = newWorker({ ready });
  const w: PoolWorker = { worker, ready, dead: false };
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

/** Posts one job per ready worker (in pool order); jobs beyond the ready workers are not sent. */
export function postSearchJobs(jobs: readonly SearchJob[]): boolean[] {
  const sent: boolean[] = [];
  let i = 0;
  for (const w of pool) {
    if (i === jobs.length) break;
    if (w.dead || Atomics.load(w.ready, 0) !== 1) continue;
    w.worker.postMessage(jobs[i]);
    sent.push(true);
    i++;
  }
  while (sent.length < jobs.length) sent.push(false);
  return sent;
}

/**
 * Waits for a posted job; when it failed or took too long, runs its tasks here into a fresh
 * output (the worker may still write into the old one). Returns the output to read.
 */
export function awaitSearchJob(job: SearchJob): Float64Array {
  const r = Atomics.wait(job.done, 0, 0, WAIT_MS);
  if (r !== 'timed-out' && Atomics.load(job.done, 0) === 1) {
    stats.byWorker++;
    return job.out;
  }
  return runLocally(job);
}

/** Runs a job's tasks on this thread into a fresh output. */
export function runLocally(job: SearchJob): Float64Array {
  stats.local++;
  const out = new Float64Array(job.out.length);
  for (const t of job.tasks) runTask(t, out);
  return out;
}
