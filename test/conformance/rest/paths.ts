/**
 * Default locations, relative to the repository root (CI checks the repo out elsewhere, with the
 * shared conformance material at `../shared`).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
export const DEFAULT_TESTS_DIR = resolve(REPO_ROOT, '../shared/conformance/rest-api-spec/test');
export const PASS_LIST_PATH = resolve(REPO_ROOT, 'test/conformance/rest-pass-list.txt');
export const SKIP_LIST_PATH = resolve(REPO_ROOT, 'test/conformance/rest-skip.txt');
export const DEFAULT_REPORT_PATH = resolve(REPO_ROOT, 'reports/rest-conformance.json');

/** The API specs live next to the tests (`rest-api-spec/api`). */
export function apiDirFor(testsDir: string): string {
  return resolve(testsDir, '../api');
}
