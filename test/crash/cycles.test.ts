/**
 * CI's short kill -9 run (`npm run test:crash -- --cycles 100` is the long one): concurrent bulk,
 * compare-and-set and update writers against a child-process node, killed at random moments over
 * 20 cycles (every flush mode included), restarted and verified against the oracle each time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { formatReport, runCrashCycles } from './harness/cycles.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('loses no acknowledged write over 20 kill -9 cycles', { timeout: 180_000 }, async () => {
  const seed = Math.floor(Math.random() * 2 ** 31);
  const report = await runCrashCycles({ dataPath: dir, cycles: 20, seed, killDelayMs: [80, 500] });
  const text = formatReport(report);
  expect(report.problems, text).toEqual([]);
  expect(report.cycles).toBe(20);
  expect(report.acknowledged, text).toBeGreaterThan(1000);
  expect(report.inflightAtCrash, text).toBeGreaterThan(0);
  expect(Object.values(report.flushes).every((n) => n === 5)).toBe(true);
  expect(report.finalDocs).toBeGreaterThan(0);
});
