/**
 * UNION ALL / UNION (EXTENSION, issue 16): each branch its own Query DSL request, combined in
 * memory with duplicates removed for UNION, then ORDER BY / OFFSET / LIMIT over the union.
 */
import { describe, expect, it } from 'vitest';
import { useExtNode } from './ext-node.js';

const run = useExtNode();

describe('UNION', () => {
  it('UNION ALL concatenates the branches in order', async () => {
    const r = await run(
      'SELECT emp_no FROM test_emp WHERE emp_no < 10003 UNION ALL SELECT emp_no FROM test_emp WHERE emp_no < 10002',
    );
    expect(r.columns).toEqual(['emp_no']);
    expect(r.rows).toEqual([[10001], [10002], [10001]]);
  });

  it('UNION removes duplicates', async () => {
    const r = await run(
      'SELECT gender FROM test_emp UNION SELECT gender FROM test_emp ORDER BY gender NULLS FIRST',
    );
    expect(r.rows).toEqual([[null], ['F'], ['M']]);
  });

  it('ORDER BY an ordinal, OFFSET and LIMIT apply to the whole union, across pages', async () => {
    const r = await run(
      'SELECT emp_no, first_name FROM test_emp WHERE emp_no < 10006 UNION ALL SELECT emp_no, last_name FROM test_emp WHERE emp_no < 10004 ORDER BY 1 DESC, 2 LIMIT 4 OFFSET 1',
      2,
    );
    expect(r.rows).toEqual([
      [10004, 'Chirstian'],
      [10003, 'Bamford'],
      [10003, 'Parto'],
      [10002, 'Bezalel'],
    ]);
    expect(r.pages).toEqual([2, 2]);
  });

  it('unions grouped branches and local branches, widening types', async () => {
    const r = await run(
      "SELECT gender g, COUNT(*) c FROM test_emp GROUP BY gender UNION ALL SELECT 'all', 100.5 ORDER BY g NULLS LAST",
    );
    expect(r.rows).toEqual([
      ['F', 33],
      ['M', 57],
      ['all', 100.5],
      [null, 10],
    ]);
  });

  it('translate answers one request per branch and the in-memory steps', () => {
    const t = run.translate(
      'SELECT emp_no FROM test_emp UNION SELECT emp_no FROM test_emp ORDER BY emp_no LIMIT 3',
    ) as { requests: Array<{ search: Record<string, unknown> }>; in_memory: string[] };
    expect(t.requests).toHaveLength(2);
    expect(t.requests[0]!.search.size).toBe(1000);
    expect(t.in_memory).toContain('UNION: rows of request [1] appended, duplicate rows removed');
    expect(t.in_memory).toContain('LIMIT 3');
  });

  it('refuses branches of different widths or incompatible types (verification_exception)', async () => {
    await expect(
      run('SELECT emp_no FROM test_emp UNION SELECT emp_no, gender FROM test_emp'),
    ).rejects.toMatchObject({ type: 'verification_exception' });
    await expect(
      run('SELECT emp_no FROM test_emp UNION ALL SELECT birth_date FROM test_emp'),
    ).rejects.toThrow(/incompatible types \[INTEGER\] and \[DATETIME\]/);
    await expect(
      run('SELECT emp_no FROM test_emp UNION ALL SELECT emp_no FROM test_emp ORDER BY salary'),
    ).rejects.toThrow(/ORDER BY over UNION/);
    await expect(
      run('SELECT * FROM (SELECT emp_no FROM test_emp UNION ALL SELECT emp_no FROM test_emp)'),
    ).rejects.toThrow(/top level/);
  });

  it('parenthesised branches keep their own LIMIT; WITH queries serve every branch', async () => {
    const r = await run(
      '(SELECT emp_no FROM test_emp ORDER BY emp_no LIMIT 2) UNION ALL (SELECT emp_no FROM test_emp ORDER BY emp_no DESC LIMIT 1)',
    );
    expect(r.rows).toEqual([[10001], [10002], [10100]]);
    const w = await run(
      'WITH e AS (SELECT emp_no FROM test_emp WHERE emp_no < 10003) SELECT emp_no FROM e UNION ALL SELECT emp_no FROM e ORDER BY emp_no',
    );
    expect(w.rows).toEqual([[10001], [10001], [10002], [10002]]);
  });

  it('an OFFSET inside a sub-select applies there', async () => {
    const r = await run(
      'SELECT * FROM (SELECT emp_no FROM test_emp ORDER BY emp_no LIMIT 3 OFFSET 2) UNION ALL SELECT 1',
    );
    expect(r.rows).toEqual([[10003], [10004], [10005], [1]]);
  });

  it('union stays a table alias and a column name', async () => {
    const r = await run('SELECT union.emp_no AS union FROM test_emp union ORDER BY union LIMIT 1');
    expect(r.rows).toEqual([[10001]]);
  });
});
