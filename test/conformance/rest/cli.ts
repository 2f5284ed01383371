/**
 * `npm run conformance [-- options] [filters]`: runs Elasticsearch's YAML REST tests against a
 * fresh in-process node (or `--url`), prints failures, the per-folder table and a last line
 * `N passed, N failed, N skipped`, writes the JSON report, and optionally updates the pass list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { computeTreePassListUpdate, readPassList, writePassList } from './pass-list.js';
import {
  apiDirFor,
  DEFAULT_REPORT_PATH,
  DEFAULT_TESTS_DIR,
  PASS_LIST_PATH,
  SKIP_LIST_PATH,
  treeOf,
} from './paths.js';
import { folderTable, formatFailure, summaryLine, writeJsonReport } from './report.js';
import { runConformance } from './runner.js';
import { parseSkipList } from './selection.js';

const USAGE = `usage: npm run conformance -- [options] [filter ...]

filters: a folder (index), a file (search/10_source_filtering) or a test
         (bulk/10_basic.yml/Array of objects); all tests when none is given

options:
  --url URL             run against a running node instead of a fresh in-process one
  --cluster N           run against N fresh in-process nodes joined through a local etcd, each
                        request sent to one chosen at random (--seed S)
  --tests DIR           YAML test folder (default ../shared/conformance/rest-api-spec/test)
  --api DIR             API spec folder (default: DIR/../api next to the tests)
  --report PATH         JSON report (default reports/rest-conformance.json)
  --verbose             print every test and untruncated failures
  --bail                stop at the first failure
  --update-pass-list    add the tests that pass now to test/conformance/rest-pass-list.txt
  --allow-shrink        let --update-pass-list remove entries that no longer pass
  --no-strict-warnings  do not fail on deprecation warnings a step does not list
  --no-error-trace      do not add error_trace=true to every call (upstream adds it)
  --full-wipe           wipe indices, templates and cluster settings after every test
  --es-version V        check skip sections against V instead of the version GET / reports
  --help`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      cluster: { type: 'string' },
      seed: { type: 'string' },
      tests: { type: 'string' },
      api: { type: 'string' },
      report: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      bail: { type: 'boolean', default: false },
      'update-pass-list': { type: 'boolean', default: false },
      'allow-shrink': { type: 'boolean', default: false },
      'no-strict-warnings': { type: 'boolean', default: false },
      'no-error-trace': { type: 'boolean', default: false },
      'full-wipe': { type: 'boolean', default: false },
      'es-version': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const testsDir = values.tests ? resolve(values.tests) : DEFAULT_TESTS_DIR;
  const apiDir = values.api ? resolve(values.api) : apiDirFor(testsDir);
  const reportPath = values.report ? resolve(values.report) : DEFAULT_REPORT_PATH;
  const skipList = existsSync(SKIP_LIST_PATH)
    ? parseSkipList(readFileSync(SKIP_LIST_PATH, 'utf8'))
    : [];
  const verbose = values.verbose;

  const run = await runConformance({
    testsDir,
    apiDir,
    ...(values.url ? { url: values.url } : {}),
    ...(values.cluster ? { cluster: Number(values.cluster) } : {}),
    ...(values.seed ? { seed: Number(values.seed) } : {}),
    filters: positionals,
    skipList,
    strictWarnings: !values['no-strict-warnings'],
    errorTrace: !values['no-error-trace'],
    bail: values.bail,
    fullWipe: values['full-wipe'],
    ...(values['es-version'] ? { esVersion: values['es-version'] } : {}),
    log: (l) => console.error(l),
    onResult: verbose
      ? (r) =>
          console.log(
            `${r.status.toUpperCase().padEnd(7)} ${r.id} (${r.durationMs}ms)${r.status === 'skipped' ? ` — ${r.reason}` : ''}`,
          )
      : undefined,
  });

  const failures = run.results.filter((r) => r.status === 'failed');
  if (failures.length > 0) {
    console.log('');
    for (const f of failures) console.log(formatFailure(f, verbose) + '\n');
  }
  console.log(`node ${run.url} (Elasticsearch ${run.esVersion})\n`);
  console.log(folderTable(run.results));
  writeJsonReport(reportPath, run);
  console.log(`\nreport: ${reportPath}`);

  let code = failures.length > 0 ? 1 : 0;
  if (values['update-pass-list']) {
    const tree = treeOf(testsDir);
    if (tree === null) {
      console.log(`pass list NOT updated: ${testsDir} is not a tree of the suite`);
      code = 1;
    } else code = updatePassList(run, tree, values['allow-shrink']);
  }
  console.log(summaryLine(run.results));
  return code;
}

function updatePassList(
  run: Awaited<ReturnType<typeof runConformance>>,
  tree: string,
  allowShrink: boolean,
): number {
  const current = readPassList(PASS_LIST_PATH);
  const ran = new Set(run.results.map((r) => r.id));
  const passed = new Set(run.results.filter((r) => r.status === 'passed').map((r) => r.id));
  const update = computeTreePassListUpdate(current, tree, ran, passed, new Set(run.allIds));
  for (const id of update.added) console.log(`pass list: + ${id}`);
  if (update.removed.length > 0 && !allowShrink) {
    console.log(
      `pass list NOT updated: it would remove ${update.removed.length} entr${update.removed.length === 1 ? 'y' : 'ies'} (use --allow-shrink):`,
    );
    for (const id of update.removed) console.log(`pass list: - ${id}`);
    return 1;
  }
  for (const id of update.removed) console.log(`pass list: - ${id}`);
  writePassList(PASS_LIST_PATH, update.next);
  console.log(
    `pass list: ${update.next.length} tests (+${update.added.length}, -${update.removed.length}) in ${PASS_LIST_PATH}`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exitCode = 2;
  },
);
