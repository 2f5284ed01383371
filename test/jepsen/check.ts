/**
 * Every checker over one run's material, into one report: what the fault test calls after healing,
 * and what `check-cli.ts` calls on a stored history.
 */
import { checkCopies, type ShardCopy } from './checkers/copies.js';
import { checkLinearizable, type LinearizableOptions } from './checkers/linearizable.js';
import { checkSet } from './checkers/set.js';
import { operations, type HistoryEvent } from './history.js';
import type { FaultRecord } from './nemesis.js';
import { buildReport, type JepsenReport } from './report.js';

export interface RunMaterial {
  readonly events: readonly HistoryEvent[];
  readonly seed?: number;
  /** Copy name → ids its final read returned; the set check runs when given. */
  readonly finalCopies?: Readonly<Record<string, readonly string[]>>;
  /** Shard → copies' final listings; the copies check runs when given. */
  readonly shards?: Readonly<Record<string, readonly ShardCopy[]>>;
  readonly faults?: readonly FaultRecord[];
  readonly primaryDeaths?: ReadonlyArray<{ readonly node: string; readonly at: number }>;
  readonly linearizable?: LinearizableOptions;
}

export function checkRun(m: RunMaterial): JepsenReport {
  const ops = operations(m.events);
  const hasInserts = ops.some((o) => o.op.kind === 'insert');
  if (hasInserts && !m.finalCopies)
    throw new Error('the history has inserts: the set check needs the final read of each copy');
  return buildReport({
    events: m.events,
    ...(m.seed !== undefined ? { seed: m.seed } : {}),
    ...(m.finalCopies ? { set: checkSet(ops, m.finalCopies) } : {}),
    linearizable: checkLinearizable(ops, m.linearizable ?? {}),
    ...(m.shards ? { copies: checkCopies(m.shards) } : {}),
    ...(m.faults ? { faults: m.faults } : {}),
    ...(m.primaryDeaths ? { primaryDeaths: m.primaryDeaths } : {}),
  });
}
