/**
 * SUM over no values is NULL (SQL, H2), not the 0 of ES's `sum` aggregation: the executed search
 * counts the values beside each `sum` (found by the H2 property test; with MIN/MAX in the same
 * query the `stats` path already answered NULL).
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('SUM of no values', () => {
  it('is NULL for a group whose values are all null', async () => {
    const r = await run('SELECT languages, SUM(languages) s FROM test_emp GROUP BY languages');
    expect(r.rows[0]).toEqual([null, null]);
    expect(r.rows[1]).toEqual([1, 15]);
  });

  it('is NULL for the implicit group over no values, and in expressions', async () => {
    const r = await run(
      'SELECT SUM(languages) s, COUNT(*) - SUM(languages) d FROM test_emp WHERE languages IS NULL',
    );
    expect(r.rows).toEqual([[null, null]]);
  });

  it('orders as NULL', async () => {
    const r = await run(
      'SELECT languages l, SUM(languages) s FROM test_emp GROUP BY languages ORDER BY s DESC NULLS LAST LIMIT 1000',
    );
    expect(r.rows.map((x) => x[0])).toEqual([5, 4, 3, 2, 1, null]);
  });

  it('keeps _sql/translate as ES renders it (no value count)', async () => {
    // translate is checked by the goldens; here: a SUM of real values is unchanged
    const r = await run('SELECT SUM(languages) s FROM test_emp');
    expect(r.rows).toEqual([[281]]);
  });
});
