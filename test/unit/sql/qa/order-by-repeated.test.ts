/**
 * An ORDER BY item repeated later (`ORDER BY a0 DESC, a0 ASC`) changes nothing: the first one
 * orders. It used to keep the first position with the later direction (found by the H2 property
 * test).
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('repeated ORDER BY items', () => {
  it('the first occurrence decides, on aggregates', async () => {
    const r = await run(
      'SELECT languages AS k0, COUNT(languages) AS a0 FROM test_emp WHERE languages IS NOT NULL ' +
        'GROUP BY languages ORDER BY a0 DESC NULLS LAST, a0 ASC NULLS LAST, k0 DESC NULLS FIRST LIMIT 5',
    );
    // H2: 5 21, 2 19, 4 18, 3 17, 1 15
    expect(r.rows).toEqual([
      [5, 21],
      [2, 19],
      [4, 18],
      [3, 17],
      [1, 15],
    ]);
  });

  it('the first occurrence decides, on plain columns', async () => {
    const r = await run('SELECT emp_no FROM test_emp ORDER BY emp_no DESC, emp_no ASC LIMIT 2');
    expect(r.rows).toEqual([[10100], [10099]]);
  });
});
