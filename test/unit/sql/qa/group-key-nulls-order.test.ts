/**
 * A written NULLS FIRST/LAST on a GROUP BY key that the composite aggregation cannot give (its
 * null bucket is first ascending, last descending) sorts the groups in memory instead of being
 * ignored; without NULLS the order stays ES 7.10's.
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('NULLS FIRST/LAST on grouping keys', () => {
  it('ASC NULLS LAST puts the null group last', async () => {
    const r = await run(
      'SELECT gender, COUNT(*) c FROM test_emp GROUP BY gender ORDER BY gender NULLS LAST',
    );
    expect(r.rows).toEqual([
      ['F', 33],
      ['M', 57],
      [null, 10],
    ]);
  });

  it('DESC NULLS FIRST puts it first, also for a key the SELECT list lacks', async () => {
    const r = await run(
      'SELECT COUNT(*) c FROM test_emp GROUP BY gender ORDER BY gender DESC NULLS FIRST',
    );
    expect(r).toEqual({ columns: ['c'], rows: [[10], [57], [33]] });
  });

  it('two keys, LIMIT after the sort', async () => {
    const r = await run(
      'SELECT gender, languages l, COUNT(*) c FROM test_emp GROUP BY gender, languages ' +
        'ORDER BY gender NULLS LAST, languages DESC NULLS FIRST LIMIT 3',
    );
    expect(r.rows).toEqual([
      ['F', null, 3],
      ['F', 5, 9],
      ['F', 4, 6],
    ]);
  });

  it('without NULLS, the composite order (ES 7.10: nulls first ascending)', async () => {
    const r = await run('SELECT gender, COUNT(*) c FROM test_emp GROUP BY gender ORDER BY gender');
    expect(r.rows.map((x) => x[0])).toEqual([null, 'F', 'M']);
  });
});
