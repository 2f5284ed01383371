/**
 * SYS COLUMNS with a table pattern (single-node-only/command-sys.csv-spec): TABLE_NAME is the
 * pattern unescaped, and `%` lists aliases too (each with the merged mapping of its indices).
 */
import { describe, expect, it } from 'vitest';
import { useQaNode } from './qa-node.js';

const run = useQaNode();

const tableNames = (rows: unknown[][]) => {
  const counts = new Map<unknown, number>();
  for (const r of rows) counts.set(r[2], (counts.get(r[2]) ?? 0) + 1);
  return Object.fromEntries(counts);
};

describe('SYS COLUMNS TABLE LIKE', () => {
  it('an escaped pattern names the table unescaped', async () => {
    const r = await run("SYS COLUMNS TABLE LIKE 'test\\_emp' ESCAPE '\\'");
    expect(tableNames(r.rows)).toEqual({ test_emp: 10 });
    expect(r.rows.map((x) => x[3])).toContain('first_name.keyword');
  });

  it('% lists indices and aliases, by name', async () => {
    const r = await run("SYS COLUMNS TABLE LIKE '%'");
    const names = tableNames(r.rows);
    expect(Object.keys(names)).toEqual([
      'logs',
      'test_alias',
      'test_alias_emp',
      'test_emp',
      'test_emp_copy',
    ]);
    expect(names.test_alias).toBe(15);
    expect(names.logs).toBe(8);
  });
});
