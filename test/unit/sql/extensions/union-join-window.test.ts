/**
 * The extensions together (issue 16): a UNION whose branches are a JOIN or a window query runs
 * each branch's own searches (not a local evaluation of an empty relation), and
 * `_sql/translate?phases` shows a JOIN's searches rather than "evaluated locally".
 */
import { describe, expect, it } from 'vitest';
import { useExtNode } from './ext-node.js';

const run = useExtNode();

describe('UNION over JOIN and window branches', () => {
  it('a JOIN branch returns the joined rows', async () => {
    const join = await run(
      'SELECT e.emp_no FROM test_emp e JOIN test_emp f ON e.emp_no = f.emp_no WHERE e.emp_no < 10004 ORDER BY e.emp_no',
    );
    expect(join.rows).toEqual([[10001], [10002], [10003]]);
    const r = await run(
      'SELECT emp_no FROM test_emp WHERE emp_no = 10010 UNION ALL SELECT e.emp_no FROM test_emp e JOIN test_emp f ON e.emp_no = f.emp_no WHERE e.emp_no < 10004 ORDER BY 1',
    );
    expect(r.rows).toEqual([[10001], [10002], [10003], [10010]]);
  });

  it('a window branch returns its computed rows', async () => {
    const r = await run(
      'SELECT emp_no, ROW_NUMBER() OVER (ORDER BY emp_no) n FROM test_emp WHERE emp_no < 10003 UNION ALL SELECT emp_no, 0 FROM test_emp WHERE emp_no = 10010 ORDER BY 1',
    );
    expect(r.rows).toEqual([
      [10001, 1],
      [10002, 2],
      [10010, 0],
    ]);
  });

  it('translate?phases of a JOIN shows its searches', () => {
    const p = run.phases(
      'SELECT e.emp_no FROM test_emp e JOIN test_emp f ON e.emp_no = f.emp_no WHERE e.emp_no < 10004',
    );
    const req = p.requests[0] as { plan: { left: unknown; right: unknown } };
    expect(req.plan.left).toBeDefined();
    expect(req.plan.right).toBeDefined();
    expect(p.in_memory[0]).toMatch(/JOIN/);
  });
});
