/**
 * The shared bench harness (../shared/bench) runs from a writable copy in `.bench/harness`
 * (outside git): the workload, the parameter generator and the generated data sets.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function harnessDir(root: string): string {
  return join(root, '.bench/harness');
}

/** Copies the harness once; generates every data set (debian needs apt lists; logs 1M docs). */
export function ensureHarness(root: string): string {
  const harness = copyHarness(root);
  if (!existsSync(join(harness, 'data/out/manifest.json'))) {
    console.error('[bench] generating data sets (debian needs apt lists; logs 1M docs) ...');
    execFileSync(process.execPath, [join(harness, 'data/gen-all.mjs')], { stdio: 'inherit' });
  }
  return harness;
}

/** Copies the harness once and generates only the logs data set (1M docs) when it is missing. */
export function ensureLogs(root: string): string {
  const harness = copyHarness(root);
  if (!existsSync(join(harness, 'data/out/logs.ndjson'))) {
    console.error('[bench] generating the logs data set (1M docs) ...');
    execFileSync(process.execPath, [join(harness, 'data/gen-logs.mjs'), '1000000'], {
      stdio: 'inherit',
    });
  }
  return harness;
}

/** Copies the harness once and generates only the debian data set when it is missing. */
export function ensureDebian(root: string): string {
  const harness = copyHarness(root);
  if (!existsSync(join(harness, 'data/out/debian.ndjson'))) {
    console.error('[bench] generating the debian data set (needs apt lists) ...');
    execFileSync(process.execPath, [join(harness, 'data/gen-debian.mjs')], { stdio: 'inherit' });
  }
  return harness;
}

export function copyHarness(root: string): string {
  const harness = harnessDir(root);
  if (!existsSync(join(harness, 'workload.json'))) {
    mkdirSync(join(root, '.bench'), { recursive: true });
    // The shared harness is read-only; it runs from a writable copy outside git.
    cpSync(resolve(root, '../shared/bench'), harness, {
      recursive: true,
      filter: (s) => !s.includes('/results'),
    });
    chmodSync(harness, 0o755);
    execFileSync('chmod', ['-R', 'u+w', harness]);
  }
  return harness;
}
