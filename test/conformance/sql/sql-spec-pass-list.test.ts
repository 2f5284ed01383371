/**
 * CI check: every `.sql-spec` statement listed in sql-spec-pass-list.txt still gives H2's result
 * set (the H2 oracle as upstream's SqlSpecTestCase and GeoSqlSpecTestCase use it). Needs a JDK,
 * Debian's libh2-java and libjts-java (.ci/run installs them); skipped with the reason when one
 * is missing. Regenerate the list
 * with `npm run conformance:sql-spec -- --update-pass-list` (the counts per file: without the flag).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SQL_SPEC_PASS_LIST } from './pass-list-path.js';
import { h2Unavailable } from './sql-spec-h2.js';
import { runSqlSpecs, SQL_SPEC_FILES } from './sql-spec-runner.js';

const ids = readFileSync(SQL_SPEC_PASS_LIST, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

const missing = h2Unavailable();
const fileOf = (id: string) => id.slice(0, id.lastIndexOf(':'));

describe('SQL .sql-spec pass list (H2 oracle)', () => {
  it('is sorted, free of duplicates and names files in scope', () => {
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...new Set(ids.map(fileOf))].filter((f) => !SQL_SPEC_FILES.includes(f))).toEqual([]);
  });

  if (missing !== null) {
    it.skip(`every listed statement still matches H2 — skipped: ${missing}`, () => {});
    return;
  }

  it('every listed statement still matches H2', { timeout: 180_000 }, async () => {
    const files = SQL_SPEC_FILES.filter((f) => ids.some((id) => fileOf(id) === f));
    const results = await runSqlSpecs(files, new Set(ids));
    const seen = new Set(results.map((r) => r.id));
    const broken = [
      ...ids.filter((id) => !seen.has(id)).map((id) => `${id}: no such statement any more`),
      ...results
        .filter((r) => r.status !== 'passed')
        .map((r) => `${r.id}: ${r.status}: ${r.reason ?? ''}`.slice(0, 400)),
    ];
    expect(broken, `${broken.length} listed statement(s) no longer match H2`).toEqual([]);
    expect(results).toHaveLength(ids.length);
  });
});
