/**
 * SQL parse error goldens: every fixtures/sql/errors/parse/<case>.sql (line 1 a `--` comment
 * with the intent, optional <case>.params.json) fails with the ES error body in
 * <case>.error.json (`{error: {root_cause, type, reason, ...}, status}`).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { EsError } from '../../src/common/errors.js';
import { parseSql } from '../../src/sql/parse.js';
import type { SqlParam } from '../../src/sql/parse.js';
import {
  expectGoldenJson,
  findFiles,
  fixtureIntent,
  readText,
  repoRoot,
} from '../helpers/golden.js';

const dir = resolve(repoRoot, 'fixtures/sql/errors/parse');
const cases = findFiles(dir, '.sql');

function paramsFor(file: string): SqlParam[] {
  const paramsFile = file.replace(/\.sql$/, '.params.json');
  return existsSync(paramsFile) ? (JSON.parse(readFileSync(paramsFile, 'utf8')) as SqlParam[]) : [];
}

describe('SQL parse error goldens', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  for (const file of cases) {
    it(relative(dir, file), () => {
      const sql = readText(file);
      expect(fixtureIntent(sql), 'line 1 states the intent').not.toBe('');
      let error: unknown = null;
      try {
        parseSql(sql, paramsFor(file));
      } catch (e) {
        error = e;
      }
      expect(error, 'the statement must fail').toBeInstanceOf(EsError);
      expectGoldenJson(file.replace(/\.sql$/, '.error.json'), (error as EsError).toBody());
    });
  }
});
