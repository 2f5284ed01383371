/**
 * The in-memory parts of JOIN and window functions (issue 16) on hand-made rows, planned from SQL
 * against the fixture catalog: hash join semantics (NULL keys, duplicates, LEFT padding, build
 * side choice) and window semantics (ties, NULL ordering, running frames, LAG/LEAD defaults).
 */
import { describe, expect, it } from 'vitest';
import { parseSql } from '../../../../src/sql/parse.js';
import { planQuery, type QueryPlan } from '../../../../src/sql/translate/index.js';
import { hashJoin } from '../../../../src/sql/execute/hash-join.js';
import { windowsOver } from '../../../../src/sql/execute/window.js';
import { layoutOf } from '../../../../src/sql/execute/in-memory.js';
import { planOutput } from '../../../../src/sql/plan/logical.js';
import { fixtureCatalog, fixtureConfig } from '../translate/fixture-catalog.js';

const cfg = fixtureConfig();

function plan(sql: string): QueryPlan {
  const stmt = parseSql(sql);
  if (stmt.kind !== 'Query') throw new Error('not a query');
  return planQuery(stmt, { catalog: fixtureCatalog, cfg, sql, zoneId: 'Z' });
}

describe('hashJoin', () => {
  const p = plan('SELECT e.emp_no, m.salary FROM test_emp e JOIN emp m ON e.emp_no = m.emp_no');
  const j = p.join!;

  it('reads only the columns the query uses', () => {
    expect(j.split.left.attrs.map((a) => a.name)).toEqual(['emp_no']);
    expect(j.split.right.attrs.map((a) => a.name)).toEqual(['emp_no', 'salary']);
  });

  it('matches equal keys, duplicates multiply, NULL keys match nothing', () => {
    const left = [[1], [2], [2], [null], [4]];
    const right = [
      [1, 10],
      [2, 20],
      [2, 21],
      [null, 99],
      [3, 30],
    ];
    const out = hashJoin(j, left, right, cfg);
    expect(out).toEqual([
      [1, 1, 10],
      [2, 2, 20],
      [2, 2, 21],
      [2, 2, 20],
      [2, 2, 21],
    ]);
  });

  it('builds on the smaller input of an INNER join and keeps left-then-right columns', () => {
    const left = [[1]];
    const right = [
      [1, 10],
      [1, 11],
      [5, 50],
    ];
    expect(hashJoin(j, left, right, cfg)).toEqual([
      [1, 1, 10],
      [1, 1, 11],
    ]);
  });

  it('pads unmatched rows of a LEFT join with NULLs', () => {
    const l = plan(
      'SELECT e.emp_no, m.salary FROM test_emp e LEFT JOIN emp m ON e.emp_no = m.emp_no',
    ).join!;
    expect(hashJoin(l, [[1], [null], [7]], [[1, 10]], cfg)).toEqual([
      [1, 1, 10],
      [null, null, null],
      [7, null, null],
    ]);
  });

  it('joins integral and floating keys of equal value', () => {
    const k = plan('SELECT e.emp_no FROM test_emp e JOIN emp m ON e.emp_no = m.salary').join!;
    expect(hashJoin(k, [[3]], [[3.0]], cfg)).toEqual([[3, 3.0]]);
  });
});

function windowRows(sql: string, rows: unknown[][]): unknown[][] {
  const p = plan(sql);
  const w = p.window!;
  const layout = layoutOf(planOutput(w.inner.optimized));
  return windowsOver(w.split, { layout, rows }, cfg).rows;
}

describe('window functions in memory', () => {
  it('ROW_NUMBER, RANK and DENSE_RANK on ties, NULLs last ascending', () => {
    // inner columns: emp_no, then the hidden window input (languages)
    const rows = windowRows(
      'SELECT emp_no, ROW_NUMBER() OVER (ORDER BY languages, emp_no) rn, RANK() OVER (ORDER BY languages) r, DENSE_RANK() OVER (ORDER BY languages) d FROM test_emp',
      [
        [1, 5, 5],
        [2, 3, 3],
        [3, null, null],
        [4, 3, 3],
      ].map(([e, l]) => [e, l, e]),
    );
    expect(rows).toEqual([
      [1, 3, 3, 2],
      [2, 1, 1, 1],
      [3, 4, 4, 3],
      [4, 2, 1, 1],
    ]);
  });

  it('running SUM includes peers; whole-partition COUNT without ORDER BY', () => {
    const rows = windowRows(
      'SELECT emp_no, SUM(salary) OVER (ORDER BY languages) s, COUNT(*) OVER (PARTITION BY gender) c FROM test_emp',
      // emp_no, salary, languages, gender (the hidden inputs in first-use order)
      [
        [1, 10, 1, 'F'],
        [2, 20, 2, 'M'],
        [3, 30, 2, 'F'],
        [4, null, 3, 'F'],
      ],
    );
    expect(rows).toEqual([
      [1, 10, 3],
      [2, 60, 1],
      [3, 60, 3],
      [4, 60, 3],
    ]);
  });

  it('LAG and LEAD with offset and default stay inside the partition', () => {
    const rows = windowRows(
      'SELECT emp_no, LAG(salary) OVER (PARTITION BY gender ORDER BY emp_no) p, LEAD(salary, 1, -1) OVER (PARTITION BY gender ORDER BY emp_no) n FROM test_emp',
      [
        [1, 10, 'F', 1],
        [2, 20, 'M', 2],
        [3, 30, 'F', 3],
      ],
    );
    expect(rows).toEqual([
      [1, null, 30],
      [2, null, -1],
      [3, 10, -1],
    ]);
  });
});
