/**
 * `npm run test:jepsen -- --nodes 3 --cycles 20 --seed 1 [--out DIR]`: the fault test against a
 * real local cluster (see fault-test.ts). Prints the summary, writes history.jsonl, report.json,
 * summary.txt and the node logs to DIR, and exits 1 when any check fails.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FaultStepKind } from './generator.js';
import { parseSeed } from './generator.js';
import { runFaultTest } from './fault-test.js';

function option(name: string): string | undefined {
  const argv = process.argv;
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function intOption(name: string, fallback: number): number {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
}

const seed = parseSeed();
const nodes = intOption('nodes', 3);
const cycles = intOption('cycles', 10);
const out = resolve(option('out') ?? mkdtempSync(join(tmpdir(), `jepsen-${seed}-`)));
const kinds = option('faults')?.split(',') as FaultStepKind[] | undefined;
const readPreference = option('read-preference');
const replicas = option('replicas');

console.log(`fault test: ${nodes} nodes, ${cycles} cycles, seed ${seed}, output in ${out}`);
try {
  const { summary, report } = await runFaultTest({
    nodes,
    cycles,
    seed,
    dir: out,
    ...(kinds ? { kinds } : {}),
    ...(readPreference !== undefined ? { readPreference } : {}),
    ...(replicas !== undefined ? { replicas: Number(replicas) } : {}),
    ...(option('clients') ? { clientsPerNode: intOption('clients', 2) } : {}),
    log: (l) => console.log(`${new Date().toISOString().slice(11, 23)} ${l}`),
  });
  console.log(summary);
  console.log(`report: ${join(out, 'report.json')}`);
  process.exitCode = report.failed > 0 ? 1 : 0;
} catch (e) {
  console.error(`fault test aborted: ${(e as Error).stack ?? e}`);
  process.exitCode = 2;
}
