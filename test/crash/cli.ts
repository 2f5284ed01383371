/**
 * `npm run test:crash -- --cycles 100 [--seed N] [--data DIR]`: the long kill -9 run. Prints the
 * acknowledged/lost counts and the restart-to-ready times; exits 1 when anything was lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatReport, runCrashCycles } from './harness/cycles.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const cycles = Number(arg('cycles') ?? 100);
const seed = Number(arg('seed') ?? Math.floor(Math.random() * 2 ** 31));
const keep = arg('data');
const dataPath = keep ?? mkdtempSync(join(tmpdir(), 'quarry-crash-'));
const t0 = performance.now();
try {
  const report = await runCrashCycles({
    dataPath,
    cycles,
    seed,
    log: (l) => process.stdout.write(l + '\n'),
  });
  process.stdout.write(`\n${formatReport(report)}\n`);
  process.stdout.write(`total time ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  process.exitCode = report.problems.length ? 1 : 0;
} finally {
  if (!keep) rmSync(dataPath, { recursive: true, force: true });
}
