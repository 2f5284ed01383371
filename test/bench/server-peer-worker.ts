/**
 * One server-peer measurement: `tsx test/bench/server-peer-worker.ts <peer> <index> <harness>`
 * starts the peer server, loads the data set through its protocol (load time = docs/s), runs each
 * workload query with the harness's seeded parameters (the same ones Quarry gets), checks the
 * peer's answers against DuckDB (exact: counts, aggregations, sort values) and SQLite FTS5 (top-10
 * overlap for text), and prints one JSON line. The server is stopped even when a step fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { postgresPeer } from './peers/postgres-peer.js';
import { sphinxPeer } from './peers/sphinx-peer.js';
import type { PeerHandle, Row, ServerPeer, WorkloadIndex } from './peers/peer-types.js';
import { rssMb } from './proc-stats.js';
import { topOverlap } from './peer-check.js';
import { compareRows } from './server-peer-rows.js';

const [peerName, index, harness] = process.argv.slice(2) as [string, string, string];
const PEERS: Record<string, ServerPeer<PeerHandle & { proc: { child: { pid?: number } } }>> = {
  postgresql: postgresPeer as never,
  sphinxsearch: sphinxPeer as never,
};

interface Workload {
  seed: number;
  runs_per_query: number;
  warmup_runs: number;
  time_cap_ms_per_query: number;
  indices: Record<string, WorkloadIndex>;
  queries: Array<{ id: string; index: string; params: Record<string, string> }>;
}

const TEXT = new Set(['debian.match', 'debian.match_phrase', 'debian.bool_range']);
const CHECKS = 20;

/** Resident memory of a server and its children (PostgreSQL's backends), proportional share. */
function serverPssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  let total = 0;
  const visit = (p: number) => {
    try {
      const m = /Pss:\s+(\d+)/.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      total += m ? Number(m[1]) / 1024 : rssMb(p);
      const kids = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(' ') : []) visit(Number(k));
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return total;
}

async function main() {
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8')) as Workload;
  const params = await import(pathToFileURL(join(harness, 'lib/params.mjs')).href);
  const runs = Number(process.env.RUNS ?? workload.runs_per_query);
  const warm = Number(process.env.WARMUP ?? workload.warmup_runs);
  const cap = Number(process.env.CAP_MS ?? workload.time_cap_ms_per_query);
  const spec = workload.indices[index]!;
  const docs = readFileSync(join(harness, spec.file), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Row);
  const ctx = params.buildContext(index, docs);
  const peer = PEERS[peerName]!;
  const out: Record<string, unknown> = { peer: peerName, index, docs: docs.length };
  const missing = peer.available();
  if (missing) {
    process.stdout.write(JSON.stringify({ ...out, error: missing }) + '\n');
    return;
  }
  // References for the checks, loaded before the timed part (their memory is not the peer's).
  const refs = await openRefs(harness, index, docs, workload);
  const t0 = performance.now();
  const h = await peer.load(index, docs, spec);
  const loadMs = performance.now() - t0;
  try {
    Object.assign(out, {
      load_ms: loadMs,
      docs_per_s: docs.length / (loadMs / 1000),
      server_mb: serverPssMb(h.proc.child.pid),
      disk_mb: (h.diskBytes ?? NaN) / 2 ** 20,
      note: h.note,
    });
    const qs: Record<string, unknown> = {};
    for (const q of workload.queries.filter((x) => x.index === index)) {
      const fn = peer.queries[q.id];
      if (!fn) {
        qs[q.id] = { na: 'not expressible' };
        continue;
      }
      const ps = params.makeParams(q, ctx, runs + warm, workload.seed) as Row[];
      const times: number[] = [];
      let checks = 0;
      let failures = 0;
      let overlapSum = 0;
      let first: string | undefined;
      try {
        const tStart = performance.now();
        for (let i = 0; i < ps.length; i++) {
          const t = performance.now();
          const rows = await fn(h, ps[i]!);
          const dt = performance.now() - t;
          if (i >= warm) times.push(dt);
          if (i >= warm && checks < CHECKS) {
            const ref = await refs.run(q, ps[i]!);
            if (ref) {
              checks++;
              if (TEXT.has(q.id)) {
                overlapSum += topOverlap(ref.map((r) => String(r.name)), rows.map((r) => String(r.name))); // prettier-ignore
              } else {
                const p = compareRows(q.id, rows, ref);
                if (p) {
                  failures++;
                  first ??= p;
                }
              }
            }
          }
          if (i >= warm && performance.now() - tStart > cap && times.length >= 5) break;
        }
      } catch (e) {
        qs[q.id] = { na: `error: ${String((e as Error).message ?? e).slice(0, 200)}` };
        continue;
      }
      times.sort((a, b) => a - b);
      const at = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!;
      qs[q.id] = {
        n: times.length,
        median_ms: at(0.5),
        p90_ms: at(0.9),
        check: TEXT.has(q.id)
          ? { kind: 'overlap', ref: 'sqlite', checks, overlap: checks ? overlapSum / checks : NaN }
          : { kind: 'exact', ref: 'duckdb', checks, failures, first },
      };
    }
    out.queries = qs;
  } finally {
    await peer.close(h);
    await refs.close();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

interface Refs {
  run(q: { id: string }, p: Row): Promise<Row[] | null>;
  close(): Promise<void>;
}

/** DuckDB (exact) and, for debian, SQLite FTS5 (text) from the shared harness, when installed. */
async function openRefs(
  harness: string,
  index: string,
  docs: Row[],
  workload: unknown,
): Promise<Refs> {
  type Mod = {
    load(i: string, d: unknown[], o: unknown): Promise<unknown>;
    queries: Record<string, ((h: unknown, p: unknown, q: unknown) => Promise<Row[]> | Row[]) | undefined>;
    close(h: unknown): Promise<void>;
  }; // prettier-ignore
  const mods = join(harness, 'node_modules');
  if (!existsSync(join(mods, '@duckdb/node-api')) || !existsSync(join(mods, 'better-sqlite3')))
    return { run: async () => null, close: async () => undefined };
  const imp = async (p: string) => (await import(pathToFileURL(join(harness, 'peers', p)).href)) as Mod; // prettier-ignore
  const duck = await imp('duckdb.mjs');
  const duckH = await duck.load(index, docs, { workload, root: harness, threads: 1 });
  const sqlite = index === 'debian' ? await imp('sqlite.mjs') : null;
  const sqliteH = sqlite ? await sqlite.load(index, docs, { workload }) : null;
  const spec = (id: string) => (workload as { queries: Array<{ id: string }> }).queries.find((x) => x.id === id); // prettier-ignore
  return {
    async run(q, p) {
      const full = spec(q.id);
      if (TEXT.has(q.id)) return sqlite ? await sqlite.queries[q.id]!(sqliteH, p, full) : null;
      const fn = duck.queries[q.id];
      return fn ? await fn(duckH, p, full) : null;
    },
    async close() {
      await duck.close(duckH);
      if (sqlite) await sqlite.close(sqliteH);
    },
  };
}

await main();
