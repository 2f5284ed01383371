/**
 * `npm run bench -- --sql-ext`: the SQL extensions of issue 16 against one `bin/quarry` process,
 * medians over keep-alive HTTP `POST /_sql`:
 * - a JOIN of 100,000 `orders` × 1,000 `customers` (generated, seeded), grouped by the
 *   customer's region — two searches, a hash join, the grouping in memory;
 * - the same JOIN with a selective WHERE pushed into the customers' search;
 * - a UNION ALL of two grouped selects over the orders;
 * - RANK() over the 1,000 groups of a GROUP BY on orders (one composite aggregation, then the
 *   window in memory).
 * Every answer is checked (the grouped counts add up to the orders joined). UNION ALL is another
 * helper's branch (h16-sql-set) and is not measured here. Writes reports/bench-sql-ext-<stamp>.md.
 *
 * Options: --sql-ext-orders N (100000), --sql-ext-customers N (1000), --sql-ext-runs N (7).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { bulkBodies, loadBulk } from './bulk-load.js';
import { cpuSeconds } from './proc-stats.js';
import { httpClient, startServerProcess } from './server-process.js';

export interface SqlExtBenchOptions {
  readonly orders: number;
  readonly customers: number;
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
    ];
    for (const m of made) if (m.status !== 200) throw new Error(`create index: ${m.body}`);
    for (const [index, lines] of [
      ['customers', customers],
      ['orders', orders],
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
        name: `UNION ALL of two grouped selects over ${o.orders} orders`,
        query:
          'SELECT customer_id % 10 k, COUNT(*) n FROM orders WHERE amount < 500 GROUP BY customer_id % 10 UNION ALL SELECT customer_id % 10, COUNT(*) FROM orders WHERE amount >= 500 GROUP BY customer_id % 10 ORDER BY 1, 2',
        check: (r) => {
          const n = r.reduce((a, x) => a + Number(x[1]), 0);
          return r.length === 20 && n === o.orders ? null : `${r.length} rows, ${n} orders`;
        },
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
