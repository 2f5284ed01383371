/**
 * `npm run bench -- --scale 10m` (or `--scale 2m` for a shorter run): how Quarry's cost grows from
 * 1M to N logs documents on one node. Generates N logs documents with the shared, seeded generator
 * (its first million are the bench's usual 1M), streams them into one `bin/quarry` process over
 * HTTP `_bulk` (4 keep-alive connections, 5,000 docs per body, 0 replicas, default refresh), and
 * at every million records the ingest rate of that million, the server's RSS and the disk size.
 * At 1M and at N it runs the logs aggregations and count over HTTP with the harness's seeded
 * parameters, checked exactly against DuckDB (2 threads, in this process) on the same rows; then
 * it restarts the node and measures the time to a correct count and the RSS after restart.
 * Writes reports/scale-<stamp>.{md,json}.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'; // prettier-ignore
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { Agent, request } from 'node:http';
import { ensureLogs } from './harness.js';
import { httpClient, startServerProcess, type ServerProcess } from './server-process.js';
import { compareExact } from './peer-check.js';

export interface ScaleOptions {
  docs: number;
  runs: number;
}

export function scaleOptions(args: string[]): ScaleOptions {
  const i = args.indexOf('--scale');
  const v = (i >= 0 ? args[i + 1] : '10m') ?? '10m';
  const m = /^(\d+(?:\.\d+)?)([mk]?)$/i.exec(v);
  if (!m) throw new Error(`--scale takes a document count like 10m, 2m or 500k, not ${v}`);
  const mult = m[2]!.toLowerCase() === 'm' ? 1e6 : m[2]!.toLowerCase() === 'k' ? 1e3 : 1;
  const r = args.indexOf('--scale-runs');
  return { docs: Math.round(Number(m[1]) * mult), runs: r >= 0 ? Number(args[r + 1]) : 50 };
}

const QUERY_IDS = ['logs.count_term', 'logs.terms_avg', 'logs.terms_avg_all', 'logs.range_agg'];
const BATCH = 5000;
const CONCURRENCY = 4;

interface Workload {
  seed: number;
  indices: Record<string, { file: string; mappings: Record<string, string> }>;
  queries: Array<{ id: string; index: string; params: Record<string, string>; dsl: { method: string; path: string; body: unknown } }>; // prettier-ignore
}

interface Checkpoint {
  docs: number;
  docs_per_s: number;
  rss_mb: number;
  disk_mb: number;
}

interface QueryFigures {
  median_ms: number;
  p90_ms: number;
  n: number;
  checks: number;
  failures: number;
  first?: string;
  duckdb_median_ms?: number;
}

function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return n;
}

/** A harness copy whose logs file holds N documents (the generator is seeded: same first 1M). */
function ensureScaleData(root: string, docs: number): string {
  const base = ensureLogs(root);
  const dir = join(root, '.bench', `scale-${docs}`);
  const file = join(dir, 'data/out/logs.ndjson');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    cpSync(join(base, 'data'), join(dir, 'data'), {
      recursive: true,
      filter: (s) => !s.includes('/out'),
    });
    console.error(`[scale] generating ${docs} logs documents ...`);
    execFileSync(process.execPath, [join(dir, 'data/gen-logs.mjs'), String(docs)], { stdio: 'inherit' }); // prettier-ignore
  }
  return file;
}

function post(agent: Agent, port: number, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/_bulk', agent, headers: { 'content-type': 'application/x-ndjson', 'content-length': body.length } }, // prettier-ignore
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200)
            reject(new Error(`bulk ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve(text);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Streams the file into the node, `CONCURRENCY` bodies in flight; calls `pause(docs)` at every
 * million with nothing in flight (the checkpoints and the 1M queries run there).
 */
export async function ingest(
  file: string,
  port: number,
  total: number,
  pause: (docs: number) => Promise<void>,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const action = JSON.stringify({ index: { _index: 'logs', _type: '_doc' } }) + '\n';
  const inFlight = new Set<Promise<void>>();
  let errors = 0;
  let firstError: string | undefined;
  const send = (body: Buffer) => {
    const p: Promise<void> = post(agent, port, body)
      .then((text) => {
        if (text.includes('"errors":true')) {
          errors++;
          firstError ??= text.slice(0, 300);
        }
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  let parts: string[] = [];
  let sent = 0;
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    parts.push(action, line, '\n');
    if (parts.length / 3 === BATCH) {
      send(Buffer.from(parts.join('')));
      sent += BATCH;
      parts = [];
      if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      if (sent % 1_000_000 === 0 || sent === total) {
        await Promise.all(inFlight);
        await pause(sent);
      }
      if (sent >= total) break;
    }
  }
  if (parts.length) {
    send(Buffer.from(parts.join('')));
    sent += parts.length / 3;
    await Promise.all(inFlight);
    await pause(sent);
  }
  rl.close();
  agent.destroy();
  if (errors) throw new Error(`${errors} bulk bodies had item errors: ${firstError}`);
}

/**
 * The harness's workload, its parameter module, and seeded parameters (`runs` + 5 per query) for
 * the logs queries `ids`, drawn from the first 200k documents of `file` (the same at 1M and at N).
 */
export async function logsQuerySetup(harness: string, file: string, ids: string[], runs: number) {
  const workload = JSON.parse(execFileSync('cat', [join(harness, 'workload.json')], { encoding: 'utf8', maxBuffer: 1 << 24 })) as Workload; // prettier-ignore
  const params = await import(pathToFileURL(join(harness, 'lib/params.mjs')).href);
  const sample: unknown[] = [];
  const rl = createInterface({ input: createReadStream(file) });
  for await (const l of rl) {
    if (l) sample.push(JSON.parse(l));
    if (sample.length >= 200_000) break;
  }
  rl.close();
  const ctx = params.buildContext('logs', sample);
  const queries = workload.queries.filter((q) => ids.includes(q.id));
  const ps = Object.fromEntries(queries.map((q) => [q.id, params.makeParams(q, ctx, runs + 5, workload.seed) as Record<string, unknown>[]])); // prettier-ignore
  return { workload, params, queries, ps };
}

export async function runScaleBench(root: string, o: ScaleOptions): Promise<string> {
  const harness = ensureLogs(root);
  const file = o.docs <= 1_000_000 ? join(harness, 'data/out/logs.ndjson') : ensureScaleData(root, o.docs); // prettier-ignore
  const { workload, params, queries, ps } = await logsQuerySetup(harness, file, QUERY_IDS, o.runs);

  const dataPath = mkdtempSync(join(tmpdir(), 'quarry-scale-'));
  let server: ServerProcess = await startServerProcess(root, dataPath);
  let call = httpClient(server.port);
  const checkpoints: Checkpoint[] = [];
  const figures: Record<number, Record<string, QueryFigures>> = {};
  const duck = await openDuck(harness, workload);
  const out: Record<string, unknown> = { docs: o.docs, runs: o.runs };
  try {
    const r = await call('PUT', '/logs', {
      settings: {
        number_of_shards: 1,
        number_of_replicas: 0,
        'index.requests.cache.enable': false,
      },
      mappings: { _doc: { properties: Object.fromEntries(Object.entries(workload.indices.logs!.mappings).map(([f, t]) => [f, { type: t }])) } }, // prettier-ignore
    });
    if (r.status !== 200) throw new Error(`create index: ${r.body}`);
    let last = performance.now();
    let lastDocs = 0;
    let ingestMs = 0;
    const measure = async (docs: number, label: string) => {
      await call('POST', '/logs/_refresh');
      const cnt = JSON.parse((await call('GET', '/logs/_count')).body).count as number;
      if (cnt !== docs) throw new Error(`count ${cnt} after ${docs} docs`);
      figures[docs] = await runQueries(
        call,
        queries,
        ps,
        o.runs,
        await duck.load(label, docs),
        params.renderDsl,
      );
      console.error(`[scale] queries at ${docs}: ${JSON.stringify(Object.fromEntries(Object.entries(figures[docs]!).map(([k, v]) => [k, +v.median_ms.toFixed(3)])))}`); // prettier-ignore
    };
    await ingest(file, server.port, o.docs, async (docs) => {
      const now = performance.now();
      ingestMs += now - last;
      checkpoints.push({
        docs,
        docs_per_s: (docs - lastDocs) / ((now - last) / 1000),
        rss_mb: server.rssMb(),
        disk_mb: du(dataPath) / 2 ** 20,
      });
      console.error(`[scale] ${docs} docs: ${Math.round(checkpoints.at(-1)!.docs_per_s)} docs/s, RSS ${Math.round(server.rssMb())} MB`); // prettier-ignore
      if (docs === 1_000_000 || docs === o.docs) await measure(docs, docs === o.docs ? 'n' : '1m');
      lastDocs = docs;
      last = performance.now();
    });
    out.ingest_docs_per_s = o.docs / (ingestMs / 1000);
    out.rss_after_ingest_mb = server.rssMb();
    out.disk_mb = du(dataPath) / 2 ** 20;
    // Restart: stop, start, time to a node that answers the right count.
    await server.stop();
    const t0 = performance.now();
    server = await startServerProcess(root, dataPath);
    call = httpClient(server.port);
    for (;;) {
      const c = await call('GET', '/logs/_count');
      if (c.status === 200 && JSON.parse(c.body).count === o.docs) break;
      if (performance.now() - t0 > 600_000) throw new Error(`restart: no correct count: ${c.body}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    out.restart_ms = performance.now() - t0;
    out.rss_after_restart_mb = server.rssMb();
    const after = await runQueries(call, queries, ps, Math.min(o.runs, 20), null, params.renderDsl);
    out.rss_after_restart_queries_mb = server.rssMb();
    out.after_restart = after;
  } finally {
    await server.stop();
    await duck.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
  out.checkpoints = checkpoints;
  out.queries = figures;
  return report(out, checkpoints, figures, o);
}

type Call = ReturnType<typeof httpClient>;
type DuckRun = ((id: string, p: Record<string, unknown>) => Promise<Record<string, unknown>[]>) | null; // prettier-ignore

async function runQueries(
  call: Call,
  queries: Workload['queries'],
  ps: Record<string, Record<string, unknown>[]>,
  runs: number,
  duck: DuckRun,
  render: (q: Workload['queries'][number], p: Record<string, unknown>) => unknown,
): Promise<Record<string, QueryFigures>> {
  const res: Record<string, QueryFigures> = {};
  for (const q of queries) {
    const times: number[] = [];
    const duckTimes: number[] = [];
    let checks = 0;
    let failures = 0;
    let first: string | undefined;
    const list = ps[q.id]!;
    for (let i = 0; i < Math.min(list.length, runs + 5); i++) {
      const d = render(q, list[i]!) as { method: string; path: string; body: unknown };
      const t = performance.now();
      const r = await call(d.method, d.path, d.body);
      const dt = performance.now() - t;
      if (r.status !== 200) throw new Error(`${q.id}: ${r.status} ${r.body.slice(0, 300)}`);
      if (i < 5) continue;
      times.push(dt);
      if (duck && checks < 10) {
        const td = performance.now();
        const rows = await duck(q.id, list[i]!);
        duckTimes.push(performance.now() - td);
        checks++;
        const problem = compareExact(q.id, rows, JSON.parse(r.body));
        if (problem) {
          failures++;
          first ??= problem;
        }
      }
    }
    // DuckDB's own median over the same parameters (beyond the checked ones).
    if (duck) for (let i = 5 + duckTimes.length; i < Math.min(list.length, runs + 5); i++) {
      const td = performance.now();
      await duck(q.id, list[i]!);
      duckTimes.push(performance.now() - td);
    } // prettier-ignore
    times.sort((a, b) => a - b);
    duckTimes.sort((a, b) => a - b);
    const at = (a: number[], f: number) => a[Math.min(a.length - 1, Math.floor(f * a.length))]!;
    res[q.id] = {
      median_ms: at(times, 0.5),
      p90_ms: at(times, 0.9),
      n: times.length,
      checks,
      failures,
      first,
      ...(duckTimes.length ? { duckdb_median_ms: at(duckTimes, 0.5) } : {}),
    };
  }
  return res;
}

/** DuckDB (2 threads) over the first `docs` rows of the harness's or the scale file. */
async function openDuck(harness: string, workload: Workload) {
  const mod = join(harness, 'node_modules/@duckdb/node-api');
  if (!existsSync(mod)) return { load: async () => null as DuckRun, close: async () => undefined };
  const duck = (await import(pathToFileURL(join(harness, 'peers/duckdb.mjs')).href)) as {
    load(i: string, d: unknown[], o: unknown): Promise<{ con: { run(s: string): Promise<unknown> } }>; // prettier-ignore
    queries: Record<string, (h: unknown, p: unknown, q: unknown) => Promise<Record<string, unknown>[]>>; // prettier-ignore
    close(h: unknown): Promise<void>;
  };
  let handle: unknown = null;
  return {
    async load(_label: string, docs: number): Promise<DuckRun> {
      if (handle) await duck.close(handle);
      const scaleFile = docs > 1_000_000 ? join(process.cwd(), '.bench', `scale-${docs}`) : harness;
      const h = await duck.load('logs', [], { workload, root: scaleFile, threads: 2 });
      handle = h;
      return (id, p) =>
        duck.queries[id]!(
          h,
          p,
          workload.queries.find((q) => q.id === id),
        );
    },
    async close() {
      if (handle) await duck.close(handle);
    },
  };
}

const fmt = (v: number | undefined, d = 2) =>
  v === undefined || Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(d);

function report(
  out: Record<string, unknown>,
  cps: Checkpoint[],
  figs: Record<number, Record<string, QueryFigures>>,
  o: ScaleOptions,
): string {
  // prettier-ignore
  const L: string[] = [];
  L.push(`# Quarry scale bench ${new Date().toISOString()}: logs, 1M to ${o.docs / 1e6}M documents, one node`, ''); // prettier-ignore
  L.push(`machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`, ''); // prettier-ignore
  L.push('| docs | docs/s (this million) | RSS MB | disk MB |', '|---|---|---|---|');
  for (const c of cps) L.push(`| ${c.docs} | ${fmt(c.docs_per_s, 0)} | ${fmt(c.rss_mb, 0)} | ${fmt(c.disk_mb, 0)} |`); // prettier-ignore
  const first = cps[0];
  const lastCp = cps.at(-1);
  L.push(
    '',
    `ingest: ${fmt(out.ingest_docs_per_s as number, 0)} docs/s overall; rate at ${o.docs / 1e6}M / rate at 1M = ${first && lastCp ? (lastCp.docs_per_s / first.docs_per_s).toFixed(2) : '—'} (target ≥ 0.80)`, // prettier-ignore
    `RSS after ingest ${fmt(out.rss_after_ingest_mb as number, 0)} MB (target ≤ 2048); after restart ${fmt(out.rss_after_restart_mb as number, 0)} MB, after queries ${fmt(out.rss_after_restart_queries_mb as number, 0)} MB (target ≤ 1024)`, // prettier-ignore
    `disk ${fmt(out.disk_mb as number, 0)} MB; restart to a correct count ${fmt(out.restart_ms as number, 0)} ms (target ≤ 15,000)`, // prettier-ignore
    '',
    `| query (HTTP) | 1M median ms | ${o.docs / 1e6}M median ms | growth | DuckDB 2t 1M | DuckDB 2t ${o.docs / 1e6}M | vs DuckDB at ${o.docs / 1e6}M | checks vs DuckDB |`, // prettier-ignore
    '|---|---|---|---|---|---|---|---|',
  );
  const a = figs[1_000_000] ?? {};
  const b = figs[o.docs] ?? {};
  for (const id of QUERY_IDS) {
    const x = a[id];
    const y = b[id];
    const checks = [x, y].filter(Boolean).map((f) => `${f!.checks - f!.failures}/${f!.checks}${f!.first ? ` (${f!.first.slice(0, 50)})` : ''}`).join(', '); // prettier-ignore
    L.push(`| ${id} | ${fmt(x?.median_ms, 3)} | ${fmt(y?.median_ms, 3)} | ${x && y ? (y.median_ms / x.median_ms).toFixed(1) + '×' : '—'} | ${fmt(x?.duckdb_median_ms, 3)} | ${fmt(y?.duckdb_median_ms, 3)} | ${y?.duckdb_median_ms ? (y.duckdb_median_ms / y.median_ms).toFixed(1) + '×' : '—'} | ${checks} |`); // prettier-ignore
  }
  const md = L.join('\n') + '\n';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const root = process.cwd();
  mkdirSync(join(root, 'reports'), { recursive: true });
  writeFileSync(join(root, `reports/scale-${stamp}.json`), JSON.stringify(out, null, 2));
  writeFileSync(join(root, `reports/scale-${stamp}.md`), md);
  return md;
}
