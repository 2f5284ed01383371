/**
 * ORDER BY (ES ResolveOrdinalInOrderByAndGroupBy, ResolveRefs, ResolveMissingRefs and
 * ResolveAggsInOrderBy for OrderBy, plus the verifier's checkGroupByOrder): items resolve against
 * the query's output (ordinals, aliases), then against the input below the projection. Columns
 * the projection lacks are added to it and projected away above the OrderBy; under an Aggregate
 * only grouped columns and aggregates qualify (ES's "Cannot order by non-grouped column").
 */
import type * as A from '../ast/nodes.js';
import { DATA_TYPES } from '../../functions/data-types.js';
import {
  anyMatch,
  collectFirst,
  mapChildren,
  type Alias,
  type Attribute,
  type Expr,
  type NamedExpr,
} from '../expression/nodes.js';
import { exprName, isAggregate, isFoldable, semanticEquals } from '../expression/props.js';
import { fold } from '../expression/evaluate.js';
import { isInteger } from '../../functions/data-types.js';
import type { Aggregate, LogicalPlan, Order, Project } from '../plan/logical.js';
import { aliasRef, isUnary, planOutput, toAttribute, withChild } from '../plan/logical.js';
import type { AnalyzerState } from './analyzer.js';
import { resolveAgainst, unresolved } from './resolve-attribute.js';
import { srcOf } from './resolve-expression.js';

/** The first Project/Aggregate under Filter/Limit/Distinct nodes. */
function projecting(plan: LogicalPlan): LogicalPlan | null {
  let p: LogicalPlan = plan;
  while (
    p.kind === 'Filter' ||
    p.kind === 'Limit' ||
    p.kind === 'Distinct' ||
    p.kind === 'OrderBy' ||
    p.kind === 'Offset'
  )
    p = p.child;
  return p.kind === 'Project' || p.kind === 'Aggregate' ? p : null;
}

function replaceProjecting(plan: LogicalPlan, target: LogicalPlan, next: LogicalPlan): LogicalPlan {
  if (plan === target) return next;
  if (!isUnary(plan)) return plan;
  return withChild(plan, replaceProjecting(plan.child, target, next));
}

const sameAttr = (a: Attribute, b: Attribute) => a.kind === b.kind && a.id === b.id;

/** The Aggregate under a Project through Filters (HAVING's Project(Filter(Aggregate))). */
function aggregateUnder(p: LogicalPlan): Aggregate | null {
  if (p.kind !== 'Project') return null;
  let c = p.child;
  while (c.kind === 'Filter') c = c.child;
  return c.kind === 'Aggregate' ? c : null;
}

export function applyOrderBy(
  s: AnalyzerState,
  plan: LogicalPlan,
  items: readonly A.OrderBy[],
): LogicalPlan {
  const first = items[0]!.expression;
  const last = items[items.length - 1]!.expression;
  const clause = s.text.orderByClause(first.loc, last.loc, last.sourceText);
  const out = planOutput(plan);
  const proj = projecting(plan);
  // HAVING with extra aggregates leaves Project(Filter(Aggregate)): order as over the Aggregate
  // (ES ResolveMissingRefs propagates missing groupings through Project and Filter)
  const agg = proj === null ? null : proj.kind === 'Aggregate' ? proj : aggregateUnder(proj);
  const below =
    agg !== null
      ? planOutput(agg.child)
      : proj !== null && isUnary(proj)
        ? planOutput(proj.child)
        : [];
  const aliases: Alias[] =
    proj === null
      ? []
      : (agg !== null ? agg.aggregates : proj.kind === 'Project' ? proj.projections : []).filter(
          (p): p is Alias => p.kind === 'Alias',
        );

  let orders: Order[] = items.map((item) => {
    const src = srcOf(item.expression);
    const o = (child: Expr): Order => ({
      child,
      direction: item.direction,
      nulls: item.nulls ?? (item.direction === 'DESC' ? 'FIRST' : 'LAST'),
      ...(item.nulls !== null ? { nullsExplicit: true } : {}),
      src,
    });
    const ordinal = ordinalOf(s, item.expression);
    if (ordinal !== null) {
      if (ordinal < 1 || ordinal > out.length) {
        return o(
          unresolved(
            clause.text,
            `Invalid ordinal [${ordinal}] specified in [${clause.text}] (valid range is [1, ${out.length}])`,
            src,
          ),
        );
      }
      return o({ ...out[ordinal - 1]!, src });
    }
    let e = s.resolve(item.expression, {
      attrs: out,
      fallback: (name, at) => resolveAgainst(name, below, at),
    });
    // an expression the SELECT list already computes is ordered by its column
    // (only a visible one: HAVING's hidden aggregates stay expressions, found below the Project)
    const same = aliases.find(
      (a) => semanticEquals(a.child, e) && out.some((o) => o.kind === 'Ref' && o.id === a.id),
    );
    if (same && e.kind !== 'Field') e = { ...aliasRef(same), src };
    if (e.kind === 'Field' && e.field.dataType === 'TEXT' && !e.field.exact.hasExact) {
      e = unresolved(
        e.name,
        `ORDER BY cannot be applied to field of data type [${DATA_TYPES[e.dataType].typeName}]: ${e.field.exact.errorMsg}`,
        src,
      );
    }
    return o(e);
  });

  if (proj === null) return { kind: 'OrderBy', child: plan, orders, src: locSrc(clause) };

  const hidden: NamedExpr[] = [];
  if (agg !== null) {
    const groupings = agg.groupings;
    const expected = `[${groupings.map(exprName).join(', ')}]`;
    orders = orders.map((ord) => {
      const e = ord.child;
      const missing = missingAttrs(e, out);
      if (missing.length === 0 && !anyMatch(e, (x) => x.kind === 'Score')) return ord;
      if (e.kind === 'Field' || e.kind === 'Ref') {
        if (groupings.some((g) => semanticEquals(g, e))) {
          if (!hidden.some((h) => semanticEquals(h, e))) hidden.push(e);
          return ord;
        }
        return {
          ...ord,
          child: unresolved(
            e.name,
            `Cannot order by non-grouped column [${e.name}], expected ${expected}`,
            e.src,
          ),
        };
      }
      if (isGroupedExpression(e, groupings)) return ord;
      return {
        ...ord,
        child: unresolved(
          exprName(e),
          `Cannot order by non-grouped column [${exprName(e)}], expected ${expected} or an aggregate function`,
          e.src,
        ),
      };
    });
    const present = agg.aggregates.map((a) => (a.kind === 'Alias' ? a.child : a));
    for (const ord of orders) {
      for (const f of collectFirst(ord.child, isAggregate)) {
        if (present.some((p) => semanticEquals(p, f))) continue;
        if (hidden.some((h) => h.kind === 'Alias' && semanticEquals(h.child, f))) continue;
        hidden.push({
          kind: 'Alias',
          id: s.newId(),
          name: f.src.text,
          child: f,
          dataType: f.dataType,
          src: f.src,
        });
      }
    }
  } else if (proj.kind === 'Project') {
    for (const ord of orders) {
      for (const a of missingAttrs(ord.child, out)) {
        if (!hidden.some((h) => h.kind === a.kind && (h as Attribute).id === a.id)) hidden.push(a);
      }
    }
  }
  if (hidden.length === 0) return { kind: 'OrderBy', child: plan, orders, src: locSrc(clause) };
  let widened: LogicalPlan;
  if (agg === null) {
    widened = { ...(proj as Project), projections: [...(proj as Project).projections, ...hidden] };
  } else {
    const wider: Aggregate = { ...agg, aggregates: [...agg.aggregates, ...hidden] };
    widened =
      proj === agg
        ? wider
        : {
            ...(proj as Project),
            child: replaceProjecting((proj as Project).child, agg, wider),
            projections: [...(proj as Project).projections, ...hidden.map(toAttribute)],
          };
  }
  const child = replaceProjecting(plan, proj, widened);
  return {
    kind: 'Project',
    child: { kind: 'OrderBy', child, orders, src: locSrc(clause) },
    projections: out.map((a) => a as NamedExpr),
    src: locSrc(clause),
  };
}

const locSrc = (c: { text: string; loc: A.Loc }) => ({
  text: c.text,
  line: c.loc.line,
  column: c.loc.column,
});

/** Attributes referenced outside aggregate functions that `out` does not provide. */
function missingAttrs(e: Expr, out: readonly Attribute[]): Attribute[] {
  const found: Attribute[] = [];
  const visit = (x: Expr): Expr => {
    if (isAggregate(x)) return x;
    if ((x.kind === 'Field' || x.kind === 'Ref') && !out.some((o) => sameAttr(o, x))) found.push(x);
    return mapChildren(x, visit);
  };
  visit(e);
  return found;
}

/** ES checkGroupMatch for ORDER BY: functions over grouped expressions are fine. */
function isGroupedExpression(e: Expr, groupings: readonly Expr[]): boolean {
  if (groupings.some((g) => semanticEquals(g, e))) return true;
  if (isAggregate(e) || isFoldable(e)) return true;
  if (e.kind === 'Field' || e.kind === 'Ref' || e.kind === 'Score') return false;
  const kids = e.kind === 'Fn' || e.kind === 'Cast' || e.kind === 'Arith' || e.kind === 'Neg';
  if (!kids) return false;
  return (e.kind === 'Fn' ? e.args : e.kind === 'Arith' ? [e.left, e.right] : [e.child]).every(
    (c) => isGroupedExpression(c, groupings),
  );
}

function ordinalOf(s: AnalyzerState, e: A.Expression): number | null {
  if (e.kind !== 'Literal' && e.kind !== 'Negate') return null;
  const r = s.resolve(e, { attrs: [] });
  if (!isFoldable(r) || !isInteger(r.dataType)) return null;
  const v = fold(r, s.ctx.cfg);
  return typeof v === 'number' ? Math.trunc(v) : null;
}

export { toAttribute };
