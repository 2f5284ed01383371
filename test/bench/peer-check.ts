/**
 * Correctness against the peers while timing (issue 5): match queries are compared with SQLite
 * FTS5's top 10 as a sanity check (its unicode61 tokenizer and BM25 variant differ, so the figure is
 * an overlap, not an equality), and counts and aggregations must agree exactly with DuckDB's
 * answers to the workload's own statements. Uses the peer modules of the shared harness, only when
 * its dependencies are installed (`npm run bench -- --peers` installs them).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Row = Record<string, unknown>;
type Body = any;

interface PeerModule {
  load(index: string, docs: unknown[], opts: Record<string, unknown>): Promise<unknown>;
  queries: Record<string, ((h: unknown, p: unknown, q: unknown) => unknown) | undefined>;
  close(h: unknown): Promise<void>;
}

export interface PeerCheckResult {
  peer: 'sqlite' | 'duckdb';
  /** Exact checks: failures are errors. Overlap checks: `overlap` is the mean top-10 overlap. */
  kind: 'exact' | 'overlap';
  checks: number;
  failures: number;
  overlapSum: number;
  firstFailure?: string;
}

export interface PeerChecker {
  check(queryId: string, query: unknown, params: Row, body: Body): Promise<void>;
  results(): Record<string, PeerCheckResult>;
  close(): Promise<void>;
}

const TEXT = new Set(['debian.match', 'debian.match_phrase', 'debian.bool_range']);

/** Loads the peers for one data set, or null when the harness dependencies are missing. */
export async function openPeerChecker(
  harness: string,
  index: string,
  docs: unknown[],
  workload: unknown,
): Promise<PeerChecker | null> {
  const mods = join(harness, 'node_modules');
  if (!existsSync(join(mods, '@duckdb/node-api')) || !existsSync(join(mods, 'better-sqlite3')))
    return null;
  const imp = async (p: string) =>
    (await import(pathToFileURL(join(harness, 'peers', p)).href)) as PeerModule;
  const duck = await imp('duckdb.mjs');
  const duckH = await duck.load(index, docs, { workload, root: harness, threads: 1 });
  const sqlite = index === 'debian' ? await imp('sqlite.mjs') : null;
  const sqliteH = sqlite ? await sqlite.load(index, docs, { workload }) : null;
  const res: Record<string, PeerCheckResult> = {};
  const entry = (id: string, peer: 'sqlite' | 'duckdb', kind: 'exact' | 'overlap') =>
    (res[id] ??= { peer, kind, checks: 0, failures: 0, overlapSum: 0 });

  return {
    async check(id, query, params, body) {
      if (TEXT.has(id)) {
        if (!sqlite) return;
        const rows = (await sqlite.queries[id]!(sqliteH, params, query)) as Row[];
        const e = entry(id, 'sqlite', 'overlap');
        e.checks++;
        e.overlapSum += topOverlap(
          rows.map((r) => String(r.name)),
          (body.hits.hits as Body[]).map((h) => String(h._source.name)),
        );
        return;
      }
      const run = duck.queries[id];
      if (!run) return;
      const rows = (await run(duckH, params, query)) as Row[];
      const e = entry(id, 'duckdb', 'exact');
      e.checks++;
      const problem = compareExact(id, rows, body);
      if (problem) {
        e.failures++;
        e.firstFailure ??= problem;
      }
    },
    results: () => res,
    async close() {
      await duck.close(duckH);
      if (sqlite) await sqlite.close(sqliteH);
    },
  };
}

/** Share of the peer's top hits (by name) that Quarry's top hits also hold. */
export function topOverlap(peer: string[], ours: string[]): number {
  if (peer.length === 0) return ours.length === 0 ? 1 : 0;
  const mine = new Set(ours);
  let n = 0;
  for (const x of peer) if (mine.has(x)) n++;
  return n / Math.max(peer.length, ours.length);
}

const num = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));
const same = (a: number, b: number) =>
  a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * DuckDB's rows against Quarry's response for the workload's count, terms+avg, range and
 * sort+paging shapes. Ties in `ORDER BY c DESC LIMIT 10` may pick different keys, so terms are
 * compared as counts in order plus the values of every key both sides hold.
 */
export function compareExact(id: string, rows: Row[], body: Body): string | null {
  if (id.endsWith('count_term')) {
    const n = num(rows[0]?.n);
    return n === body.count ? null : `count ${body.count} != duckdb ${n}`;
  }
  if (id.endsWith('range_agg')) {
    const buckets = Object.values(body.aggregations as Record<string, Body>)[0].buckets as Body[];
    for (let i = 0; i < buckets.length; i++) {
      const want = num(rows[0]?.[`b${i}`] ?? 0) || 0;
      if (buckets[i].doc_count !== want)
        return `range bucket ${i}: ${buckets[i].doc_count} != duckdb ${want}`;
    }
    return null;
  }
  if (id.includes('terms_avg')) {
    const agg = Object.values(body.aggregations as Record<string, Body>)[0];
    const buckets = agg.buckets as Body[];
    if (buckets.length !== rows.length)
      return `terms: ${buckets.length} buckets != duckdb ${rows.length}`;
    const keyCol = Object.keys(rows[0] ?? {})[0]!;
    const avgCol = Object.keys(rows[0] ?? {})[2]!;
    const byKey = new Map(rows.map((r) => [String(r[keyCol]), r]));
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i];
      if (b.doc_count !== num(rows[i]!.c))
        return `terms: count #${i} ${b.doc_count} != duckdb ${String(rows[i]!.c)}`;
      const r = byKey.get(String(b.key));
      if (!r) continue;
      const avg = Object.entries(b).find(([k]) => k !== 'key' && k !== 'doc_count')?.[1] as {
        value: number;
      };
      if (num(r.c) !== b.doc_count || !same(avg.value, num(r[avgCol])))
        return `terms ${String(b.key)}: ${b.doc_count}/${avg.value} != duckdb ${String(r.c)}/${String(r[avgCol])}`;
    }
    return null;
  }
  if (id.endsWith('sort_page')) {
    const field = id.startsWith('logs') ? 'size' : 'balance';
    const ours = (body.hits.hits as Body[]).map((h) => h.sort[0] as number);
    const theirs = rows.map((r) => num(r[field]));
    return ours.length === theirs.length && ours.every((v, i) => v === theirs[i])
      ? null
      : `sort values ${ours.join(',')} != duckdb ${theirs.join(',')}`;
  }
  return null;
}
