/**
 * SQL JOIN (issue 16) end to end on a node with the QA data sets: the csv-spec cases of
 * fixtures/sql/spec/join.csv-spec through the SQL session, the same answers as H2 for self-joins
 * of test_emp, `/_sql` and `/_sql/translate` over HTTP routes, the `sql.join.max_rows` limit
 * (and its error golden), and the request circuit breaker accounting of held rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';
import { sqlNodeOf } from '../../../../src/http/routes/sql.js';
import { OverloadControl } from '../../../../src/http/overload.js';
import { SqlService } from '../../../../src/sql/execute/session.js';
import { loadSqlDatasets } from '../../../conformance/sql/datasets.js';
import { runCase, SPEC_NOW } from '../../../conformance/sql/runner.js';
import { parseCsvSpecFile } from '../../../conformance/sql/csv-spec-parser.js';
import { describeAgainstH2 } from './h2-answers.js';
import { expectGoldenJson, repoRoot } from '../../../helpers/golden.js';

type Dispatch = ReturnType<typeof createDispatcher>;

let dir: string;
let node: Awaited<ReturnType<typeof openNode>>;
let d: Dispatch;
let sql: SqlService;

/** Route bodies may be rendered text (`/_sql` formats its own): parsed back to JSON. */
const parsed = (b: unknown): Record<string, unknown> =>
  (typeof b === 'string' || Buffer.isBuffer(b) ? JSON.parse(b.toString()) : b) as Record<
    string,
    unknown
  >;

const callOn = async (disp: Dispatch, method: string, path: string, body?: unknown) => {
  const r = await disp(method as 'GET', path, body as object);
  return { status: r.status, body: parsed(r.body) };
};
const call = (method: string, path: string, body?: unknown) => callOn(d, method, path, body);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-sql-join-'));
  node = await openNode({ dataPath: dir, clusterName: 'elasticsearch' });
  d = createDispatcher(node.context);
  await loadSqlDatasets(call, 'main');
  sql = new SqlService(Object.assign(sqlNodeOf(node.context), { wallClock: () => SPEC_NOW }));
}, 120_000);

afterAll(async () => {
  await node?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SPEC = resolve(repoRoot, 'fixtures/sql/spec/join.csv-spec');

describe('join.csv-spec', () => {
  const cases = parseCsvSpecFile(SPEC, 'join');
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(12));
  for (const c of cases) {
    it(c.name, async () => {
      const r = await runCase(sql, c, 'join');
      expect(r.reason ?? '', c.query).toBe('');
      expect(r.status).toBe('passed');
    });
  }
});

/** Self-joins of test_emp, the one index H2 has; ORDER BY makes both answers comparable. */
const H2_QUERIES = [
  'SELECT e.emp_no, m.first_name FROM test_emp e JOIN test_emp m ON e.emp_no = m.emp_no WHERE e.emp_no < 10010 ORDER BY e.emp_no',
  'SELECT e.emp_no, m.emp_no AS other FROM test_emp e JOIN test_emp m ON e.languages = m.languages AND e.gender = m.gender WHERE e.emp_no < 10004 AND m.salary > 60000 ORDER BY e.emp_no, other',
  'SELECT e.emp_no, m.emp_no AS other FROM test_emp e LEFT JOIN test_emp m ON e.emp_no = m.emp_no + 1 WHERE e.emp_no < 10004 ORDER BY e.emp_no',
  'SELECT e.gender, COUNT(*) AS c, SUM(m.salary) AS s, MIN(m.emp_no) AS mi, MAX(m.emp_no) AS ma FROM test_emp e JOIN test_emp m ON e.languages = m.languages WHERE e.gender IS NOT NULL GROUP BY e.gender ORDER BY e.gender',
  'SELECT e.languages, COUNT(*) AS c FROM test_emp e LEFT JOIN (SELECT gender, MAX(salary) AS top FROM test_emp GROUP BY gender) t ON e.gender = t.gender AND e.salary = t.top GROUP BY e.languages HAVING COUNT(*) > 10 ORDER BY e.languages',
  'SELECT e.emp_no FROM test_emp e LEFT JOIN test_emp m ON e.emp_no = m.emp_no - 50 WHERE m.emp_no IS NULL ORDER BY e.emp_no DESC LIMIT 5',
];

describeAgainstH2('JOIN answers match H2', H2_QUERIES, () => sql);

describe('JOIN over HTTP', () => {
  it('POST /_sql runs a JOIN and /_sql/translate shows both searches', async () => {
    const q =
      'SELECT e.first_name, c.last_name FROM test_emp e JOIN test_emp_copy c ON e.emp_no = c.emp_no WHERE e.emp_no = 10001';
    const r = await call('POST', '/_sql?format=json', { query: q });
    expect(r.status).toBe(200);
    expect(r.body.rows).toEqual([['Georgi', 'Facello']]);
    const t = await call('POST', '/_sql/translate', { query: q });
    expect(t.status).toBe(200);
    const body = t.body as {
      join: { type: string; in_memory: string[] };
      left: { index: string; search: { query: unknown } };
      right: { index: string };
    };
    expect(body.join.type).toBe('INNER');
    expect(body.left.index).toBe('test_emp');
    expect(body.right.index).toBe('test_emp_copy');
    expect(JSON.stringify(body.left.search.query)).toContain('10001');
  });

  it('EXPLAIN shows the join, its inputs and what runs in memory', async () => {
    const r = await call('POST', '/_sql?format=json', {
      query:
        'EXPLAIN SELECT e.gender, COUNT(*) FROM test_emp e JOIN test_emp_copy c ON e.emp_no = c.emp_no GROUP BY e.gender',
    });
    const plan = (r.body.rows as string[][])[0]![0]!;
    expect(plan).toContain('Join[INNER,');
    expect(plan).toContain('"in_memory"');
    expect(plan).toContain('EsRelation[test_emp_copy]');
  });

  it('pages a joined result with a cursor', async () => {
    const first = await sql.execute({
      query:
        'SELECT e.emp_no FROM test_emp e JOIN test_emp_copy c ON e.emp_no = c.emp_no ORDER BY e.emp_no',
      fetchSize: 40,
    });
    expect(first.rows.length).toBe(40);
    const second = await sql.execute({ cursor: first.cursor! });
    expect(second.rows[0]).toEqual([10041]);
  });

  it('refuses an input past sql.join.max_rows with an error golden', async () => {
    const set = await call('PUT', '/_cluster/settings', {
      transient: { 'sql.join.max_rows': '50' },
    });
    expect(set.status).toBe(200);
    try {
      const r = await call('POST', '/_sql', {
        query:
          'SELECT COUNT(*) FROM test_emp e JOIN test_emp_copy c ON e.emp_no = c.emp_no WHERE c.emp_no < 10040',
      });
      expectGoldenJson(resolve(repoRoot, 'fixtures/sql/spec/join-max-rows.error.json'), {
        status: r.status,
        body: r.body,
      });
      // within the limit on both sides: answered
      const ok = await call('POST', '/_sql?format=json', {
        query:
          'SELECT COUNT(*) FROM test_emp e JOIN test_emp_copy c ON e.emp_no = c.emp_no WHERE c.emp_no < 10040 AND e.emp_no < 10030',
      });
      expect(ok.body.rows).toEqual([[29]]);
    } finally {
      await call('PUT', '/_cluster/settings', { transient: { 'sql.join.max_rows': null } });
    }
  });

  it('rejects a bad sql.join.max_rows value', async () => {
    const r = await call('PUT', '/_cluster/settings', { transient: { 'sql.join.max_rows': '0' } });
    expect(r.status).toBe(400);
  });
});

describe('LEFT JOIN streams its left input', () => {
  it('probes a left input of several pages as they arrive: every row once', async () => {
    // 25,000 left rows: three pages of JOIN_PAGE_SIZE (10,000), half of them without a match
    const lines: string[] = [];
    for (let i = 0; i < 25_000; i++) {
      lines.push(JSON.stringify({ index: { _index: 'lj_big', _type: '_doc' } }));
      lines.push(JSON.stringify({ id: i, k: i % 1000 }));
    }
    for (let k = 0; k < 500; k++) {
      lines.push(JSON.stringify({ index: { _index: 'lj_small', _type: '_doc' } }));
      lines.push(JSON.stringify({ k, name: `n${k}` }));
    }
    const b = await call('POST', '/_bulk?refresh=true', (lines.join('\n') + '\n') as never);
    expect(b.status).toBe(200);
    try {
      const r = await call('POST', '/_sql?format=json', {
        query:
          'SELECT COUNT(*) n, COUNT(s.name) matched, SUM(b.id) ids, SUM(s.k) ks FROM lj_big b LEFT JOIN lj_small s ON b.k = s.k',
      });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      // ks: each k < 500 matched by 25 left rows
      expect(r.body.rows).toEqual([
        [25_000, 12_500, (25_000 * 24_999) / 2, 25 * ((500 * 499) / 2)],
      ]);
      const some = await call('POST', '/_sql?format=json', {
        query:
          'SELECT b.id, s.name FROM lj_big b LEFT JOIN lj_small s ON b.k = s.k WHERE b.id IN (499, 500, 24999) ORDER BY b.id',
      });
      expect(some.body.rows).toEqual([
        [499, 'n499'],
        [500, null],
        [24999, null],
      ]);
    } finally {
      await call('DELETE', '/lj_big,lj_small');
    }
  }, 60_000);

  it('refuses a left input past sql.join.max_rows while streaming it', async () => {
    await call('PUT', '/_cluster/settings', { transient: { 'sql.join.max_rows': '50' } });
    try {
      const r = await call('POST', '/_sql', {
        query:
          'SELECT COUNT(*) FROM test_emp e LEFT JOIN (SELECT emp_no FROM test_emp_copy WHERE emp_no < 10040) c ON e.emp_no = c.emp_no',
      });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain(
        'The left input of the JOIN [test_emp] has more than [50] rows',
      );
    } finally {
      await call('PUT', '/_cluster/settings', { transient: { 'sql.join.max_rows': null } });
    }
  });
});

describe('JOIN and the request circuit breaker', () => {
  let small: Awaited<ReturnType<typeof openNode>> | null = null;
  let sdir = '';
  afterAll(async () => {
    await small?.close();
    if (sdir) rmSync(sdir, { recursive: true, force: true });
  });
  it('trips the request breaker when the held rows pass its limit', async () => {
    sdir = mkdtempSync(join(tmpdir(), 'quarry-sql-join-breaker-'));
    small = await openNode({
      dataPath: sdir,
      settings: { 'indices.breaker.request.limit': '64kb' },
    });
    // the HTTP app creates the node's breakers (app.ts): this test has no HTTP server
    small.context.overload ??= new OverloadControl(small.context.settings.raw, 'small');
    const sd = createDispatcher(small.context);
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      lines.push(JSON.stringify({ index: { _index: 'a', _type: '_doc', _id: String(i) } }));
      lines.push(JSON.stringify({ k: i, pad: 'x'.repeat(40) }));
      lines.push(JSON.stringify({ index: { _index: 'b', _type: '_doc', _id: String(i) } }));
      lines.push(JSON.stringify({ k: i }));
    }
    const b = await sd('POST', '/_bulk?refresh=true', (lines.join('\n') + '\n') as never);
    expect(b.status, JSON.stringify(b.body).slice(0, 300)).toBe(200);
    const r = await callOn(sd, 'POST', '/_sql', {
      query: 'SELECT COUNT(*) FROM a JOIN b ON a.k = b.k WHERE a.pad IS NOT NULL',
    });
    expect(r.status).toBe(429);
    expect(JSON.stringify(r.body)).toContain('circuit_breaking_exception');
    // a join whose rows fit is answered
    const ok = await callOn(sd, 'POST', '/_sql?format=json', {
      query: 'SELECT COUNT(*) FROM a JOIN b ON a.k = b.k WHERE a.k < 20 AND b.k < 20',
    });
    expect(ok.body.rows).toEqual([[20]]);
  }, 60_000);
});
