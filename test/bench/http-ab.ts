/**
 * `npx tsx test/bench/http-ab.ts --a <built checkout> --b <built checkout> [--index debian]
 *  [--query debian.match,debian.count_term] [--rounds 3000] [--inproc]`: HTTP latency of two
 * builds side by side. Each build's `bin/quarry` serves its own copy of the latency bench's data
 * (`.bench/latency/<index>-<n>`, loaded by latency-bench.ts) and one keep-alive client per server
 * sends the same requests, alternating A and B request by request, so both see the same machine
 * load (the machine is shared; only such interleaved figures compare). `--inproc` also times each
 * build's dispatcher in this process, interleaved the same way, before the servers start: back to
 * back, and after 1 ms idle (as a server waits between requests, its caches cooling). `--floor`
 * adds a bare `node:http` server in its own process to the interleaving, answering each query's
 * requests with the bytes B answered its first one: the machine's round trip for a response of
 * that size, what HTTP − in-process cannot go below. `--no-http` skips the servers.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  idleMs = 0,
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
        if (idleMs > 0) await new Promise((r) => setTimeout(r, idleMs));
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

/**
 * A bare `node:http` server in its own process that reads each request's body and answers with
 * the bytes `call` got for the first request of its method and path (status 200, JSON).
 */
async function bareServer(call: Call): Promise<{ port: number; pid: number; stop(): void }> {
  const answers: Record<string, string> = {};
  for (const rs of reqs) {
    const r = rs[0]!;
    const res = (await call(r.method, r.path, r.body)) as { status: number; body: string };
    answers[`${r.method} ${r.path.split('?')[0]}`] = res.body;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'quarry-ab-bare-')), 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const src = `const a=JSON.parse(require('fs').readFileSync(${JSON.stringify(file)},'utf8'));const s=require('http').createServer((q,r)=>{q.resume();q.on('end',()=>{const b=a[q.method+' '+q.url.split('?')[0]]??'{}';r.writeHead(200,{'content-type':'application/json; charset=UTF-8','content-length':Buffer.byteLength(b)});r.end(b)})});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((res) =>
    child.stdout!.once('data', (d: Buffer) => res(Number(d.toString().trim()))),
  );
  return {
    port,
    pid: child.pid!,
    stop: () => {
      child.kill();
      rmSync(join(file, '..'), { recursive: true, force: true });
    },
  };
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
    const idle = await interleaved(calls, undefined, 1);
    for (const o of opened) await o.close();
    queries.forEach((q: { id: string }, i: number) => {
      for (const [mode, { ms }] of [['in-process', res[i]!], ['in-process after 1 ms idle', idle[i]!]] as const) // prettier-ignore
        rows.push(`| ${q.id} | ${mode} | ${f(ms[0]!)} | ${f(ms[1]!)} | ${f(ms[1]! - ms[0]!)} | | | |`); // prettier-ignore
    });
  }
  const servers = [];
  const http = !args.includes('--no-http');
  for (let b = 0; http && b < builds.length; b++) servers.push(await startServerProcess(builds[b]!, copies[b]!)); // prettier-ignore
  const calls = servers.map((s) => httpClient(s.port));
  const pids = servers.map((s) => s.pid);
  let bare: Awaited<ReturnType<typeof bareServer>> | null = null;
  try {
    if (!http) throw new SkipHttp();
    if (args.includes('--floor')) {
      bare = await bareServer(calls[1]!);
      calls.push(httpClient(bare.port));
      pids.push(bare.pid);
    }
    const res = await interleaved(calls, pids);
    queries.forEach((q: { id: string }, i: number) => {
      const { ms, cpu, main } = res[i]!;
      const floor = bare ? `${f(ms[2]!)} (${f(main[2]!)} CPU)` : '';
      rows.push(`| ${q.id} | HTTP | ${f(ms[0]!)} | ${f(ms[1]!)} | ${f(ms[1]! - ms[0]!)} | ${f(main[0]!)} / ${f(cpu[0]!)} | ${f(main[1]!)} / ${f(cpu[1]!)} | ${floor} |`); // prettier-ignore
    });
  } catch (e) {
    if (!(e instanceof SkipHttp)) throw e;
  } finally {
    for (const s of servers) await s.stop();
    bare?.stop();
  }
} finally {
  for (const c of copies) rmSync(c, { recursive: true, force: true });
}
console.log(`A: ${builds[0]}\nB: ${builds[1]}\n\n| query | mode | A ms | B ms | B − A | A server CPU ms/req (main / all threads) | B server CPU ms/req (main / all) | bare node:http, B's bytes ms (server CPU) |\n|---|---|---|---|---|---|---|---|`); // prettier-ignore
console.log(rows.join('\n'));
