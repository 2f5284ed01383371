/**
 * Query nodes, shaped like SqlBase.g4's query rules: `Query` (WITH + body) > `QueryNoWith`
 * (a term with ORDER BY and LIMIT) > `QuerySpecification` (one SELECT block) or a parenthesised
 * `QueryNoWith`. ES `LogicalPlanBuilder` turns these into With/Limit/OrderBy/Distinct/Filter/
 * Aggregate/Project plans; the comments say which.
 */
import type { Loc } from './nodes.js';
import type { Column, Expression } from './expression-nodes.js';

/** SqlBase.g4 `query`. ES always wraps the body in `With` (empty when there is no WITH). */
export interface Query {
  readonly kind: 'Query';
  /** Common table expressions in order; names are unique (ES "Duplicate alias"). */
  readonly with: readonly NamedQuery[];
  readonly body: QueryNoWith;
  readonly loc: Loc;
}

/** `name AS (query)` inside WITH (ES `SubQueryAlias`). */
export interface NamedQuery {
  readonly kind: 'NamedQuery';
  readonly name: string;
  readonly query: QueryNoWith;
  readonly loc: Loc;
}

/**
 * SqlBase.g4 `queryNoWith`: a term, then ES `OrderBy`, then ES `Limit`. A parenthesised term is
 * a nested QueryNoWith whose own ORDER BY / LIMIT apply first.
 */
export interface QueryNoWith {
  readonly kind: 'QueryNoWith';
  readonly term: QuerySpecification | QueryNoWith;
  readonly orderBy: readonly OrderBy[];
  readonly limit: Limit | null;
  /** EXTENSION: `UNION [ALL] term` branches after `term`, applied left to right. */
  readonly unions?: readonly UnionBranch[];
  /** EXTENSION: `OFFSET n`: rows skipped after ORDER BY, before LIMIT counts. */
  readonly offset?: Offset;
  readonly loc: Loc;
}

/** EXTENSION (not ES SQL): one `UNION [ALL | DISTINCT] term` of a query. */
export interface UnionBranch {
  readonly kind: 'UnionBranch';
  /** UNION ALL keeps duplicates; UNION (DISTINCT) removes them. */
  readonly all: boolean;
  readonly term: QuerySpecification | QueryNoWith;
  readonly loc: Loc;
}

/** EXTENSION (not ES SQL): `OFFSET n [ROWS]`. */
export interface Offset {
  readonly kind: 'Offset';
  readonly count: number;
  readonly loc: Loc;
}

/**
 * One SELECT block (SqlBase.g4 `querySpecification`). ES builds, inside out: the FROM relation
 * (a `LocalRelation` when absent), `Filter` (WHERE), `Aggregate` (GROUP BY) or `Project`,
 * `Filter` (HAVING), `Distinct`, then `Limit` (TOP).
 */
export interface QuerySpecification {
  readonly kind: 'QuerySpecification';
  readonly top: Top | null;
  readonly distinct: boolean;
  readonly selectItems: readonly SelectItem[];
  readonly from: FromClause | null;
  readonly where: Expression | null;
  readonly groupBy: GroupBy | null;
  readonly having: Expression | null;
  readonly loc: Loc;
}

/** A select list entry: ES `Alias` when aliased, else `UnresolvedAlias`. */
export interface SelectItem {
  readonly kind: 'SelectItem';
  readonly expression: Expression;
  readonly alias: string | null;
  /** The whole item as written, alias included. */
  readonly sourceText: string;
  readonly loc: Loc;
}

/** `TOP n` (ES `Limit` over the SELECT block). */
export interface Top {
  readonly kind: 'Top';
  readonly count: number;
  readonly loc: Loc;
}

/** An ORDER BY item (ES `Order`); `nulls` is null when not written (ES's default applies). */
export interface OrderBy {
  readonly kind: 'OrderBy';
  readonly expression: Expression;
  readonly direction: 'ASC' | 'DESC';
  readonly nulls: 'FIRST' | 'LAST' | null;
  readonly loc: Loc;
}

/** `LIMIT n`, `LIMIT ALL` (count null: no limit) or `{limit n}`. */
export interface Limit {
  readonly kind: 'Limit';
  readonly count: number | null;
  readonly loc: Loc;
}

/** GROUP BY (ES `Aggregate`); `GROUP BY DISTINCT` is accepted and ignored, as in ES. */
export interface GroupBy {
  readonly kind: 'GroupBy';
  readonly distinct: boolean;
  readonly expressions: readonly Expression[];
  readonly loc: Loc;
}

/**
 * FROM: several relations mean an implicit join (ES builds `Join(IMPLICIT)`, which the
 * analyzer/verifier must reject); PIVOT wraps the whole FROM (ES `Pivot`).
 */
export interface FromClause {
  readonly kind: 'FromClause';
  readonly relations: readonly Relation[];
  readonly pivot: Pivot | null;
  readonly loc: Loc;
}

export type Relation = TableRelation | SubqueryRelation | ParenthesizedRelation | JoinRelation;

/**
 * Quarry extension (issue 16): `left [INNER | LEFT [OUTER]] JOIN right ON condition`. ES SQL
 * rejects every JOIN; Quarry runs INNER and LEFT equi-joins as a hash join of two searches.
 */
export interface JoinRelation {
  readonly kind: 'JoinRelation';
  readonly joinType: 'INNER' | 'LEFT';
  readonly left: Relation;
  readonly right: Relation;
  readonly condition: Expression;
  readonly loc: Loc;
}

/** ES `UnresolvedRelation`: an index, alias or pattern, optionally `FROZEN`. */
export interface TableRelation {
  readonly kind: 'TableRelation';
  readonly table: TableIdentifier;
  /** The alias, identifiers joined by `.` (SqlBase.g4 allows a qualified name). */
  readonly alias: string | null;
  readonly frozen: boolean;
  readonly loc: Loc;
}

/** `(SELECT ...) [AS] alias` (ES `SubQueryAlias`). */
export interface SubqueryRelation {
  readonly kind: 'SubqueryRelation';
  readonly query: QueryNoWith;
  readonly alias: string | null;
  readonly loc: Loc;
}

/** `(relation) [AS] alias` (ES `SubQueryAlias`). */
export interface ParenthesizedRelation {
  readonly kind: 'ParenthesizedRelation';
  readonly relation: Relation;
  readonly alias: string | null;
  readonly loc: Loc;
}

/** ES `TableIdentifier`: `[catalog:]index`; `index` may be a pattern (`"logs-*"`, `"a,b"`). */
export interface TableIdentifier {
  readonly kind: 'TableIdentifier';
  readonly catalog: string | null;
  readonly index: string;
  readonly loc: Loc;
}

/** `PIVOT (agg FOR column IN (values))` (ES `Pivot`; exactly one aggregate). */
export interface Pivot {
  readonly kind: 'Pivot';
  readonly aggregates: readonly NamedValue[];
  readonly column: Column;
  readonly values: readonly NamedValue[];
  readonly loc: Loc;
}

/** `value [AS alias]` in PIVOT (ES `Alias` / `UnresolvedAlias`). */
export interface NamedValue {
  readonly kind: 'NamedValue';
  readonly expression: Expression;
  readonly alias: string | null;
  readonly sourceText: string;
  readonly loc: Loc;
}

/** ES `TableIdentifier.qualifiedIndex()`: `catalog:index` or `index`. */
export function qualifiedIndex(table: TableIdentifier): string {
  return table.catalog !== null ? `${table.catalog}:${table.index}` : table.index;
}

// ---------------------------------------------------------------------------------------------
// Factories (fixed key order).

type Fields<T> = Omit<T, 'kind'>;

export const query = (f: Fields<Query>): Query => ({
  kind: 'Query',
  with: f.with,
  body: f.body,
  loc: f.loc,
});

export const namedQuery = (f: Fields<NamedQuery>): NamedQuery => ({
  kind: 'NamedQuery',
  name: f.name,
  query: f.query,
  loc: f.loc,
});

export const queryNoWith = (f: Fields<QueryNoWith>): QueryNoWith => ({
  kind: 'QueryNoWith',
  term: f.term,
  orderBy: f.orderBy,
  limit: f.limit,
  ...(f.unions !== undefined && f.unions.length > 0 ? { unions: f.unions } : {}),
  ...(f.offset !== undefined ? { offset: f.offset } : {}),
  loc: f.loc,
});

export const querySpecification = (f: Fields<QuerySpecification>): QuerySpecification => ({
  kind: 'QuerySpecification',
  top: f.top,
  distinct: f.distinct,
  selectItems: f.selectItems,
  from: f.from,
  where: f.where,
  groupBy: f.groupBy,
  having: f.having,
  loc: f.loc,
});

export const selectItem = (f: Fields<SelectItem>): SelectItem => ({
  kind: 'SelectItem',
  expression: f.expression,
  alias: f.alias,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const top = (f: Fields<Top>): Top => ({ kind: 'Top', count: f.count, loc: f.loc });

export const orderBy = (f: Fields<OrderBy>): OrderBy => ({
  kind: 'OrderBy',
  expression: f.expression,
  direction: f.direction,
  nulls: f.nulls,
  loc: f.loc,
});

export const limit = (f: Fields<Limit>): Limit => ({ kind: 'Limit', count: f.count, loc: f.loc });

export const groupBy = (f: Fields<GroupBy>): GroupBy => ({
  kind: 'GroupBy',
  distinct: f.distinct,
  expressions: f.expressions,
  loc: f.loc,
});

export const fromClause = (f: Fields<FromClause>): FromClause => ({
  kind: 'FromClause',
  relations: f.relations,
  pivot: f.pivot,
  loc: f.loc,
});

export const tableRelation = (f: Fields<TableRelation>): TableRelation => ({
  kind: 'TableRelation',
  table: f.table,
  alias: f.alias,
  frozen: f.frozen,
  loc: f.loc,
});

export const subqueryRelation = (f: Fields<SubqueryRelation>): SubqueryRelation => ({
  kind: 'SubqueryRelation',
  query: f.query,
  alias: f.alias,
  loc: f.loc,
});

export const parenthesizedRelation = (f: Fields<ParenthesizedRelation>): ParenthesizedRelation => ({
  kind: 'ParenthesizedRelation',
  relation: f.relation,
  alias: f.alias,
  loc: f.loc,
});

export const tableIdentifier = (f: Fields<TableIdentifier>): TableIdentifier => ({
  kind: 'TableIdentifier',
  catalog: f.catalog,
  index: f.index,
  loc: f.loc,
});

export const pivot = (f: Fields<Pivot>): Pivot => ({
  kind: 'Pivot',
  aggregates: f.aggregates,
  column: f.column,
  values: f.values,
  loc: f.loc,
});

export const namedValue = (f: Fields<NamedValue>): NamedValue => ({
  kind: 'NamedValue',
  expression: f.expression,
  alias: f.alias,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const joinRelation = (f: Fields<JoinRelation>): JoinRelation => ({
  kind: 'JoinRelation',
  joinType: f.joinType,
  left: f.left,
  right: f.right,
  condition: f.condition,
  loc: f.loc,
});
