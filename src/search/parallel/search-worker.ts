/**
 * A search worker thread: runs the aggregation tasks of a job (agg-kernels.ts) over shared
 * segment arrays, writes the results into the job's shared output and wakes the waiting main
 * thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runTask } from './agg-kernels.js';
import type { SearchJob } from './search-pool.js';

const { ready } = workerData as { ready: Int32Array };

parentPort!.on('message', (job: SearchJob) => {
  let state = 1;
  try {
    for (const t of job.tasks) runTask(t, job.out);
  } catch {
    state = 2;
  }
  Atomics.store(job.done, 0, state);
  Atomics.notify(job.done, 0);
});

Atomics.store(ready, 0, 1);
