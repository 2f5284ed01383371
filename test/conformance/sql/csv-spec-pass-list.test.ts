/**
 * CI check: every csv-spec case listed in csv-spec-pass-list.txt must still pass against fresh
 * in-process nodes loaded with the QA data sets. Regenerate the list with
 * `npx tsx test/conformance/sql/cli.ts --update-pass-list` (the full run with counts per file:
 * the same command without the flag).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PASS_LIST } from './pass-list-path.js';
import { listedBreakage, runSpecs, SPEC_FILES } from './runner.js';

const ids = readFileSync(PASS_LIST, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

describe('SQL csv-spec pass list', () => {
  it('is sorted, free of duplicates and names files in scope', () => {
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const files = new Set(ids.map((id) => id.slice(0, id.lastIndexOf(':'))));
    expect([...files].filter((f) => !SPEC_FILES.includes(f))).toEqual([]);
  });

  it('every listed case still passes', { timeout: 120_000 }, async () => {
    const files = SPEC_FILES.filter((f) => ids.some((id) => id.startsWith(`${f}:`)));
    const results = await runSpecs(files, new Set(ids));
    const broken = listedBreakage(ids, results);
    expect(broken, `${broken.length} listed case(s) no longer pass`).toEqual([]);
    expect(results).toHaveLength(ids.length);
  });
});
