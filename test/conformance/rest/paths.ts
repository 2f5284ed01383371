/**
 * Default locations, relative to the repository root (CI checks the repo out elsewhere, with the
 * shared conformance material at `../shared`).
 */
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
export const DEFAULT_TESTS_DIR = resolve(REPO_ROOT, '../shared/conformance/rest-api-spec/test');
export const PASS_LIST_PATH = resolve(REPO_ROOT, 'test/conformance/rest-pass-list.txt');
export const SKIP_LIST_PATH = resolve(REPO_ROOT, 'test/conformance/rest-skip.txt');
export const DEFAULT_REPORT_PATH = resolve(REPO_ROOT, 'reports/rest-conformance.json');

/** `rest-api-spec/`: the trees `test/`, `modules/<name>/`, `x-pack/` and the `api/` specs. */
export const SPEC_ROOT = resolve(DEFAULT_TESTS_DIR, '..');

/** The tree a tests folder is (`test`, `modules/reindex`, `x-pack`), or null outside the suite. */
export function treeOf(testsDir: string): string | null {
  const rel = relative(SPEC_ROOT, resolve(testsDir)).split(sep).join('/');
  if (rel === 'test' || rel === 'x-pack' || /^modules\/[^/]+$/.test(rel)) return rel;
  return null;
}

/** The tests folder of a tree. */
export function treeDir(tree: string): string {
  return resolve(SPEC_ROOT, tree);
}

/** The API specs live next to the tests (`rest-api-spec/api`). */
export function apiDirFor(testsDir: string): string {
  return resolve(testsDir, '../api');
}
