/**
 * The extensions' tests against H2 (issue 16): every page of a statement read through the SQL
 * session, and a block of statements whose result sets must equal H2's on test_emp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { h2Unavailable, startH2, type H2Oracle } from '../../../conformance/sql/sql-spec-h2.js';
import { SQL_SPEC_DIR } from '../../../conformance/sql/datasets.js';
import { compareWithH2 } from '../../../conformance/sql/sql-spec-compare.js';
import type { SqlService } from '../../../../src/sql/execute/session.js';

/** The statement's columns and every row, the cursor followed to the end. */
export async function allPages(sql: SqlService, query: string) {
  let page = await sql.execute({ query, mode: 'jdbc' });
  const columns = (page.columns ?? []).map((c) => ({ name: c.name, type: c.type }));
  const rows = [...page.rows];
  while (page.cursor !== null) {
    page = await sql.execute({ cursor: page.cursor });
    rows.push(...page.rows);
  }
  return { columns, rows };
}

/** One test per statement: H2's non-empty answer equals Quarry's (skipped without H2). */
export function describeAgainstH2(
  title: string,
  queries: readonly string[],
  sql: () => SqlService,
): void {
  describe(title, () => {
    const why = h2Unavailable();
    let h2: H2Oracle | null = null;
    beforeAll(async () => {
      if (why === null) h2 = await startH2(SQL_SPEC_DIR, ['setup_test_emp.sql']);
    }, 60_000);
    afterAll(() => h2?.close());
    for (const q of queries) {
      it.skipIf(why !== null)(q, async () => {
        const expected = await h2!.query(q);
        if ('error' in expected) throw new Error(`H2: ${expected.error}`);
        expect(expected.rows.length).toBeGreaterThan(0);
        expect(compareWithH2(expected, await allPages(sql(), q))).toBeNull();
      });
    }
  });
}
