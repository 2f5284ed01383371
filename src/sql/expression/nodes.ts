/**
 * Resolved SQL expressions (ES ql `Expression` after analysis): plain readonly objects with a
 * `kind`, each carrying its SQL data type and its source text/position (ES `Source`), which names
 * result columns and locates verifier messages. Attributes (`Field`, `Ref`) refer to columns by id;
 * `Alias` names an expression in a projection. `Unresolved` keeps what the analyzer could not
 * resolve, with ES's message, for the verifier to report.
 */
import type { DataTypeName } from '../../functions/data-types.js';
import type { FunctionDefinition } from '../functions/definition.js';
import type { EsField } from '../analyze/es-index.js';

/** ES `Source`: the text an expression was built from and where it starts (1-based). */
export interface Src {
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

export const NO_SRC: Src = Object.freeze({ text: '', line: -1, column: 0 });

interface Base {
  readonly dataType: DataTypeName;
  readonly src: Src;
}

/** ES `Literal` holding a runtime value (see src/functions/values.ts). */
export interface Literal extends Base {
  readonly kind: 'Literal';
  readonly value: unknown;
}

/** ES `FieldAttribute`: a column of the index. */
export interface FieldAttr extends Base {
  readonly kind: 'Field';
  readonly id: number;
  /** Full field path. */
  readonly name: string;
  /** The relation's name or alias (qualified references `emp.salary`). */
  readonly qualifier: string | null;
  readonly field: EsField;
  /** The enclosing `nested` field's path, or null. */
  readonly nestedParent: string | null;
  /** The parent field when this is a multi-field (`first_name` for `first_name.keyword`). */
  readonly parentName: string | null;
  /** The parent is an object or nested field (not a multi-field parent). */
  readonly parentIsObject: boolean;
  /** Set on a JOIN's view of its inputs: the same field of both sides stays two columns. */
  readonly joinSide?: 'left' | 'right';
}

/** ES `ReferenceAttribute`: the output of an `Alias` seen from above. */
export interface RefAttr extends Base {
  readonly kind: 'Ref';
  readonly id: number;
  readonly name: string;
  /** A JOIN input's alias, so `s.total` finds a sub-select's computed column. */
  readonly qualifier?: string | null;
}

/** ES `Alias`. */
export interface Alias extends Base {
  readonly kind: 'Alias';
  readonly id: number;
  readonly name: string;
  readonly child: Expr;
}

/** A scalar, conditional or grouping function of the registry (CASE, IIF included). */
export interface Fn extends Base {
  readonly kind: 'Fn';
  readonly def: FunctionDefinition;
  readonly args: readonly Expr[];
}

/** An aggregate function (ES AggregateFunction subclasses). */
export interface Agg extends Base {
  readonly kind: 'Agg';
  readonly def: FunctionDefinition;
  readonly args: readonly Expr[];
  readonly distinct: boolean;
}

/** Compound aggregations several functions are served from (ES CompoundNumericAggregate). */
export type CompoundKind =
  'stats' | 'extended_stats' | 'matrix_stats' | 'percentiles' | 'percentile_ranks';

/**
 * ES `InnerAggregate`: an aggregate read from a compound aggregation (`stats.min`,
 * `percentiles["50.0"]`). `outerKey` canonically identifies the compound over its field, `values`
 * are the percents / ranks of percentile compounds.
 */
export interface InnerAgg extends Base {
  readonly kind: 'InnerAgg';
  readonly inner: Agg;
  readonly compound: CompoundKind;
  readonly field: Expr;
  readonly innerName: string;
  /** Percentiles: the percent/value this function reads. */
  readonly innerKey: number | null;
  /** Percentiles: every percent/value the compound computes. */
  readonly values: readonly number[];
}

/** ES `Score`. */
export interface Score extends Base {
  readonly kind: 'Score';
}

/** ES `Cast` (CAST, CONVERT, ::). */
export interface Cast extends Base {
  readonly kind: 'Cast';
  readonly child: Expr;
}

export type ArithOp = '+' | '-' | '*' | '/' | '%';

export interface Arith extends Base {
  readonly kind: 'Arith';
  readonly op: ArithOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface Neg extends Base {
  readonly kind: 'Neg';
  readonly child: Expr;
}

export type CmpOp = '=' | '<=>' | '!=' | '<' | '<=' | '>' | '>=';

export interface Cmp extends Base {
  readonly kind: 'Cmp';
  readonly op: CmpOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface And extends Base {
  readonly kind: 'And';
  readonly left: Expr;
  readonly right: Expr;
}

export interface Or extends Base {
  readonly kind: 'Or';
  readonly left: Expr;
  readonly right: Expr;
}

export interface Not extends Base {
  readonly kind: 'Not';
  readonly child: Expr;
}

export interface In extends Base {
  readonly kind: 'In';
  readonly value: Expr;
  readonly list: readonly Expr[];
}

/** ES `Range` (BETWEEN and the optimizer's combined comparisons). */
export interface Range extends Base {
  readonly kind: 'Range';
  readonly value: Expr;
  readonly lower: Expr;
  readonly includeLower: boolean;
  readonly upper: Expr;
  readonly includeUpper: boolean;
}

export interface IsNull extends Base {
  readonly kind: 'IsNull';
  readonly child: Expr;
  readonly negated: boolean;
}

export interface Like extends Base {
  readonly kind: 'Like';
  readonly child: Expr;
  readonly pattern: string;
  readonly escape: string | null;
}

export interface RLike extends Base {
  readonly kind: 'RLike';
  readonly child: Expr;
  readonly pattern: string;
}

/** ES MatchQueryPredicate / MultiMatchQueryPredicate / StringQueryPredicate. */
export interface FullText extends Base {
  readonly kind: 'FullText';
  readonly predicate: 'match' | 'multi_match' | 'query_string';
  /** MATCH: the resolved field. */
  readonly field: FieldAttr | null;
  /** multi_match / query_string: `field^boost` entries. */
  readonly fields: ReadonlyMap<string, number>;
  readonly query: string;
  readonly options: ReadonlyMap<string, string>;
}

/** Something the analyzer could not resolve; the verifier reports `message`. */
export interface Unresolved extends Base {
  readonly kind: 'Unresolved';
  readonly message: string;
  /** The name it stood for (for output naming). */
  readonly name: string;
  /** ES's custom message flag: no "did you mean" suggestions. */
  readonly custom: boolean;
}

export type Expr =
  | Literal
  | FieldAttr
  | RefAttr
  | Alias
  | Fn
  | Agg
  | InnerAgg
  | Score
  | Cast
  | Arith
  | Neg
  | Cmp
  | And
  | Or
  | Not
  | In
  | Range
  | IsNull
  | Like
  | RLike
  | FullText
  | Unresolved;

export type ExprKind = Expr['kind'];

/** Attributes (what plans output). */
export type Attribute = FieldAttr | RefAttr;

/** What a projection list holds. */
export type NamedExpr = Alias | FieldAttr | RefAttr | Unresolved;

export const isAttribute = (e: Expr): e is Attribute => e.kind === 'Field' || e.kind === 'Ref';

export const literal = (value: unknown, dataType: DataTypeName, src: Src = NO_SRC): Literal => ({
  kind: 'Literal',
  value,
  dataType,
  src,
});

export const NULL_LITERAL = literal(null, 'NULL');
export const TRUE = literal(true, 'BOOLEAN');
export const FALSE = literal(false, 'BOOLEAN');

/** The children of an expression, in ES's order. */
/** The children of a leaf: one shared array (rules walk every node of a plan many times). */
const NO_CHILDREN: readonly Expr[] = Object.freeze([]);

export function childrenOf(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'Literal':
    case 'Field':
    case 'Ref':
    case 'Score':
    case 'Unresolved':
      return NO_CHILDREN;
    case 'FullText':
      return e.field ? [e.field] : NO_CHILDREN;
    case 'Alias':
    case 'Cast':
    case 'Neg':
    case 'Not':
    case 'IsNull':
    case 'Like':
    case 'RLike':
      return [e.child];
    case 'Fn':
    case 'Agg':
      return e.args;
    case 'InnerAgg':
      return [e.inner];
    case 'Arith':
    case 'Cmp':
    case 'And':
    case 'Or':
      return [e.left, e.right];
    case 'In':
      return [e.value, ...e.list];
    case 'Range':
      return [e.value, e.lower, e.upper];
  }
}

/** Rebuilds `e` with `f` applied to each direct child (identity kept when nothing changes). */
export function mapChildren(e: Expr, f: (c: Expr) => Expr): Expr {
  const kids = childrenOf(e);
  // the new children only once one differs: most rewrites change nothing
  let next: Expr[] | null = null;
  for (let i = 0; i < kids.length; i++) {
    const n = f(kids[i]!);
    if (next !== null) next.push(n);
    else if (n !== kids[i]) (next = kids.slice(0, i)).push(n);
  }
  if (next === null) return e;
  switch (e.kind) {
    case 'Alias':
      // ES Alias.dataType() is its child's: a rewritten child (a simplified CASE) retypes it
      return { ...e, child: next[0]!, dataType: next[0]!.dataType };
    case 'Cast':
    case 'Neg':
    case 'Not':
    case 'IsNull':
    case 'Like':
    case 'RLike':
      return { ...e, child: next[0]! };
    case 'FullText':
      return { ...e, field: next[0] as FieldAttr };
    case 'Fn':
    case 'Agg':
      return { ...e, args: next };
    case 'InnerAgg':
      return { ...e, inner: next[0] as Agg };
    case 'Arith':
    case 'Cmp':
    case 'And':
    case 'Or':
      return { ...e, left: next[0]!, right: next[1]! };
    case 'In':
      return { ...e, value: next[0]!, list: next.slice(1) };
    case 'Range':
      return { ...e, value: next[0]!, lower: next[1]!, upper: next[2]! };
    default:
      return e;
  }
}

/** Bottom-up rewrite (ES transformUp). */
export function transformUp(e: Expr, f: (e: Expr) => Expr): Expr {
  return f(mapChildren(e, (c) => transformUp(c, f)));
}

/** Top-down rewrite (ES transformDown): `f` first, then the children of its result. */
export function transformDown(e: Expr, f: (e: Expr) => Expr): Expr {
  const r = f(e);
  return mapChildren(r, (c) => transformDown(c, f));
}

/** Visits every node, children first (ES forEachUp). */
export function forEachUp(e: Expr, f: (e: Expr) => void): void {
  for (const c of childrenOf(e)) forEachUp(c, f);
  f(e);
}

/** Visits every node, parents first. */
export function forEachDown(e: Expr, f: (e: Expr) => void): void {
  f(e);
  for (const c of childrenOf(e)) forEachDown(c, f);
}

export function anyMatch(e: Expr, p: (e: Expr) => boolean): boolean {
  if (p(e)) return true;
  for (const c of childrenOf(e)) if (anyMatch(c, p)) return true;
  return false;
}

/** All nodes matching `p`, without descending into matches (ES collectFirstChildren). */
export function collectFirst(e: Expr, p: (e: Expr) => boolean, out: Expr[] = []): Expr[] {
  if (p(e)) out.push(e);
  else for (const c of childrenOf(e)) collectFirst(c, p, out);
  return out;
}

/** Strips a top-level alias. */
export const unalias = (e: Expr): Expr => (e.kind === 'Alias' ? e.child : e);
