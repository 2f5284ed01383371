/**
 * `_sql/translate?phases` (EXTENSION, issue 16): which clauses run inside each Query DSL request
 * and which run in memory after it.
 */
import { describe, expect, it } from 'vitest';
import { useExtNode } from './ext-node.js';

const run = useExtNode();

type Req = { search: Record<string, unknown>; in_dsl: string[] };

describe('translate phases', () => {
  it('a plain query runs wholly in the DSL, OFFSET as from', () => {
    const p = run.phases(
      'SELECT emp_no FROM test_emp WHERE emp_no > 10 ORDER BY emp_no LIMIT 5 OFFSET 3',
    );
    const r = p.requests[0] as Req;
    expect(r.search.from).toBe(3);
    expect(r.in_dsl).toEqual(['WHERE: query', 'ORDER BY: sort', 'OFFSET 3: from', 'LIMIT 5: size']);
    expect(p.in_memory).toEqual([]);
  });

  it('an OFFSET past one page is skipped in memory', () => {
    const p = run.phases('SELECT emp_no FROM test_emp LIMIT 50 OFFSET 30', 20);
    expect((p.requests[0] as Req).search.from).toBeUndefined();
    expect(p.in_memory).toEqual([
      'OFFSET 30: the request asks for 80 hits; the first 30 rows are skipped in memory',
    ]);
  });

  it('grouped queries: HAVING in the DSL, aggregate ORDER BY and OFFSET in memory', () => {
    const p = run.phases(
      'SELECT gender, COUNT(*) c FROM test_emp GROUP BY gender HAVING COUNT(*) > 1 ORDER BY c OFFSET 1',
    );
    const r = p.requests[0] as Req;
    expect(r.in_dsl[0]).toMatch(/^GROUP BY: composite/);
    expect(r.in_dsl.some((s) => s.startsWith('HAVING: bucket_selector'))).toBe(true);
    expect(p.in_memory).toEqual([
      'ORDER BY on aggregates: every bucket read, sorted in memory',
      'OFFSET 1: the request asks for all buckets; the first 1 rows are skipped in memory',
    ]);
  });

  it('the plain translate body is unchanged (ES compatible)', () => {
    const t = run.translate('SELECT emp_no FROM test_emp');
    expect(Object.keys(t)).not.toContain('requests');
  });
});
