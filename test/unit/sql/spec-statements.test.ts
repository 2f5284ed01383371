/**
 * Every statement of Elasticsearch's SQL spec tests (../shared/conformance/sql: *.csv-spec,
 * *.sql-spec, read the way ES's SpecBaseIntegrationTestCase reads them) and of the SQL
 * reference docs (docs/*.asciidoc: console `"query"` bodies, `sql>` CLI lines, complete
 * `[source, sql]` SELECT examples) parses, except the few ES itself cannot parse, listed below
 * with the reason. Each parsed statement also survives print -> parse unchanged.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseSql } from '../../../src/sql/parse.js';
import type { SqlParam } from '../../../src/sql/parse.js';
import { printSql } from '../../../src/sql/ast/print.js';
import { findFiles, repoRoot } from '../../helpers/golden.js';

const specRoot = resolve(repoRoot, '../shared/conformance/sql');

interface SpecStatement {
  readonly where: string;
  readonly sql: string;
  readonly params: SqlParam[];
}

/** ES SpecBaseIntegrationTestCase + CsvSpecParser / SqlSpecParser. */
function readSpec(file: string, csv: boolean): SpecStatement[] {
  const out: SpecStatement[] = [];
  let testName: string | null = null;
  let query = '';
  let inResults = false;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    if (testName === null) {
      testName = line;
      continue;
    }
    if (csv && inResults) {
      if (line.startsWith(';')) [inResults, testName] = [false, null];
      continue;
    }
    if (csv && line.startsWith('schema::')) continue;
    if (!line.endsWith(';')) {
      query += `${line}\r\n`;
      continue;
    }
    let sql = query + line.substring(0, line.length - 1).trim();
    query = '';
    // a few -Ignore'd docs tests hold a REST body (and its result table) instead of SQL
    const body = sql.startsWith('{') ? /"query"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(sql) : null;
    if (body) sql = JSON.parse(body[1]!) as string;
    out.push({ where: `${relative(specRoot, file)}:${testName}`, sql, params: [] });
    if (csv) inResults = true;
    else testName = null;
  }
  return out;
}

const typedParam = (value: unknown): SqlParam => ({
  type: typeof value === 'string' ? 'keyword' : Number.isInteger(value) ? 'integer' : 'double',
  value,
});

/** Complete statements in the reference docs (syntax synopses are skipped). */
function readDocs(file: string): SpecStatement[] {
  const text = readFileSync(file, 'utf8');
  const where = relative(specRoot, file);
  const out: SpecStatement[] = [];
  for (const m of text.matchAll(
    /"query"\s*:\s*("(?:[^"\\]|\\.)*")(?:,\s*"params"\s*:\s*(\[[^\]]*\]))?/g,
  )) {
    const params = m[2] ? (JSON.parse(m[2]) as unknown[]).map(typedParam) : [];
    out.push({ where, sql: JSON.parse(m[1]!) as string, params });
  }
  for (const m of text.matchAll(/^sql> (.*);$/gm)) out.push({ where, sql: m[1]!, params: [] });
  for (const m of text.matchAll(/^\[source, *sql\]\n(-{4,})\n([\s\S]*?)\n\1$/gm)) {
    const body = m[2]!.trim();
    if (/^SELECT\b/i.test(body) && !/[<[]/.test(body)) out.push({ where, sql: body, params: [] });
  }
  return out;
}

const statements = [
  ...findFiles(specRoot, '.csv-spec').flatMap((f) => readSpec(f, true)),
  ...findFiles(specRoot, '.sql-spec').flatMap((f) => readSpec(f, false)),
  ...findFiles(resolve(specRoot, 'docs'), '.asciidoc').flatMap(readDocs),
];

/** Statements ES 7.10 fails to parse too (all in tests ES mutes or doc typos). */
const EXPECTED_FAILURES: Record<string, string> = {
  'docs/docs.csv-spec:expressionOnHistogramNotAllowed-Ignore':
    "line 1:39: extraneous input ')' expecting", // an extra `)` in a muted docs test
  'es-6.8/docs.csv-spec:expressionOnHistogramNotAllowed-Ignore': "line 1:39: extraneous input ')'",
  'string-functions.sql-spec:trimGroupByAndHaving-Ignore': "line 1:59: extraneous input 'trimmed'",
  'docs/functions-aggs.asciidoc': "line 1:49: mismatched input 'FROM' expecting", // unbalanced ( in an example
};

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'loc' && key !== 'sourceText')
      .map(([key, v]) => [key, strip(v)]),
  );
}

describe('ES SQL spec statements', () => {
  it('are all found (count as of the 7.10 suites)', () => {
    expect(statements.length).toBe(2715);
  });

  it('parse, except those ES cannot parse either, and print back to the same AST', () => {
    const failures: string[] = [];
    const unexpected: string[] = [];
    for (const { where, sql, params } of statements) {
      try {
        const ast = parseSql(sql, params);
        expect(strip(parseSql(printSql(ast), params)), where).toEqual(strip(ast));
      } catch (e) {
        const reason = (e as { reason?: string }).reason ?? String(e);
        const expected = EXPECTED_FAILURES[where];
        if (expected !== undefined && reason.startsWith(expected)) failures.push(where);
        else unexpected.push(`${where}: ${reason}\n  ${sql}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect(failures.length).toBe(4);
  });
});
