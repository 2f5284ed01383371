/**
 * `tsx test/conformance/sql/sql-spec-cli.ts [--update-pass-list] [--verbose] [file...]`: runs the
 * `.sql-spec` files on H2 and Quarry, prints per-file counts (failures and oracle errors with
 * --verbose), and with --update-pass-list rewrites sql-spec-pass-list.txt (the run files' entries).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SQL_SPEC_PASS_LIST } from './pass-list-path.js';
import { h2Unavailable } from './sql-spec-h2.js';
import { runSqlSpecs, SQL_SPEC_FILES, summarizeSqlSpecs } from './sql-spec-runner.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const update = args.includes('--update-pass-list');
const files = args.filter((a) => !a.startsWith('--'));
const missing = h2Unavailable();
if (missing !== null) {
  console.error(`cannot run the H2 oracle: ${missing}`);
  process.exit(2);
}
const results = await runSqlSpecs(files.length > 0 ? files : SQL_SPEC_FILES);
if (verbose) {
  for (const r of results) {
    if (r.status === 'failed' || r.status === 'oracle-error')
      console.log(
        `${r.status === 'failed' ? 'FAIL' : 'H2ERR'} ${r.id}: ${(r.reason ?? '').slice(0, 300)}`,
      );
  }
}
for (const line of summarizeSqlSpecs(results)) console.log(line);
if (update) {
  // entries of files not run this time stay as they are
  const ran = new Set(results.map((r) => r.file));
  const kept = readFileSync(SQL_SPEC_PASS_LIST, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#') && !ran.has(l.slice(0, l.lastIndexOf(':'))));
  const ids = [...kept, ...results.filter((r) => r.status === 'passed').map((r) => r.id)].sort();
  writeFileSync(SQL_SPEC_PASS_LIST, ids.join('\n') + '\n');
  console.log(`wrote ${ids.length} ids to ${SQL_SPEC_PASS_LIST}`);
}
