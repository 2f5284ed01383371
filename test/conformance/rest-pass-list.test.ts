/**
 * CI check: every YAML REST test listed in rest-pass-list.txt must still pass against a fresh
 * in-process node (run one after the other, as `npm run conformance` does). Regenerate the list
 * with `npm run conformance -- --update-pass-list`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idsByTree, passListProblems, readPassList, treePrefix } from './rest/pass-list.js';
import {
  apiDirFor,
  DEFAULT_TESTS_DIR,
  PASS_LIST_PATH,
  SKIP_LIST_PATH,
  treeDir,
} from './rest/paths.js';
import { runConformance } from './rest/runner.js';
import { parseSkipList } from './rest/selection.js';

const ids = readPassList(PASS_LIST_PATH);

describe('REST conformance pass list', () => {
  it('is sorted and free of duplicates', () => {
    expect(passListProblems(ids)).toEqual([]);
  });

  for (const [tree, treeIds] of idsByTree(ids)) {
    it(`every listed test of ${tree}/ still passes`, { timeout: 400_000 }, async () => {
      const run = await runConformance({
        testsDir: treeDir(tree),
        apiDir: apiDirFor(DEFAULT_TESTS_DIR),
        ids: treeIds,
        skipList: parseSkipList(readFileSync(SKIP_LIST_PATH, 'utf8')),
      });
      const prefix = treePrefix(tree);
      const broken = [
        ...run.missingIds.map((id) => `${prefix}${id}: no such test any more`),
        ...run.results
          .filter((r) => r.status !== 'passed')
          .map((r) => `${prefix}${r.id}: ${r.status}: ${r.reason ?? ''}`.slice(0, 400)),
      ];
      expect(broken, `${broken.length} listed test(s) no longer pass`).toEqual([]);
      expect(run.results).toHaveLength(treeIds.length);
    });
  }
});
