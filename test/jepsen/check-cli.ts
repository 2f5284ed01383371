/**
 * Re-checks a stored run: `tsx test/jepsen/check-cli.ts --history run/history.jsonl
 * [--material run/material.json] [--max-steps N] [--out run/report.json]`. The material file holds
 * the rest of `RunMaterial` (finalCopies, shards, faults, primaryDeaths, seed). Prints the summary;
 * exits 1 when a check failed or was unknown.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { checkRun, type RunMaterial } from './check.js';
import { parseJsonLines } from './history.js';
import { summarize } from './report.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const historyPath = arg('history');
if (!historyPath) {
  process.stderr.write(
    'usage: check-cli.ts --history FILE [--material FILE] [--max-steps N] [--out FILE]\n',
  );
  process.exit(2);
}
const materialPath = arg('material');
const material = materialPath
  ? (JSON.parse(readFileSync(materialPath, 'utf8')) as Omit<RunMaterial, 'events'>)
  : {};
const maxSteps = arg('max-steps');
const report = checkRun({
  ...material,
  events: parseJsonLines(readFileSync(historyPath, 'utf8')),
  ...(maxSteps ? { linearizable: { maxSteps: Number(maxSteps) } } : {}),
});
const out = arg('out');
if (out) writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
process.stdout.write(summarize(report) + '\n');
process.exitCode = report.failed > 0 ? 1 : 0;
