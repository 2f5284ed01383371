/**
 * HAVING (ES Analyzer HavingOverProject + ResolveAggsInHaving + ResolveMissingRefs on Filter):
 * `SELECT 1 FROM t HAVING COUNT(*) > 0` turns the projection into an implicit grouping; the
 * condition resolves against the aggregate's output, then the input; aggregates it uses that the
 * SELECT list lacks are added to the Aggregate (and projected away above the Filter); a column
 * that is neither grouped nor aggregated cannot be filtered on.
 */
import type * as A from '../ast/nodes.js';
import {
  collectFirst,
  forEachUp,
  type Alias,
  type Attribute,
  type Expr,
  type NamedExpr,
} from '../expression/nodes.js';
import {
  containsAggregate,
  exprName,
  isAggregate,
  isFoldable,
  semanticEquals,
} from '../expression/props.js';
import type { Aggregate, LogicalPlan } from '../plan/logical.js';
import { planOutput } from '../plan/logical.js';
import type { AnalyzerState } from './analyzer.js';
import { srcOf } from './resolve-expression.js';

export function applyHaving(
  s: AnalyzerState,
  plan: LogicalPlan,
  having: A.Expression,
  input: readonly Attribute[],
): LogicalPlan {
  const src = srcOf(having);
  if (plan.kind === 'Project') {
    const condition = s.resolve(having, { attrs: [...planOutput(plan), ...input] });
    // HavingOverProject: no plain column in the projection and an aggregate in the condition
    const regular = plan.projections.some((p) => {
      const e = p.kind === 'Alias' ? p.child : p;
      return !isFoldable(e) && !isAggregate(e) && anyField(e);
    });
    if (regular || !containsAggregate(condition)) {
      return { kind: 'Filter', child: plan, condition, src };
    }
    plan = {
      kind: 'Aggregate',
      child: plan.child,
      groupings: [],
      aggregates: plan.projections,
      src: plan.src,
    };
  }
  if (plan.kind !== 'Aggregate') {
    const condition = s.resolve(having, { attrs: planOutput(plan) });
    return { kind: 'Filter', child: plan, condition, src };
  }
  const agg = plan;
  const out = planOutput(agg);
  const condition = s.resolve(having, { attrs: [...out, ...input] });
  const missing = missingAggregates(s, agg, condition);
  if (missing.length === 0) return { kind: 'Filter', child: agg, condition, src };
  const wider: Aggregate = { ...agg, aggregates: [...agg.aggregates, ...missing] };
  return {
    kind: 'Project',
    child: { kind: 'Filter', child: wider, condition, src },
    projections: out,
    src,
  };
}

const anyField = (e: Expr): boolean => {
  let found = false;
  forEachUp(e, (x) => {
    if (x.kind === 'Field') found = true;
  });
  return found;
};

/** ES ResolveAggsInHaving.findMissingAggregate. */
function missingAggregates(s: AnalyzerState, agg: Aggregate, condition: Expr): NamedExpr[] {
  const present = agg.aggregates.map((a) => (a.kind === 'Alias' ? a.child : a));
  const missing: Alias[] = [];
  for (const f of collectFirst(condition, isAggregate)) {
    if (present.some((p) => semanticEquals(p, f))) continue;
    if (missing.some((m) => semanticEquals(m.child, f))) continue;
    missing.push({
      kind: 'Alias',
      id: s.newId(),
      name: f.src.text,
      child: f,
      dataType: f.dataType,
      src: f.src,
    });
  }
  return missing;
}
