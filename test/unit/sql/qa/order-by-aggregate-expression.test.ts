/**
 * ORDER BY over an expression of aggregates (or its alias) sorts the groups by that expression,
 * in memory after every composite page, with LIMIT applied after the sort (ES 7.10 does this for
 * ORDER BY on aggregates). It was dropped: the groups came back in key order.
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('ORDER BY an expression over aggregates', () => {
  it('orders by the alias of AVG - MIN, LIMIT after the sort', async () => {
    const r = await run(
      'SELECT gender, AVG(salary) - MIN(salary) d FROM test_emp GROUP BY gender ORDER BY d DESC LIMIT 2',
    );
    expect(r.columns).toEqual(['gender', 'd']);
    // H2: F 24514.78787878788, null 23436.5 (M 20915.59649122807 is third)
    expect(r.rows.map((x) => x[0])).toEqual(['F', null]);
    expect(r.rows[0]![1]).toBeCloseTo(24514.787878, 5);
    expect(r.rows[1]![1]).toBeCloseTo(23436.5, 5);
  });

  it('orders by the expression itself, ascending', async () => {
    const r = await run(
      'SELECT gender, AVG(salary) - MIN(salary) d FROM test_emp GROUP BY gender ORDER BY AVG(salary) - MIN(salary) LIMIT 2',
    );
    expect(r.rows.map((x) => x[0])).toEqual(['M', null]);
  });

  it('orders by an expression the SELECT list does not compute', async () => {
    const r = await run(
      'SELECT gender FROM test_emp GROUP BY gender ORDER BY AVG(salary) - MIN(salary) DESC',
    );
    expect(r.columns).toEqual(['gender']);
    expect(r.rows).toEqual([['F'], [null], ['M']]);
  });

  it('orders by a scalar over an aggregate alias', async () => {
    const r = await run(
      'SELECT languages l, MAX(salary) m FROM test_emp GROUP BY languages ORDER BY m * -1 LIMIT 3',
    );
    // H2: the languages groups by MAX(salary) highest first
    expect(r.rows).toEqual([
      [null, 74999],
      [3, 74970],
      [4, 74572],
    ]);
  });
});
