/**
 * CST -> AST for window specifications (Quarry extension, issue 16): `OVER ([PARTITION BY ...]
 * [ORDER BY ...])` after a function call.
 */
import type { OverClauseCstNode } from '../../../grammar/sql/sql-cst.js';
import { locOf, one } from './build-context.js';
import type { BuildContext } from './build-context.js';
import { buildExpression } from './build-expression.js';
import { orderBy, type WindowSpec } from './nodes.js';

export function buildWindowSpec(ctx: BuildContext, node: OverClauseCstNode): WindowSpec {
  const c = node.children;
  const partition = c.partitionBy?.[0]?.children.booleanExpression ?? [];
  return {
    partitionBy: partition.map((e) => buildExpression(ctx, e)),
    orderBy: (c.orderBy ?? []).map((o) =>
      orderBy({
        expression: buildExpression(ctx, one(o.children.booleanExpression)),
        direction: o.children.Desc ? 'DESC' : 'ASC',
        nulls: o.children.Nulls ? (o.children.First ? 'FIRST' : 'LAST') : null,
        loc: locOf(ctx, o),
      }),
    ),
  };
}
