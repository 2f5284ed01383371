/**
 * ORDER BY an aggregate that only HAVING computes (a hidden column of the Aggregate below the
 * Project) orders by it; it was refused with "Cannot order by non-grouped column".
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('ORDER BY an aggregate HAVING uses', () => {
  it('implicit grouping', async () => {
    const r = await run(
      'SELECT MAX(salary) AS m FROM test_emp HAVING MIN(salary) > 1 ORDER BY COUNT(*), MIN(salary) DESC',
    );
    expect(r).toEqual({ columns: ['m'], rows: [[74999]] });
  });

  it('grouped', async () => {
    const r = await run(
      'SELECT gender, MAX(salary) AS m FROM test_emp GROUP BY gender HAVING MIN(salary) > 1 ORDER BY MIN(salary) DESC',
    );
    // H2: MIN(salary) F 25976, M 25945, null 25324
    expect(r.rows).toEqual([
      ['F', 74572],
      ['M', 74999],
      [null, 73717],
    ]);
  });
});
