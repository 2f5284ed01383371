/**
 * Planning a UNION (EXTENSION, issue 16): every branch goes through the same planner as a
 * standalone SELECT (analysis, optimizer, folding into its own Query DSL request), under the
 * statement's WITH; the union's columns, ORDER BY, OFFSET and LIMIT are planned for memory.
 */
import type * as A from '../ast/nodes.js';
import { queryNoWith } from '../ast/nodes.js';
import type { AnalyzeOptions } from '../analyze/index.js';
import { planOutput } from '../plan/logical.js';
import { unionColumns, unionOrders, type UnionColumn, type UnionPlan } from '../plan/union.js';
import type { QueryPlan } from './index.js';

export type BranchPlan = QueryPlan;

/** The output columns of a planned branch, as `/_sql` reports them. */
export function branchColumns(p: QueryPlan): UnionColumn[] {
  if (p.container !== null) return p.container.columns.map((c) => ({ ...c }));
  return planOutput(p.optimized).map((a) => ({ name: a.name, dataType: a.dataType }));
}

export function planUnion(
  q: A.Query,
  opts: AnalyzeOptions & { zoneId: string },
  planBranch: (q: A.Query) => QueryPlan,
): UnionPlan<BranchPlan> {
  const body = q.body;
  const terms = [body.term, ...(body.unions ?? []).map((u) => u.term)];
  const locs = [body.term.loc, ...(body.unions ?? []).map((u) => u.loc)];
  const branches = terms.map((term) =>
    planBranch({
      ...q,
      body:
        term.kind === 'QueryNoWith'
          ? term
          : queryNoWith({ term, orderBy: [], limit: null, loc: term.loc }),
    }),
  );
  void opts;
  const columns = unionColumns(
    branches.map((b, i) => ({ columns: branchColumns(b), loc: locs[i]! })),
  );
  return {
    branches,
    all: (body.unions ?? []).map((u) => u.all),
    columns,
    orders: unionOrders(body.orderBy, columns),
    limit: body.limit !== null && body.limit.count !== null ? body.limit.count : -1,
    offset: body.offset?.count ?? 0,
  };
}
