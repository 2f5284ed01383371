/**
 * The set check: every acknowledged insert must be in the final read of every copy. Jepsen's set
 * workload, made stricter for a primary-backup store: a write acknowledged by a primary and
 * missing on a replica that could be promoted is as lost as one missing everywhere.
 */
import type { Operation } from '../history.js';

export interface SetResult {
  readonly valid: boolean;
  readonly attempted: number;
  readonly acknowledged: number;
  readonly failed: number;
  readonly unknown: number;
  /** Acknowledged and present on no copy. */
  readonly lost: readonly string[];
  /** Per copy: acknowledged but absent from that copy (lost ids included). */
  readonly missingOnCopy: Readonly<Record<string, readonly string[]>>;
  /** Present on some copies but not all (copies diverge), whatever the insert's outcome. */
  readonly divergent: readonly string[];
  /** Unknown outcome, present: the insert happened. */
  readonly recovered: readonly string[];
  /** Failed (definitely did not happen), yet present. */
  readonly failedButPresent: readonly string[];
  /** Present but never attempted. */
  readonly unexpected: readonly string[];
}

const sortIds = (ids: Iterable<string>) =>
  [...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

/**
 * `finalCopies`: copy name (node or allocation id) → the ids a final read of that copy returned.
 */
export function checkSet(
  ops: readonly Operation[],
  finalCopies: Readonly<Record<string, Iterable<string>>>,
): SetResult {
  const copies = Object.entries(finalCopies).map(([name, ids]) => [name, new Set(ids)] as const);
  if (copies.length === 0) throw new Error('checkSet needs the final read of at least one copy');
  const outcome = new Map<string, 'ok' | 'fail' | 'info'>();
  for (const o of ops) {
    if (o.op.kind !== 'insert') continue;
    const prev = outcome.get(o.op.id);
    // An id retried: ok anywhere wins, then unknown, then fail.
    if (prev === 'ok') continue;
    if (prev === 'info' && o.outcome === 'fail') continue;
    outcome.set(o.op.id, o.outcome);
  }
  const everywhere = new Set<string>();
  for (const [, ids] of copies) for (const id of ids) everywhere.add(id);

  let acknowledged = 0;
  let failed = 0;
  let unknown = 0;
  const lost: string[] = [];
  const recovered: string[] = [];
  const failedButPresent: string[] = [];
  const missingOnCopy: Record<string, string[]> = {};
  for (const [name] of copies) missingOnCopy[name] = [];
  for (const [id, out] of outcome) {
    const seen = everywhere.has(id);
    if (out === 'ok') {
      acknowledged++;
      if (!seen) lost.push(id);
      for (const [name, ids] of copies) if (!ids.has(id)) missingOnCopy[name]!.push(id);
    } else if (out === 'fail') {
      failed++;
      if (seen) failedButPresent.push(id);
    } else {
      unknown++;
      if (seen) recovered.push(id);
    }
  }
  const divergent: string[] = [];
  const unexpected: string[] = [];
  for (const id of everywhere) {
    if (!outcome.has(id)) unexpected.push(id);
    if (copies.some(([, ids]) => !ids.has(id))) divergent.push(id);
  }
  for (const name of Object.keys(missingOnCopy))
    missingOnCopy[name] = sortIds(missingOnCopy[name]!);
  const result = {
    attempted: outcome.size,
    acknowledged,
    failed,
    unknown,
    lost: sortIds(lost),
    missingOnCopy,
    divergent: sortIds(divergent),
    recovered: sortIds(recovered),
    failedButPresent: sortIds(failedButPresent),
    unexpected: sortIds(unexpected),
  };
  return {
    valid:
      result.lost.length === 0 &&
      Object.values(missingOnCopy).every((m) => m.length === 0) &&
      result.divergent.length === 0 &&
      result.failedButPresent.length === 0 &&
      result.unexpected.length === 0,
    ...result,
  };
}
