/**
 * `npm run bench -- --ingest`: bulk ingest over HTTP into one `bin/quarry` process (issue 17),
 * logs then debian, with `--ingest-clients` concurrent keep-alive connections (4), `_bulk` bodies
 * of `--ingest-batch` documents (5000, the workload's), the first `--ingest-docs` documents of
 * each (all). The figure is durable docs/s: every `_bulk` is acknowledged after its LMDB commit,
 * and the load ends with a `_refresh` and a count check. `--ingest-prof DIR` runs the node under
 * `--cpu-prof` (profiles land in DIR); `--ingest-E key=value` goes to the node as `-E`;
 * `--ingest-node FLAG` goes to its `node` (a V8 flag such as `--max-semi-space-size=64`);
 * `--ingest-root DIR` runs DIR's `bin/quarry` (a baseline build) instead of this checkout's.
 * Writes reports/bench-ingest-<stamp>.json and prints the table.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkBodies, loadBulk } from './bulk-load.js';
import { ensureDebian, ensureLogs } from './harness.js';
import { cpuSeconds } from './proc-stats.js';
import { httpClient, startServerProcess } from './server-process.js';

export interface IngestBenchOptions {
  readonly docs: number;
  readonly batch: number;
  readonly clients: number;
  readonly indices: readonly string[];
  readonly prof: string | null;
  readonly settings: readonly string[];
  readonly nodeFlags: readonly string[];
  /** Another checkout's `bin/quarry` to run (a baseline build), or null for this one. */
  readonly serverRoot: string | null;
}

export function ingestOptions(args: readonly string[]): IngestBenchOptions {
  const opt = (n: string, d: string) => {
    const i = args.indexOf(`--${n}`);
    return i >= 0 ? args[i + 1]! : d;
  };
  const settings: string[] = [];
  const nodeFlags: string[] = [];
  args.forEach((a, i) => {
    if (a === '--ingest-E') settings.push('-E', args[i + 1]!);
    if (a === '--ingest-node') nodeFlags.push(args[i + 1]!);
  });
  return {
    docs: Number(opt('ingest-docs', '0')),
    batch: Number(opt('ingest-batch', '5000')),
    clients: Number(opt('ingest-clients', '4')),
    indices: opt('ingest-indices', 'logs,debian').split(','),
    prof: args.includes('--ingest-prof') ? opt('ingest-prof', 'reports/prof') : null,
    settings,
    nodeFlags,
    serverRoot: args.includes('--ingest-root') ? opt('ingest-root', '') : null,
  };
}

const MAPPINGS: Record<string, Record<string, string>> = {
  logs: { '@timestamp': 'date', clientip: 'ip', request: 'text', status: 'integer', size: 'long', country: 'keyword' }, // prettier-ignore
  debian: { name: 'keyword', version: 'keyword', maintainer: 'keyword', section: 'keyword', priority: 'keyword', installed_size: 'long', description: 'text' }, // prettier-ignore
};

export interface IngestFigure {
  readonly index: string;
  readonly docs: number;
  readonly ms: number;
  readonly docsPerS: number;
  readonly serverCpuUsPerDoc: number;
  /** The main thread's share: what bounds docs/s when the other threads have cores of their own. */
  readonly mainThreadCpuUsPerDoc: number;
  readonly medianMs: number;
  readonly problems: readonly string[];
}

export async function runIngestBench(root: string, o: IngestBenchOptions): Promise<IngestFigure[]> {
  const dataPath = mkdtempSync(join(tmpdir(), 'quarry-ingest-bench-'));
  if (o.prof) mkdirSync(o.prof, { recursive: true });
  const server = await startServerProcess(o.serverRoot ?? root, dataPath, {
    nodeArgs: [...o.nodeFlags, ...(o.prof ? ['--cpu-prof', '--cpu-prof-dir', o.prof] : [])],
    args: o.settings,
  });
  const call = httpClient(server.port);
  const out: IngestFigure[] = [];
  try {
    for (const index of o.indices) {
      const harness = index === 'logs' ? ensureLogs(root) : ensureDebian(root);
      const text = readFileSync(join(harness, `data/out/${index}.ndjson`), 'utf8');
      let lines = text.split('\n').filter((l) => l.length > 0);
      if (o.docs > 0) lines = lines.slice(0, o.docs);
      const properties = Object.fromEntries(
        Object.entries(MAPPINGS[index]!).map(([f, t]) => [f, { type: t }]),
      );
      const settings = { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '1s' };
      const made = await call('PUT', `/${index}`, { settings, mappings: { _doc: { properties } } });
      if (made.status !== 200) throw new Error(`PUT /${index}: ${made.body}`);
      const bodies = bulkBodies(lines, index, o.batch);
      const cpu0 = cpuSeconds(server.pid);
      const main0 = cpuSeconds(server.pid, server.pid);
      const t0 = performance.now();
      const r = await loadBulk([`http://127.0.0.1:${server.port}`], bodies, o.clients, 1);
      await call('POST', `/${index}/_refresh`);
      const ms = performance.now() - t0;
      const cpu = cpuSeconds(server.pid) - cpu0;
      const mainCpu = cpuSeconds(server.pid, server.pid) - main0;
      const count = JSON.parse((await call('GET', `/${index}/_count`)).body) as { count: number };
      const problems = [...r.problems];
      if (count.count !== lines.length) problems.push(`count ${count.count}, want ${lines.length}`); // prettier-ignore
      out.push({
        index,
        docs: lines.length,
        ms,
        docsPerS: lines.length / (ms / 1000),
        serverCpuUsPerDoc: (cpu / lines.length) * 1e6,
        mainThreadCpuUsPerDoc: (mainCpu / lines.length) * 1e6,
        medianMs: r.medianMs,
        problems,
      });
    }
  } finally {
    await server.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(join(root, 'reports'), { recursive: true });
  writeFileSync(
    join(root, `reports/bench-ingest-${stamp}.json`),
    JSON.stringify({ options: o, figures: out }, null, 2),
  );
  console.log('| index | docs | docs/s | server CPU µs/doc | main thread µs/doc | median `_bulk` ms | problems |'); // prettier-ignore
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const f of out) {
    console.log(
      `| ${f.index} | ${f.docs} | ${Math.round(f.docsPerS)} | ${f.serverCpuUsPerDoc.toFixed(1)} | ${f.mainThreadCpuUsPerDoc.toFixed(1)} | ${f.medianMs.toFixed(1)} | ${f.problems.length ? f.problems.join('; ') : 'none'} |`,
    );
  }
  return out;
}
