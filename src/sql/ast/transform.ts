/**
 * Exhaustive-by-kind helpers over the AST (sql-parser-cst / kysely style): a
 * `FullTransformMap` needs one handler per node kind, so adding a kind breaks every map that
 * forgets it. Also the generic child listing, walking and bottom-up expression rewriting that
 * the analyzer builds on.
 */
import type { Expression, Node, NodeKind } from './nodes.js';

/** The node type of a kind. */
export type NodeOfKind<K extends NodeKind> = Extract<Node, { kind: K }>;

/** One handler per node kind (compile error when a kind is missing). */
export type FullTransformMap<R, C = void> = {
  readonly [K in NodeKind]: (node: NodeOfKind<K>, context: C) => R;
};

/** Handlers for some kinds only (pair with a default). */
export type TransformMap<R, C = void> = Partial<FullTransformMap<R, C>>;

/** Handlers for the expression kinds only. */
export type ExpressionTransformMap<R, C = void> = {
  readonly [K in Expression['kind']]: (node: NodeOfKind<K>, context: C) => R;
};

/** Calls the handler for `node.kind`. */
export function dispatch<N extends Node, R, C>(
  map: { readonly [K in N['kind']]: (node: NodeOfKind<K>, context: C) => R },
  node: N,
  context: C,
): R {
  const handler = map[node.kind as N['kind']] as unknown as (node: N, context: C) => R;
  return handler(node, context);
}

const none: readonly Node[] = [];
const list = (...items: (Node | null | readonly Node[])[]): Node[] =>
  items.flatMap((i) => (i === null ? [] : Array.isArray(i) ? (i as Node[]) : [i as Node]));

const CHILDREN: FullTransformMap<readonly Node[]> = {
  // expressions
  Literal: () => none,
  Column: () => none,
  Star: (n) => list(n.qualifier),
  FunctionCall: (n) => (n.over ? [...n.args, ...n.over.partitionBy, ...n.over.orderBy] : n.args),
  Cast: (n) => [n.expression],
  Arithmetic: (n) => [n.left, n.right],
  Negate: (n) => [n.operand],
  Comparison: (n) => [n.left, n.right],
  And: (n) => [n.left, n.right],
  Or: (n) => [n.left, n.right],
  Not: (n) => [n.operand],
  Between: (n) => [n.value, n.lower, n.upper],
  In: (n) => list(n.value, n.list),
  Like: (n) => [n.value, n.pattern],
  RLike: (n) => [n.value],
  IsNull: (n) => [n.value],
  Case: (n) => list(n.operand, n.whens, n.elseResult),
  When: (n) => [n.condition, n.result],
  MatchQuery: (n) => [n.field],
  MultiMatchQuery: () => none,
  StringQuery: () => none,
  Exists: (n) => [n.query],
  ScalarSubquery: (n) => [n.query],
  // queries
  Query: (n) => list(n.with, n.body),
  NamedQuery: (n) => [n.query],
  QueryNoWith: (n) =>
    list(
      n.term,
      (n.unions ?? []).map((u) => u.term),
      n.orderBy,
      n.limit,
    ),
  QuerySpecification: (n) => list(n.top, n.selectItems, n.from, n.where, n.groupBy, n.having),
  SelectItem: (n) => [n.expression],
  Top: () => none,
  OrderBy: (n) => [n.expression],
  Limit: () => none,
  GroupBy: (n) => n.expressions,
  FromClause: (n) => list(n.relations, n.pivot),
  TableRelation: (n) => [n.table],
  SubqueryRelation: (n) => [n.query],
  ParenthesizedRelation: (n) => [n.relation],
  JoinRelation: (n) => [n.left, n.right, n.condition],
  TableIdentifier: () => none,
  Pivot: (n) => list(n.aggregates, n.column, n.values),
  NamedValue: (n) => [n.expression],
  LikePattern: () => none,
  // commands
  Explain: (n) => [n.statement],
  Debug: (n) => [n.statement],
  ShowTables: (n) => list(n.table, n.pattern),
  ShowColumns: (n) => list(n.table, n.pattern),
  ShowFunctions: (n) => list(n.pattern),
  ShowSchemas: () => none,
  SysTables: (n) => list(n.catalogPattern, n.table, n.pattern),
  SysColumns: (n) => list(n.table, n.tablePattern, n.columnPattern),
  SysTypes: () => none,
};

/** The direct child nodes, in source order. */
export function childrenOf(node: Node): readonly Node[] {
  return dispatch(CHILDREN, node, undefined);
}

/** Visits `node` and its descendants depth-first, parents first; return false to skip children. */
export function walk(node: Node, visit: (node: Node) => boolean | void): void {
  if (visit(node) === false) return;
  for (const child of childrenOf(node)) walk(child, visit);
}

type Rewrite = (e: Expression) => Expression;

/**
 * Rebuilds an expression's direct sub-expressions with `f` (sub-selects are left alone: they
 * are queries, not expressions).
 */
const REBUILD: ExpressionTransformMap<Expression, Rewrite> = {
  Literal: (n) => n,
  Column: (n) => n,
  Star: (n) => n,
  FunctionCall: (n, f) => ({ ...n, args: n.args.map(f) }),
  Cast: (n, f) => ({ ...n, expression: f(n.expression) }),
  Arithmetic: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  Negate: (n, f) => ({ ...n, operand: f(n.operand) }),
  Comparison: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  And: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  Or: (n, f) => ({ ...n, left: f(n.left), right: f(n.right) }),
  Not: (n, f) => ({ ...n, operand: f(n.operand) }),
  Between: (n, f) => ({ ...n, value: f(n.value), lower: f(n.lower), upper: f(n.upper) }),
  In: (n, f) => ({ ...n, value: f(n.value), list: n.list.map(f) }),
  Like: (n, f) => ({ ...n, value: f(n.value) }),
  RLike: (n, f) => ({ ...n, value: f(n.value) }),
  IsNull: (n, f) => ({ ...n, value: f(n.value) }),
  Case: (n, f) => ({
    ...n,
    operand: n.operand === null ? null : f(n.operand),
    whens: n.whens.map((w) => ({ ...w, condition: f(w.condition), result: f(w.result) })),
    elseResult: n.elseResult === null ? null : f(n.elseResult),
  }),
  MatchQuery: (n) => n,
  MultiMatchQuery: (n) => n,
  StringQuery: (n) => n,
  Exists: (n) => n,
  ScalarSubquery: (n) => n,
};

/** Bottom-up rewrite (ES `transformUp`): children first, then `f` on the rebuilt node. */
export function transformExpressionUp(expression: Expression, f: Rewrite): Expression {
  const rebuilt = dispatch<Expression, Expression, Rewrite>(REBUILD, expression, (child) =>
    transformExpressionUp(child, f),
  );
  return f(rebuilt);
}
