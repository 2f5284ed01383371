/**
 * SQL analysis error goldens: every fixtures/sql/errors/<area>/<case>.sql outside `parse/` (which
 * parse-errors.test.ts owns) fails analysis, verification or planning with the ES error body in
 * <case>.error.json — `verification_exception` "Found 1 problem\nline 1:8: Unknown column [x]"
 * and friends, worded as ES 7.10 words them.
 */
import { describe, expect, it } from 'vitest';
import { relative, resolve } from 'node:path';
import { EsError } from '../../src/common/errors.js';
import { parseSql } from '../../src/sql/parse.js';
import { planQuery } from '../../src/sql/translate/index.js';
import { toSearchSource } from '../../src/sql/translate/to-search-source.js';
import {
  expectGoldenJson,
  findFiles,
  fixtureIntent,
  readText,
  repoRoot,
} from '../helpers/golden.js';
import { fixtureCatalog, fixtureConfig } from '../unit/sql/translate/fixture-catalog.js';

const dir = resolve(repoRoot, 'fixtures/sql/errors');
const cases = findFiles(dir, '.sql').filter((f) => !relative(dir, f).startsWith('parse/'));

describe('SQL analysis error goldens', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  for (const file of cases) {
    it(relative(dir, file), () => {
      const sql = readText(file);
      expect(fixtureIntent(sql), 'line 1 states the intent').not.toBe('');
      let error: unknown = null;
      try {
        const stmt = parseSql(sql);
        if (stmt.kind !== 'Query') throw new Error('not a query');
        const p = planQuery(stmt, {
          catalog: fixtureCatalog,
          cfg: fixtureConfig(),
          sql,
          zoneId: 'Z',
        });
        if (p.container) toSearchSource(p.container, null, 1000);
      } catch (e) {
        error = e;
      }
      expect(error, 'the statement must fail').toBeInstanceOf(EsError);
      expectGoldenJson(file.replace(/\.sql$/, '.error.json'), (error as EsError).toBody());
    });
  }
});
