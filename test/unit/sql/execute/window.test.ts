/**
 * Window functions (issue 16) end to end on a node with the QA data sets: the csv-spec cases of
 * fixtures/sql/spec/window.csv-spec through the SQL session, the same answers as H2 (window
 * functions over test_emp, plain and grouped), and `/_sql/translate` showing the one search and
 * the steps run in memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import {
  runCase,
  SPEC_NOW,
  startSpecNode,
  type SpecNode,
} from '../../../conformance/sql/runner.js';
import { parseCsvSpecFile } from '../../../conformance/sql/csv-spec-parser.js';
import { describeAgainstH2 } from './h2-answers.js';
import { repoRoot } from '../../../helpers/golden.js';
import { EsError } from '../../../../src/common/errors.js';

let node: SpecNode;

beforeAll(async () => {
  node = await startSpecNode('main', SPEC_NOW);
}, 120_000);

afterAll(async () => {
  await node?.close();
});

describe('window.csv-spec', () => {
  const cases = parseCsvSpecFile(resolve(repoRoot, 'fixtures/sql/spec/window.csv-spec'), 'window');
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(8));
  for (const c of cases) {
    it(c.name, async () => {
      const r = await runCase(node.sql, c, 'window');
      expect(r.reason ?? '', c.query).toBe('');
      expect(r.status).toBe('passed');
    });
  }
});

/** Deterministic orders (ties broken by emp_no) so both answers compare row by row. */
const H2_QUERIES = [
  'SELECT emp_no, ROW_NUMBER() OVER (PARTITION BY gender ORDER BY salary DESC, emp_no) AS rn FROM test_emp WHERE gender IS NOT NULL ORDER BY emp_no',
  'SELECT emp_no, RANK() OVER (ORDER BY languages) AS r, DENSE_RANK() OVER (ORDER BY languages) AS d FROM test_emp WHERE languages IS NOT NULL ORDER BY emp_no',
  'SELECT emp_no, LAG(salary) OVER (ORDER BY emp_no) AS p, LEAD(salary, 3, -1) OVER (ORDER BY emp_no) AS n FROM test_emp ORDER BY emp_no',
  'SELECT emp_no, SUM(salary) OVER (PARTITION BY languages) AS s, COUNT(*) OVER (PARTITION BY languages ORDER BY emp_no) AS c FROM test_emp WHERE languages IS NOT NULL ORDER BY emp_no',
  'SELECT emp_no, MIN(salary) OVER (ORDER BY emp_no) AS mi, MAX(salary) OVER (PARTITION BY gender) AS ma FROM test_emp WHERE gender IS NOT NULL ORDER BY emp_no',
  'SELECT languages, COUNT(*) AS c, RANK() OVER (ORDER BY COUNT(*) DESC) AS r FROM test_emp WHERE languages IS NOT NULL GROUP BY languages ORDER BY languages',
  'SELECT emp_no, RANK() OVER (ORDER BY salary DESC) AS r FROM test_emp ORDER BY r LIMIT 5',
];

describeAgainstH2('window function answers match H2', H2_QUERIES, () => node.sql);

describe('window functions in translate and errors', () => {
  it('_sql/translate shows the search, the windows and the in-memory steps', () => {
    const body = node.sql.translate({
      query:
        'SELECT gender, COUNT(*) c, RANK() OVER (ORDER BY COUNT(*) DESC) r FROM test_emp GROUP BY gender ORDER BY r',
    }) as {
      window: { functions: string[]; in_memory: string[] };
      search: { aggregations: unknown };
    };
    expect(body.window.functions).toEqual(['RANK() OVER (ORDER BY COUNT(*) DESC)']);
    expect(body.window.in_memory[body.window.in_memory.length - 1]).toMatch(/^Window\[/);
    expect(body.window.in_memory[0]).toMatch(/^OrderBy/);
    expect(JSON.stringify(body.search.aggregations)).toContain('composite');
  });

  it('refuses a window inside an expression', async () => {
    const e = await node.sql
      .execute({ query: 'SELECT ROW_NUMBER() OVER (ORDER BY emp_no) + 1 FROM test_emp' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EsError);
    expect((e as EsError).toBody()).toMatchObject({ status: 400 });
  });

  it('keeps `over` usable as an alias', async () => {
    const r = await node.sql.execute({ query: 'SELECT COUNT(*) over FROM test_emp' });
    expect(r.columns?.[0]?.name).toBe('over');
    expect(r.rows).toEqual([[100]]);
  });
});
