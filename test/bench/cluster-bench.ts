/**
 * `npm run bench -- --cluster`: bulk ingest of the logs data set into a 6-shard index on 1, 2 and
 * 3 node processes (0 replicas) and on 2 and 3 (1 replica), side by side in one run, with the
 * ratios against one node; then search latency through a node holding no shard (skipped while
 * `_search` is not cluster-aware). Writes reports/bench-cluster-<stamp>.{json,md}.
 *
 * Options: --cluster-docs N (300000), --cluster-batch B (docs per `_bulk`), --cluster-clients C
 * (concurrent connections), --cluster-configs 1x0,2x0,... (nodes x replicas; `solo` is one
 * node without etcd), --cluster-sweep (batch x clients on 2x0 first), --cluster-prof (node
 * --cpu-prof on the node processes, profiles in reports/prof-<stamp>/), --cluster-no-search,
 * --cluster-node-flags "..." (Node flags for every node process).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bulkBodies, loadBulk, type LoadResult } from './bulk-load.js';
import { startCluster, type BenchCluster } from './cluster-nodes.js';
import { renderClusterReport, type ConfigResult, type SweepPoint } from './cluster-report.js';
import { loadParams, searchBlocked, timeQueries, type Workload } from './cluster-search.js';
import { verifyCounts } from './cluster-verify.js';
import { ensureLogs } from './harness.js';
import { machineCeiling, type Ceiling } from './machine-ceiling.js';
import { cpuSeconds, peakRssMb } from './proc-stats.js';

const INDEX = 'logs';
const SHARDS = 6;

export interface ClusterBenchOptions {
  readonly docs: number;
  readonly batch: number;
  readonly clients: number;
  readonly configs: readonly string[];
  readonly sweep: boolean;
  readonly prof: boolean;
  readonly search: boolean;
  /** Extra Node flags for every node process (`--cluster-node-flags "--max-semi-space-size=64"`). */
  readonly nodeFlags: readonly string[];
}

export function clusterOptions(args: readonly string[]): ClusterBenchOptions {
  const opt = (n: string, d: string) => {
    const i = args.indexOf(`--${n}`);
    return i >= 0 ? args[i + 1]! : d;
  };
  return {
    docs: Number(opt('cluster-docs', '300000')),
    batch: Number(opt('cluster-batch', '2000')),
    clients: Number(opt('cluster-clients', '6')),
    configs: opt('cluster-configs', 'solo,1x0,2x0,3x0,2x1,3x1').split(','),
    sweep: args.includes('--cluster-sweep'),
    prof: args.includes('--cluster-prof'),
    search: !args.includes('--cluster-no-search'),
    nodeFlags: opt('cluster-node-flags', '').split(' ').filter(Boolean),
  };
}

interface Config {
  readonly label: string;
  readonly nodes: number;
  readonly replicas: number;
  readonly standalone: boolean;
}

function parseConfig(s: string): Config {
  if (s === 'solo') return { label: 'solo', nodes: 1, replicas: 0, standalone: true };
  const m = /^(\d)x(\d)$/.exec(s);
  if (!m)
    throw new Error(`bad --cluster-configs entry [${s}]: want NxR (nodes x replicas) or solo`);
  return { label: s, nodes: Number(m[1]), replicas: Number(m[2]), standalone: false };
}

async function json(url: string, method = 'GET', body?: unknown): Promise<any> {
  const r = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** Creates the index and waits until every copy is started. */
async function createIndex(
  url: string,
  workload: Workload,
  replicas: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const props = Object.fromEntries(
    Object.entries(workload.indices[INDEX]!.mappings).map(([f, t]) => [f, { type: t }]),
  );
  await json(`${url}/${INDEX}`, 'PUT', {
    settings: {
      number_of_shards: SHARDS,
      number_of_replicas: replicas,
      refresh_interval: '1s',
      'index.requests.cache.enable': false,
      ...extra,
    },
    mappings: { _doc: { properties: props } },
  });
  const h = await json(`${url}/_cluster/health/${INDEX}?wait_for_status=green&timeout=60s`);
  if (h.status !== 'green') throw new Error(`index not green: ${JSON.stringify(h)}`);
}

/** Loads `lines` into a fresh index on `cluster` and measures what every process used. */
async function measureLoad(
  cluster: BenchCluster,
  lines: readonly string[],
  workload: Workload,
  replicas: number,
  batch: number,
  clients: number,
) {
  const urls = cluster.nodes.map((n) => n.url);
  await createIndex(urls[0]!, workload, replicas);
  const bodies = bulkBodies(lines, INDEX, batch);
  const pids = cluster.nodes.map((n) => n.pid);
  const etcdPid = cluster.etcd?.members[0]?.child?.pid;
  const cpu0 = pids.map(cpuSeconds);
  const etcd0 = etcdPid ? cpuSeconds(etcdPid) : NaN;
  const client0 = process.cpuUsage();
  const load: LoadResult = await loadBulk(urls, bodies, clients, 1 + replicas);
  const client = process.cpuUsage(client0);
  const cpu = pids.map((p, k) => cpuSeconds(p) - cpu0[k]!);
  const etcdCpu = etcdPid ? cpuSeconds(etcdPid) - etcd0 : NaN;
  const peak = pids.map(peakRssMb);
  const dead = cluster.nodes.filter(
    (n) => n.child.exitCode !== null || n.child.signalCode !== null,
  );
  const count = await verifyCounts(
    urls,
    cluster.nodes.map((n) => n.name),
    INDEX,
    load.docsSent,
    SHARDS * (1 + replicas),
    load.sampleIds,
  );
  return {
    load,
    cpu,
    etcdCpu,
    clientCpu: (client.user + client.system) / 1e6,
    peak,
    count,
    dead: dead.map(
      (n) => `${n.name} exited (${n.child.exitCode ?? n.child.signalCode}): ${n.logTail()}`,
    ),
  };
}

async function runConfig(
  root: string,
  c: Config,
  lines: readonly string[],
  workload: Workload,
  o: ClusterBenchOptions,
  profDir: string | null,
): Promise<ConfigResult> {
  const dir = profDir ? join(profDir, c.label) : null;
  if (dir) mkdirSync(dir, { recursive: true });
  const cluster = await startCluster({
    root,
    nodes: c.nodes,
    standalone: c.standalone,
    nodeFlags: [...o.nodeFlags, ...(dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])],
  });
  try {
    const m = await measureLoad(cluster, lines, workload, c.replicas, o.batch, o.clients);
    return {
      config: c.label,
      nodes: c.nodes,
      replicas: c.replicas,
      standalone: c.standalone,
      docs: m.load.docsSent,
      docs_acked: m.load.docsAcked,
      wall_s: m.load.wallMs / 1000,
      docs_per_s: m.load.docsSent / (m.load.wallMs / 1000),
      bulk_median_ms: m.load.medianMs,
      bulk_p90_ms: m.load.p90Ms,
      node_cpu_s: Object.fromEntries(cluster.nodes.map((n, k) => [n.name, m.cpu[k]!])),
      node_peak_rss_mb: Object.fromEntries(cluster.nodes.map((n, k) => [n.name, m.peak[k]!])),
      etcd_cpu_s: m.etcdCpu,
      client_cpu_s: m.clientCpu,
      problems: [...m.dead, ...m.load.problems],
      count_ok: m.count.ok,
      primary_docs: m.count.primaryDocs,
      copies: m.count.copies,
      gets_checked: m.count.getsChecked,
      ...(m.count.problem ? { count_problem: m.count.problem } : {}),
    };
  } finally {
    await cluster.stop();
  }
}

/** Batch size x clients on 2 nodes, 0 replicas, each point on a fresh index. */
async function runSweep(
  root: string,
  lines: readonly string[],
  workload: Workload,
): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  const part = lines.slice(0, Math.min(lines.length, 120_000));
  for (const batch of [1000, 2000, 5000]) {
    for (const clients of [2, 4, 8]) {
      const cluster = await startCluster({ root, nodes: 2 });
      try {
        const m = await measureLoad(cluster, part, workload, 0, batch, clients);
        const p: SweepPoint = {
          batch,
          clients,
          docs: m.load.docsSent,
          docs_per_s: m.load.docsSent / (m.load.wallMs / 1000),
          bulk_median_ms: m.load.medianMs,
          ok: m.count.ok && m.load.problems.length === 0,
        };
        points.push(p);
        console.error(`[bench] sweep 2x0 batch ${batch} clients ${clients}: ${Math.round(p.docs_per_s)} docs/s${p.ok ? '' : ' (CHECK FAILED)'}`); // prettier-ignore
      } finally {
        await cluster.stop();
      }
    }
  }
  return points;
}

/** Search latency through a node without shards vs the node with all of them vs a lone node. */
async function runSearch(
  root: string,
  harness: string,
  lines: readonly string[],
  workload: Workload,
  o: ClusterBenchOptions,
): Promise<{ skipped: string } | Record<string, unknown>> {
  const cluster = await startCluster({ root, nodes: 2 });
  try {
    const [n1, n2] = cluster.nodes as [(typeof cluster.nodes)[0], (typeof cluster.nodes)[0]];
    await createIndex(n1.url, workload, 0, { 'index.routing.allocation.exclude._name': n2.name });
    const blocked = await searchBlocked(n2.url, INDEX);
    if (blocked) return { skipped: `_search is not served in a cluster yet (${blocked})` };
    const params = await loadParams(harness);
    const docs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const ref = { index: INDEX, docs, ctx: params.buildContext(INDEX, docs) };
    const bodies = bulkBodies(lines, INDEX, o.batch);
    const load = await loadBulk([n1.url, n2.url], bodies, o.clients, 1);
    const names = cluster.nodes.map((n) => n.name);
    const count = await verifyCounts([n1.url, n2.url], names, INDEX, load.docsSent, SHARDS, load.sampleIds); // prettier-ignore
    if (!count.ok) throw new Error(`search index load: ${count.problem}`);
    const runs = { runs: workload.runs_per_query, warm: workload.warmup_runs, capMs: workload.time_cap_ms_per_query }; // prettier-ignore
    const host = (u: string) => new URL(u).hostname;
    const port = (u: string) => Number(new URL(u).port);
    const viaEmpty = await timeQueries(port(n2.url), host(n2.url), workload, params, ref, runs);
    const viaHolder = await timeQueries(port(n1.url), host(n1.url), workload, params, ref, runs);
    await cluster.stop();
    const solo = await startCluster({ root, nodes: 1, standalone: true });
    try {
      const s = solo.nodes[0]!;
      await createIndex(s.url, workload, 0);
      await loadBulk([s.url], bodies, o.clients, 1);
      await json(`${s.url}/${INDEX}/_refresh`, 'POST');
      const single = await timeQueries(port(s.url), host(s.url), workload, params, ref, runs);
      return { via_node_without_shards: viaEmpty, via_node_with_shards: viaHolder, single_node: single }; // prettier-ignore
    } finally {
      await solo.stop();
    }
  } finally {
    await cluster.stop();
  }
}

export async function runClusterBench(root: string, o: ClusterBenchOptions): Promise<void> {
  const harness = ensureLogs(root);
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8')) as Workload;
  const text = readFileSync(join(harness, workload.indices[INDEX]!.file), 'utf8');
  const lines: string[] = [];
  for (let at = 0; lines.length < o.docs && at < text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (end > at) lines.push(text.slice(at, end));
    at = end + 1;
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const profDir = o.prof ? join(root, `reports/prof-${stamp}`) : null;
  const sweep = o.sweep ? await runSweep(root, lines, workload) : [];
  const ceilings: Ceiling[] = [await machineCeiling()];
  console.error(`[bench] machine ceiling before: 2 CPU-bound processes run ${ceilings[0]!.speedup.toFixed(2)}x one`); // prettier-ignore
  const results: ConfigResult[] = [];
  for (const label of o.configs) {
    const c = parseConfig(label);
    const t = Date.now();
    const r = await runConfig(root, c, lines, workload, o, profDir).catch(
      (e: unknown): ConfigResult => ({ config: label, nodes: c.nodes, replicas: c.replicas, standalone: c.standalone, error: String((e as Error)?.stack ?? e).slice(0, 1500) }), // prettier-ignore
    );
    results.push(r);
    console.error(
      `[bench] ${label}: ${r.error ? 'ERROR ' + r.error.slice(0, 400) : `${Math.round(r.docs_per_s!)} docs/s, ${r.wall_s!.toFixed(1)} s, count ${r.count_ok ? 'ok' : 'WRONG ' + (r.count_problem ?? r.problems?.[0])}`} (${((Date.now() - t) / 1000).toFixed(0)} s)`, // prettier-ignore
    );
  }
  ceilings.push(await machineCeiling());
  console.error(`[bench] machine ceiling after: ${ceilings[1]!.speedup.toFixed(2)}x`);
  let search: Record<string, unknown>;
  if (!o.search) search = { skipped: 'not run (--cluster-no-search)' };
  else
    search = await runSearch(root, harness, lines, workload, o).catch((e: unknown) => ({
      error: String((e as Error)?.stack ?? e).slice(0, 1500),
    }));
  if ('skipped' in search) console.error(`[bench] search latency skipped: ${String(search.skipped)}`); // prettier-ignore
  const md = renderClusterReport({ options: o, results, sweep, search, profDir, ceilings });
  mkdirSync(join(root, 'reports'), { recursive: true });
  writeFileSync(
    join(root, `reports/bench-cluster-${stamp}.json`),
    JSON.stringify({ options: o, results, sweep, search, profDir, ceilings }, null, 2),
  );
  writeFileSync(join(root, `reports/bench-cluster-${stamp}.md`), md);
  writeFileSync(join(root, 'reports/bench-cluster-latest.md'), md);
  process.stdout.write(md);
}
