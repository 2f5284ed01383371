/**
 * `npx tsx test/conformance/sql/bench-sql.ts [--docs N] [--runs N]`: SQL figures (a measurement
 * script, not a test). (1) translate throughput over the mixed statements of the translate goldens
 * (fixtures/sql/translate/**.sql), parse+translate and translate of parsed statements; (2) median
 * latency of a GROUP BY + HAVING query on N (100,000) generated docs, through `POST /_sql` on an
 * in-process node and through the SQL service alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openNode } from '../../../src/node.js';
import { createDispatcher } from '../../../src/http/dispatcher.js';
import { sqlNodeOf } from '../../../src/http/routes/sql.js';
import { SqlService } from '../../../src/sql/execute/session.js';
import { parseSql } from '../../../src/sql/parse.js';
import { translateQuery } from '../../../src/sql/translate/index.js';
import { findFiles, readText, repoRoot } from '../../helpers/golden.js';
import { fixtureCatalog, fixtureConfig } from '../../unit/sql/translate/fixture-catalog.js';

const args = process.argv.slice(2);
const opt = (n: string, d: number) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const DOCS = opt('docs', 100_000);
const RUNS = opt('runs', 25);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

// ---- (1) translate throughput
function translateBench(): void {
  const files = findFiles(resolve(repoRoot, 'fixtures/sql/translate'), '.sql');
  const statements = files.map(readText);
  const cfg = fixtureConfig();
  const run = (sql: string, parsed?: ReturnType<typeof parseSql>) => {
    const stmt = parsed ?? parseSql(sql);
    if (stmt.kind !== 'Query') throw new Error('not a query');
    translateQuery(stmt, {
      catalog: fixtureCatalog,
      cfg,
      sql,
      zoneId: 'Z',
      fetchSize: 1000,
      filter: null,
    });
  };
  for (let i = 0; i < 3; i++) for (const s of statements) run(s); // warm up
  const measure = (f: () => void) => {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 3000) {
      f();
      n += statements.length;
    }
    return (n * 1000) / (performance.now() - t0);
  };
  const full = measure(() => statements.forEach((s) => run(s)));
  const parsed = statements.map((s) => parseSql(s));
  const only = measure(() => statements.forEach((s, i) => run(s, parsed[i])));
  console.log(`translate: ${statements.length} mixed statements (the translate goldens)`);
  console.log(
    `  parse + analyze + optimize + fold + search source: ${full.toFixed(0)} statements/s`,
  );
  console.log(
    `  analyze + optimize + fold + search source:         ${only.toFixed(0)} statements/s`,
  );
}

// ---- (2) GROUP BY + HAVING on DOCS docs
async function groupByBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-sql-bench-'));
  const node = await openNode({ dataPath: dir });
  try {
    const d = createDispatcher(node.context);
    const created = await d('PUT', '/big', {
      settings: { number_of_shards: 1 },
      mappings: {
        _doc: {
          properties: {
            dept: { type: 'keyword' },
            region: { type: 'keyword' },
            salary: { type: 'integer' },
            rating: { type: 'double' },
          },
        },
      },
    } as object);
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const t0 = performance.now();
    const BATCH = 5000;
    for (let start = 0; start < DOCS; start += BATCH) {
      const lines: string[] = [];
      for (let i = start; i < Math.min(DOCS, start + BATCH); i++) {
        lines.push('{"index":{}}');
        lines.push(
          JSON.stringify({
            dept: `d${Math.floor(rnd() * 200)}`,
            region: `r${Math.floor(rnd() * 8)}`,
            salary: 20000 + Math.floor(rnd() * 80000),
            rating: Math.round(rnd() * 500) / 100,
          }),
        );
      }
      const r = await d('POST', '/big/_doc/_bulk', (lines.join('\n') + '\n') as never);
      if (r.status !== 200) throw new Error(`bulk: ${r.status}`);
    }
    await d('POST', '/big/_refresh');
    console.log(`loaded ${DOCS} docs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const query =
      'SELECT dept, COUNT(*) AS c, AVG(salary) AS avg_salary, MAX(rating) AS top FROM big GROUP BY dept HAVING COUNT(*) > 450 ORDER BY dept';
    const sql = new SqlService(sqlNodeOf(node.context));
    const viaRest = async () => {
      const r = await d('POST', '/_sql', { query, fetch_size: 1000 } as object);
      if (r.status !== 200) throw new Error(JSON.stringify(r.body));
      const body = typeof r.body === 'string' ? JSON.parse(r.body) : r.body;
      return (body as { rows: unknown[] }).rows.length;
    };
    const viaService = async () => (await sql.execute({ query, fetchSize: 1000 })).rows.length;
    const groups = await viaRest();
    for (let i = 0; i < 3; i++) {
      await viaRest();
      await viaService();
    }
    const rest: number[] = [];
    const service: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await viaRest();
      rest.push(performance.now() - t);
      t = performance.now();
      await viaService();
      service.push(performance.now() - t);
    }
    console.log(`GROUP BY + HAVING on ${DOCS} docs (${groups} groups returned), ${RUNS} runs:`);
    console.log(`  ${query}`);
    console.log(`  POST /_sql (in-process router): median ${median(rest).toFixed(1)} ms`);
    console.log(`  SQL service only:               median ${median(service).toFixed(1)} ms`);
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

translateBench();
await groupByBench();
