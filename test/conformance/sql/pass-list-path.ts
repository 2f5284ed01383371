/** Where the committed list of passing csv-spec cases lives. */
import { resolve } from 'node:path';
import { repoRoot } from '../../helpers/golden.js';

export const PASS_LIST = resolve(repoRoot, 'test/conformance/sql/csv-spec-pass-list.txt');

/** Where the committed list of `.sql-spec` statements that match H2 lives. */
export const SQL_SPEC_PASS_LIST = resolve(repoRoot, 'test/conformance/sql/sql-spec-pass-list.txt');

/** Where the committed list of passing Elasticsearch 6.8 csv-spec cases lives. */
export const ES68_PASS_LIST = resolve(repoRoot, 'test/conformance/sql/es68-csv-spec-pass-list.txt');

/** The es-6.8 cases whose expectation is 6.8 behaviour that 7.10 (which Quarry follows) changed. */
export const ES68_VERSION_DIFFERENCES = resolve(
  repoRoot,
  'test/conformance/sql/es68-version-differences.txt',
);
