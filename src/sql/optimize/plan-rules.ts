/**
 * Plan rewrites of ES's Optimizer: RewritePivot (`Pivot` gets an IN filter on its values),
 * ReplaceReferenceAttributeWithSource (filters and sorts read the aliased expression itself),
 * CombineProjections (Project over Project/Aggregate collapses), the prune rules (literals and
 * duplicates in GROUP BY/ORDER BY, constant filters, ORDER BY over an implicit grouping),
 * SortAggregateOnOrderBy (composite keys follow ORDER BY), and the "Skip Elasticsearch" rules
 * that answer LIMIT 0 and constant projections locally.
 */
import {
  literal,
  mapChildren,
  type Alias,
  type Attribute,
  type Expr,
  type NamedExpr,
} from '../expression/nodes.js';
import { exprKey, isFoldable, semanticEquals } from '../expression/props.js';
import { fold } from '../expression/evaluate.js';
import type { EvalContext } from '../functions/definition.js';
import type { Aggregate, LocalRelation, LogicalPlan, Order } from '../plan/logical.js';
import {
  findPlan,
  forEachPlanDown,
  isUnary,
  mapPlanExpressions,
  planOutput,
  transformPlanDown,
  transformPlanUp,
  withChild,
} from '../plan/logical.js';

/** ES RewritePivot: restrict the input to the pivoted values. */
export function rewritePivot(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'Pivot' || (p.child.kind === 'Filter' && p.child.condition.kind === 'In'))
      return p;
    const list = p.values.map((v) => (v.kind === 'Alias' ? v.child : v));
    return {
      ...p,
      child: {
        kind: 'Filter',
        child: p.child,
        condition: { kind: 'In', value: p.column, list, dataType: 'BOOLEAN', src: p.src },
        src: p.src,
      },
    };
  });
}

/** ES ReplaceReferenceAttributeWithSource. */
export function replaceReferences(plan: LogicalPlan): LogicalPlan {
  const sources = new Map<string, Expr>();
  forEachPlanDown(plan, (p) => {
    const list =
      p.kind === 'Project'
        ? p.projections
        : p.kind === 'Aggregate'
          ? p.aggregates
          : p.kind === 'Pivot'
            ? p.aggregates
            : [];
    for (const ne of list) if (ne.kind === 'Alias') sources.set(`R(${ne.id})`, ne.child);
  });
  if (sources.size === 0) return plan;
  const replace = (e: Expr): Expr => {
    if (e.kind === 'Ref') {
      const s = sources.get(exprKey(e));
      return s ? replace(s) : e;
    }
    return mapChildren(e, replace);
  };
  return transformPlanUp(plan, (p) =>
    p.kind === 'Project' || p.kind === 'Aggregate' || p.kind === 'Pivot'
      ? p
      : mapPlanExpressions(p, replace),
  );
}

/** Removes aliases below the top level (ES CleanAliases.trimNonTopLevelAliases). */
function trimInner(e: Expr): Expr {
  const strip = (x: Expr): Expr => (x.kind === 'Alias' ? strip(x.child) : mapChildren(x, strip));
  return e.kind === 'Alias' ? { ...e, child: strip(e.child) } : strip(e);
}

function combineProjections(upper: readonly NamedExpr[], lower: readonly NamedExpr[]): NamedExpr[] {
  const byRef = new Map<string, NamedExpr>();
  for (const ne of lower) if (ne.kind === 'Alias') byRef.set(`R(${ne.id})`, ne);
  const replace = (e: Expr): Expr => {
    if (e.kind === 'Ref') return byRef.get(exprKey(e)) ?? e;
    return mapChildren(e, replace);
  };
  return upper.map((ne) => trimInner(replace(ne)) as NamedExpr);
}

/** ES CombineProjections. */
export function combineProjectionsRule(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'Project') return p;
    const c = p.child;
    if (c.kind === 'Project') {
      return { ...c, projections: combineProjections(p.projections, c.projections) };
    }
    if (c.kind === 'Aggregate') {
      return { ...c, aggregates: combineProjections(p.projections, c.aggregates) };
    }
    return p;
  });
}

/** ES PruneLiteralsInGroupBy + PruneDuplicatesInGroupBy. */
export function pruneGroupBy(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'Aggregate' || p.groupings.length === 0) return p;
    const kept: Expr[] = [];
    for (const g of p.groupings) {
      if (isFoldable(g)) continue;
      if (kept.some((k) => semanticEquals(k, g))) continue;
      kept.push(g);
    }
    return kept.length === p.groupings.length ? p : { ...p, groupings: kept };
  });
}

const empty = (p: LogicalPlan): LogicalPlan => ({
  kind: 'LocalRelation',
  output: planOutput(p),
  row: null,
  src: p.src,
});

/** ES PruneFilters: TRUE filters disappear, FALSE/NULL ones make the relation empty. */
export function pruneFilters(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'Filter' || p.condition.kind !== 'Literal') return p;
    if (p.condition.value === true) return p.child;
    return empty(p);
  });
}

/** ES PruneOrderByForImplicitGrouping + PruneLiteralsInOrderBy. */
export function pruneOrderBy(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'OrderBy') return p;
    const agg = findPlan(p.child, 'Aggregate');
    if (agg !== null && agg.groupings.length === 0) return p.child;
    const orders = p.orders.filter((o) => !isFoldable(o.child));
    if (orders.length === 0) return p.child;
    return orders.length === p.orders.length ? p : { ...p, orders };
  });
}

/** ES SortAggregateOnOrderBy: the ORDER BY keys move to the front of the grouping. */
export function sortAggregateOnOrderBy(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'OrderBy') return p;
    let found = false;
    return transformPlanDown(p, (n) => {
      if (n.kind !== 'Aggregate' || found) return n;
      found = true;
      return reorderGroupings(n, p.orders);
    });
  });
}

function reorderGroupings(a: Aggregate, orders: readonly Order[]): Aggregate {
  const groupings = [...a.groupings];
  for (const o of [...orders].reverse()) {
    for (const g of a.groupings) {
      let matching = semanticEquals(o.child, g);
      if (!matching) {
        for (const ne of a.aggregates) {
          if (ne.kind !== 'Alias') continue;
          const viaAlias =
            (semanticEquals(ne.child, g) || exprKey(g) === `R(${ne.id})`) &&
            (exprKey(o.child) === `R(${ne.id})` || semanticEquals(ne.child, o.child));
          if (viaAlias) matching = true;
        }
      }
      if (matching) {
        groupings.splice(groupings.indexOf(g), 1);
        groupings.unshift(g);
      }
    }
  }
  return groupings.every((g, i) => g === a.groupings[i]) ? a : { ...a, groupings };
}

/** ES SkipQueryOnLimitZero. */
export function skipQueryOnLimitZero(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => (p.kind === 'Limit' && p.limit === 0 ? empty(p) : p));
}

/** ES PropagateEmptyLocal: anything over an empty local relation is empty. */
export function propagateEmpty(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (!isUnary(p) || p.child.kind !== 'LocalRelation' || p.child.row !== null) return p;
    if (p.kind === 'Aggregate' && p.groupings.length === 0) return p;
    return empty(p);
  });
}

function constants(named: readonly NamedExpr[], cfg: EvalContext): Expr[] | null {
  const out: Expr[] = [];
  for (const n of named) {
    const e = n.kind === 'Alias' ? n.child : n;
    if (!isFoldable(e)) return null;
    out.push(literal(fold(e, cfg), e.dataType, e.src));
  }
  return out;
}

/** ES SkipQueryIfFoldingProjection: constant projections not over an index run locally. */
export function skipQueryIfFoldingProjection(cfg: EvalContext): (plan: LogicalPlan) => LogicalPlan {
  return (plan) => {
    let local: LogicalPlan | null = null;
    forEachPlanDown(plan, (p) => {
      if (local !== null) return;
      const notEmptyLocal = (c: LogicalPlan) => !(c.kind === 'LocalRelation' && c.row === null);
      if (p.kind === 'Project' && p.child.kind !== 'EsRelation' && notEmptyLocal(p.child)) {
        const row = constants(p.projections, cfg);
        if (row) local = { kind: 'LocalRelation', output: planOutput(p), row, src: p.src };
      } else if (p.kind === 'Aggregate' && p.groupings.length === 0 && notEmptyLocal(p.child)) {
        const row = constants(p.aggregates, cfg);
        if (row) local = { kind: 'LocalRelation', output: planOutput(p), row, src: p.src };
      }
    });
    // EXTENSION: an OFFSET (at least 1) over the one local row leaves none
    return local === null ? plan : findPlan(plan, 'Offset') === null ? local : emptied(local);
  };
}

const emptied = (p: LocalRelation): LocalRelation => ({ ...p, row: null });

/** ES ReplaceCountInLocalRelation: COUNT over no index is 1. */
export function replaceCountInLocalRelation(plan: LogicalPlan): LogicalPlan {
  return transformPlanUp(plan, (p) => {
    if (p.kind !== 'Aggregate' || findPlan(p, 'LocalRelation') === null) return p;
    const swap = (e: Expr): Expr =>
      e.kind === 'Agg' && e.def.name === 'COUNT'
        ? literal(1, e.dataType, e.src)
        : mapChildren(e, swap);
    return { ...p, aggregates: p.aggregates.map((ne) => swap(ne) as NamedExpr) };
  });
}

export { withChild, type Alias, type Attribute };
