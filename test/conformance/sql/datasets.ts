/**
 * Loads the ES SQL QA data sets (../shared/conformance/sql/DATASETS.md) into a node through its
 * REST API, per suite: test_emp, test_emp_copy (7.10 extras: constant_keyword, wildcard, alias), logs and their aliases; or emp, library and `employees`.
 * Every CSV value is sent as a JSON string, empty cells are left out, as the upstream loader does.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from '../../helpers/golden.js';

export const SQL_SPEC_DIR = resolve(repoRoot, '../shared/conformance/sql');

/** A REST call: method, path (with query), JSON or NDJSON body; returns status and parsed body. */
export type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

function readCsv(file: string): Array<Record<string, string>> {
  const lines = readFileSync(resolve(SQL_SPEC_DIR, file), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const head = lines[0]!.split(',');
  return lines.slice(1).map((l) => {
    const cells = l.split(',');
    const row: Record<string, string> = {};
    head.forEach((h, i) => {
      const v = cells[i] ?? '';
      if (v !== '') row[h] = v;
    });
    return row;
  });
}

function mappingBody(file: string): unknown {
  return JSON.parse(readFileSync(resolve(SQL_SPEC_DIR, file), 'utf8'));
}

function employees(copy: boolean): Array<Record<string, unknown>> {
  const deps = new Map(readCsv('departments.csv').map((d) => [d.dep_id!, d.dep_name!]));
  const depEmp = readCsv('dep_emp.csv');
  return readCsv('employees.csv').map((e) => {
    const doc: Record<string, unknown> = { ...e };
    const dep = depEmp
      .filter((d) => d.emp_no === e.emp_no)
      .map((d) => ({
        dep_id: d.dep_id,
        dep_name: deps.get(d.dep_id!),
        from_date: d.from_date,
        to_date: d.to_date,
      }));
    if (dep.length > 0) doc.dep = dep;
    if (copy) {
      if (e.gender !== undefined) doc.extra_gender = 'Female';
      if (e.first_name !== undefined && e.last_name !== undefined) {
        doc.wildcard_name = `${e.first_name} ${e.last_name}`;
      }
    }
    return doc;
  });
}

async function createIndex(call: Call, name: string, mappingFile: string): Promise<void> {
  const r = await call('PUT', `/${name}?include_type_name=false`, mappingBody(mappingFile));
  if (r.status !== 200) throw new Error(`create ${name}: ${r.status} ${JSON.stringify(r.body)}`);
}

async function bulk(
  call: Call,
  index: string,
  docs: Array<Record<string, unknown>>,
  idField: string | null,
): Promise<void> {
  const lines: string[] = [];
  for (const d of docs) {
    const meta: Record<string, unknown> = { _index: index, _type: '_doc' };
    if (idField !== null) meta._id = String(d[idField]);
    lines.push(JSON.stringify({ index: meta }), JSON.stringify(d));
  }
  const r = await call('POST', `/_bulk?refresh=true`, lines.join('\n') + '\n');
  const body = r.body as { errors?: boolean; items?: unknown[] };
  if (r.status !== 200 || body.errors)
    throw new Error(`bulk ${index}: ${JSON.stringify(body).slice(0, 500)}`);
}

/**
 * The two QA clusters: the root csv-specs run against test_emp, test_emp_copy, logs and the
 * aliases test_alias / test_alias_emp; docs/docs.csv-spec against emp, library and the alias
 * employees (JdbcDocCsvSpecIT), and `archive` (the library again, frozen as ES DataLoader
 * freezes it); frozen_emp (slow/frozen.csv-spec) is the employees again, frozen, beside test_emp.
 */
export type DatasetSuite = 'main' | 'docs' | 'single-node' | 'es68-single-node';

/** The data sets a spec file reads. */
export const suiteOf = (file: string): DatasetSuite =>
  // 6.8's doc snippets (es-6.8/docs) read the same emp and library indices as 7.10's docs/docs
  isDocsSpec(file)
    ? 'docs'
    : file.startsWith('single-node-only/')
      ? 'single-node'
      : file.startsWith('es-6.8/single-node-only/')
        ? 'es68-single-node'
        : 'main';

/** The doc-snippet files (JdbcDocCsvSpecIT): 7.10's docs/docs and 6.8's es-6.8/docs. */
export const isDocsSpec = (file: string): boolean =>
  file.startsWith('docs/') || file === 'es-6.8/docs';

/**
 * The QA cluster's name: 7.10's single-node-only specs ran on ES's `integTest` test cluster, 6.8's
 * on the one its build named after the project path (their SYS COLUMNS rows show it as TABLE_CAT).
 */
export const clusterNameOf = (suite: DatasetSuite): string =>
  suite === 'single-node'
    ? 'integTest'
    : suite === 'es68-single-node'
      ? 'x-pack_plugin_sql_qa_single-node_integTestCluster'
      : 'elasticsearch';

/** Creates and fills the indices and aliases of one suite. */
export async function loadSqlDatasets(call: Call, suite: DatasetSuite = 'main'): Promise<void> {
  let actions: object[];
  // single-node-only specs read the main data sets (on a cluster named as ES's test cluster)
  if (suite !== 'docs') {
    await createIndex(call, 'test_emp', 'test_emp.mapping.json');
    await bulk(call, 'test_emp', employees(false), null);
    await createIndex(call, 'test_emp_copy', 'test_emp_copy.mapping.json');
    await bulk(call, 'test_emp_copy', employees(true), null);
    await createIndex(call, 'logs', 'logs.mapping.json');
    await bulk(call, 'logs', readCsv('logs.csv'), 'id');
    await createIndex(call, 'frozen_emp', 'test_emp.mapping.json');
    await bulk(call, 'frozen_emp', employees(false), null);
    const frozen = await call('POST', '/frozen_emp/_freeze');
    if (frozen.status !== 200) throw new Error(`freeze frozen_emp: ${JSON.stringify(frozen.body)}`);
    actions = [
      { add: { index: 'test_emp', alias: 'test_alias' } },
      { add: { index: 'test_emp_copy', alias: 'test_alias' } },
      { add: { index: 'test_emp', alias: 'test_alias_emp' } },
      { add: { index: 'test_emp_copy', alias: 'test_alias_emp' } },
    ];
  } else {
    await createIndex(call, 'emp', 'test_emp.mapping.json');
    await bulk(call, 'emp', employees(false), null);
    await createIndex(call, 'library', 'library.mapping.json');
    await bulk(call, 'library', readCsv('library.csv'), 'name');
    await createIndex(call, 'archive', 'library.mapping.json');
    await bulk(call, 'archive', readCsv('library.csv'), 'name');
    const frozen = await call('POST', '/archive/_freeze');
    if (frozen.status !== 200) throw new Error(`freeze archive: ${JSON.stringify(frozen.body)}`);
    actions = [{ add: { index: 'emp', alias: 'employees' } }];
  }
  const r = await call('POST', '/_aliases', { actions });
  if (r.status !== 200) throw new Error(`aliases: ${JSON.stringify(r.body)}`);
}
