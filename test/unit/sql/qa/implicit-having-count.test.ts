/**
 * HAVING over COUNT(*) alone without GROUP BY filters the implicit group: COUNT(*) reads
 * hits.total, so no aggregation carried the bucket_selector and the HAVING was dropped (found by
 * the H2 property test).
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('HAVING on COUNT(*) of the implicit group', () => {
  it('a false condition gives no row', async () => {
    const r = await run(
      'SELECT COUNT(*) AS a0 FROM test_emp HAVING COUNT(*) * 2 > 0 AND COUNT(*) < 0',
    );
    expect(r).toEqual({ columns: ['a0'], rows: [] });
  });

  it('a true condition gives the count', async () => {
    const r = await run('SELECT COUNT(*) AS a0 FROM test_emp HAVING COUNT(*) > 50');
    expect(r.rows).toEqual([[100]]);
  });
});
