/**
 * sphinxsearch (Debian's 2.2) as a bench peer: `searchd` on loopback with real-time indexes,
 * documents inserted and queried with SphinxQL over its MySQL protocol (mysql2). Durable like
 * Quarry's acknowledged writes: the binlog is flushed and synced at every transaction
 * (`binlog_flush = 1`). Ranking is Sphinx's BM25 ranker; text is lower-cased and split on
 * non-letters and digits (its default charset table), without stemming or stop words.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import type { Params, PeerHandle, Row, ServerPeer, WorkloadIndex } from './peer-types.js';
import { freePort, startProc, waitReady, type Proc } from './server-proc.js';

const SEARCHD = '/usr/bin/searchd';
const BATCH = 1000;

interface SphinxHandle extends PeerHandle {
  proc: Proc;
  dir: string;
  conn: mysql.Connection;
  index: string;
}

/** Sphinx attribute types; the text field of debian is a full-text field as well. */
function attrLines(spec: WorkloadIndex): string[] {
  const out: string[] = [];
  for (const [k, t] of Object.entries(spec.mappings)) {
    const name = attr(k);
    if (t === 'text') out.push(`rt_field = ${name}`, `rt_attr_string = ${name}_s`);
    else if (t === 'long') out.push(`rt_attr_bigint = ${name}`);
    else if (t === 'integer') out.push(`rt_attr_uint = ${name}`);
    else if (t === 'date') out.push(`rt_attr_timestamp = ${name}`);
    else out.push(`rt_attr_string = ${name}`);
  }
  return out;
}
/** `@timestamp` is not a valid Sphinx identifier. */
const attr = (k: string) => k.replace(/\W/g, '') || 'f';

function config(dir: string, port: number, index: string, spec: WorkloadIndex): string {
  return [
    `index ${index}`,
    '{',
    '  type = rt',
    `  path = ${join(dir, index)}`,
    '  rt_mem_limit = 512M',
    '  min_word_len = 1',
    ...attrLines(spec).map((l) => `  ${l}`),
    '}',
    'searchd',
    '{',
    `  listen = 127.0.0.1:${port}:mysql41`,
    `  log = ${join(dir, 'searchd.log')}`,
    `  query_log = ${join(dir, 'query.log')}`,
    `  pid_file = ${join(dir, 'searchd.pid')}`,
    `  binlog_path = ${dir}`,
    '  binlog_flush = 1',
    '  workers = threads',
    '  max_packet_size = 32M',
    '  max_matches = 1000',
    '}',
    '',
  ].join('\n');
}

function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return n;
}

const sqlValue = (conn: mysql.Connection, v: unknown, t: string | undefined): string => {
  if (v === null || v === undefined) return t === 'long' || t === 'integer' || t === 'date' ? '0' : "''"; // prettier-ignore
  if (t === 'date') return String(Math.floor(Date.parse(String(v)) / 1000));
  if (t === 'long' || t === 'integer') return String(Math.trunc(Number(v)));
  return conn.escape(String(v));
};

async function load(index: string, docs: Row[], spec: WorkloadIndex): Promise<SphinxHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-sphinx-'));
  const port = await freePort();
  const conf = join(dir, 'sphinx.conf');
  writeFileSync(conf, config(dir, port, index, spec));
  const proc = startProc(SEARCHD, ['--config', conf, '--nodetach']);
  let conn: mysql.Connection | undefined;
  await waitReady(proc, async () => {
    conn = await mysql.createConnection({ host: '127.0.0.1', port });
  });
  const c = conn!;
  const m = spec.mappings;
  const cols: string[] = [];
  const getters: Array<(d: Row) => string> = [];
  for (const [k, t] of Object.entries(m)) {
    cols.push(attr(k));
    getters.push((d) => sqlValue(c, d[k], t));
    if (t === 'text') {
      cols.push(`${attr(k)}_s`);
      getters.push((d) => sqlValue(c, d[k], 'keyword'));
    }
  }
  const head = `INSERT INTO ${index} (id, ${cols.join(', ')}) VALUES `;
  for (let i = 0; i < docs.length; i += BATCH) {
    const rows: string[] = [];
    for (let j = i; j < Math.min(docs.length, i + BATCH); j++)
      rows.push(`(${j + 1}, ${getters.map((g) => g(docs[j]!)).join(', ')})`);
    await c.query(head + rows.join(', '));
  }
  // The RAM chunk to disk, as a refresh+flush would: queries then read the disk chunk too.
  await c.query(`FLUSH RTINDEX ${index}`);
  const version = /Sphinx (\S+)/.exec(
    spawnSync(SEARCHD, ['--help'], { encoding: 'utf8' }).stdout,
  )?.[1];
  return {
    proc,
    dir,
    conn: c,
    index,
    note: `sphinxsearch ${version ?? '?'} RT index over SphinxQL (mysql2), loopback, binlog_flush=1, batches of ${BATCH} rows, ranker=bm25`,
    diskBytes: du(dir),
  };
}

const run = async (h: SphinxHandle, sql: string, values: unknown[] = []) => {
  const [rows] = await h.conn.query(h.conn.format(sql, values));
  return rows as Row[];
};
const orMatch = (s: string) =>
  s
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => t.replace(/[^\p{L}\p{N}]/gu, ''))
    .join(' | ');
const phrase = (s: string) => `"${s.replace(/[^\p{L}\p{N} ]/gu, ' ')}"`;
/** Sphinx returns grouped rows of INTERVAL(): turn them into the b0..bn columns of one row. */
const buckets = (rows: Row[], n: number): Row[] => {
  const one: Row = {};
  for (let i = 0; i < n; i++) one[`b${i}`] = 0;
  for (const r of rows) one[`b${Number(r.b)}`] = Number(r.c);
  return [one];
};

/** Sphinx's AVG() is single-precision: the mean is taken from its exact 64-bit SUM and COUNT. */
const withAvg = (rows: Row[], key: string, avg: string): Row[] =>
  rows.map((r) => ({ [key]: r[key], c: Number(r.c), [avg]: Number(r.s) / Number(r.c) }));

const queries: ServerPeer<SphinxHandle>['queries'] = {
  'debian.match': (h, p: Params) =>
    run(h, `SELECT name, WEIGHT() AS score FROM debian WHERE MATCH(?) ORDER BY score DESC LIMIT 10 OPTION ranker=bm25`, [orMatch(String(p.q))]), // prettier-ignore
  'debian.match_phrase': (h, p) =>
    run(h, `SELECT name, WEIGHT() AS score FROM debian WHERE MATCH(?) ORDER BY score DESC LIMIT 10 OPTION ranker=bm25`, [phrase(String(p.phrase))]), // prettier-ignore
  'debian.bool_range': (h, p) =>
    run(h, `SELECT name, WEIGHT() AS score FROM debian WHERE MATCH(?) AND installed_size BETWEEN ? AND ? ORDER BY score DESC LIMIT 10 OPTION ranker=bm25`, [orMatch(String(p.q)), p.lo, p.hi]), // prettier-ignore
  'debian.count_term': (h, p) =>
    run(h, `SELECT COUNT(*) AS n FROM debian WHERE section = ?`, [p.section]),
  'logs.terms_avg': async (h, p) =>
    withAvg(await run(h, `SELECT country, COUNT(*) AS c, SUM(size) AS s FROM logs WHERE status = ? GROUP BY country ORDER BY c DESC LIMIT 10`, [p.status]), 'country', 'avg_size'), // prettier-ignore
  'logs.terms_avg_all': async (h) =>
    withAvg(await run(h, `SELECT country, COUNT(*) AS c, SUM(size) AS s FROM logs GROUP BY country ORDER BY c DESC LIMIT 10`), 'country', 'avg_size'), // prettier-ignore
  'logs.range_agg': async (h, p) =>
    buckets(await run(h, `SELECT INTERVAL(size, 1000, 10000, 100000) AS b, COUNT(*) AS c FROM logs WHERE country = ? GROUP BY b LIMIT 10`, [p.country]), 4), // prettier-ignore
  'logs.count_term': (h, p) =>
    run(h, `SELECT COUNT(*) AS n FROM logs WHERE status = ?`, [p.status]),
  'logs.sort_page': (h, p) => run(h, `SELECT * FROM logs ORDER BY size DESC LIMIT ?, 10`, [p.from]),
  'accounts.terms_avg': async (h, p) =>
    withAvg(await run(h, `SELECT state, COUNT(*) AS c, SUM(balance) AS s FROM accounts WHERE gender = ? GROUP BY state ORDER BY c DESC LIMIT 10`, [p.gender]), 'state', 'avg_balance'), // prettier-ignore
  'accounts.range_agg': async (h, p) =>
    buckets(await run(h, `SELECT INTERVAL(balance, 10000, 30000) AS b, COUNT(*) AS c FROM accounts WHERE age BETWEEN ? AND ? GROUP BY b LIMIT 10`, [p.age_lo, p.age_hi]), 3), // prettier-ignore
  'accounts.sort_page': (h, p) =>
    run(h, `SELECT * FROM accounts WHERE age BETWEEN ? AND ? ORDER BY balance DESC LIMIT ?, 10`, [p.age_lo, p.age_hi, p.from]), // prettier-ignore
  'accounts.count_term': (h, p) =>
    run(h, `SELECT COUNT(*) AS n FROM accounts WHERE state = ?`, [p.state]),
};

export const sphinxPeer: ServerPeer<SphinxHandle> = {
  name: 'sphinxsearch',
  available: () => (existsSync(SEARCHD) ? null : 'sphinxsearch is not installed (sphinxsearch)'),
  load,
  queries,
  async close(h) {
    await h.conn.end().catch(() => undefined);
    await h.proc.stop();
    rmSync(h.dir, { recursive: true, force: true });
  },
};
