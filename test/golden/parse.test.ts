/**
 * SQL -> AST goldens: every fixtures/sql/parse/<area>/<case>.sql (one statement, line 1 a
 * `--` comment with the intent, optional <case>.params.json with REST params) parses to its
 * <case>.ast.json, and printing the AST parses back to the same tree (positions aside).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseSql } from '../../src/sql/parse.js';
import type { SqlParam } from '../../src/sql/parse.js';
import { printSql } from '../../src/sql/ast/print.js';
import {
  expectGoldenJson,
  findFiles,
  fixtureIntent,
  readText,
  repoRoot,
} from '../helpers/golden.js';

const dir = resolve(repoRoot, 'fixtures/sql/parse');
const cases = findFiles(dir, '.sql');

function paramsFor(file: string): SqlParam[] {
  const paramsFile = file.replace(/\.sql$/, '.params.json');
  return existsSync(paramsFile) ? (JSON.parse(readFileSync(paramsFile, 'utf8')) as SqlParam[]) : [];
}

/** The AST without positions and source text, for comparing trees parsed from other text. */
function stripPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripPositions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'loc' && key !== 'sourceText')
      .map(([key, v]) => [key, stripPositions(v)]),
  );
}

describe('SQL parse goldens', () => {
  it('cover every clause family with at least 150 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const areas = new Set(cases.map((f) => relative(dir, f).split('/')[0]));
    expect([...areas].sort()).toEqual(
      [
        'commands',
        'expressions',
        'from',
        'groupby',
        'lexical',
        'limit',
        'literals',
        'orderby',
        'pivot',
        'select',
        'where',
        'with',
      ].sort(),
    );
  });

  for (const file of cases) {
    it(relative(dir, file), () => {
      const sql = readText(file);
      expect(fixtureIntent(sql), 'line 1 states the intent').not.toBe('');
      const params = paramsFor(file);
      const ast = parseSql(sql, params);
      expectGoldenJson(file.replace(/\.sql$/, '.ast.json'), ast);
      const printed = printSql(ast);
      expect(stripPositions(parseSql(printed, params)), printed).toEqual(stripPositions(ast));
    });
  }
});
