/**
 * The `.sql-spec` runner (ES SqlSpecTestCase): every statement of the 7.10 files and of es-6.8/
 * runs on H2 (loaded from setup_test_emp.sql, as upstream's LocalH2) and on a fresh in-process
 * Quarry node loaded with the same data sets (the csv-spec loader), through the SQL session in
 * jdbc mode with every page fetched; sql-spec-compare checks the two result sets. The geo files
 * (ES GeoSqlSpecTestCase) run on their own H2 with the ST_ functions and the OGC and geo scripts,
 * and on a node that also holds the geo and ogc indices.
 * A statement H2 itself rejects is `oracle-error` (not comparable), never a Quarry failure.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { toEsError } from '../../../src/common/errors.js';
import type { SqlService } from '../../../src/sql/execute/session.js';
import { SQL_SPEC_DIR } from './datasets.js';
import { startSpecNode } from './runner.js';
import { compareWithH2 } from './sql-spec-compare.js';
import { startH2, type H2Oracle, type H2Options } from './sql-spec-h2.js';
import { h2GeoSetup, h2Statement } from './sql-spec-adjustments.js';
import { parseSqlSpecFile } from './sql-spec-parser.js';

/** The files of both suites (7.10 and es-6.8); 7.10 adds `subselect`. */
const BOTH = ['select', 'filter', 'datetime', 'math', 'agg', 'agg-ordering', 'arithmetic', 'string-functions', 'case-functions', 'null']; // prettier-ignore

/** The files upstream's GeoSqlSpecTestCase reads, on H2 with the ST_ functions (h2/H2Gis.java). */
const GEO = ['ogc/ogc', 'geo/geosql'];

/** The files upstream's SqlSpecTestCase and GeoSqlSpecTestCase read. */
export const SQL_SPEC_FILES = [...BOTH, 'subselect', ...BOTH.map((f) => `es-6.8/${f}`), ...GEO];

/** An H2 (and Quarry node) loaded as upstream's test case for the file loads them. */
interface Setup {
  readonly scripts: readonly string[];
  readonly options: H2Options;
  readonly geo: boolean;
}

const PLAIN: Setup = { scripts: ['setup_test_emp.sql'], options: {}, geo: false };

// GeoSqlSpecTestCase: the OGC script, then the geo one (adjustment 5 for H2 2.x)
const GEO_SETUP: Setup = {
  scripts: ['ogc/sqltsch.sql', 'geo/setup_test_geo.sql'],
  options: {
    gis: true,
    scripts: {
      'geo/setup_test_geo.sql': h2GeoSetup(
        readFileSync(resolve(SQL_SPEC_DIR, 'geo/setup_test_geo.sql'), 'utf8'),
      ),
    },
  },
  geo: true,
};

export type SqlSpecStatus = 'passed' | 'failed' | 'skipped' | 'oracle-error';

export interface SqlSpecResult {
  readonly id: string;
  readonly file: string;
  readonly status: SqlSpecStatus;
  readonly reason: string | null;
}

async function quarry(sql: SqlService, query: string) {
  let page = await sql.execute({ query, mode: 'jdbc' });
  const columns = (page.columns ?? []).map((c) => ({ name: c.name, type: c.type }));
  const rows = [...page.rows];
  while (page.cursor !== null) {
    page = await sql.execute({ cursor: page.cursor });
    rows.push(...page.rows);
  }
  return { columns, rows };
}

async function runOne(
  h2: H2Oracle,
  sql: SqlService,
  file: string,
  c: { name: string; query: string; ignored: boolean },
): Promise<SqlSpecResult> {
  const id = `${file}:${c.name}`;
  if (c.ignored) return { id, file, status: 'skipped', reason: 'marked -Ignore upstream' };
  const expected = await h2.query(h2Statement(c.query)).catch((e: Error) => ({
    error: `oracle failure: ${e.message}`,
  }));
  if ('error' in expected) {
    return { id, file, status: 'oracle-error', reason: expected.error.split('\n')[0]! };
  }
  try {
    const actual = await quarry(sql, c.query);
    const diff = compareWithH2(expected, actual);
    return { id, file, status: diff === null ? 'passed' : 'failed', reason: diff };
  } catch (e) {
    const err = toEsError(e);
    return { id, file, status: 'failed', reason: `${err.type}: ${err.reason ?? ''}` };
  }
}

/** Runs the given files (all by default), only the ids in `only` when given. */
export async function runSqlSpecs(
  files: readonly string[] = SQL_SPEC_FILES,
  only?: ReadonlySet<string>,
): Promise<SqlSpecResult[]> {
  const plain = files.filter((f) => !GEO.includes(f));
  const geo = files.filter((f) => GEO.includes(f));
  return [
    ...(plain.length > 0 ? await runWith(PLAIN, plain, only) : []),
    ...(geo.length > 0 ? await runWith(GEO_SETUP, geo, only) : []),
  ];
}

async function runWith(
  setup: Setup,
  files: readonly string[],
  only?: ReadonlySet<string>,
): Promise<SqlSpecResult[]> {
  const start = () => startH2(SQL_SPEC_DIR, setup.scripts, setup.options);
  let h2 = await start();
  const node = await startSpecNode('main', undefined, setup.geo).catch((e) => {
    h2.close();
    throw e;
  });
  const out: SqlSpecResult[] = [];
  try {
    for (const file of files) {
      for (const c of parseSqlSpecFile(resolve(SQL_SPEC_DIR, `${file}.sql-spec`))) {
        if (only && !only.has(`${file}:${c.name}`)) continue;
        const r = await runOne(h2, node.sql, file, c);
        out.push(r);
        // a statement H2 never answered leaves it busy: start a fresh one for the next
        if (r.status === 'oracle-error' && r.reason?.startsWith('oracle failure')) {
          h2.close();
          h2 = await start();
        }
      }
    }
  } finally {
    h2.close();
    await node.close();
  }
  return out;
}

/** Per-file and total counts. */
export function summarizeSqlSpecs(results: readonly SqlSpecResult[]): string[] {
  const count = (rs: readonly SqlSpecResult[], s: SqlSpecStatus) =>
    rs.filter((r) => r.status === s).length;
  const line = (label: string, rs: readonly SqlSpecResult[]) => {
    const comparable = count(rs, 'passed') + count(rs, 'failed');
    const pct = comparable === 0 ? 0 : (100 * count(rs, 'passed')) / comparable;
    return `${label}: ${count(rs, 'passed')} passed, ${count(rs, 'failed')} failed, ${count(rs, 'oracle-error')} oracle errors, ${count(rs, 'skipped')} skipped (${pct.toFixed(1)}% of comparable)`;
  };
  const files = [...new Set(results.map((r) => r.file))];
  return [
    ...files.map((f) =>
      line(
        f,
        results.filter((r) => r.file === f),
      ),
    ),
    line('total', results),
  ];
}
