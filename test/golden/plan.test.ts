/**
 * SQL -> plan goldens: every fixtures/sql/plan/<case>.sql analyzes and optimizes to the plan trees
 * in <case>.plan.txt (ES nodeString dumps: the analyzed plan, then the optimized one), pinning the
 * analyzer's resolution and each optimizer rule's effect.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseSql } from '../../src/sql/parse.js';
import { planQuery } from '../../src/sql/translate/index.js';
import { planText } from '../../src/sql/plan/explain.js';
import { findFiles, fixtureIntent, readText, repoRoot, updating } from '../helpers/golden.js';
import { fixtureCatalog, fixtureConfig } from '../unit/sql/translate/fixture-catalog.js';

const dir = resolve(repoRoot, 'fixtures/sql/plan');
const cases = findFiles(dir, '.sql');

function expectGoldenText(file: string, text: string): void {
  if (updating) {
    if (!existsSync(file) || readText(file) !== text) writeFileSync(file, text);
    return;
  }
  if (!existsSync(file))
    throw new Error(`missing golden ${relative(repoRoot, file)} (run bin/update-golden)`);
  expect(text).toBe(readText(file));
}

describe('SQL plan goldens', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const file of cases) {
    it(relative(dir, file), () => {
      const sql = readText(file);
      expect(fixtureIntent(sql), 'line 1 states the intent').not.toBe('');
      const stmt = parseSql(sql);
      if (stmt.kind !== 'Query') throw new Error('not a query');
      const p = planQuery(stmt, {
        catalog: fixtureCatalog,
        cfg: fixtureConfig(),
        sql,
        zoneId: 'Z',
      });
      const text = `# analyzed\n${planText(p.analyzed)}# optimized\n${planText(p.optimized)}`;
      expectGoldenText(file.replace(/\.sql$/, '.plan.txt'), text);
    });
  }
});
