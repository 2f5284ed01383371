/** Where the committed list of passing csv-spec cases lives. */
import { resolve } from 'node:path';
import { repoRoot } from '../../helpers/golden.js';

export const PASS_LIST = resolve(repoRoot, 'test/conformance/sql/csv-spec-pass-list.txt');

/** Where the committed list of `.sql-spec` statements that match H2 lives. */
export const SQL_SPEC_PASS_LIST = resolve(repoRoot, 'test/conformance/sql/sql-spec-pass-list.txt');
