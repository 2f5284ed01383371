/**
 * How much the machine scales right now: the wall time of a fixed CPU-bound job (a JS loop, no
 * I/O) run alone and as two processes at once. 2 × alone / together is the speed-up two
 * CPU-bound node processes can get at best while other workers share the cores: the honest
 * ceiling for the 2-node ingest ratio of the same run.
 */
import { spawn } from 'node:child_process';

const JOB = `let x = 0; for (let i = 0; i < 1.5e8; i++) x = (x + i * 7) % 1000003; if (x < 0) console.log(x);`;

function runJobs(n: number): Promise<number> {
  const t0 = performance.now();
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve, reject) => {
          const c = spawn(process.execPath, ['-e', JOB], { stdio: 'ignore' });
          c.once('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`job exit ${code}`)),
          );
        }),
    ),
  ).then(() => performance.now() - t0);
}

export interface Ceiling {
  readonly aloneMs: number;
  readonly twoMs: number;
  /** 2 × alone / together: 2 on two free cores, 1 when only one core is really there. */
  readonly speedup: number;
}

export async function machineCeiling(): Promise<Ceiling> {
  const aloneMs = await runJobs(1);
  const twoMs = await runJobs(2);
  return { aloneMs, twoMs, speedup: (2 * aloneMs) / twoMs };
}
