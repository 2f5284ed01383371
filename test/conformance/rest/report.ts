/**
 * Presenting a run: the per-folder passed/failed/skipped table, compact failure descriptions
 * (step, request, expected vs actual), the closing `N passed, N failed, N skipped` line and the
 * JSON report (one entry per test: folder, file, name, status, reason, duration).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { toPlain } from './json-value.js';
import type { RunResult, TestResult, TestStatus } from './runner.js';

export type Counts = Record<TestStatus, number>;

export function countByFolder(results: readonly TestResult[]): Map<string, Counts> {
  const m = new Map<string, Counts>();
  for (const r of results) {
    let c = m.get(r.folder);
    if (!c) m.set(r.folder, (c = { passed: 0, failed: 0, skipped: 0 }));
    c[r.status]++;
  }
  return new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function totals(results: readonly TestResult[]): Counts {
  const c: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) c[r.status]++;
  return c;
}

export function summaryLine(results: readonly TestResult[]): string {
  const t = totals(results);
  return `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
}

export function folderTable(results: readonly TestResult[]): string {
  const rows = [...countByFolder(results)].map(
    ([f, c]) => [f, c.passed, c.failed, c.skipped] as const,
  );
  const t = totals(results);
  const all = [
    ['folder', 'passed', 'failed', 'skipped'] as const,
    ...rows,
    ['total', t.passed, t.failed, t.skipped] as const,
  ];
  const w = [0, 1, 2, 3].map((i) => Math.max(...all.map((r) => String(r[i]).length)));
  const line = (r: readonly (string | number)[]): string =>
    r.map((v, i) => (i === 0 ? String(v).padEnd(w[0]!) : String(v).padStart(w[i]!))).join('  ');
  const sep = w.map((n) => '-'.repeat(n)).join('  ');
  return [line(all[0]), sep, ...rows.map(line), sep, line(all[all.length - 1]!)].join('\n');
}

/** A value in one line, cut to `max` characters unless verbose. */
export function compact(v: unknown, max: number): string {
  let s: string;
  if (typeof v === 'string') s = JSON.stringify(v);
  else {
    try {
      s = JSON.stringify(toPlain(v)) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > max ? s.slice(0, max) + `… (${s.length} chars)` : s;
}

export function formatFailure(r: TestResult, verbose: boolean): string {
  const max = verbose ? Infinity : 300;
  const out = [`FAIL ${r.id}`];
  const f = r.failure;
  if (!f) {
    out.push(`  ${r.reason ?? ''}`);
    return out.join('\n');
  }
  const where = f.line > 0 ? `${r.folder}/${r.file}:${f.line}` : `${r.folder}/${r.file}`;
  out.push(`  ${f.phase} step [${f.step}] at ${where}`);
  if (f.request) out.push(`  request:  ${f.request}`);
  const msg = f.message.length > max * 2 ? f.message.slice(0, max * 2) + '…' : f.message;
  out.push(`  ${msg.replace(/\n/g, '\n  ')}`);
  if (f.expected !== undefined) out.push(`  expected: ${compact(f.expected, max)}`);
  if (f.actual !== undefined) out.push(`  actual:   ${compact(f.actual, max)}`);
  return out.join('\n');
}

export function writeJsonReport(path: string, run: RunResult): void {
  mkdirSync(dirname(path), { recursive: true });
  const report = {
    url: run.url,
    esVersion: run.esVersion,
    summary: totals(run.results),
    folders: Object.fromEntries(countByFolder(run.results)),
    tests: run.results.map((r) => ({
      folder: r.folder,
      file: r.file,
      name: r.name,
      status: r.status,
      reason: r.reason,
      duration: r.durationMs,
      ...(r.failure
        ? {
            step: {
              phase: r.failure.phase,
              line: r.failure.line,
              step: r.failure.step,
              ...(r.failure.request ? { request: r.failure.request } : {}),
            },
          }
        : {}),
    })),
  };
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
}
