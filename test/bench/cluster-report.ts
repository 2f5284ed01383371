/**
 * The cluster bench's markdown report: one row per configuration with docs/s, wall time, CPU
 * seconds and peak RSS per node process, and each figure's ratio against the one-node cluster of
 * the same run (the machine is shared: only ratios within one run compare). Pure.
 */
import { cpus, loadavg, totalmem } from 'node:os';

export interface ConfigResult {
  config: string;
  nodes: number;
  replicas: number;
  standalone: boolean;
  error?: string;
  docs?: number;
  docs_acked?: number;
  wall_s?: number;
  docs_per_s?: number;
  bulk_median_ms?: number;
  bulk_p90_ms?: number;
  node_cpu_s?: Record<string, number>;
  node_peak_rss_mb?: Record<string, number>;
  etcd_cpu_s?: number;
  client_cpu_s?: number;
  problems?: readonly string[];
  count_ok?: boolean;
  primary_docs?: number;
  copies?: Record<string, number>;
  gets_checked?: number;
  count_problem?: string;
}

export interface SweepPoint {
  batch: number;
  clients: number;
  docs: number;
  docs_per_s: number;
  bulk_median_ms: number;
  ok: boolean;
}

export interface ReportInput {
  options: { docs: number; batch: number; clients: number; nodeFlags: readonly string[] };
  results: readonly ConfigResult[];
  sweep: readonly SweepPoint[];
  search: Record<string, unknown>;
  profDir: string | null;
  /** The machine's scaling for two CPU-bound processes, before and after the configurations. */
  ceilings: readonly { aloneMs: number; twoMs: number; speedup: number }[];
}

const f = (v: number | undefined, d = 1) =>
  v === undefined || Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(d);
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || !b ? '—' : `${(a / b).toFixed(2)}×`;
const sum = (r: Record<string, number> | undefined) =>
  r ? Object.values(r).reduce((a, b) => a + b, 0) : undefined;
const max = (r: Record<string, number> | undefined) =>
  r ? Math.max(...Object.values(r)) : undefined;
const perNode = (r: Record<string, number> | undefined, d = 1) =>
  r
    ? Object.entries(r)
        .map(([k, v]) => `${k} ${f(v, d)}`)
        .join(', ')
    : '—';

function describe(r: ConfigResult): string {
  if (r.standalone) return '1 node, no etcd (standalone)';
  return `${r.nodes} node${r.nodes > 1 ? 's' : ''}, ${r.replicas} replica${r.replicas === 1 ? '' : 's'}`;
}

export function renderClusterReport(x: ReportInput): string {
  const L: string[] = [];
  L.push(`# Quarry cluster ingest benchmark ${new Date().toISOString()}`, '');
  L.push(
    `machine: ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load at the end ${loadavg().map((v) => v.toFixed(2)).join(' ')}; shared with other workers, so compare ratios within this run only.`, // prettier-ignore
    '',
    `logs data set, ${x.options.docs} docs, 6-shard index (refresh 1s), \`_bulk\` bodies of ${x.options.batch} docs from ${x.options.clients} concurrent keep-alive clients round-robin over the nodes; etcd, the client and every node share the 2 cores. CPU: utime+stime of each node process over the load (/proc/<pid>/stat); peak RSS: VmHWM. Ratios against the 1-node cluster (1x0).${x.options.nodeFlags.length ? ` Node flags: ${x.options.nodeFlags.join(' ')}.` : ''}`, // prettier-ignore
    '',
    `Machine ceiling (test/bench/machine-ceiling.ts): two CPU-bound processes at once ran ${x.ceilings.map((c) => `${c.speedup.toFixed(2)}×`).join(' (before) and ')} (after) the speed of one: the best a 2-node ratio can reach on this machine at this time.`, // prettier-ignore
    '',
    '| configuration | docs/s | ×1 node | wall s | node CPU s | CPU s total | ×1 node | µs CPU/doc | peak RSS MB | max RSS ×1 node | bulk median / p90 ms | etcd CPU s | client CPU s | checks |', // prettier-ignore
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  const base = x.results.find((r) => r.config === '1x0' && !r.error);
  for (const r of x.results) {
    if (r.error) {
      L.push(`| ${describe(r)} | ERROR ${r.error.split('\n')[0]!.slice(0, 200)} |`);
      continue;
    }
    const cpuTotal = sum(r.node_cpu_s);
    const checks =
      r.count_ok && !r.problems?.length
        ? `ok: ${r.primary_docs} docs on the primaries, copies agree, ${r.gets_checked} GETs`
        : `FAILED: ${r.count_problem ?? ''} ${r.problems?.[0] ?? ''}`.slice(0, 300);
    L.push(
      `| ${describe(r)} | ${f(r.docs_per_s)} | ${ratio(r.docs_per_s, base?.docs_per_s)} | ${f(r.wall_s)} | ${perNode(r.node_cpu_s)} | ${f(cpuTotal)} | ${ratio(cpuTotal, sum(base?.node_cpu_s))} | ${f(cpuTotal === undefined ? undefined : (cpuTotal / r.docs!) * 1e6)} | ${perNode(r.node_peak_rss_mb, 0)} | ${ratio(max(r.node_peak_rss_mb), max(base?.node_peak_rss_mb))} | ${f(r.bulk_median_ms, 0)} / ${f(r.bulk_p90_ms, 0)} | ${f(r.etcd_cpu_s)} | ${f(r.client_cpu_s)} | ${checks} |`, // prettier-ignore
    );
  }
  if (x.sweep.length) {
    L.push('', 'Client sweep on 2 nodes, 0 replicas (each point a fresh cluster):', '');
    L.push('| docs per `_bulk` | clients | docs | docs/s | bulk median ms | checks |', '|---|---|---|---|---|---|'); // prettier-ignore
    for (const p of x.sweep)
      L.push(`| ${p.batch} | ${p.clients} | ${p.docs} | ${f(p.docs_per_s)} | ${f(p.bulk_median_ms, 0)} | ${p.ok ? 'ok' : 'FAILED'} |`); // prettier-ignore
  }
  L.push('', '## Search latency through a node holding no shard', '');
  if ('skipped' in x.search) L.push(`Skipped: ${String(x.search.skipped)}`);
  else if ('error' in x.search) L.push(`ERROR: ${String(x.search.error).slice(0, 800)}`);
  else {
    const s = x.search as Record<string, Record<string, { median_ms: number; p90_ms: number; checks: number; check_failures: number }>>; // prettier-ignore
    L.push('| query | via node without shards median / p90 ms | via node with the shards | single node | checks |', '|---|---|---|---|---|'); // prettier-ignore
    for (const id of Object.keys(s.via_node_without_shards ?? {})) {
      const e = s.via_node_without_shards![id]!;
      const h = s.via_node_with_shards?.[id];
      const one = s.single_node?.[id];
      L.push(`| ${id} | ${f(e.median_ms, 2)} / ${f(e.p90_ms, 2)} | ${f(h?.median_ms, 2)} / ${f(h?.p90_ms, 2)} | ${f(one?.median_ms, 2)} / ${f(one?.p90_ms, 2)} | ${e.checks - e.check_failures}/${e.checks} |`); // prettier-ignore
    }
  }
  if (x.profDir) L.push('', `CPU profiles of the node processes: ${x.profDir}`);
  return L.join('\n') + '\n';
}
