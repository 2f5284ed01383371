/**
 * A node with the ES SQL QA data sets (test_emp, ...) and a runner that reads every page of a
 * statement with a given fetch size, for the tests of Quarry's SQL extensions (issue 16).
 */
import { afterAll, beforeAll } from 'vitest';
import { startSpecNode, type SpecNode } from '../../../conformance/sql/runner.js';

export interface ExtResult {
  readonly columns: string[];
  readonly rows: unknown[][];
  /** Rows per page, first page first. */
  readonly pages: number[];
}

export type ExtRunner = ((query: string, fetchSize?: number) => Promise<ExtResult>) & {
  translate(query: string): Record<string, unknown>;
  /** `_sql/translate?phases`. */
  phases(query: string, fetchSize?: number): { requests: unknown[]; in_memory: string[] };
};

export function useExtNode(): ExtRunner {
  let node: SpecNode | null = null;
  beforeAll(async () => {
    node = await startSpecNode('main');
  }, 120_000);
  afterAll(async () => {
    await node?.close();
  });
  const run = async (query: string, fetchSize?: number) => {
    const sql = node!.sql;
    let page = await sql.execute({ query, mode: 'jdbc', fetchSize: fetchSize ?? null });
    const columns = (page.columns ?? []).map((c) => c.name);
    const rows = [...page.rows];
    const pages = [page.rows.length];
    while (page.cursor !== null) {
      page = await sql.execute({ cursor: page.cursor });
      rows.push(...page.rows);
      pages.push(page.rows.length);
    }
    return { columns, rows, pages };
  };
  return Object.assign(run, {
    translate: (query: string) => node!.sql.translate({ query }) as Record<string, unknown>,
    phases: (query: string, fetchSize?: number) =>
      node!.sql.translatePhases({ query, fetchSize: fetchSize ?? null }) as unknown as {
        requests: unknown[];
        in_memory: string[];
      },
  });
}
