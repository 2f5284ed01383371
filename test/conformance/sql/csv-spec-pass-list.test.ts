/**
 * CI check: every csv-spec case listed in csv-spec-pass-list.txt must still pass against fresh
 * in-process nodes loaded with the QA data sets. Regenerate the list with
 * `npx tsx test/conformance/sql/cli.ts --update-pass-list` (the full run with counts per file:
 * the same command without the flag).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PASS_LIST } from './pass-list-path.js';
import { runSpecs, SPEC_FILES } from './runner.js';

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
    const seen = new Set(results.map((r) => r.id));
    const broken = [
      ...ids.filter((id) => !seen.has(id)).map((id) => `${id}: no such case any more`),
      ...results
        .filter((r) => r.status !== 'passed')
        .map((r) => `${r.id}: ${r.status}: ${r.reason ?? ''}`.slice(0, 400)),
    ];
    expect(broken, `${broken.length} listed case(s) no longer pass`).toEqual([]);
    expect(results).toHaveLength(ids.length);
  });
});
