/**
 * Logical plans (ES ql/sql `plan.logical`): a discriminated union of plain readonly objects.
 * Analysis builds them from the AST, the optimizer rewrites them, the folder turns the part that
 * runs in Elasticsearch into one search request. `LocalRelation` is a plan ES SQL answers itself
 * (no FROM, LIMIT 0, a WHERE folded to false).
 */
import type { EsIndex } from '../analyze/es-index.js';
import { childrenOf as childrenOfAny } from '../expression/nodes.js';
import type { Join } from './join.js';

export type { Join } from './join.js';
import { primitiveAttributes } from '../expression/attributes.js';
import type {
  Alias,
  Attribute,
  Expr,
  FieldAttr,
  NamedExpr,
  RefAttr,
  Src,
} from '../expression/nodes.js';

export interface EsRelation {
  readonly kind: 'EsRelation';
  readonly index: EsIndex;
  readonly output: readonly FieldAttr[];
  readonly frozen: boolean;
  readonly src: Src;
}

/** A relation evaluated in memory: no rows, or one row of constants. */
export interface LocalRelation {
  readonly kind: 'LocalRelation';
  readonly output: readonly Attribute[];
  /** null: no rows (ES EmptyExecutable); else one row (SingletonExecutable). */
  readonly row: readonly Expr[] | null;
  readonly src: Src;
}

/** A relation whose name could not be resolved (ES UnresolvedRelation). */
export interface UnresolvedRelation {
  readonly kind: 'UnresolvedRelation';
  readonly name: string;
  readonly message: string;
  readonly src: Src;
}

export interface Filter {
  readonly kind: 'Filter';
  readonly child: LogicalPlan;
  readonly condition: Expr;
  readonly src: Src;
}

export interface Project {
  readonly kind: 'Project';
  readonly child: LogicalPlan;
  readonly projections: readonly NamedExpr[];
  readonly src: Src;
}

export interface Aggregate {
  readonly kind: 'Aggregate';
  readonly child: LogicalPlan;
  readonly groupings: readonly Expr[];
  readonly aggregates: readonly NamedExpr[];
  readonly src: Src;
}

export interface Order {
  readonly child: Expr;
  readonly direction: 'ASC' | 'DESC';
  readonly nulls: 'FIRST' | 'LAST';
  /** NULLS FIRST/LAST was written (not ES's default for the direction). */
  readonly nullsExplicit?: boolean;
  readonly src: Src;
}

export interface OrderBy {
  readonly kind: 'OrderBy';
  readonly child: LogicalPlan;
  readonly orders: readonly Order[];
  readonly src: Src;
}

export interface Limit {
  readonly kind: 'Limit';
  readonly child: LogicalPlan;
  readonly limit: number;
  readonly src: Src;
}

/** ES `Pivot`: one aggregate per value of `column`, grouped by the rest of the input. */
export interface Pivot {
  readonly kind: 'Pivot';
  readonly child: LogicalPlan;
  readonly column: Expr;
  /** Aliases of the (literal) pivot values. */
  readonly values: readonly NamedExpr[];
  readonly aggregates: readonly NamedExpr[];
  /** The output attribute per (value, aggregate), created once so references stay stable. */
  readonly valueAttrs: readonly RefAttr[];
  readonly src: Src;
}

/** SELECT DISTINCT (ES rejects it in the verifier). */
export interface Distinct {
  readonly kind: 'Distinct';
  readonly child: LogicalPlan;
  readonly src: Src;
}

/** EXTENSION (not ES SQL): `OFFSET n` skips the first `offset` rows of its child. */
export interface Offset {
  readonly kind: 'Offset';
  readonly child: LogicalPlan;
  readonly offset: number;
  readonly src: Src;
}

export type LogicalPlan =
  | EsRelation
  | LocalRelation
  | UnresolvedRelation
  | Filter
  | Project
  | Aggregate
  | OrderBy
  | Limit
  | Pivot
  | Distinct
  | Offset
  | Join;

export type UnaryPlan = Filter | Project | Aggregate | OrderBy | Limit | Pivot | Distinct | Offset;

/** A JOIN is a leaf here: its inputs are separate plans, each folded into its own search. */
export const isUnary = (p: LogicalPlan): p is UnaryPlan =>
  p.kind !== 'EsRelation' &&
  p.kind !== 'LocalRelation' &&
  p.kind !== 'UnresolvedRelation' &&
  p.kind !== 'Join';

/** ES NamedExpression.toAttribute. */
export function toAttribute(n: NamedExpr): Attribute {
  switch (n.kind) {
    case 'Field':
    case 'Ref':
      return n;
    case 'Alias':
      return aliasRef(n);
    case 'Unresolved':
      return { kind: 'Ref', id: -1, name: n.name, dataType: 'UNSUPPORTED', src: n.src };
  }
}

export const aliasRef = (a: Alias): RefAttr => ({
  kind: 'Ref',
  id: a.id,
  name: a.name,
  dataType: a.dataType,
  src: a.src,
});

/**
 * ES Pivot.grouping: the primitive input columns minus the pivot column and the aggregated
 * fields, with the pivot column last.
 */
export function pivotGrouping(p: Pivot): Attribute[] {
  const column = new Set<string>();
  const used = new Set<string>();
  const collect = (e: Expr, into: Set<string>) => {
    if (e.kind === 'Field') into.add(e.name);
    for (const k of childrenOfAny(e)) collect(k, into);
  };
  collect(p.column, column);
  for (const a of p.aggregates) collect(a, used);
  const rest = primitiveAttributes(planOutput(p.child)).filter(
    (a) => !(a.kind === 'Field' && (column.has(a.name) || used.has(a.name))),
  );
  return p.column.kind === 'Field' ? [...rest, p.column] : rest;
}

/** The pivot's output before its value columns: the grouping without the pivot column. */
export function pivotGroupingSet(p: Pivot): Attribute[] {
  return pivotGrouping(p).filter(
    (a) => !(p.column.kind === 'Field' && a.kind === 'Field' && a.name === p.column.name),
  );
}

/** ES LogicalPlan.output(). */
export function planOutput(p: LogicalPlan): readonly Attribute[] {
  switch (p.kind) {
    case 'EsRelation':
    case 'LocalRelation':
      return p.output;
    case 'UnresolvedRelation':
      return [];
    case 'Join':
      return [...p.leftOutput, ...p.rightOutput];
    case 'Filter':
    case 'OrderBy':
    case 'Limit':
    case 'Distinct':
    case 'Offset':
      return planOutput(p.child);
    case 'Project':
      return p.projections.map(toAttribute);
    case 'Aggregate':
      return p.aggregates.map(toAttribute);
    case 'Pivot':
      return [...pivotGroupingSet(p), ...p.valueAttrs];
  }
}

export function childOf(p: LogicalPlan): LogicalPlan | null {
  return isUnary(p) ? p.child : null;
}

export function withChild(p: UnaryPlan, child: LogicalPlan): UnaryPlan {
  return p.child === child ? p : { ...p, child };
}

/** No expressions: one shared array (the verifier and rules ask every node, many times). */
const NO_EXPRESSIONS: readonly Expr[] = Object.freeze([]);

/**
 * The expressions a node holds (ES forEachExpressions), in order: read-only (it may be the node's
 * own list).
 */
export function planExpressions(p: LogicalPlan): readonly Expr[] {
  switch (p.kind) {
    case 'EsRelation':
    case 'UnresolvedRelation':
      return NO_EXPRESSIONS;
    case 'LocalRelation':
      return p.row ?? NO_EXPRESSIONS;
    case 'Filter':
      return [p.condition];
    case 'Project':
      return p.projections;
    case 'Aggregate':
      return [...p.groupings, ...p.aggregates];
    case 'OrderBy':
      return p.orders.map((o) => o.child);
    case 'Limit':
    case 'Distinct':
    case 'Offset':
      return NO_EXPRESSIONS;
    case 'Pivot':
      return [p.column, ...p.values, ...p.aggregates];
    case 'Join':
      return [p.condition];
  }
}

/** `xs` mapped by `f`, or `xs` itself when `f` changed nothing (keeps plan identity). */
function mapSame<T>(xs: readonly T[], f: (x: T) => T): readonly T[] {
  let out: T[] | null = null;
  for (let i = 0; i < xs.length; i++) {
    const y = f(xs[i]!);
    if (out === null && y !== xs[i]) out = xs.slice(0, i);
    if (out !== null) out.push(y);
  }
  return out ?? xs;
}

/** Rewrites every expression of one node (not its children); the node itself when unchanged. */
export function mapPlanExpressions(p: LogicalPlan, f: (e: Expr) => Expr): LogicalPlan {
  // a rewrite of a named expression is one too (an alias keeps its name): `f` typed so, rather
  // than wrapped in a closure per node and rule
  const named = f as (e: NamedExpr) => NamedExpr;
  switch (p.kind) {
    case 'Filter': {
      const condition = f(p.condition);
      return condition === p.condition ? p : { ...p, condition };
    }
    case 'Project': {
      const projections = mapSame(p.projections, named);
      return projections === p.projections ? p : { ...p, projections };
    }
    case 'Aggregate': {
      const groupings = mapSame(p.groupings, f);
      const aggregates = mapSame(p.aggregates, named);
      return groupings === p.groupings && aggregates === p.aggregates
        ? p
        : { ...p, groupings, aggregates };
    }
    case 'OrderBy': {
      const orders = mapSame(p.orders, (o) => {
        const child = f(o.child);
        return child === o.child ? o : { ...o, child };
      });
      return orders === p.orders ? p : { ...p, orders };
    }
    case 'Pivot': {
      const column = f(p.column);
      const values = mapSame(p.values, named);
      const aggregates = mapSame(p.aggregates, named);
      return column === p.column && values === p.values && aggregates === p.aggregates
        ? p
        : { ...p, column, values, aggregates };
    }
    case 'Join': {
      const condition = f(p.condition);
      return condition === p.condition ? p : { ...p, condition };
    }
    case 'LocalRelation': {
      if (!p.row) return p;
      const row = mapSame(p.row, f);
      return row === p.row ? p : { ...p, row };
    }
    default:
      return p;
  }
}

/** Bottom-up plan rewrite (ES transformUp). */
export function transformPlanUp(p: LogicalPlan, f: (p: LogicalPlan) => LogicalPlan): LogicalPlan {
  const withKids = isUnary(p) ? withChild(p, transformPlanUp(p.child, f)) : p;
  return f(withKids);
}

/** Top-down plan rewrite (ES transformDown). */
export function transformPlanDown(p: LogicalPlan, f: (p: LogicalPlan) => LogicalPlan): LogicalPlan {
  const r = f(p);
  return isUnary(r) ? withChild(r, transformPlanDown(r.child, f)) : r;
}

/** Visits nodes children first (ES forEachUp). */
export function forEachPlanUp(p: LogicalPlan, f: (p: LogicalPlan) => void): void {
  if (isUnary(p)) forEachPlanUp(p.child, f);
  f(p);
}

/** Visits nodes parents first. */
export function forEachPlanDown(p: LogicalPlan, f: (p: LogicalPlan) => void): void {
  f(p);
  if (isUnary(p)) forEachPlanDown(p.child, f);
}

export function findPlan<K extends LogicalPlan['kind']>(
  p: LogicalPlan,
  kind: K,
): Extract<LogicalPlan, { kind: K }> | null {
  let found: LogicalPlan | null = null;
  forEachPlanDown(p, (n) => {
    if (found === null && n.kind === kind) found = n;
  });
  return found as Extract<LogicalPlan, { kind: K }> | null;
}
