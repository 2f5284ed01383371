/**
 * OFFSET / LIMIT n OFFSET m / FETCH FIRST (EXTENSION, issue 16): the same rows as slicing the
 * un-offset result, whether the DSL skips them (`from`) or execution does (scrolls, composite
 * buckets, in-memory sorts), and across cursor pages.
 */
import { describe, expect, it } from 'vitest';
import { useExtNode } from './ext-node.js';

const run = useExtNode();

const all = 'SELECT emp_no, first_name FROM test_emp ORDER BY emp_no';
const grouped = 'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages ORDER BY languages';

describe('OFFSET on plain queries', () => {
  it('LIMIT n OFFSET m runs as `from` and matches the slice', async () => {
    const base = await run(`${all} LIMIT 100`);
    const r = await run(`${all} LIMIT 10 OFFSET 5`);
    expect(r.rows).toEqual(base.rows.slice(5, 15));
    const dsl = run.translate(`${all} LIMIT 10 OFFSET 5`);
    expect(dsl.from).toBe(5);
    expect(dsl.size).toBe(10);
  });

  it('OFFSET alone skips rows of a scroll, across pages', async () => {
    const base = await run(all);
    const r = await run(`${all} OFFSET 7`, 4);
    expect(r.rows).toEqual(base.rows.slice(7));
    expect(r.pages.length).toBeGreaterThan(1);
    expect(run.translate(`${all} OFFSET 7`).from).toBeUndefined();
  });

  it('LIMIT beyond the page size skips in memory and keeps the limit', async () => {
    const base = await run(all);
    const r = await run(`${all} LIMIT 9 OFFSET 6`, 4);
    expect(r.rows).toEqual(base.rows.slice(6, 15));
  });

  it('OFFSET past the end is empty', async () => {
    expect((await run(`${all} OFFSET 1000`)).rows).toEqual([]);
    expect((await run(`${all} LIMIT 5 OFFSET 1000`)).rows).toEqual([]);
  });

  it('OFFSET m ROWS FETCH FIRST n ROWS ONLY is LIMIT n OFFSET m', async () => {
    const base = await run(`${all} LIMIT 100`);
    const r = await run(`${all} OFFSET 3 ROWS FETCH FIRST 4 ROWS ONLY`);
    expect(r.rows).toEqual(base.rows.slice(3, 7));
    expect((await run(`${all} FETCH NEXT ROW ONLY`)).rows).toEqual(base.rows.slice(0, 1));
  });

  it('an outer OFFSET over a sub-select LIMIT skips inside it', async () => {
    const base = await run(`${all} LIMIT 100`);
    const r = await run(`SELECT * FROM (${all} LIMIT 10) OFFSET 4`);
    expect(r.rows).toEqual(base.rows.slice(4, 10));
    expect((await run(`SELECT * FROM (${all} LIMIT 10) OFFSET 10`)).rows).toEqual([]);
  });

  it('offset stays a column name and a table alias', async () => {
    const r = await run('SELECT emp_no AS offset FROM test_emp offset ORDER BY offset LIMIT 1');
    expect(r.columns).toEqual(['offset']);
    expect(r.rows).toEqual([[10001]]);
  });
});

describe('OFFSET on grouped queries', () => {
  it('skips composite buckets, across pages', async () => {
    const base = await run(grouped);
    expect(base.rows.length).toBe(6);
    expect((await run(`${grouped} OFFSET 2`, 2)).rows).toEqual(base.rows.slice(2));
    expect((await run(`${grouped} LIMIT 3 OFFSET 1`, 2)).rows).toEqual(base.rows.slice(1, 4));
  });

  it('skips rows sorted in memory by an aggregate', async () => {
    const q =
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages ORDER BY c DESC, languages';
    const base = await run(q);
    expect((await run(`${q} LIMIT 2 OFFSET 2`)).rows).toEqual(base.rows.slice(2, 4));
  });

  it('skips groups HAVING keeps', async () => {
    const q = `SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING COUNT(*) > 15 ORDER BY languages`;
    const base = await run(q);
    expect((await run(`${q} OFFSET 1`, 1)).rows).toEqual(base.rows.slice(1));
  });

  it('an implicit group is one row: OFFSET 1 leaves none', async () => {
    expect((await run('SELECT COUNT(*) FROM test_emp OFFSET 1')).rows).toEqual([]);
    expect((await run('SELECT COUNT(*) FROM test_emp OFFSET 0')).rows).toEqual([[100]]);
  });

  it('local plans skip rows too', async () => {
    expect((await run('SELECT 1 OFFSET 1')).rows).toEqual([]);
  });
});
