/**
 * Aggregates over a constant expression fold the expression first (ES Literal.of in
 * ReplaceAggregatesWithLiterals): `MIN(55+2)` is 57, not null, with or without FROM.
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('aggregates of constant expressions', () => {
  it('without FROM', async () => {
    const r = await run('SELECT MIN(55+2), CAST(AVG(33/3) AS INTEGER)');
    expect(r.rows).toEqual([[57, 11]]);
  });

  it('every folding aggregate', async () => {
    const r = await run("SELECT MAX(2*3), SUM(1+1), AVG(10/4), MIN(CONCAT('a', 'b'))");
    expect(r.rows).toEqual([[6, 2, 2, 'ab']]);
  });

  it('over an index', async () => {
    const r = await run('SELECT MIN(55+2) m, SUM(1+1) s FROM test_emp');
    expect(r.rows).toEqual([[57, 200]]);
  });
});
