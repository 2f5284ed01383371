/**
 * The server peers of `npm run bench -- --peers`: PostgreSQL 15 and sphinxsearch, each a real
 * server started on loopback by its worker (test/bench/server-peer-worker.ts), one process per
 * peer × data set. Installs the Debian packages when they are missing (as root, or with sudo).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export const SERVER_PEERS = ['sphinxsearch', 'postgresql'] as const;

export interface ServerPeerRun {
  peer: string;
  index: string;
  error?: string;
  docs?: number;
  docs_per_s?: number;
  server_mb?: number;
  disk_mb?: number;
  note?: string;
  queries?: Record<
    string,
    {
      median_ms?: number;
      p90_ms?: number;
      n?: number;
      na?: string;
      check?: {
        kind: 'exact' | 'overlap';
        ref: string;
        checks: number;
        failures?: number;
        overlap?: number;
        first?: string;
      };
    }
  >;
}

/** Debian packages of the server peers; installed once when missing. */
export function installServerPeers(): void {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/searchd')) missing.push('sphinxsearch');
  if (!existsSync('/usr/lib/postgresql/15/bin/postgres')) missing.push('postgresql-15');
  if (missing.length === 0) return;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  console.error(`[bench] installing ${missing.join(', ')} ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) =>
    execFileSync(sudo[0] ?? args[0]!, sudo.length ? args : args.slice(1), { stdio: 'inherit', env }); // prettier-ignore
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', ...missing]);
  // Debian starts the packaged services; the bench runs its own instances on other ports.
}

export function runServerPeers(
  root: string,
  harness: string,
  indices: string[],
  quick: boolean,
): ServerPeerRun[] {
  const out: ServerPeerRun[] = [];
  const env = {
    ...process.env,
    ...(quick ? { RUNS: process.env.RUNS ?? '30', CAP_MS: process.env.CAP_MS ?? '1000' } : {}),
  };
  for (const ix of indices)
    for (const peer of SERVER_PEERS) {
      const t = Date.now();
      const p = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(here, 'server-peer-worker.ts'), peer, ix, harness],
        { env, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 40 * 60 * 1000, cwd: root },
      );
      const line = (p.stdout ?? '').trim().split('\n').pop() ?? '';
      let r: ServerPeerRun;
      try {
        r = JSON.parse(line) as ServerPeerRun;
      } catch {
        r = { peer, index: ix, error: `exit ${p.status} ${(p.stderr ?? '').slice(-600)}` };
      }
      out.push(r);
      console.error(
        `[bench] ${peer} ${ix}: ${r.error ? `ERROR ${r.error.slice(0, 300)}` : `${Math.round(r.docs_per_s ?? 0)} docs/s`} (${((Date.now() - t) / 1000).toFixed(0)} s)`,
      );
    }
  return out;
}

const fmt = (v: number | undefined, d = 2) =>
  v === undefined || Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(d);

/** Best server-peer median per query id, for the main table. */
export function bestServerPeer(
  runs: ServerPeerRun[],
  id: string,
): { peer: string; ms: number } | null {
  let best: { peer: string; ms: number } | null = null;
  for (const r of runs) {
    const q = r.queries?.[id];
    if (q?.median_ms === undefined) continue;
    if (!best || q.median_ms < best.ms) best = { peer: r.peer, ms: q.median_ms };
  }
  return best;
}

/** The server peers' own table: load rate, memory, disk and each query with its check. */
export function serverPeerTable(runs: ServerPeerRun[]): string[] {
  const lines = [
    '',
    'Server peers (separate processes on loopback, queried over their own protocol: SphinxQL over',
    'the MySQL protocol, PostgreSQL over its wire protocol; answers checked against DuckDB exactly',
    'and against SQLite FTS5 as top-10 overlap for text):',
    '',
    '| peer | data set | docs/s | server MB (PSS) | disk MB |',
    '|---|---|---|---|---|',
  ];
  for (const r of runs)
    lines.push(
      r.error
        ? `| ${r.peer} | ${r.index} | error: ${r.error.slice(0, 120).replace(/\|/g, '/')} | | |`
        : `| ${r.peer} | ${r.index} | ${fmt(r.docs_per_s, 0)} | ${fmt(r.server_mb, 0)} | ${fmt(r.disk_mb, 0)} |`,
    );
  lines.push('', '| peer | query | median ms | p90 ms | check |', '|---|---|---|---|---|');
  for (const r of runs)
    for (const [id, q] of Object.entries(r.queries ?? {})) {
      const c = q.check;
      const check = !c
        ? (q.na ?? '—')
        : c.kind === 'overlap'
          ? `top-10 overlap with ${c.ref} ${fmt((c.overlap ?? NaN) * 100, 0)}% (${c.checks})`
          : `${c.checks - (c.failures ?? 0)}/${c.checks} exact vs ${c.ref}${c.first ? ` (${c.first.slice(0, 60)})` : ''}`;
      lines.push(`| ${r.peer} | ${id} | ${fmt(q.median_ms, 3)} | ${fmt(q.p90_ms, 3)} | ${check} |`);
    }
  for (const r of runs) if (r.note) lines.push('', `${r.peer} (${r.index}): ${r.note}`);
  return lines;
}
