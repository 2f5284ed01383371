import { describe, expect, it } from 'vitest';
import { expectedLogsUnion, rowsDiff } from '../../bench/sql-ext-bench.js';

describe('SQL extensions bench: the UNION ALL answer on logs', () => {
  const logs = [
    { status: 200, country: 'US', size: 10 },
    { status: 404, country: 'DE', size: 1 },
    { status: 200, country: 'DE', size: 5 },
  ].map((d) => JSON.stringify(d));

  it('groups by status then by country, counts and sums, ordered by dim and key', () => {
    expect(expectedLogsUnion(logs)).toEqual([
      ['country', 'DE', 2, 6],
      ['country', 'US', 1, 10],
      ['status', '200', 2, 15],
      ['status', '404', 1, 1],
    ]);
  });

  it('names the first differing row', () => {
    const want = expectedLogsUnion(logs);
    expect(rowsDiff(want, want)).toBeNull();
    expect(rowsDiff(want.slice(1), want)).toBe('3 rows, expected 4');
    const off = want.map((r, i) => (i === 2 ? ['status', '200', 2, 16] : r));
    expect(rowsDiff(off, want)).toMatch(/^row 2: /);
  });
});
