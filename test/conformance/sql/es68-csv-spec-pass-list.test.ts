/**
 * CI check for the Elasticsearch 6.8 csv-spec suite: every case in es68-csv-spec-pass-list.txt must
 * still pass, and es68-version-differences.txt (6.8 expectations that 7.10, which Quarry follows,
 * changed) names only real, failing-by-design cases with a reason. Regenerate the pass list with
 * `npm run conformance:sql -- --es68 --update-pass-list`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ES68_PASS_LIST, ES68_VERSION_DIFFERENCES } from './pass-list-path.js';
import { ES68_SPEC_FILES, caseId, listedBreakage, runSpecs, specCases } from './runner.js';

const lines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

const ids = lines(ES68_PASS_LIST);
const differences = lines(ES68_VERSION_DIFFERENCES).map((l) => {
  const [id = '', ...why] = l.split(/\s+/);
  return { id, why: why.join(' ') };
});

describe('SQL es-6.8 csv-spec pass list', () => {
  it('is sorted, free of duplicates and names es-6.8 files', () => {
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const files = new Set(ids.map((id) => id.slice(0, id.lastIndexOf(':'))));
    expect([...files].filter((f) => !ES68_SPEC_FILES.includes(f))).toEqual([]);
  });

  it('lists version differences that exist, have a reason and are not in the pass list', () => {
    const all = new Set(ES68_SPEC_FILES.flatMap((f) => specCases(f).map((c) => caseId(c, f))));
    const diffIds = differences.map((d) => d.id);
    expect(new Set(diffIds).size).toBe(diffIds.length);
    expect(diffIds.filter((id) => !all.has(id))).toEqual([]);
    expect(differences.filter((d) => d.why.length < 10).map((d) => d.id)).toEqual([]);
    const passing = new Set(ids);
    expect(diffIds.filter((id) => passing.has(id))).toEqual([]);
  });

  it('every listed case still passes', { timeout: 180_000 }, async () => {
    const files = ES68_SPEC_FILES.filter((f) => ids.some((id) => id.startsWith(`${f}:`)));
    const results = await runSpecs(files, new Set(ids));
    const broken = listedBreakage(ids, results);
    expect(broken, `${broken.length} listed case(s) no longer pass`).toEqual([]);
    expect(results).toHaveLength(ids.length);
  });
});
