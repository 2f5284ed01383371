/**
 * `tsx test/conformance/sql/cli.ts [--es68] [--update-pass-list] [--verbose] [file...]`: runs the
 * csv-spec files in scope (the 7.10 suite, or with --es68 the Elasticsearch 6.8 files), prints
 * per-file and total counts (and failures and skips with --verbose), and with --update-pass-list rewrites
 * that suite's pass list with the passing case ids. The es-6.8 run also reports how many failures
 * are known 6.8-vs-7.10 differences (es68-version-differences.txt).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ES68_PASS_LIST, ES68_VERSION_DIFFERENCES, PASS_LIST } from './pass-list-path.js';
import { ES68_SPEC_FILES, runSpecs, SPEC_FILES, summarize } from './runner.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const update = args.includes('--update-pass-list');
const es68 = args.includes('--es68');
const files = args.filter((a) => !a.startsWith('--'));
const results = await runSpecs(files.length > 0 ? files : es68 ? ES68_SPEC_FILES : SPEC_FILES);
const differences = es68 ? readIdList(ES68_VERSION_DIFFERENCES) : new Set<string>();
if (verbose) {
  for (const r of results)
    if (r.status !== 'passed') {
      const tag = r.status === 'skipped' ? 'SKIP' : differences.has(r.id) ? 'DIFF' : 'FAIL';
      console.log(`${tag} ${r.id}: ${(r.reason ?? '').slice(0, 300)}`);
    }
}
for (const line of summarize(results)) console.log(line);
if (es68) {
  const failed = results.filter((r) => r.status === 'failed');
  const diff = failed.filter((r) => differences.has(r.id)).length;
  console.log(
    `es-6.8: ${results.filter((r) => r.status === 'passed').length} passed, ${diff} 6.8-vs-7.10 differences, ${failed.length - diff} other failures`,
  );
}
if (update) {
  const ids = results
    .filter((r) => r.status === 'passed')
    .map((r) => r.id)
    .sort();
  const target = es68 ? ES68_PASS_LIST : PASS_LIST;
  writeFileSync(target, ids.join('\n') + '\n');
  console.log(`wrote ${ids.length} ids to ${target}`);
}

/** Case ids of a list file: the first word of each line that is not blank or a `#` comment. */
function readIdList(path: string): Set<string> {
  return new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/)[0] ?? '')
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
}
