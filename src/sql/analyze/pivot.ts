/**
 * PIVOT (ES Pivot + ResolveAliases for its values/aggregates): the column and aggregate resolve
 * against the FROM relation's output; the values are literals named after their source text
 * unless aliased. The grouping set is every primitive input column except the pivot column and
 * the aggregated ones (ES Pivot.grouping); the output adds one column per value (named
 * `value_FUNCTION` when several aggregates are given).
 */
import type * as A from '../ast/nodes.js';
import type { Alias, Expr, NamedExpr, RefAttr } from '../expression/nodes.js';
import { forEachUp } from '../expression/nodes.js';
import type { LogicalPlan } from '../plan/logical.js';
import { planOutput } from '../plan/logical.js';
import type { AnalyzerState } from './analyzer.js';
import { resolveColumn, srcOf } from './resolve-expression.js';

export function analyzePivot(s: AnalyzerState, child: LogicalPlan, p: A.Pivot): LogicalPlan {
  const input = planOutput(child);
  const column = resolveColumn(p.column, { attrs: input });
  const named = (v: A.NamedValue, e: Expr): NamedExpr =>
    e.kind === 'Field' && v.alias === null
      ? e
      : {
          kind: 'Alias',
          id: s.newId(),
          name: v.alias ?? v.expression.sourceText,
          child: e,
          dataType: e.dataType,
          src: srcOf(v),
        };
  const values = p.values.map((v) => named(v, s.resolve(v.expression, { attrs: [] })));
  const aggregates = p.aggregates.map((a) => named(a, s.resolve(a.expression, { attrs: input })));
  const valueAttrs: RefAttr[] = [];
  const single = aggregates.length === 1;
  for (const agg of aggregates) {
    const aggName =
      agg.kind === 'Alias' && (agg.child.kind === 'Agg' || agg.child.kind === 'Fn')
        ? agg.child.def.name
        : agg.kind === 'Alias'
          ? agg.name
          : agg.name;
    for (const v of values) {
      const vname = v.kind === 'Alias' ? v.name : v.name;
      valueAttrs.push({
        kind: 'Ref',
        id: s.newId(),
        name: single ? vname : `${vname}_${aggName}`,
        dataType: agg.dataType,
        src: v.src,
      });
    }
  }
  return {
    kind: 'Pivot',
    child,
    column,
    values: values as Alias[],
    aggregates,
    valueAttrs,
    src: srcOf({ sourceText: '', loc: p.loc }),
  };
}

/** Field names an expression references (for the grouping set). */
export function referencedFields(e: Expr, out: Set<string>): void {
  forEachUp(e, (x) => {
    if (x.kind === 'Field') out.add(x.name);
  });
}
