/**
 * `npm run bench [-- --quick] [--peers] [--indices a,b] [--modes inproc,http]`: Quarry on the
 * shared workload, in-process and over HTTP, with the peers of ../shared/bench in the same run
 * when `--peers` is given. Writes reports/bench-<stamp>.{json,md} and prints the table.
 * `--cluster`: the cluster ingest bench instead (test/bench/cluster-bench.ts).
 * `--ops`: ingest through a pipeline and `_reindex` throughput instead (test/bench/ops-bench.ts).
 * With `--peers`, the server peers too (test/bench/server-peers.ts: sphinxsearch and PostgreSQL 15,
 * installed from Debian when missing, started on loopback, queried over their own protocols).
 * `--scale 10m`: the 1M-to-10M logs scale test instead (test/bench/scale-bench.ts; about 10 minutes with generation).
 * `--ingest`: durable bulk docs/s over HTTP, logs and debian, concurrent clients (ingest-bench.ts).
 * `--analysis`: indexing with language/shingle analyzers and highlighting cost (analysis-bench.ts).
 * `--sql-ext`: SQL JOIN (100,000 × 1,000 rows), UNION ALL of two grouped selects on the logs data
 *   and window functions (sql-ext-bench.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterOptions, runClusterBench } from './cluster-bench.js';
import { ensureHarness as ensureHarnessIn, harnessDir } from './harness.js';
import { opsOptions, runOpsBench } from './ops-bench.js';
import { runScaleBench, scaleOptions } from './scale-bench.js';
import { analysisOptions, runAnalysisBench } from './analysis-bench.js';
import {
  bestServerPeer,
  installServerPeers,
  runServerPeers,
  serverPeerTable,
} from './server-peers.js';
import { runSqlExtBench, sqlExtOptions } from './sql-ext-bench.js';
import { ingestOptions, runIngestBench } from './ingest-bench.js';

const here = dirname(fileURLToPath(import.meta.url));

const root = resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1]! : d;
};
const quick = args.includes('--quick');
const withPeers = args.includes('--peers');
const indices = opt('indices', 'debian,logs,accounts').split(',');
const modes = opt('modes', 'inproc,http').split(',');
const harness = harnessDir(root);

const ensureHarness = () => void ensureHarnessIn(root);

interface Result {
  index: string;
  mode: string;
  error?: string;
  docs?: number;
  start_ms?: number;
  load_ms?: number;
  docs_per_s?: number;
  rss_delta_mb?: number;
  restart_ms?: number;
  restart_count_ok?: boolean;
  queries?: Record<
    string,
    {
      median_ms: number;
      p90_ms: number;
      p99_ms: number;
      n: number;
      checks: number;
      check_failures: number;
      first_failure?: string;
      sql_median_ms?: number;
      sql_mismatches?: number;
      sql_first_mismatch?: string;
      sql_error?: string;
    }
  >;
  peer_checks?: Record<
    string,
    { peer: string; kind: string; checks: number; failures: number; overlapSum: number }
  >;
}

function runWorker(index: string, mode: string): Result {
  const env = {
    ...process.env,
    ...(quick ? { RUNS: process.env.RUNS ?? '30', CAP_MS: process.env.CAP_MS ?? '1000' } : {}),
  };
  const p = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=8000',
      '--import',
      'tsx',
      join(here, 'worker.ts'),
      index,
      mode,
      harness,
    ],
    { env, encoding: 'utf8', maxBuffer: 1 << 26, timeout: 20 * 60 * 1000, cwd: root },
  );
  const line = (p.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as Result;
  } catch {
    return { index, mode, error: `exit ${p.status} ${(p.stderr ?? '').slice(-800)}` };
  }
}

interface PeerRun {
  peer: string;
  index: string;
  docs_per_s?: number;
  rss_delta_mb?: number;
  queries?: Record<string, { median_ms?: number; na?: string; partial?: boolean }>;
}

/** The peers' dependencies (also used by the workers' correctness checks against the peers). */
function installPeers(): void {
  if (!existsSync(join(harness, 'node_modules'))) {
    console.error('[bench] installing the peer harness dependencies ...');
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: harness, stdio: 'inherit' });
  }
}

function runPeers(): PeerRun[] {
  const a = [
    'run.mjs',
    '--reps',
    '1',
    ...(quick ? ['--quick'] : []),
    '--indices',
    indices.join(','),
  ];
  execFileSync(process.execPath, a, { cwd: harness, stdio: 'inherit' });
  const raw = JSON.parse(readFileSync(join(harness, 'results/latest.json'), 'utf8')) as {
    reps: Array<{ runs: PeerRun[] }>;
  };
  return raw.reps[0]?.runs ?? [];
}

function fmt(v: number | undefined, d = 2): string {
  if (v === undefined || Number.isNaN(v)) return '—';
  if (v >= 100) return v.toFixed(0);
  return v.toFixed(d);
}

type QueryResult = NonNullable<Result['queries']>[string];

/** SQL medians, or ES's error for statements ES SQL cannot express. */
function sqlCell(ip: QueryResult | undefined, hp: QueryResult | undefined): string {
  if (ip?.sql_error) return `n/a (${ip.sql_error.slice(0, 50)})`;
  if (ip?.sql_median_ms === undefined) return '—';
  const bad = (ip.sql_mismatches ?? 0) + (hp?.sql_mismatches ?? 0);
  return `${fmt(ip.sql_median_ms, 3)} / ${hp?.sql_median_ms === undefined ? '—' : fmt(hp.sql_median_ms, 3)}${bad ? ` (${bad} differ from DSL: ${(ip.sql_first_mismatch ?? hp?.sql_first_mismatch ?? '').slice(0, 50)})` : ''}`;
}

function main(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  ensureHarness();
  if (withPeers) {
    installPeers();
    installServerPeers();
  }
  const results: Result[] = [];
  for (const ix of indices) {
    for (const m of modes) {
      const t = Date.now();
      const r = runWorker(ix, m);
      results.push(r);
      console.error(
        `[bench] ${ix} ${m}: ${r.error ? 'ERROR ' + r.error.slice(0, 400) : `${Math.round(r.docs_per_s!)} docs/s, +${Math.round(r.rss_delta_mb!)} MB, restart ${Math.round(r.restart_ms!)} ms`} (${((Date.now() - t) / 1000).toFixed(0)} s)`,
      );
    }
  }
  const peers = withPeers ? runPeers() : [];
  const servers = withPeers ? runServerPeers(root, harness, indices, quick) : [];
  const lines: string[] = [];
  lines.push(`# Quarry benchmark ${new Date().toISOString()}`, '');
  lines.push(
    `machine: ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
    '',
  );
  lines.push(
    '(inproc: the engine opened in this process; http: `bin/quarry` in its own process, spawn to',
    'first answer, RSS of the server process.)',
    '',
    '| data set | mode | docs/s | RSS Δ MB | empty start ms | restart ms |',
    '|---|---|---|---|---|---|',
  );
  for (const r of results) {
    lines.push(
      `| ${r.index} | ${r.mode} | ${fmt(r.docs_per_s, 0)} | ${fmt(r.rss_delta_mb, 0)} | ${fmt(r.start_ms, 0)} | ${fmt(r.restart_ms, 0)}${r.restart_count_ok === false ? ' (count wrong)' : ''} |`,
    );
  }
  lines.push(
    '',
    '| query | in-process median / p90 / p99 ms | HTTP median ms | SQL in-process / HTTP ms | checks | peer check | best peer | peer median ms | peer / Quarry | best server peer ms | server peer / Quarry HTTP |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  const ids = new Set<string>();
  for (const r of results) for (const k of Object.keys(r.queries ?? {})) ids.add(k);
  for (const id of ids) {
    const ip = results.find((r) => r.mode === 'inproc' && r.queries?.[id])?.queries?.[id];
    const hp = results.find((r) => r.mode === 'http' && r.queries?.[id])?.queries?.[id];
    let best: { peer: string; ms: number } | null = null;
    for (const p of peers) {
      const q = p.queries?.[id];
      // `partial`: the peer answers a different question (not BM25, counts without avg): not a peer
      if (!q || q.median_ms === undefined || q.partial || p.peer === 'jslimit') continue;
      if (!best || q.median_ms < best.ms) best = { peer: p.peer, ms: q.median_ms };
    }
    const server = bestServerPeer(servers, id);
    const checks = ip
      ? `${ip.checks - ip.check_failures}/${ip.checks}${ip.first_failure ? ` (${ip.first_failure.slice(0, 60)})` : ''}`
      : '—';
    const pc = results.find((r) => r.peer_checks?.[id])?.peer_checks?.[id];
    const peerCheck = !pc
      ? '—'
      : pc.kind === 'overlap'
        ? `${pc.peer} top-10 overlap ${((pc.overlapSum / pc.checks) * 100).toFixed(0)}%`
        : `${pc.peer} ${pc.checks - pc.failures}/${pc.checks} exact`;
    lines.push(
      `| ${id} | ${ip ? `${fmt(ip.median_ms, 3)} / ${fmt(ip.p90_ms, 3)} / ${fmt(ip.p99_ms, 3)}` : '—'} | ${hp ? fmt(hp.median_ms, 3) : '—'} | ${sqlCell(ip, hp)} | ${checks} | ${peerCheck} | ${best?.peer ?? '—'} | ${best ? fmt(best.ms, 3) : '—'} | ${best && ip ? (best.ms / ip.median_ms).toFixed(1) + '×' : '—'} | ${server ? `${server.peer} ${fmt(server.ms, 3)}` : '—'} | ${server && hp ? (server.ms / hp.median_ms).toFixed(1) + '×' : '—'} |`,
    );
  }
  if (peers.length) {
    lines.push('', '| peer | data set | docs/s | RSS Δ MB |', '|---|---|---|---|');
    for (const p of peers)
      lines.push(
        `| ${p.peer} | ${p.index} | ${fmt(p.docs_per_s, 0)} | ${fmt(p.rss_delta_mb, 0)} |`,
      );
  }
  if (servers.length) lines.push(...serverPeerTable(servers));
  const md = lines.join('\n') + '\n';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(join(root, 'reports'), { recursive: true });
  writeFileSync(
    join(root, `reports/bench-${stamp}.json`),
    JSON.stringify({ results, peers, servers }, null, 2),
  );
  writeFileSync(join(root, `reports/bench-${stamp}.md`), md);
  writeFileSync(join(root, 'reports/bench-latest.md'), md);
  process.stdout.write(md);
}

if (args.includes('--cluster')) {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  await runClusterBench(root, clusterOptions(args));
} else if (args.includes('--ingest')) {
  await runIngestBench(root, ingestOptions(args));
} else if (args.includes('--ops')) {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  process.stdout.write(await runOpsBench(root, opsOptions(args)));
} else if (args.includes('--scale')) {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  process.stdout.write(await runScaleBench(root, scaleOptions(args)));
} else if (args.includes('--analysis')) {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  process.stdout.write(await runAnalysisBench(root, analysisOptions(args)));
} else if (args.includes('--sql-ext')) {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  process.stdout.write(await runSqlExtBench(root, sqlExtOptions(args)));
} else main();
