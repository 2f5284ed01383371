/**
 * The H2 property test, bounded for CI: a fixed seed's generated GROUP BY / HAVING / ORDER BY /
 * LIMIT statements must give H2's result set, except the statements listed in
 * sql-property-known-wrong.txt (silently wrong answers not fixed yet, each class explained
 * there): a new difference fails, and a listed statement that now matches must leave the list.
 * The long run: `npm run conformance:sql-property -- --runs 10000`. Skipped without a JDK or
 * the H2 jar.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/golden.js';
import { h2Unavailable } from './sql-spec-h2.js';
import { runProperty } from './sql-property.js';

export const SEED = 1;
export const RUNS = 300;
export const KNOWN_WRONG = resolve(repoRoot, 'test/conformance/sql/sql-property-known-wrong.txt');

const known = readFileSync(KNOWN_WRONG, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

const missing = h2Unavailable();

describe('SQL property test against H2', () => {
  if (missing !== null) {
    it.skip(`generated statements match H2 — skipped: ${missing}`, () => {});
    return;
  }

  it(`seed ${SEED}: ${RUNS} generated statements match H2`, { timeout: 180_000 }, async () => {
    const r = await runProperty(RUNS, SEED);
    const wrong = r.wrong.map((w) => w.sql);
    const unexpected = r.wrong
      .filter((w) => !known.includes(w.sql))
      .map((w) => `${w.sql}\n  ${w.reason}`);
    expect(unexpected, 'new silently wrong answers').toEqual([]);
    expect(
      known.filter((k) => !wrong.includes(k)),
      'listed statements that now match H2 (remove them from the list)',
    ).toEqual([]);
    expect(r.refused, 'statements Quarry refuses').toEqual([]);
    expect(r.oracleErrors, 'statements H2 rejects').toEqual([]);
    expect(r.matched + r.wrong.length).toBe(RUNS);
  });
});
