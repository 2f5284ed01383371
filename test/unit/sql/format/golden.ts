/**
 * Golden-file helper for the format tests: compares byte for byte against fixtures/sql/format/<name>;
 * with UPDATE_GOLDEN=1 it (re)writes the file instead. Paths are relative to the repo root.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const dir = resolve(repoRoot, 'fixtures/sql/format');

export function expectGolden(name: string, actual: string): void {
  const path = resolve(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path))
    throw new Error(`missing golden ${path}; run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
