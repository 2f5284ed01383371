/**
 * A search worker thread: takes tasks of the jobs it is sent from their shared queues
 * (search-pool.ts drainJob) and runs them over shared segment arrays, waking the main thread as
 * each finishes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { drainJob, type SearchJob } from './search-pool.js';

const { ready } = workerData as { ready: Int32Array };

parentPort!.on('message', (job: SearchJob) => {
  try {
    drainJob(job);
  } catch {
    // drainJob flagged the failure: the main thread reruns what is unfinished
  }
});

Atomics.store(ready, 0, 1);
