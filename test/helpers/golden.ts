/**
 * Golden files: compare a value with the JSON stored beside a fixture, or (re)write it when
 * UPDATE_GOLDEN=1 (bin/update-golden). Comparison is semantic (parsed JSON), so prettier's
 * formatting of the files does not matter; bigint values are stored as {"$bigint": "..."}.
 * A missing golden fails unless updating. Text inputs are read with \r\n normalised to \n.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const updating = process.env.UPDATE_GOLDEN === '1';

/** JSON text of a value the way goldens store it (bigint as {"$bigint": "..."}). */
export function toGoldenJson(value: unknown): string {
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v),
    2,
  );
  return `${text}\n`;
}

/** Reads a text fixture with line endings normalised. */
export function readText(file: string): string {
  return readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
}

/** Asserts `actual` equals the JSON golden `file`, or writes it when updating. */
export function expectGoldenJson(file: string, actual: unknown): void {
  const json = toGoldenJson(actual);
  if (updating) {
    const current = existsSync(file) ? readText(file) : null;
    if (current === null || !isSameJson(current, json)) writeFileSync(file, json);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(`missing golden ${relative(repoRoot, file)} (run bin/update-golden)`);
  }
  expect(JSON.parse(json), relative(repoRoot, file)).toEqual(JSON.parse(readText(file)));
}

function isSameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/** Every file under `dir` (recursively) whose name ends with `suffix`, sorted. */
export function findFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (name.endsWith(suffix)) out.push(path);
    }
  };
  if (existsSync(dir)) visit(dir);
  return out;
}

/** The intent comment on line 1 of a fixture (`-- intent`). */
export function fixtureIntent(sql: string): string {
  const first = sql.split('\n', 1)[0] ?? '';
  return first.startsWith('--') ? first.replace(/^--\s*/, '') : '';
}
