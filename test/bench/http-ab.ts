/**
 * `npx tsx test/bench/http-ab.ts --a <built checkout> --b <built checkout> [--index debian]
 *  [--query debian.match,debian.count_term] [--rounds 3000] [--inproc]`: HTTP latency of two
 * builds side by side. Each build's `bin/quarry` serves its own copy of the latency bench's data
 * (`.bench/latency/<index>-<n>`, loaded by latency-bench.ts) and one keep-alive client per server
 * sends the same requests, alternating A and B request by request, so both see the same machine
 * load (the machine is shared; only such interleaved figures compare). `--inproc` also times each
 * build's dispatcher in this process, interleaved the same way, before the servers start;
 * `--no-http` skips the servers.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadLatencyWorkload } from './latency-workload.js';
import { httpClient, startServerProcess } from './server-process.js';

const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const here = resolve(import.meta.dirname, '../..');
const builds = [resolve(opt('a', here)), resolve(opt('b', here))];
const index = opt('index', 'debian');
const ids = opt('query', 'debian.match,debian.count_term').split(',');
const rounds = Number(opt('rounds', '3000'));
const WARM = 200;

const {
  dataPath: source,
  workload,
  params,
  ctx,
  queries,
} = await loadLatencyWorkload(here, index, ids);
type Req = { method: string; path: string; body: unknown };
const reqs: Req[][] = queries.map((q: { id: string }) =>
  params.makeParams(q, ctx, 500, workload.seed).map((p: unknown) => params.renderDsl(q, p)),
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
type Call = (m: string, p: string, b: unknown) => Promise<{ status: number }>;

/**
 * CPU time (ms) a process has run (/proc/<pid>/task/<tid>/schedstat): its main thread, or all its
 * threads (the GC's helpers, libuv's pool, workers).
 */
function cpuMs(pid: number, mainOnly = false): number {
  let ns = 0;
  for (const t of mainOnly ? [String(pid)] : readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1e6;
}

/**
 * Per query: each build's median latency and (`pids`) the CPU time its server spent per request,
 * the builds' calls alternating request by request.
 */
async function interleaved(
  calls: Call[],
  pids?: number[],
): Promise<{ ms: number[]; cpu: number[]; main: number[] }[]> {
  const out = [];
  for (let q = 0; q < queries.length; q++) {
    const times = calls.map(() => [] as number[]);
    let cpu0: number[] = [];
    let main0: number[] = [];
    for (let i = 0; i < rounds + WARM; i++) {
      if (i === WARM && pids) {
        cpu0 = pids.map((p) => cpuMs(p));
        main0 = pids.map((p) => cpuMs(p, true));
      }
      const r = reqs[q]![i % reqs[q]!.length]!;
      for (let b = 0; b < calls.length; b++) {
        const t = performance.now();
        const res = await calls[b]!(r.method, r.path, r.body);
        const dt = performance.now() - t;
        if (res.status !== 200) throw new Error(`${queries[q].id}: ${res.status}`);
        if (i >= WARM) times[b]!.push(dt);
      }
    }
    const cpu = pids ? pids.map((p, b) => (cpuMs(p) - cpu0[b]!) / rounds) : [];
    const main = pids ? pids.map((p, b) => (cpuMs(p, true) - main0[b]!) / rounds) : [];
    out.push({ ms: times.map(median), cpu, main });
  }
  return out;
}

/** `--no-http`: only the in-process figures. */
class SkipHttp extends Error {}

const copies = builds.map(() => mkdtempSync(join(tmpdir(), 'quarry-ab-')));
for (const c of copies) cpSync(source, c, { recursive: true });
const rows: string[] = [];
const f = (v: number) => v.toFixed(3);
try {
  if (args.includes('--inproc')) {
    const opened = [];
    const calls: Call[] = [];
    for (let b = 0; b < builds.length; b++) {
      const dist = (p: string) => pathToFileURL(join(builds[b]!, 'dist/src', p)).href;
      const n = await import(dist('node.js'));
      const { createDispatcher } = await import(dist('http/dispatcher.js'));
      const o = await n.openNode({ dataPath: copies[b] });
      opened.push(o);
      calls.push(createDispatcher(o.context));
    }
    const res = await interleaved(calls);
    for (const o of opened) await o.close();
    queries.forEach((q: { id: string }, i: number) => {
      const { ms } = res[i]!;
      rows.push(`| ${q.id} | in-process | ${f(ms[0]!)} | ${f(ms[1]!)} | ${f(ms[1]! - ms[0]!)} | | |`); // prettier-ignore
    });
  }
  const servers = [];
  for (let b = 0; !args.includes('--no-http') && b < builds.length; b++) servers.push(await startServerProcess(builds[b]!, copies[b]!)); // prettier-ignore
  try {
    if (servers.length === 0) throw new SkipHttp();
    const res = await interleaved(
      servers.map((s) => httpClient(s.port)),
      servers.map((s) => s.pid),
    );
    queries.forEach((q: { id: string }, i: number) => {
      const { ms, cpu, main } = res[i]!;
      rows.push(`| ${q.id} | HTTP | ${f(ms[0]!)} | ${f(ms[1]!)} | ${f(ms[1]! - ms[0]!)} | ${f(main[0]!)} / ${f(cpu[0]!)} | ${f(main[1]!)} / ${f(cpu[1]!)} |`); // prettier-ignore
    });
  } catch (e) {
    if (!(e instanceof SkipHttp)) throw e;
  } finally {
    for (const s of servers) await s.stop();
  }
} finally {
  for (const c of copies) rmSync(c, { recursive: true, force: true });
}
console.log(`A: ${builds[0]}\nB: ${builds[1]}\n\n| query | mode | A ms | B ms | B − A | A server CPU ms/req (main / all threads) | B server CPU ms/req (main / all) |\n|---|---|---|---|---|---|---|`); // prettier-ignore
console.log(rows.join('\n'));
