/**
 * LIMIT counts the groups HAVING keeps: the composite page is cut before the bucket_selector
 * drops buckets, so a short (even empty) page with an `after_key` is no end and the next pages
 * are fetched until LIMIT rows are found (a page of 1 held only the null group, then no row).
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

describe('HAVING before LIMIT', () => {
  it('finds the first group HAVING keeps past a filtered page', async () => {
    const r = await run(
      'SELECT gender g, COUNT(gender) c FROM test_emp GROUP BY g HAVING c > 10 AND c < 70 ORDER BY gender LIMIT 1',
    );
    expect(r.rows).toEqual([['F', 33]]);
  });

  it('returns every kept group when LIMIT exceeds them', async () => {
    const r = await run(
      'SELECT gender g, COUNT(gender) c FROM test_emp GROUP BY g HAVING c > 10 ORDER BY gender LIMIT 5',
    );
    expect(r.rows).toEqual([
      ['F', 33],
      ['M', 57],
    ]);
  });

  it('keeps LIMIT over groups spread across pages', async () => {
    const r = await run(
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING COUNT(*) > 15 ORDER BY languages DESC LIMIT 2',
    );
    // H2: 5 21, 4 18 (null 10 and the rest below)
    expect(r.rows).toEqual([
      [5, 21],
      [4, 18],
    ]);
  });
});
