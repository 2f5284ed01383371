/**
 * `tsx test/conformance/sql/cli.ts [--update-pass-list] [--verbose] [file...]`: runs the csv-spec
 * files in scope, prints per-file and total counts (and failures with --verbose), and with
 * --update-pass-list rewrites csv-spec-pass-list.txt with the passing case ids.
 */
import { writeFileSync } from 'node:fs';
import { PASS_LIST } from './pass-list-path.js';
import { runSpecs, SPEC_FILES, summarize } from './runner.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const update = args.includes('--update-pass-list');
const files = args.filter((a) => !a.startsWith('--'));
const results = await runSpecs(files.length > 0 ? files : SPEC_FILES);
if (verbose) {
  for (const r of results)
    if (r.status === 'failed') console.log(`FAIL ${r.id}: ${(r.reason ?? '').slice(0, 300)}`);
}
for (const line of summarize(results)) console.log(line);
if (update) {
  const ids = results
    .filter((r) => r.status === 'passed')
    .map((r) => r.id)
    .sort();
  writeFileSync(PASS_LIST, ids.join('\n') + '\n');
  console.log(`wrote ${ids.length} ids to ${PASS_LIST}`);
}
