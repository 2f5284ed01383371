/** Where the committed list of passing csv-spec cases lives. */
import { resolve } from 'node:path';
import { repoRoot } from '../../helpers/golden.js';

export const PASS_LIST = resolve(repoRoot, 'test/conformance/sql/csv-spec-pass-list.txt');
