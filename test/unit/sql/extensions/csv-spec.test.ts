/**
 * The csv-spec cases of Quarry's SQL extensions (issue 16): every fixtures/sql/extensions/*.csv-spec
 * file, in the upstream csv-spec format, run over the QA data sets as the conformance runner runs
 * ES's own files (every page, typed comparison).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCsvSpecFile } from '../../../conformance/sql/csv-spec-parser.js';
import {
  runCase,
  SPEC_NOW,
  startSpecNode,
  type SpecNode,
} from '../../../conformance/sql/runner.js';
import { repoRoot } from '../../../helpers/golden.js';

const dir = resolve(repoRoot, 'fixtures/sql/extensions');
const files = readdirSync(dir).filter((f) => f.endsWith('.csv-spec'));

let node: SpecNode | null = null;
beforeAll(async () => {
  node = await startSpecNode('main', SPEC_NOW);
}, 120_000);
afterAll(async () => {
  await node?.close();
});

describe('extension csv-spec cases', () => {
  it('exist', () => expect(files.length).toBeGreaterThan(0));
  for (const file of files) {
    const name = file.replace(/\.csv-spec$/, '');
    for (const c of parseCsvSpecFile(resolve(dir, file), name)) {
      it(`${name}:${c.name}`, async () => {
        const r = await runCase(node!.sql, c, name);
        expect(r.reason ?? '').toBe('');
        expect(r.status).toBe('passed');
      });
    }
  }
});
