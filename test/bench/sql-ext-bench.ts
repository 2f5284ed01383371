/**
 * `npm run bench -- --sql-ext`: the SQL extensions of issue 16 against one `bin/quarry` process,
 * medians over keep-alive HTTP `POST /_sql`:
 * - a JOIN of 100,000 `orders` × 1,000 `customers` (generated, seeded), grouped by the
 *   customer's region — two searches, a hash join, the grouping in memory;
 * - the same JOIN with a selective WHERE pushed into the customers' search;
 * - a LEFT JOIN of the same inputs (its left input probed page by page), grouped by tier;
 * - a UNION ALL of two grouped selects on the harness's logs data (the first 200,000 documents
 *   of `.bench/harness/data/out/logs.ndjson` by default, `--sql-ext-logs N` up to its 1M):
 *   counts and bytes per status, then per country — two composite aggregations, the union and
 *   its ORDER BY in memory;
 * - RANK() over the 1,000 groups of a GROUP BY on orders (one composite aggregation, then the
 *   window in memory).
 * Every answer is checked: the JOIN's grouped counts add up to the orders joined, and the UNION
 * ALL's rows equal the groups computed here from the loaded documents. Writes
 * reports/bench-sql-ext-<stamp>.md.
 *
 * Options: --sql-ext-orders N (100000), --sql-ext-customers N (1000), --sql-ext-logs N (200000),
 * --sql-ext-runs N (7).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { bulkBodies, loadBulk } from './bulk-load.js';
import { ensureLogs } from './harness.js';
import { cpuSeconds } from './proc-stats.js';
import { httpClient, startServerProcess } from './server-process.js';

export interface SqlExtBenchOptions {
  readonly orders: number;
  readonly customers: number;
  readonly logs: number;
  readonly runs: number;
}

export function sqlExtOptions(args: readonly string[]): SqlExtBenchOptions {
  const opt = (n: string, d: string) => {
    const i = args.indexOf(`--${n}`);
    return Number(i >= 0 ? args[i + 1]! : d);
  };
  return {
    orders: opt('sql-ext-orders', '100000'),
    customers: opt('sql-ext-customers', '1000'),
    logs: opt('sql-ext-logs', '200000'),
    runs: opt('sql-ext-runs', '7'),
  };
}

/** mulberry32: a small seeded PRNG, so every run loads the same data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGIONS = ['north', 'south', 'east', 'west', 'centre', 'islands', 'coast', 'hills'];
const TIERS = ['gold', 'silver', 'bronze', 'basic'];

/** The first n documents of the harness's logs data set, and its mapping from workload.json. */
function readLogs(root: string, n: number): { lines: string[]; mapping: Record<string, string> } {
  const harness = ensureLogs(root);
  const text = readFileSync(join(harness, 'data/out/logs.ndjson'), 'utf8');
  const lines: string[] = [];
  for (let at = 0; lines.length < n && at < text.length;) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    if (line.length > 0) lines.push(line);
    at = end < 0 ? text.length : end + 1;
  }
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8')) as {
    indices: { logs: { mappings: Record<string, string> } };
  };
  return { lines, mapping: workload.indices.logs.mappings };
}

/**
 * The UNION ALL's answer computed from the documents: [dim, key, count, bytes] per status (the
 * key as text) and per country, ordered by dim then key (ASCII keys: code-unit order is SQL's).
 */
export function expectedLogsUnion(lines: readonly string[]): unknown[][] {
  const groups = new Map<string, [string, string, number, number]>();
  for (const line of lines) {
    const d = JSON.parse(line) as { status: number; country: string; size: number };
    for (const [dim, key] of [
      ['status', String(d.status)],
      ['country', d.country],
    ] as const) {
      const g = groups.get(`${dim}\u0000${key}`) ?? [dim, key, 0, 0];
      g[2] += 1;
      g[3] += d.size;
      groups.set(`${dim}\u0000${key}`, g);
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups.values()].sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
}

/** Null when the rows are the expected ones, else the first difference. */
export function rowsDiff(got: readonly unknown[][], want: readonly unknown[][]): string | null {
  if (got.length !== want.length) return `${got.length} rows, expected ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    if (JSON.stringify(got[i]) !== JSON.stringify(want[i]))
      return `row ${i}: ${JSON.stringify(got[i])}, expected ${JSON.stringify(want[i])}`;
  }
  return null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export async function runSqlExtBench(root: string, o: SqlExtBenchOptions): Promise<string> {
  const rand = prng(16);
  const customers = Array.from({ length: o.customers }, (_, i) =>
    JSON.stringify({
      customer_id: i,
      region: REGIONS[Math.floor(rand() * REGIONS.length)],
      tier: TIERS[Math.floor(rand() * TIERS.length)],
    }),
  );
  const orders = Array.from({ length: o.orders }, (_, i) =>
    JSON.stringify({
      order_id: i,
      customer_id: Math.floor(rand() * o.customers),
      amount: Math.round(rand() * 100000) / 100,
    }),
  );
  const logs = readLogs(root, o.logs);
  const logsUnion = expectedLogsUnion(logs.lines);
  const data = mkdtempSync(join(tmpdir(), 'quarry-sql-ext-bench-'));
  const server = await startServerProcess(root, data);
  const url = `http://127.0.0.1:${server.port}`;
  const call = httpClient(server.port);
  const problems: string[] = [];
  const rows: string[] = [];
  try {
    const mapping = (props: Record<string, string>) => ({
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        _doc: {
          properties: Object.fromEntries(Object.entries(props).map(([k, t]) => [k, { type: t }])),
        },
      },
    });
    const made = [
      await call(
        'PUT',
        '/customers',
        mapping({ customer_id: 'integer', region: 'keyword', tier: 'keyword' }),
      ),
      await call(
        'PUT',
        '/orders',
        mapping({ order_id: 'integer', customer_id: 'integer', amount: 'double' }),
      ),
      await call('PUT', '/logs', mapping(logs.mapping)),
    ];
    for (const m of made) if (m.status !== 200) throw new Error(`create index: ${m.body}`);
    for (const [index, lines] of [
      ['customers', customers],
      ['orders', orders],
      ['logs', logs.lines],
    ] as const) {
      const r = await loadBulk([url], bulkBodies(lines, index, 5000), 2, 1);
      if (r.docsAcked !== lines.length)
        problems.push(`${index}: ${r.docsAcked}/${lines.length} acked`);
      problems.push(...r.problems);
    }
    await call('POST', '/_refresh');
    // the SQL session's in-memory limit must admit the orders input
    const limit = Math.max(o.orders, 100000);
    await call('PUT', '/_cluster/settings', { transient: { 'sql.join.max_rows': String(limit) } });
    const cases: Array<{
      name: string;
      query: string;
      check: (rows: unknown[][]) => string | null;
    }> = [
      {
        name: `JOIN ${o.orders} × ${o.customers}, GROUP BY region`,
        query:
          'SELECT c.region, COUNT(*) n, SUM(o.amount) s FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.region ORDER BY c.region',
        check: (r) => {
          const n = r.reduce((a, x) => a + Number(x[1]), 0);
          return n === o.orders ? null : `joined ${n} orders, expected ${o.orders}`;
        },
      },
      {
        name: `JOIN ${o.orders} × ${o.customers}, WHERE c.tier = 'gold' (pushed)`,
        query:
          "SELECT c.region, COUNT(*) n FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE c.tier = 'gold' GROUP BY c.region",
        check: (r) => (r.length > 0 ? null : 'no rows'),
      },
      {
        name: `LEFT JOIN ${o.orders} × ${o.customers} (left input streamed), GROUP BY tier`,
        query:
          'SELECT c.tier, COUNT(*) n FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.tier ORDER BY c.tier',
        check: (r) => {
          const n = r.reduce((a, x) => a + Number(x[1]), 0);
          return n === o.orders ? null : `joined ${n} orders, expected ${o.orders}`;
        },
      },
      {
        name: `UNION ALL of GROUP BY status and GROUP BY country over ${logs.lines.length} logs`,
        query:
          "SELECT 'status' AS dim, CAST(status AS VARCHAR) AS k, COUNT(*) AS n, SUM(size) AS bytes FROM logs GROUP BY status UNION ALL SELECT 'country', country, COUNT(*), SUM(size) FROM logs GROUP BY country ORDER BY 1, 2",
        check: (r) => rowsDiff(r, logsUnion),
      },
      {
        name: `RANK() over ${o.customers} groups of ${o.orders} orders`,
        query:
          'SELECT customer_id, SUM(amount) s, RANK() OVER (ORDER BY SUM(amount) DESC) r FROM orders GROUP BY customer_id ORDER BY r LIMIT 10',
        check: (r) => (r.length === 10 && r[0]![2] === 1 ? null : 'bad ranking'),
      },
    ];
    for (const c of cases) {
      const times: number[] = [];
      const cpu0 = cpuSeconds(server.pid);
      for (let i = 0; i < o.runs; i++) {
        const t0 = performance.now();
        const r = await call('POST', '/_sql?format=json', { query: c.query, fetch_size: 10000 });
        times.push(performance.now() - t0);
        if (r.status !== 200) {
          problems.push(`${c.name}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
          break;
        }
        const bad = c.check((JSON.parse(r.body) as { rows: unknown[][] }).rows);
        if (bad !== null) problems.push(`${c.name}: ${bad}`);
      }
      const cpuMs = ((cpuSeconds(server.pid) - cpu0) * 1000) / Math.max(times.length, 1);
      rows.push(
        `| ${c.name} | ${median(times).toFixed(1)} | ${Math.min(...times).toFixed(1)} | ${cpuMs.toFixed(0)} |`,
      );
    }
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
  const md = [
    `# SQL extensions bench (issue 16)`,
    '',
    `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load ${loadavg()[0]!.toFixed(2)}; ${o.runs} runs per query, HTTP keep-alive, one bin/quarry process.`,
    '',
    '| query | median ms | min ms | server CPU ms/query |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    '',
    problems.length === 0
      ? 'All answers checked.'
      : `Problems:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    '',
  ].join('\n');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(join(root, 'reports'), { recursive: true });
  writeFileSync(join(root, `reports/bench-sql-ext-${stamp}.md`), md);
  return md;
}
