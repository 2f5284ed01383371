/**
 * `quarry import` against the raw `_bulk` rate, in one run: the shared generator's logs (1M lines
 * by default: `npm run bench:import -- 1000000`) loaded into a fresh `bin/quarry` process twice,
 * once as `_bulk` bodies built in memory and sent by the bench's client (auto ids, 5,000 docs a
 * body, 4 in flight) and once by `bin/quarry import` reading the file (same body size and
 * concurrency, ids made of the file name and line), alternating over rounds (`-- 1000000 2`).
 * Every load ends with every document counted.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bulkBodies, loadBulk } from './bulk-load.js';
import { httpClient, startServerProcess } from './server-process.js';

const root = resolve(import.meta.dirname, '../..');
const N = Number(process.argv[2] ?? 1_000_000);
const BATCH = 5000;
const CLIENTS = 4;

function logsFile(): string {
  const gen = join(root, '.bench/import-gen');
  const file = join(gen, 'out/logs.ndjson');
  const want = `${N}\n`;
  if (existsSync(file) && existsSync(join(gen, 'count')) && readFileSync(join(gen, 'count'), 'utf8') === want) return file; // prettier-ignore
  mkdirSync(gen, { recursive: true });
  // the shared generator is read-only and writes beside itself: it runs from a copy
  for (const f of ['gen-logs.mjs', 'prng.mjs']) cpSync(resolve(root, '../shared/bench/data', f), join(gen, f)); // prettier-ignore
  execFileSync('chmod', ['-R', 'u+w', gen]);
  execFileSync(process.execPath, [join(gen, 'gen-logs.mjs'), String(N)], { stdio: 'inherit' });
  execFileSync('sh', ['-c', `printf '%s\\n' ${N} > ${join(gen, 'count')}`]);
  return file;
}

async function count(port: number, index: string): Promise<number> {
  const call = httpClient(port);
  await call('POST', `/${index}/_refresh`);
  return (JSON.parse((await call('GET', `/${index}/_count`)).body) as { count: number }).count;
}

async function raw(file: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-import-bench-'));
  const s = await startServerProcess(root, dir);
  try {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const bodies = bulkBodies(lines, 'logs', BATCH);
    const r = await loadBulk([`http://127.0.0.1:${s.port}`], bodies, CLIENTS, 1);
    if (r.problems.length) throw new Error(`raw _bulk problems: ${r.problems.join('; ')}`);
    const n = await count(s.port, 'logs');
    if (n !== N) throw new Error(`raw _bulk: ${n} documents, want ${N}`);
    return (N * 1000) / r.wallMs;
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function viaImport(file: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-import-bench-'));
  const s = await startServerProcess(root, dir);
  try {
    const t0 = performance.now();
    const code = await new Promise<number | null>((res, rej) => {
      const child = spawn(process.execPath, [join(root, 'bin/quarry'), 'import', file, '--index', 'logs', '--url', `http://127.0.0.1:${s.port}`, '--batch-docs', String(BATCH), '--concurrency', String(CLIENTS), '--no-refresh', '--quiet', '--checkpoint', join(dir, 'cp'), '--failures', join(dir, 'failures')], { stdio: ['ignore', 'inherit', 'inherit'] }); // prettier-ignore
      child.on('error', rej);
      child.on('close', res);
    });
    const ms = performance.now() - t0;
    if (code !== 0) throw new Error(`quarry import exited ${code}`);
    const n = await count(s.port, 'logs');
    if (n !== N) throw new Error(`quarry import: ${n} documents, want ${N}`);
    return (N * 1000) / ms;
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// rounds alternate raw and import, so a busy machine weighs on both alike; the best of each counts
const ROUNDS = Number(process.argv[3] ?? 2);
const file = logsFile();
const f = (x: number) => Math.round(x).toLocaleString('en-US');
const raws: number[] = [];
const imports: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  raws.push(await raw(file));
  imports.push(await viaImport(file));
  console.log(`round ${i + 1}: raw _bulk ${f(raws[i]!)} docs/s, quarry import ${f(imports[i]!)} docs/s`); // prettier-ignore
}
const rawRate = Math.max(...raws);
const importRate = Math.max(...imports);
console.log(`logs, ${N.toLocaleString('en-US')} docs, ${BATCH} docs a body, ${CLIENTS} in flight, best of ${ROUNDS}`); // prettier-ignore
console.log(`raw _bulk:     ${f(rawRate)} docs/s`);
console.log(`quarry import: ${f(importRate)} docs/s (${((100 * importRate) / rawRate).toFixed(1)}% of raw)`); // prettier-ignore
