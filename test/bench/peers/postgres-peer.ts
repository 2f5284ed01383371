/**
 * PostgreSQL 15 as a bench peer: a fresh cluster (initdb) on loopback, documents loaded through
 * the wire protocol in transactions of 5,000 rows (durable: fsync and synchronous_commit on),
 * full text as a stored `tsvector` (the `simple` configuration: lower-cased words, no stemming
 * and no stop words, like ES's standard analyzer) with a GIN index ranked by `ts_rank`, and
 * B-tree indexes on the filter and sort columns, built inside the load time.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Params, PeerHandle, Row, ServerPeer, WorkloadIndex } from './peer-types.js';
import { freePort, startProc, waitReady, type Proc } from './server-proc.js';

const BIN = '/usr/lib/postgresql/15/bin';
const BATCH = 5000;
const INDEXES: Record<string, string[]> = {
  debian: ['section', 'installed_size'],
  logs: ['status', 'country', 'size'],
  accounts: ['gender', 'state', 'age', 'balance'],
};

interface PgHandle extends PeerHandle {
  proc: Proc;
  dir: string;
  client: pg.Client;
  index: string;
}

const pgType = (t: string) =>
  t === 'long' ? 'bigint' : t === 'integer' ? 'integer' : t === 'date' ? 'timestamptz' : 'text';
const arrType = (t: string) => `${pgType(t)}[]`;
const col = (c: string) => `"${c}"`;

/** As root, the server must run as the `postgres` user; otherwise as whoever runs the bench. */
const asRoot = () => process.getuid?.() === 0;
function runAs(cmd: string, args: string[]): [string, string[]] {
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return n;
}

async function load(index: string, docs: Row[], spec: WorkloadIndex): Promise<PgHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-pg-'));
  if (asRoot()) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const data = join(dir, 'data');
  const [c0, a0] = runAs(join(BIN, 'initdb'), [
    '-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync',
  ]); // prettier-ignore
  execFileSync(c0, a0, { stdio: 'pipe' });
  const port = await freePort();
  const [c1, a1] = runAs(join(BIN, 'postgres'), [
    '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1',
    '-c', `unix_socket_directories=${dir}`, '-c', 'shared_buffers=512MB', '-c', 'work_mem=64MB',
    '-c', 'maintenance_work_mem=512MB', '-c', 'max_wal_size=4GB',
  ]); // prettier-ignore
  const proc = startProc(c1, a1);
  const connect = async () => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await c.connect();
    return c;
  };
  let client: pg.Client | undefined;
  await waitReady(proc, async () => {
    client = await connect();
  });
  const c = client!;
  const m = spec.mappings;
  const cols = Object.keys(m);
  const fts =
    index === 'debian'
      ? `, tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(description, ''))) STORED`
      : '';
  await c.query(
    `CREATE TABLE ${index} (id bigint PRIMARY KEY, ${cols.map((k) => `${col(k)} ${pgType(m[k]!)}`).join(', ')}${fts})`,
  );
  const insert = `INSERT INTO ${index} (id, ${cols.map(col).join(', ')}) SELECT * FROM unnest($1::bigint[], ${cols
    .map((k, i) => `$${i + 2}::${arrType(m[k]!)}`)
    .join(', ')})`;
  for (let i = 0; i < docs.length; i += BATCH) {
    const part = docs.slice(i, i + BATCH);
    const values: unknown[][] = [part.map((_, j) => i + j + 1)];
    for (const k of cols) values.push(part.map((d) => d[k] ?? null));
    await c.query(insert, values);
  }
  if (index === 'debian') await c.query(`CREATE INDEX ${index}_tsv ON ${index} USING gin (tsv)`);
  for (const k of INDEXES[index] ?? [])
    await c.query(`CREATE INDEX ${index}_${k.replace(/\W/g, '')} ON ${index} (${col(k)})`);
  await c.query(`ANALYZE ${index}`);
  const v = (await c.query('SHOW server_version')).rows[0].server_version as string;
  return {
    proc,
    dir,
    client: c,
    index,
    note: `PostgreSQL ${v} over its wire protocol (node-postgres), loopback, fsync on, batches of ${BATCH} rows, GIN tsvector ('simple') + B-tree on ${(INDEXES[index] ?? []).join(',')} (built in load time)`,
    diskBytes: du(data),
  };
}

const q = async (h: PgHandle, name: string, text: string, values: unknown[]) =>
  (await h.client.query({ name, text, values })).rows as Row[];
const orQuery = (s: string) => s.split(/\s+/).filter(Boolean).join(' | ');

const queries: ServerPeer<PgHandle>['queries'] = {
  'debian.match': (h, p: Params) =>
    q(h, 'dm', `SELECT name, ts_rank(tsv, qq) AS score FROM debian, to_tsquery('simple', $1) qq WHERE tsv @@ qq ORDER BY score DESC LIMIT 10`, [orQuery(String(p.q))]), // prettier-ignore
  'debian.match_phrase': (h, p) =>
    q(h, 'dp', `SELECT name, ts_rank(tsv, qq) AS score FROM debian, phraseto_tsquery('simple', $1) qq WHERE tsv @@ qq ORDER BY score DESC LIMIT 10`, [p.phrase]), // prettier-ignore
  'debian.bool_range': (h, p) =>
    q(h, 'db', `SELECT name, ts_rank(tsv, qq) AS score FROM debian, to_tsquery('simple', $1) qq WHERE tsv @@ qq AND installed_size BETWEEN $2 AND $3 ORDER BY score DESC LIMIT 10`, [p.q, p.lo, p.hi]), // prettier-ignore
  'debian.count_term': (h, p) =>
    q(h, 'dc', `SELECT count(*)::int AS n FROM debian WHERE section = $1`, [p.section]),
  'logs.terms_avg': (h, p) =>
    q(h, 'lt', `SELECT country, count(*)::int AS c, avg(size)::float8 AS avg_size FROM logs WHERE status = $1 GROUP BY country ORDER BY c DESC LIMIT 10`, [p.status]), // prettier-ignore
  'logs.terms_avg_all': (h) =>
    q(h, 'la', `SELECT country, count(*)::int AS c, avg(size)::float8 AS avg_size FROM logs GROUP BY country ORDER BY c DESC LIMIT 10`, []), // prettier-ignore
  'logs.range_agg': (h, p) =>
    q(h, 'lr', `SELECT count(*) FILTER (WHERE size < 1000)::int AS b0, count(*) FILTER (WHERE size >= 1000 AND size < 10000)::int AS b1, count(*) FILTER (WHERE size >= 10000 AND size < 100000)::int AS b2, count(*) FILTER (WHERE size >= 100000)::int AS b3 FROM logs WHERE country = $1`, [p.country]), // prettier-ignore
  'logs.count_term': (h, p) =>
    q(h, 'lc', `SELECT count(*)::int AS n FROM logs WHERE status = $1`, [p.status]),
  'logs.sort_page': (h, p) =>
    q(h, 'ls', `SELECT * FROM logs ORDER BY size DESC LIMIT 10 OFFSET $1`, [p.from]),
  'accounts.terms_avg': (h, p) =>
    q(h, 'at', `SELECT state, count(*)::int AS c, avg(balance)::float8 AS avg_balance FROM accounts WHERE gender = $1 GROUP BY state ORDER BY c DESC LIMIT 10`, [p.gender]), // prettier-ignore
  'accounts.range_agg': (h, p) =>
    q(h, 'ar', `SELECT count(*) FILTER (WHERE balance < 10000)::int AS b0, count(*) FILTER (WHERE balance >= 10000 AND balance < 30000)::int AS b1, count(*) FILTER (WHERE balance >= 30000)::int AS b2 FROM accounts WHERE age BETWEEN $1 AND $2`, [p.age_lo, p.age_hi]), // prettier-ignore
  'accounts.sort_page': (h, p) =>
    q(h, 'as', `SELECT * FROM accounts WHERE age BETWEEN $1 AND $2 ORDER BY balance DESC LIMIT 10 OFFSET $3`, [p.age_lo, p.age_hi, p.from]), // prettier-ignore
  'accounts.count_term': (h, p) =>
    q(h, 'ac', `SELECT count(*)::int AS n FROM accounts WHERE state = $1`, [p.state]),
};

export const postgresPeer: ServerPeer<PgHandle> = {
  name: 'postgresql',
  available: () =>
    existsSync(join(BIN, 'postgres')) ? null : 'PostgreSQL 15 is not installed (postgresql-15)',
  load,
  queries,
  async close(h) {
    await h.client.end().catch(() => undefined);
    await h.proc.stop();
    rmSync(h.dir, { recursive: true, force: true });
  },
};
