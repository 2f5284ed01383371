/**
 * `npx tsx test/bench/http-profile.ts [--index debian] [--query debian.match,debian.count_term]
 *  [--seconds 10] [--prof-dir <dir>] [--root <built checkout>]`: `bin/quarry` under `--cpu-prof`
 * on the latency bench's data (`.bench/latency/<index>-<n>`, loaded by latency-bench.ts), driven
 * by one keep-alive client looping over the workload's parameters of the given queries, so the
 * profile shows what a small request costs the server beyond its search.
 */
import { resolve } from 'node:path';
import { loadLatencyWorkload } from './latency-workload.js';
import { httpClient, startServerProcess } from './server-process.js';

const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const here = resolve(import.meta.dirname, '../..');
const root = resolve(opt('root', here));
const index = opt('index', 'debian');
const ids = opt('query', 'debian.match,debian.count_term').split(',');
const seconds = Number(opt('seconds', '10'));
const profDir = resolve(opt('prof-dir', '/tmp/quarry-prof'));

const { dataPath, workload, params, ctx, queries } = await loadLatencyWorkload(here, index, ids);
const bodies = queries.map((q: { id: string }) =>
  params.makeParams(q, ctx, 500, workload.seed).map((p: unknown) => params.renderDsl(q, p)),
);
const server = await startServerProcess(root, dataPath, {
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=100'],
});
const call = httpClient(server.port);
const t0 = performance.now();
let n = 0;
while (performance.now() - t0 < seconds * 1000) {
  for (let q = 0; q < queries.length; q++) {
    const r = bodies[q][n % bodies[q].length];
    const res = await call(r.method, r.path, r.body);
    if (res.status !== 200) throw new Error(res.body);
  }
  n++;
}
console.log(`${n} rounds of ${queries.length} requests in ${seconds} s: ${(((performance.now() - t0) / n / queries.length) * 1000).toFixed(1)} µs/request`); // prettier-ignore
await server.stop();
