/**
 * Running a UNION (EXTENSION, issue 16): each branch runs as its own query (its one Query DSL
 * request through the DSL executor, every page, or its local plan), then in memory: branches
 * concatenated in order, UNION (without ALL) deduplicating what came before, ORDER BY, OFFSET,
 * LIMIT. Held in memory, so bounded like ES's in-memory aggregate sort.
 */
import { compare } from '../../functions/comparison.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import type { UnionPlan } from '../plan/union.js';

/** The most rows a UNION holds in memory (all branches). */
export const MAX_UNION_ROWS = 100_000;

export const tooManyUnionRows = (): Error =>
  sqlIllegalArgument(
    'UNION holds at most [{}] rows in memory; narrow its branches with WHERE or LIMIT',
    [MAX_UNION_ROWS],
  );

/** A value's identity for UNION's duplicate removal (1 = 1.0 = 1L, as SQL compares them). */
function keyOf(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  if (typeof v === 'number' || typeof v === 'bigint') return `n${String(v)}`;
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'boolean') return `b${v}`;
  return `o${String(v)}${JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? String(x) : x))}`;
}

const rowKey = (row: readonly unknown[]) => row.map(keyOf).join('\u0000');

function dedup(rows: unknown[][]): unknown[][] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = rowKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The union's rows from its branches' rows (in branch order). */
export function combineUnion<B>(
  plan: UnionPlan<B>,
  branchRows: readonly unknown[][][],
): unknown[][] {
  let rows = [...branchRows[0]!];
  plan.all.forEach((all, i) => {
    rows.push(...branchRows[i + 1]!);
    if (!all) rows = dedup(rows);
  });
  if (rows.length > MAX_UNION_ROWS) throw tooManyUnionRows();
  if (plan.orders.length > 0) {
    const indexed = rows.map((row, i) => ({ row, i }));
    indexed.sort((a, b) => {
      for (const o of plan.orders) {
        const x = a.row[o.index] ?? null;
        const y = b.row[o.index] ?? null;
        if (x === null || y === null) {
          if (x === y) continue;
          return (x === null) === (o.nulls === 'FIRST') ? -1 : 1;
        }
        const c = compare(x, y) ?? 0;
        if (c !== 0) return o.direction === 'ASC' ? c : -c;
      }
      return a.i - b.i;
    });
    rows = indexed.map((x) => x.row);
  }
  const end = plan.limit >= 0 ? plan.offset + plan.limit : undefined;
  return plan.offset > 0 || end !== undefined ? rows.slice(plan.offset, end) : rows;
}
