/**
 * A search worker thread: takes tasks of the jobs it is sent from their shared queues
 * (search-pool.ts drainJob) and runs them over shared segment arrays, waking the main thread as
 * each finishes. Between jobs it sleeps on its bell (Atomics.wait), which the main thread rings
 * after posting a job, and reads the job synchronously off its port.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { warmKernels } from './agg-kernels.js';
import { drainJob, type SearchJob } from './search-pool.js';

const { ready, bell, jobs } = workerData as { ready: Int32Array; bell: Int32Array; jobs: MessagePort }; // prettier-ignore

warmKernels();
Atomics.store(ready, 0, 1);
for (;;) {
  const rung = Atomics.load(bell, 0);
  const m = receiveMessageOnPort(jobs);
  if (m) {
    try {
      drainJob(m.message as SearchJob);
    } catch {
      // drainJob flagged the failure: the main thread reruns what is unfinished
    }
    continue;
  }
  // a bounded sleep, so that termination is never held up by a wait
  Atomics.wait(bell, 0, rung, 1000);
}
