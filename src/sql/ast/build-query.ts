/**
 * CST -> AST for queries (ES `LogicalPlanBuilder`): WITH, query terms, SELECT blocks, ORDER BY,
 * LIMIT/TOP, GROUP BY, FROM relations and PIVOT, raising the parsing_exceptions ES raises here
 * (JOIN, GROUP BY ALL, TOP with LIMIT, several PIVOT aggregations, duplicate WITH aliases).
 * Parts are built in the order ES visits them, so the first error is ES's first error.
 */
import type {
  FromClauseCstNode,
  GroupByCstNode,
  JoinRelationCstNode,
  LimitClauseCstNode,
  NamedValueExpressionCstNode,
  OrderByCstNode,
  PivotClauseCstNode,
  QueryCstNode,
  QueryNoWithCstNode,
  QuerySpecificationCstNode,
  QueryTermCstNode,
  RelationCstNode,
  RelationPrimaryCstNode,
  SelectItemCstNode,
  TableIdentifierCstNode,
} from '../../../grammar/sql/sql-cst.js';
import { locOf, one, textOf } from './build-context.js';
import { buildQueryExtensions } from './build-query-extensions.js';
import type { BuildContext } from './build-context.js';
import {
  buildBooleanExpression,
  buildExpression,
  buildValueExpression,
} from './build-expression.js';
import {
  buildColumn,
  identifierRawText,
  identifierText,
  qualifiedNameParts,
} from './build-literal.js';
import { numberFormatError, parsingError } from './errors.js';
import {
  fromClause,
  groupBy,
  joinRelation,
  limit,
  namedQuery,
  namedValue,
  orderBy,
  parenthesizedRelation,
  pivot,
  query,
  queryNoWith,
  querySpecification,
  selectItem,
  subqueryRelation,
  tableIdentifier,
  tableRelation,
  top,
} from './nodes.js';
import type {
  FromClause,
  GroupBy,
  Limit,
  NamedValue,
  OrderBy,
  Pivot,
  Query,
  QueryNoWith,
  QuerySpecification,
  Relation,
  SelectItem,
  TableIdentifier,
} from './nodes.js';

/** ES `visitQuery`: the body first, then the WITH entries, then the duplicate check. */
export function buildQuery(ctx: BuildContext, node: QueryCstNode): Query {
  const body = buildQueryNoWith(ctx, one(node.children.queryNoWith));
  const named = (node.children.namedQuery ?? []).map((n) => {
    const c = n.children;
    return namedQuery({
      name: identifierRawText(one(c.identifier)),
      query: buildQueryNoWith(ctx, one(c.queryNoWith)),
      loc: locOf(ctx, n),
    });
  });
  const seen = new Set<string>();
  for (const n of named) {
    if (seen.has(n.name)) throw parsingError(n.loc, `Duplicate alias ${n.name}`);
    seen.add(n.name);
  }
  return query({ with: named, body, loc: locOf(ctx, node) });
}

/** ES `visitQueryNoWith`. */
export function buildQueryNoWith(ctx: BuildContext, node: QueryNoWithCstNode): QueryNoWith {
  const c = node.children;
  const term = buildQueryTerm(ctx, one(c.queryTerm));
  const orders = (c.orderBy ?? []).map((o) => buildOrderBy(ctx, o));
  const limitNode = c.limitClause?.[0];
  let limitClause: Limit | null = null;
  if (limitNode) {
    const count = limitNode.children.IntegerValue?.[0];
    // ES checks `plan instanceof Limit`: a TOP (or inner LIMIT) not hidden behind ORDER BY
    if (count && orders.length === 0 && endsWithLimit(term)) {
      throw parsingError(
        locOf(ctx, limitNode),
        'TOP and LIMIT are not allowed in the same query - use one or the other',
      );
    }
    limitClause = buildLimit(ctx, limitNode);
  }
  const ext = buildQueryExtensions(ctx, node, limitClause, (t) => buildQueryTerm(ctx, t));
  return queryNoWith({
    term,
    orderBy: orders,
    limit: ext.limit,
    unions: ext.unions,
    ...(ext.offset !== null ? { offset: ext.offset } : {}),
    loc: locOf(ctx, node),
  });
}

function endsWithLimit(term: QuerySpecification | QueryNoWith): boolean {
  if (term.kind === 'QuerySpecification') return term.top !== null;
  if (term.limit !== null && term.limit.count !== null) return true;
  return term.orderBy.length === 0 && endsWithLimit(term.term);
}

// Integer.parseInt, as ES reads LIMIT and TOP counts
function parseInt32(image: string): number {
  // the image is digits only: nine of them never pass the limit
  if (image.length <= 9) return Number(image);
  const value = BigInt(image);
  if (value > 2147483647n) throw numberFormatError(image);
  return Number(value);
}

function buildLimit(ctx: BuildContext, node: LimitClauseCstNode): Limit {
  const count = node.children.IntegerValue?.[0];
  return limit({ count: count ? parseInt32(count.image) : null, loc: locOf(ctx, node) });
}

function buildQueryTerm(
  ctx: BuildContext,
  node: QueryTermCstNode,
): QuerySpecification | QueryNoWith {
  const spec = node.children.querySpecification?.[0];
  return spec
    ? buildQuerySpecification(ctx, spec)
    : buildQueryNoWith(ctx, one(node.children.queryNoWith));
}

/** ES `visitOrderBy`: ASC unless DESC; NULLS FIRST/LAST only when written. */
function buildOrderBy(ctx: BuildContext, node: OrderByCstNode): OrderBy {
  const c = node.children;
  return orderBy({
    expression: buildExpression(ctx, one(c.booleanExpression)),
    direction: c.Desc ? 'DESC' : 'ASC',
    nulls: c.Nulls ? (c.First ? 'FIRST' : 'LAST') : null,
    loc: locOf(ctx, node),
  });
}

/** ES `visitQuerySpecification`: FROM, WHERE, select list, GROUP BY, HAVING, then TOP. */
function buildQuerySpecification(
  ctx: BuildContext,
  node: QuerySpecificationCstNode,
): QuerySpecification {
  const c = node.children;
  const from = c.fromClause ? buildFromClause(ctx, one(c.fromClause)) : null;
  // WHERE is the first booleanExpression when present, HAVING the last
  const conditions = c.booleanExpression ?? [];
  const where = c.Where ? buildBooleanExpression(ctx, conditions[0]!) : null;
  const items = one(c.selectItems).children.selectItem.map((s) => buildSelectItem(ctx, s));
  const grouping = c.groupBy ? buildGroupBy(ctx, one(c.groupBy)) : null;
  const having = c.Having ? buildBooleanExpression(ctx, conditions[conditions.length - 1]!) : null;
  const quantifier = c.setQuantifier?.[0];
  const topNode = c.topClause?.[0];
  return querySpecification({
    top: topNode
      ? top({
          count: parseInt32(one(topNode.children.IntegerValue).image),
          loc: locOf(ctx, topNode),
        })
      : null,
    distinct: quantifier?.children.Distinct !== undefined,
    selectItems: items,
    from,
    where,
    groupBy: grouping,
    having,
    loc: locOf(ctx, node),
  });
}

function buildSelectItem(ctx: BuildContext, node: SelectItemCstNode): SelectItem {
  const c = node.children;
  return selectItem({
    expression: buildExpression(ctx, one(c.booleanExpression)),
    alias: c.identifier ? identifierText(c.identifier[0]!) : null,
    sourceText: textOf(ctx, node),
    loc: locOf(ctx, node),
  });
}

/**
 * ES rejects GROUP BY ALL; a parenthesised grouping list `(a, b)` reaches ES's default visitor,
 * which fails on the `(` token.
 */
function buildGroupBy(ctx: BuildContext, node: GroupByCstNode): GroupBy {
  const c = node.children;
  const quantifier = c.setQuantifier?.[0]?.children;
  if (quantifier?.All) {
    throw parsingError(locOf(ctx, quantifier.All[0]!), 'GROUP BY ALL is not supported');
  }
  const expressions = c.groupingElement.map((element) => {
    const g = one(element.children.groupingExpressions).children;
    if (g.LeftParen)
      throw parsingError(locOf(ctx, g.LeftParen[0]!), 'Does not know how to handle (');
    return buildExpression(ctx, one(g.booleanExpression));
  });
  return groupBy({
    distinct: quantifier?.Distinct !== undefined,
    expressions,
    loc: locOf(ctx, node),
  });
}

// ---------------------------------------------------------------------------------------------
// FROM

function buildFromClause(ctx: BuildContext, node: FromClauseCstNode): FromClause {
  const relations = node.children.relation.map((r) => buildRelation(ctx, r));
  const pivotNode = node.children.pivotClause?.[0];
  return fromClause({
    relations,
    pivot: pivotNode ? buildPivot(ctx, pivotNode) : null,
    loc: locOf(ctx, node),
  });
}

/**
 * ES `visitRelation` / `doJoin`. Quarry extension (issue 16): INNER and LEFT [OUTER] JOIN with an
 * ON condition become a `JoinRelation` (left-deep); the forms SQL itself has no meaning for
 * without a condition keep ES's error, the others name what is supported.
 */
function buildRelation(ctx: BuildContext, node: RelationCstNode): Relation {
  let rel = buildRelationPrimary(ctx, one(node.children.relationPrimary));
  for (const join of node.children.joinRelation ?? []) rel = buildJoin(ctx, rel, join);
  return rel;
}

function buildJoin(ctx: BuildContext, left: Relation, join: JoinRelationCstNode): Relation {
  const c = join.children;
  const type = one(c.joinType).children;
  const criteria = c.joinCriteria?.[0]?.children;
  const kind = type.Left ? 'LEFT' : type.Right ? 'RIGHT' : type.Full ? 'FULL' : 'INNER';
  if (c.Natural || criteria?.Using || (kind !== 'INNER' && kind !== 'LEFT')) {
    const what = c.Natural ? 'NATURAL JOIN' : criteria?.Using ? 'JOIN ... USING' : `${kind} JOIN`;
    throw parsingError(
      locOf(ctx, join),
      `${what} is not supported; use [INNER] JOIN or LEFT [OUTER] JOIN with ON equality conditions`,
    );
  }
  // no condition: ES's own error (a condition-less JOIN is no SQL join either)
  if (!criteria?.booleanExpression) {
    throw parsingError(locOf(ctx, join), 'Queries with JOIN are not yet supported');
  }
  return joinRelation({
    joinType: kind,
    left,
    right: buildRelationPrimary(ctx, one(c.relationPrimary)),
    condition: buildBooleanExpression(ctx, one(criteria.booleanExpression)),
    loc: locOf(ctx, join),
  });
}

function aliasOf(node: {
  children: { qualifiedName?: Parameters<typeof qualifiedNameParts>[0][] };
}) {
  const name = node.children.qualifiedName?.[0];
  return name ? qualifiedNameParts(name).join('.') : null;
}

function buildRelationPrimary(ctx: BuildContext, node: RelationPrimaryCstNode): Relation {
  const c = node.children;
  if (c.tableName) {
    const t = one(c.tableName);
    return tableRelation({
      table: buildTableIdentifier(ctx, one(t.children.tableIdentifier)),
      alias: aliasOf(t),
      frozen: t.children.Frozen !== undefined,
      loc: locOf(ctx, t),
    });
  }
  if (c.aliasedQuery) {
    const q = one(c.aliasedQuery);
    return subqueryRelation({
      query: buildQueryNoWith(ctx, one(q.children.queryNoWith)),
      alias: aliasOf(q),
      loc: locOf(ctx, q),
    });
  }
  const r = one(c.aliasedRelation);
  return parenthesizedRelation({
    relation: buildRelation(ctx, one(r.children.relation)),
    alias: aliasOf(r),
    loc: locOf(ctx, r),
  });
}

/** ES `visitTableIdentifier`: `[catalog:]name`, unquoted. */
export function buildTableIdentifier(
  ctx: BuildContext,
  node: TableIdentifierCstNode,
): TableIdentifier {
  // TABLE_IDENTIFIER is never lexed, so the name is always an identifier
  const ids = node.children.identifier!;
  const hasCatalog = node.children.Colon !== undefined;
  return tableIdentifier({
    catalog: hasCatalog ? identifierText(ids[0]!) : null,
    index: identifierText(ids[ids.length - 1]!),
    loc: locOf(ctx, node),
  });
}

/** ES `visitFromClause` PIVOT part: aggregates, the one-aggregate check, then the values. */
function buildPivot(ctx: BuildContext, node: PivotClauseCstNode): Pivot {
  const c = node.children;
  const [aggsNode, valuesNode] = c.pivotArgs;
  const column = buildColumn(ctx, one(c.qualifiedName));
  const aggregates = aggsNode!.children.namedValueExpression.map((v) => buildNamedValue(ctx, v));
  if (aggregates.length > 1) {
    throw parsingError(
      locOf(ctx, aggsNode!),
      `PIVOT currently supports only one aggregation, found [${aggregates.length}]`,
    );
  }
  const values = valuesNode!.children.namedValueExpression.map((v) => buildNamedValue(ctx, v));
  return pivot({ aggregates, column, values, loc: locOf(ctx, node) });
}

function buildNamedValue(ctx: BuildContext, node: NamedValueExpressionCstNode): NamedValue {
  const c = node.children;
  return namedValue({
    expression: buildValueExpression(ctx, one(c.valueExpression)),
    alias: c.identifier ? identifierText(c.identifier[0]!) : null,
    sourceText: textOf(ctx, node),
    loc: locOf(ctx, node),
  });
}
