/**
 * A node loaded with the ES SQL QA data sets (test_emp, test_emp_copy, logs and their aliases, as
 * the csv-spec runner loads them), and a `rows` helper that runs a statement the way `/_sql` does
 * (jdbc mode, every page) and answers column names and rows. Expected values in these tests are
 * H2's answers for the same statement over the same data (ES's oracle).
 */
import { afterAll, beforeAll } from 'vitest';
import { startSpecNode, type SpecNode } from '../../../conformance/sql/runner.js';

export interface QaResult {
  readonly columns: string[];
  readonly rows: unknown[][];
}

/** Starts the node before the file's tests and closes it after; returns the statement runner. */
export function useQaNode(): (query: string) => Promise<QaResult> {
  let node: SpecNode | null = null;
  beforeAll(async () => {
    node = await startSpecNode('main');
  }, 120_000);
  afterAll(async () => {
    await node?.close();
  });
  return async (query) => {
    const sql = node!.sql;
    let page = await sql.execute({ query, mode: 'jdbc' });
    const columns = (page.columns ?? []).map((c) => c.name);
    const rows = [...page.rows];
    while (page.cursor !== null) {
      page = await sql.execute({ cursor: page.cursor });
      rows.push(...page.rows);
    }
    return { columns, rows };
  };
}
