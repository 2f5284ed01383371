/**
 * The report of one fault-test run: a JSON shape for machines and archives, and a short summary
 * for humans whose last line is `N passed, N failed`. Every check is one line of that count: the
 * set check, each key's linearizability (`unknown` counts as failed: it is not a pass), and the
 * copies check.
 */
import type { CopiesResult } from './checkers/copies.js';
import type { KeyVerdict } from './checkers/linearizable.js';
import type { SetResult } from './checkers/set.js';
import {
  operations,
  type HistoryEvent,
  type OpKind,
  type Operation,
  type Outcome,
} from './history.js';
import { faultTotals, type FaultKind, type FaultRecord } from './nemesis.js';

export type CheckStatus = 'pass' | 'fail' | 'unknown';

export interface Check {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

export interface Failover {
  readonly node: string;
  /** When the primary died, ms after the first event. */
  readonly diedAtMillis: number;
  /** From its death to the first write acknowledged afterwards; null: none was. */
  readonly firstWriteAfterMillis: number | null;
}

export interface JepsenReport {
  readonly seed: number | null;
  readonly startedAt: string | null;
  readonly durationMillis: number;
  readonly ops: Record<OpKind, Record<Outcome, number>>;
  readonly faults: Record<FaultKind, { count: number; millis: number }>;
  readonly set: {
    readonly valid: boolean;
    readonly attempted: number;
    readonly acknowledged: number;
    readonly lost: readonly string[];
    readonly unexpected: readonly string[];
    readonly recovered: number;
    readonly divergent: readonly string[];
    readonly failedButPresent: readonly string[];
    readonly missingOnCopy: Readonly<Record<string, readonly string[]>>;
  } | null;
  readonly linearizability: ReadonlyArray<{
    readonly key: string;
    readonly verdict: KeyVerdict['verdict'];
    readonly ops: number;
    readonly steps: number;
    readonly explanation?: string;
    readonly failure?: unknown;
  }>;
  readonly copies: { readonly valid: boolean; readonly problems: readonly string[] } | null;
  readonly failover: readonly Failover[];
  readonly checks: readonly Check[];
  readonly passed: number;
  readonly failed: number;
}

export interface ReportInput {
  readonly events: readonly HistoryEvent[];
  readonly seed?: number;
  readonly set?: SetResult;
  readonly linearizable?: readonly KeyVerdict[];
  readonly copies?: CopiesResult;
  readonly faults?: readonly FaultRecord[];
  /** Deaths of nodes that were primary of something, in monotonic ns (the history's clock). */
  readonly primaryDeaths?: ReadonlyArray<{ readonly node: string; readonly at: number }>;
  /** Which writes count as "a write afterwards" (default: any acknowledged write). */
  readonly isFailoverWrite?: (o: Operation) => boolean;
}

const KINDS: readonly OpKind[] = ['insert', 'read', 'write', 'cas', 'delete'];
const WRITES = new Set<OpKind>(['insert', 'write', 'cas', 'delete']);

export function buildReport(input: ReportInput): JepsenReport {
  const ev = input.events;
  const ops = operations(ev);
  const t0 = ev[0]?.mono ?? 0;
  const tEnd = ev.at(-1)?.mono ?? t0;

  const counts = {} as Record<OpKind, Record<Outcome, number>>;
  for (const k of KINDS) counts[k] = { ok: 0, fail: 0, info: 0 };
  for (const o of ops) counts[o.op.kind][o.outcome]++;

  const isWrite = input.isFailoverWrite ?? ((o: Operation) => WRITES.has(o.op.kind));
  const acked = ops
    .filter((o) => o.outcome === 'ok' && isWrite(o))
    .map((o) => o.complete!.mono)
    .sort((a, b) => a - b);
  const failover = (input.primaryDeaths ?? []).map((d) => {
    const first = acked.find((t) => t > d.at);
    return {
      node: d.node,
      diedAtMillis: (d.at - t0) / 1e6,
      firstWriteAfterMillis: first === undefined ? null : (first - d.at) / 1e6,
    };
  });

  const checks: Check[] = [];
  const s = input.set;
  if (s) {
    const bad = [
      s.lost.length && `${s.lost.length} lost`,
      s.divergent.length && `${s.divergent.length} on some copies only`,
      s.unexpected.length && `${s.unexpected.length} unexpected`,
      s.failedButPresent.length && `${s.failedButPresent.length} failed but present`,
    ].filter(Boolean);
    checks.push({
      name: 'set',
      status: s.valid ? 'pass' : 'fail',
      detail:
        `${s.acknowledged} acknowledged, ${s.lost.length} lost, ${s.recovered.length} recovered, ` +
        `${s.unexpected.length} unexpected` +
        (bad.length ? ` (${bad.join(', ')})` : ''),
    });
  }
  const lin = (input.linearizable ?? []).map((v) => ({
    key: v.key,
    verdict: v.verdict,
    ops: v.ops,
    steps: v.steps,
    ...(v.verdict === 'non-linearizable'
      ? { explanation: v.failure.message, failure: v.failure }
      : {}),
    ...(v.verdict === 'unknown' ? { explanation: v.reason } : {}),
  }));
  for (const v of lin)
    checks.push({
      name: `linearizable ${v.key}`,
      status: v.verdict === 'linearizable' ? 'pass' : v.verdict === 'unknown' ? 'unknown' : 'fail',
      detail: v.explanation ?? `${v.ops} ops`,
    });
  const c = input.copies;
  if (c)
    checks.push({
      name: 'copies',
      status: c.valid ? 'pass' : 'fail',
      detail: c.valid ? `${c.shards.length} shards identical` : `${c.problems.length} problems`,
    });

  const passed = checks.filter((x) => x.status === 'pass').length;
  return {
    seed: input.seed ?? null,
    startedAt: ev[0] ? new Date(ev[0].wall).toISOString() : null,
    durationMillis: (tEnd - t0) / 1e6,
    ops: counts,
    faults: faultTotals(input.faults ?? [], tEnd),
    set: s
      ? {
          valid: s.valid,
          attempted: s.attempted,
          acknowledged: s.acknowledged,
          lost: s.lost,
          unexpected: s.unexpected,
          recovered: s.recovered.length,
          divergent: s.divergent,
          failedButPresent: s.failedButPresent,
          missingOnCopy: s.missingOnCopy,
        }
      : null,
    linearizability: lin,
    copies: c ? { valid: c.valid, problems: c.problems } : null,
    failover,
    checks,
    passed,
    failed: checks.length - passed,
  };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const MAX_LISTED = 5;

function listIds(ids: readonly string[]): string {
  const head = ids.slice(0, MAX_LISTED).join(', ');
  return ids.length > MAX_LISTED ? `${head}, … (${ids.length})` : head;
}

export function summarize(r: JepsenReport): string {
  const lines: string[] = [];
  lines.push(`fault test${r.seed !== null ? ` (seed ${r.seed})` : ''}, ${secs(r.durationMillis)}`);
  const opParts = KINDS.filter((k) => r.ops[k].ok + r.ops[k].fail + r.ops[k].info > 0).map(
    (k) => `${k} ${r.ops[k].ok} ok/${r.ops[k].fail} fail/${r.ops[k].info} unknown`,
  );
  lines.push(`ops: ${opParts.join('; ') || 'none'}`);
  const f = r.faults;
  lines.push(
    `faults: kill ${f.kill.count}, pause ${f.pause.count} (${secs(f.pause.millis)}), ` +
      `partition ${f.partition.count} (${secs(f.partition.millis)})`,
  );
  for (const d of r.failover)
    lines.push(
      `failover: ${d.node} died at ${secs(d.diedAtMillis)}; ` +
        (d.firstWriteAfterMillis === null
          ? 'no write acknowledged afterwards'
          : `first write acknowledged ${secs(d.firstWriteAfterMillis)} later`),
    );
  for (const c of r.checks) {
    if (c.name.startsWith('linearizable ') && c.status === 'pass') continue;
    lines.push(`${c.status.toUpperCase()} ${c.name}: ${c.detail}`);
    if (c.name === 'set' && r.set) {
      if (r.set.lost.length) lines.push(`  lost: ${listIds(r.set.lost)}`);
      if (r.set.divergent.length) lines.push(`  on some copies only: ${listIds(r.set.divergent)}`);
      if (r.set.unexpected.length) lines.push(`  unexpected: ${listIds(r.set.unexpected)}`);
      if (r.set.failedButPresent.length)
        lines.push(`  failed but present: ${listIds(r.set.failedButPresent)}`);
    }
    if (c.name === 'copies' && r.copies)
      for (const p of r.copies.problems.slice(0, MAX_LISTED)) lines.push(`  ${p}`);
  }
  const linOk = r.linearizability.filter((l) => l.verdict === 'linearizable').length;
  if (r.linearizability.length)
    lines.push(`linearizable: ${linOk} of ${r.linearizability.length} keys`);
  const unknown = r.checks.filter((c) => c.status === 'unknown').length;
  if (unknown)
    lines.push(`${unknown} check(s) unknown (search budget exhausted): counted as failed`);
  lines.push(`${r.passed} passed, ${r.failed} failed`);
  return lines.join('\n');
}
