/**
 * The csv-spec runner: loads the QA data sets into a fresh in-process node, runs each case of the
 * 7.10 spec files through the SQL session (the path `/_sql` takes, all pages fetched as the JDBC
 * driver does, session zone UTC) and compares typed results with csv-spec-compare. `-Ignore`
 * cases (muted upstream) run too: one that passes counts as passed, one that fails is reported as
 * skipped with the reason it fails here, so only upstream-muted cases are ever skipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openNode } from '../../../src/node.js';
import { createDispatcher } from '../../../src/http/dispatcher.js';
import { sqlNodeOf } from '../../../src/http/routes/sql.js';
import { SqlService } from '../../../src/sql/execute/session.js';
import { toEsError } from '../../../src/common/errors.js';
import { DATA_TYPES, type DataTypeName } from '../../../src/functions/data-types.js';
import { parseCsvSpecFile, type CsvSpecCase, type ExpectedTable } from './csv-spec-parser.js';
import { compareResult } from './csv-spec-compare.js';
import {
  clusterNameOf,
  loadSqlDatasets,
  SQL_SPEC_DIR,
  suiteOf,
  isDocsSpec,
  type DatasetSuite,
} from './datasets.js';
import { GEO_SPEC_FILES, geoSuiteOf, isGeoSpec, loadGeoDatasets } from './geo-datasets.js';

/** The spec files in scope (issue 4; the rest from issue 16). geo and ogc are out of scope. */
export const SPEC_FILES = [
  'select',
  'agg',
  'agg-ordering',
  'command',
  'docs/docs',
  'fulltext',
  'filter',
  'pivot',
  'math',
  'arithmetic',
  'null',
  'conditionals',
  'alias',
  'functions',
  'date',
  'datetime',
  'datetime-interval',
  'ip',
  'single-node-only/command-sys',
  'constant-keyword',
  'wildcard',
  'field-alias',
  'time',
  'slow/frozen',
  'columns',
  'debug/debug',
  'examples/example',
  'nested',
  ...GEO_SPEC_FILES,
];

/**
 * The Elasticsearch 6.8 csv-spec files, run as a second suite (`--es68`). Quarry follows 7.10 where
 * the versions disagree; those cases are named in es68-version-differences.txt.
 */
export const ES68_SPEC_FILES = [
  'agg-ordering',
  'agg',
  'alias',
  'arithmetic',
  'columns',
  'command',
  'date',
  'datetime-interval',
  'datetime',
  'debug',
  'docs',
  'example',
  'field-alias',
  'filter',
  'fulltext',
  'functions',
  'ip',
  'math',
  'nested',
  'null',
  'select',
  'single-node-only/command-sys',
].map((f) => `es-6.8/${f}`);

/**
 * NOW for every statement: the day ES 7.10.0 was released. Specs such as date:currentDateFilter
 * and docs:filterToday compare against fixed rows that only hold for a NOW of their time.
 */
export const SPEC_NOW = Date.UTC(2020, 10, 11);

/**
 * The docs snippets that print NOW itself show the clock of the moment their author ran them, on
 * 2018-12-12; each runs with that clock instead of SPEC_NOW (upstream marks them -Ignore because
 * its runner cannot fix the clock). What they check stays the server's own: the type, truncation,
 * precision and formatting of CURRENT_DATE, CURRENT_TIME and CURRENT_TIMESTAMP.
 */
const TIME_SNIPPET_NOW = Date.UTC(2018, 11, 12, 12, 31, 27, 237);
const TIMESTAMP_SNIPPET_NOW = Date.UTC(2018, 11, 12, 14, 48, 52, 448);
const clockOf = (files: readonly string[], names: readonly string[], now: number) =>
  files.flatMap((f) => names.map((n) => [`${f}:${n}-Ignore`, now] as const));
export const CASE_NOW: ReadonlyMap<string, number> = new Map([
  ...clockOf(
    ['docs/docs', 'es-6.8/docs'],
    ['currentDate', 'currentDateFunction', 'curDateFunction', 'todayFunction'],
    TIME_SNIPPET_NOW,
  ),
  // 6.8 has no TIME type, nor these snippets
  ...clockOf(
    ['docs/docs'],
    ['currentTime', 'currentTimeFunction', 'curTimeFunction', 'currentTimeFunctionPrecision'],
    TIME_SNIPPET_NOW,
  ),
  ...clockOf(
    ['docs/docs', 'es-6.8/docs'],
    [
      'currentTimestamp',
      'currentTimestampFunction',
      'currentTimestampFunctionPrecision',
      'nowFunction',
    ],
    TIMESTAMP_SNIPPET_NOW,
  ),
]);

export type Status = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  readonly id: string;
  readonly file: string;
  readonly status: Status;
  readonly reason: string | null;
}

export interface SpecNode {
  readonly sql: SqlService;
  /** Moves NOW for the statements that follow (only on a node started with a fixed NOW). */
  setNow(now: number): void;
  close(): Promise<void>;
}

/** A node with one suite's data sets loaded. */
export async function startSpecNode(
  suite: DatasetSuite = 'main',
  /** Epoch millis of NOW for every statement; the real clock when absent (the H2 comparisons). */
  now?: number,
  /** Also the geo and ogc data sets (ES's GeoCsvSpecTestCase). */
  geo = false,
): Promise<SpecNode> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-sql-spec-'));
  const node = await openNode({ dataPath: dir, clusterName: clusterNameOf(suite) });
  // geo specs run on the main data sets plus geo and ogc (ES's GeoCsvSpecTestCase)
  const d = createDispatcher(node.context);
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await d(method as 'GET', path, body as object);
    return { status: r.status, body: r.body };
  };
  await loadSqlDatasets(call, geo ? 'main' : suite);
  if (geo) await loadGeoDatasets(call);
  let clock = now;
  return {
    sql: new SqlService(
      clock === undefined
        ? sqlNodeOf(node.context)
        : Object.assign(sqlNodeOf(node.context), { wallClock: () => clock! }),
    ),
    setNow(ms) {
      if (clock === undefined) throw new Error('this spec node runs on the real clock');
      clock = ms;
    },
    async close() {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The functions Quarry adds beyond ES SQL (src/sql/EXTENSIONS.md, "Window functions"), as
 * SHOW FUNCTIONS lists them: after all of ES's functions, in this order. Written out here, not
 * read from src, so the runner checks the server against the documented list.
 */
export const QUARRY_EXTENSION_FUNCTIONS: ReadonlyArray<readonly [string, string]> = [
  ['DENSE_RANK', 'WINDOW'],
  ['LAG', 'WINDOW'],
  ['LEAD', 'WINDOW'],
  ['RANK', 'WINDOW'],
  ['ROW_NUMBER', 'WINDOW'],
];

/** LIKE as SHOW FUNCTIONS applies it: whole name, case-insensitive, `%`, `_` and ESCAPE. */
function likeMatcher(pattern: string, escape: string | null): (name: string) => boolean {
  const literal = (ch: string) => ch.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (escape !== null && ch === escape && i + 1 < pattern.length) re += literal(pattern[++i]!);
    else if (ch === '%') re += '.*';
    else if (ch === '_') re += '.';
    else re += literal(ch);
  }
  const r = new RegExp(`^${re}$`, 'is');
  return (name) => r.test(name);
}

/**
 * The one adjustment to upstream's expectations: a SHOW FUNCTIONS case expects upstream's rows
 * (ES's whole list, still checked exactly) followed by the extension functions Quarry documents
 * whose name matches the case's LIKE pattern. Issue 16 asks SHOW FUNCTIONS to list the
 * extensions; ES's spec cannot know them. Every other case's expectation is upstream's, as is.
 */
export function expectedWithExtensions(c: CsvSpecCase): ExpectedTable {
  const m =
    /^\s*SHOW\s+FUNCTIONS(?:\s+LIKE\s+'((?:[^']|'')*)'(?:\s+ESCAPE\s+'(.)')?)?\s*;?\s*$/is.exec(
      c.query,
    );
  if (m === null) return c.expected;
  const matches =
    m[1] === undefined || m[1].trim() === ''
      ? () => true
      : likeMatcher(m[1].replace(/''/g, "'"), m[2] ?? null);
  const extra = QUARRY_EXTENSION_FUNCTIONS.filter(([name]) => matches(name));
  return { ...c.expected, rows: [...c.expected.rows, ...extra] };
}

export const caseId = (c: CsvSpecCase, file: string): string => `${file}:${c.name}`;

/** Runs one case: every page, then the typed comparison. */
export async function runCase(sql: SqlService, c: CsvSpecCase, file: string): Promise<CaseResult> {
  const r = await runCaseStrict(sql, c, file);
  if (!c.ignored || r.status === 'passed') return r;
  return { ...r, status: 'skipped', reason: `marked -Ignore upstream; here: ${r.reason ?? ''}` };
}

/** One case, its `-Ignore` mark disregarded. */
async function runCaseStrict(sql: SqlService, c: CsvSpecCase, file: string): Promise<CaseResult> {
  const id = caseId(c, file);
  try {
    let page = await sql.execute({ ...requestOf(c.query), mode: 'jdbc' });
    const columns = (page.columns ?? []).map((col) => ({
      name: col.name,
      type: DATA_TYPES[col.type as DataTypeName]?.typeName ?? col.type.toLowerCase(),
    }));
    const rows = [...page.rows];
    while (page.cursor !== null) {
      page = await sql.execute({ cursor: page.cursor });
      rows.push(...page.rows);
    }
    // JdbcDocCsvSpecIT compares the doc snippets with lenientDataType
    const r = compareResult(
      expectedWithExtensions(c),
      { columns, rows },
      { lenientDataType: isDocsSpec(file) },
    );
    return { id, file, status: r.ok ? 'passed' : 'failed', reason: r.diff };
  } catch (e) {
    const err = toEsError(e);
    return { id, file, status: 'failed', reason: `${err.type}: ${err.reason ?? ''}` };
  }
}

/** A case's statement, or its REST-body snippet's `query` and `time_zone` (docs/docs has three). */
export function requestOf(query: string): { query: string; timeZone?: string } {
  if (!query.startsWith('{')) return { query };
  const body = JSON.parse(query) as { query: string; time_zone?: string };
  return body.time_zone === undefined
    ? { query: body.query }
    : { query: body.query, timeZone: body.time_zone };
}

/** The cases of a spec file; a name used again gets `#2`, `#3`… (upstream has a few repeats). */
export function specCases(file: string): CsvSpecCase[] {
  const seen = new Map<string, number>();
  return parseCsvSpecFile(resolve(SQL_SPEC_DIR, `${file}.csv-spec`), file).map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    return n === 1 ? c : { ...c, name: `${c.name}#${n}` };
  });
}

/** Runs the given files (all in scope by default), each against its suite's node. */
export async function runSpecs(
  files: readonly string[] = SPEC_FILES,
  only?: ReadonlySet<string>,
): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  for (const [suite, geo] of [
    ['main', false],
    ['docs', false],
    ['single-node', false],
    ['es68-single-node', false],
    ['main', true],
    ['single-node', true],
  ] as const) {
    const mine = files.filter(
      (f) => isGeoSpec(f) === geo && (geo ? geoSuiteOf(f) : suiteOf(f)) === suite,
    );
    if (mine.length === 0) continue;
    const node = await startSpecNode(suite, SPEC_NOW, geo);
    try {
      for (const file of mine) {
        for (const c of specCases(file)) {
          const id = caseId(c, file);
          if (only && !only.has(id)) continue;
          node.setNow(CASE_NOW.get(id) ?? SPEC_NOW);
          out.push(await runCase(node.sql, c, file));
        }
      }
    } finally {
      await node.close();
    }
  }
  // report in the order asked
  return files.flatMap((f) => out.filter((r) => r.file === f));
}

/**
 * What keeps a pass list from holding: listed cases the run no longer has, and listed cases that
 * did not pass, each with its reason.
 */
export function listedBreakage(ids: readonly string[], results: readonly CaseResult[]): string[] {
  const seen = new Set(results.map((r) => r.id));
  return [
    ...ids.filter((id) => !seen.has(id)).map((id) => `${id}: no such case any more`),
    ...results
      .filter((r) => r.status !== 'passed')
      .map((r) => `${r.id}: ${r.status}: ${r.reason ?? ''}`.slice(0, 400)),
  ];
}

/** `N passed, N failed, N skipped` per file and in total. */
export function summarize(results: readonly CaseResult[]): string[] {
  const lines: string[] = [];
  const count = (rs: readonly CaseResult[], s: Status) => rs.filter((r) => r.status === s).length;
  const files = [...new Set(results.map((r) => r.file))];
  for (const f of files) {
    const rs = results.filter((r) => r.file === f);
    lines.push(
      `${f}: ${count(rs, 'passed')} passed, ${count(rs, 'failed')} failed, ${count(rs, 'skipped')} skipped`,
    );
  }
  const total = results.length;
  const passed = count(results, 'passed');
  lines.push(
    `total: ${passed} passed, ${count(results, 'failed')} failed, ${count(results, 'skipped')} skipped (${total} cases, ${((100 * passed) / Math.max(total, 1)).toFixed(1)}% pass)`,
  );
  return lines;
}
