/**
 * Plans that never reach Elasticsearch (ES LocalExec over LocalRelation: SELECT without FROM,
 * constant projections, LIMIT 0, filters folded to false): evaluated in memory, with projections,
 * filters, ordering and limits applied over the (zero or one) local rows.
 */
import { compare } from '../../functions/comparison.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import { compile, type Compiled } from '../expression/evaluate.js';
import type { Attribute, Expr } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';
import type { EvalContext } from '../functions/definition.js';
import type { LogicalPlan } from '../plan/logical.js';
import { planOutput } from '../plan/logical.js';

type Row = ReadonlyMap<string, unknown>;

function evaluator(e: Expr, cfg: EvalContext): (row: Row) => unknown {
  const fn: Compiled = compile(e, cfg, (x) =>
    x.kind === 'Field' || x.kind === 'Ref' ? (row) => (row as Row).get(exprKey(x)) ?? null : null,
  );
  return (row) => fn(row);
}

function rowsOf(plan: LogicalPlan, cfg: EvalContext): Row[] {
  switch (plan.kind) {
    case 'LocalRelation': {
      if (plan.row === null) return [];
      const row = new Map<string, unknown>();
      plan.row.forEach((e, i) => {
        const a = plan.output[i];
        const v = evaluator(e, cfg)(new Map());
        if (a) row.set(exprKey(a), v);
      });
      return [row];
    }
    case 'Project':
    case 'Aggregate': {
      const input = rowsOf(plan.child, cfg);
      const named = plan.kind === 'Project' ? plan.projections : plan.aggregates;
      const evals = named.map((n) => evaluator(n, cfg));
      const out = planOutput(plan);
      // ES 7.10 QueryFolder.PropagateEmptyLocal: any plan over an empty local relation (a filter
      // folded to false) is empty, an implicit group included (7.14 later answers one row)
      return input.map((r) => {
        const row = new Map<string, unknown>(r);
        evals.forEach((f, i) => row.set(exprKey(out[i]!), f(r)));
        return row;
      });
    }
    case 'Filter': {
      const cond = evaluator(plan.condition, cfg);
      return rowsOf(plan.child, cfg).filter((r) => cond(r) === true);
    }
    case 'OrderBy': {
      const rows = rowsOf(plan.child, cfg);
      const keys = plan.orders.map((o) => ({ f: evaluator(o.child, cfg), o }));
      return [...rows].sort((a, b) => {
        for (const { f, o } of keys) {
          const x = f(a);
          const y = f(b);
          if (x === null || y === null) {
            if (x === y) continue;
            return (x === null) === (o.nulls === 'FIRST') ? -1 : 1;
          }
          const c = compare(x, y) ?? 0;
          if (c !== 0) return o.direction === 'ASC' ? c : -c;
        }
        return 0;
      });
    }
    case 'Limit':
      return rowsOf(plan.child, cfg).slice(0, plan.limit);
    case 'Offset':
      return rowsOf(plan.child, cfg).slice(plan.offset);
    default:
      throw sqlIllegalArgument('Cannot execute [{}] locally', [plan.kind]);
  }
}

/** The result rows of a local plan, in output order. */
export function executeLocal(
  plan: LogicalPlan,
  cfg: EvalContext,
): { output: readonly Attribute[]; rows: unknown[][] } {
  const output = planOutput(plan);
  const rows = rowsOf(plan, cfg).map((r) => output.map((a) => r.get(exprKey(a)) ?? null));
  return { output, rows };
}
