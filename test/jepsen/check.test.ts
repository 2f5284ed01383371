/**
 * All checkers over one run, in process and from stored files through the CLI: a history written
 * as JSON lines is checked again to the same report, and the exit code says whether it passed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRun } from './check.js';
import { builder, v } from './simulate.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-jepsen-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = resolve(__dirname, '../..');

function history(stale: boolean) {
  const b = builder();
  b.inv(1, { kind: 'insert', id: 'a' }).recorder.ok(1, { kind: 'insert' });
  b.write(2, 'k', 1, v(1)).write(2, 'k', 2, v(2));
  b.read(3, 'k', stale ? 1 : 2, stale ? v(1) : v(2));
  return b.recorder;
}
const material = {
  seed: 9,
  finalCopies: { n1: ['a'], n2: ['a'] },
  shards: {
    's[0]': [
      { copy: 'n1', docs: [] },
      { copy: 'n2', docs: [] },
    ],
  },
};

describe('checkRun', () => {
  it('runs every checker and counts the checks', () => {
    const r = checkRun({ ...material, events: history(false).events() });
    expect(r.checks.map((c) => [c.name, c.status])).toEqual([
      ['set', 'pass'],
      ['linearizable k', 'pass'],
      ['copies', 'pass'],
    ]);
    expect(checkRun({ ...material, events: history(true).events() }).failed).toBe(1);
  });

  it('insists on the final copies when there are inserts', () => {
    expect(() => checkRun({ events: history(false).events() })).toThrow(/final read of each copy/);
  });
});

describe('check-cli', () => {
  const cli = (h: string, out: string) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/jepsen/check-cli.ts',
        '--history',
        h,
        '--material',
        join(dir, 'm.json'),
        '--out',
        out,
      ],
      { cwd: root, encoding: 'utf8', timeout: 20_000 },
    );

  it('re-checks stored histories: pass exits 0, a stale read exits 1', { timeout: 30_000 }, () => {
    writeFileSync(join(dir, 'm.json'), JSON.stringify(material));
    writeFileSync(join(dir, 'good.jsonl'), history(false).toJsonLines());
    writeFileSync(join(dir, 'bad.jsonl'), history(true).toJsonLines());
    const good = cli(join(dir, 'good.jsonl'), join(dir, 'good.json'));
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout.trim().split('\n').at(-1)).toBe('3 passed, 0 failed');
    const stored = JSON.parse(readFileSync(join(dir, 'good.json'), 'utf8'));
    expect(stored).toEqual(
      JSON.parse(JSON.stringify(checkRun({ ...material, events: history(false).events() }))),
    );
    const bad = cli(join(dir, 'bad.jsonl'), join(dir, 'bad.json'));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('FAIL linearizable k');
    expect(bad.stdout.trim().split('\n').at(-1)).toBe('2 passed, 1 failed');
  });
});
