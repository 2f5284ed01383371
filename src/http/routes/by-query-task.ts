/**
 * A bulk-by-scroll task (ES BulkByScrollTask): either a worker, or the leader of sliced
 * sub-tasks (ES LeaderBulkByScrollTaskState, BulkByScrollParallelizationHelper) that runs one
 * worker per `_id` slice, splits the throttle between them and merges their responses. Also
 * rethrottling (ES TransportRethrottleAction) for both.
 */
import { toEsError, type EsError } from '../../common/errors.js';
import {
  mergeResults,
  mergeSliceStatuses,
  statusFields,
  type ByQueryResult,
  type ByQueryStatus,
} from './by-query-status.js';
import { runWorker, WorkerState, type ByQueryJob } from './by-query-worker.js';
import type { NodeContext } from '../../node-context.js';
import type { Task, TaskManager } from './tasks.js';

/** ES BulkByScrollParallelizationHelper.AUTO_SLICE_CEILING. */
const AUTO_SLICE_CEILING = 20;

/** `slices=auto`: the fewest shards of any target index, at most 20 (at least 1). */
export function autoSlices(job: ByQueryJob): number {
  if (job.targets.length === 0) return 1;
  return Math.min(AUTO_SLICE_CEILING, ...job.targets.map((i) => i.numberOfShards));
}

interface SliceOutcome {
  result?: ByQueryResult;
  error?: EsError;
}

/** The state a rethrottle request acts on. */
export class BulkByScrollTask {
  worker: WorkerState | null = null;
  /** Leader of sliced sub-tasks: each slice's outcome once finished. */
  slices: Array<SliceOutcome | null> | null = null;
  /** Running slice workers (the leader rethrottles these). */
  readonly sliceWorkers = new Map<number, WorkerState>();
  /** Why the task was cancelled, null while it is not. */
  cancelled: string | null = null;

  /** ES BulkByScrollTask.onCancelled: the worker, or every running slice, stops. */
  cancel(reason: string): void {
    this.cancelled ??= reason;
    this.worker?.cancel(reason);
    for (const w of this.sliceWorkers.values()) w.cancel(reason);
  }

  status(): ByQueryStatus {
    if (this.worker) return this.worker.status();
    return mergeSliceStatuses(
      (this.slices ?? []).map((s) => s?.result?.status ?? s?.error ?? null),
      this.cancelled,
    );
  }

  /** ES TransportRethrottleAction.rethrottle: a leader divides the rate among running slices. */
  rethrottle(requestsPerSecond: number): void {
    if (this.worker) {
      this.worker.rethrottle(requestsPerSecond);
      return;
    }
    const running = [...this.sliceWorkers.values()];
    for (const w of running) w.rethrottle(requestsPerSecond / running.length);
  }

  /** The status a rethrottle reports: finished slices' results, running slices' live counters. */
  statusAfterRethrottle(): ByQueryStatus {
    if (this.worker) return this.worker.status();
    return mergeSliceStatuses(
      (this.slices ?? []).map(
        (s, i) => s?.result?.status ?? s?.error ?? this.sliceWorkers.get(i)?.status() ?? null,
      ),
      this.cancelled,
    );
  }
}

/** Every counter of a task status (GET _tasks and stored results use ES's default params). */
export const FULL_STATUS = { includeCreated: true, includeUpdated: true };

export interface StartedByQuery {
  task: Task;
  /** The merged result; rejects with the failure that ended the task. */
  done: Promise<ByQueryResult>;
}

export interface ByQueryStart {
  action: string;
  description: string;
  job: ByQueryJob;
  /** A count (1: not sliced) or 'auto' (ES AbstractBulkByScrollRequest.slices). */
  slices: number | 'auto';
  /** The body's `slice`: this request is itself one slice (a worker with that slice id). */
  manualSlice: { id: number; max: number } | null;
  /** Set when the request failed before its scroll could start (the task fails with it). */
  failure: EsError | null;
}

/**
 * Registers the task and starts it on the next tick, so the HTTP response with the task id goes
 * out first (ES BulkByScrollParallelizationHelper.startSlicedAction).
 */
export function startByQuery(
  node: NodeContext,
  tasks: TaskManager,
  start: ByQueryStart,
): StartedByQuery {
  const { action, description, job, manualSlice } = start;
  const bbs = new BulkByScrollTask();
  const task = tasks.register(action, {
    description,
    payload: bbs,
    status: () => statusFields(bbs.status(), FULL_STATUS),
    cancel: (reason) => bbs.cancel(reason),
  });
  const n = start.slices === 'auto' ? autoSlices(job) : start.slices;
  if (n > 1) bbs.slices = Array.from({ length: n }, () => null);
  else bbs.worker = new WorkerState(manualSlice?.id ?? null, job.requestsPerSecond);
  const done = (async () => {
    await new Promise((r) => setImmediate(r));
    if (start.failure) throw start.failure;
    if (bbs.worker) return runWorker({ node, slice: manualSlice }, job, bbs.worker);
    return runSlices(node, tasks, task, bbs, action, description, job, n);
  })();
  return { task, done };
}

/** ES sendSubRequests: one child task per slice, size and throttle split between them. */
async function runSlices(
  node: NodeContext,
  tasks: TaskManager,
  parent: Task,
  bbs: BulkByScrollTask,
  action: string,
  description: string,
  job: ByQueryJob,
  n: number,
): Promise<ByQueryResult> {
  const sliceJob: ByQueryJob = {
    ...job,
    requestsPerSecond: job.requestsPerSecond / n,
    size: job.size === -1 ? -1 : Math.floor(job.size / n),
  };
  const runs = Array.from({ length: n }, async (_, i) => {
    const worker = new WorkerState(i, sliceJob.requestsPerSecond);
    const child = new BulkByScrollTask();
    child.worker = worker;
    const t = tasks.register(action, {
      description,
      parent,
      payload: child,
      status: () => statusFields(worker.status(), FULL_STATUS),
      cancel: (reason) => worker.cancel(reason),
    });
    bbs.sliceWorkers.set(i, worker);
    // a slice started after its leader was cancelled stops at once
    if (bbs.cancelled !== null) worker.cancel(bbs.cancelled);
    try {
      const result = await runWorker({ node, slice: { id: i, max: n } }, sliceJob, worker);
      bbs.slices![i] = { result };
    } catch (e) {
      bbs.slices![i] = { error: toEsError(e) };
    } finally {
      bbs.sliceWorkers.delete(i);
      tasks.unregister(t);
    }
  });
  await Promise.all(runs);
  // ES LeaderBulkByScrollTaskState: the first failed slice fails the whole request.
  const failed = bbs.slices!.find((s) => s?.error);
  if (failed?.error) throw failed.error;
  return mergeResults(
    bbs.slices!.map((s) => s!.result!),
    bbs.cancelled,
  );
}
