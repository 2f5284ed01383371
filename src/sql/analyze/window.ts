/**
 * Resolving window functions (Quarry extension, issue 16): `ROW_NUMBER()`, `RANK()`,
 * `DENSE_RANK()`, `LAG(x[, n[, default]])`, `LEAD(...)` and `SUM/AVG/MIN/MAX/COUNT(x)` with an
 * `OVER (PARTITION BY ... ORDER BY ...)` become one `Fn` whose definition carries the window
 * (plan/window.ts): its arguments are the function's, then the partition keys, then the order
 * keys, then a literal naming the window's shape (so two windows differing only in direction
 * are different expressions). They are computed in memory over the search's rows.
 */
import type * as A from '../ast/nodes.js';
import { literal, type Expr } from '../expression/nodes.js';
import { isResolved } from '../expression/props.js';
import { unresolved } from './resolve-attribute.js';
import { srcOf } from './resolve-expression.js';
import {
  windowDefinition,
  WINDOW_AGGREGATES,
  WINDOW_ONLY,
  type WindowInfo,
} from '../plan/window.js';

export function resolveWindowCall(
  ast: A.FunctionCall & { over: A.WindowSpec },
  resolve: (e: A.Expression) => Expr,
  resolvePlainCall: (ast: A.FunctionCall) => Expr,
): Expr {
  const src = srcOf(ast);
  const name = ast.name.toUpperCase();
  let fnArgs: Expr[];
  let dataType: Expr['dataType'];
  if (WINDOW_ONLY.has(name)) {
    fnArgs = ast.args.map(resolve);
    const [min, max] = name === 'LAG' || name === 'LEAD' ? [1, 3] : [0, 0];
    if (fnArgs.length < min || fnArgs.length > max) {
      return unresolved(
        ast.name,
        `Window function [${name}] takes ${min === max ? 'no' : `${min} to ${max}`} arguments, found [${fnArgs.length}]`,
        src,
      );
    }
    if ((name === 'LAG' || name === 'LEAD') && fnArgs[1] && fnArgs[1].kind !== 'Literal') {
      return unresolved(ast.name, `The offset of [${name}] must be an integer constant`, src);
    }
    dataType = name === 'LAG' || name === 'LEAD' ? (fnArgs[0]?.dataType ?? 'NULL') : 'LONG';
  } else if (WINDOW_AGGREGATES.has(name) && ast.resolution !== 'DISTINCT') {
    const plain = resolvePlainCall(ast);
    if (plain.kind !== 'Agg') return plain;
    fnArgs = [...plain.args];
    dataType = plain.dataType;
  } else {
    return unresolved(
      ast.name,
      `[${ast.name}] cannot be used with OVER; window functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD and SUM, AVG, MIN, MAX, COUNT`,
      src,
    );
  }
  const partition = ast.over.partitionBy.map(resolve);
  const orders = ast.over.orderBy.map((o) => resolve(o.expression));
  const info: WindowInfo = {
    fn: name,
    args: fnArgs.length,
    partition: partition.length,
    orders: ast.over.orderBy.map((o) => ({
      direction: o.direction,
      nulls: o.nulls ?? (o.direction === 'ASC' ? 'LAST' : 'FIRST'),
    })),
  };
  const shape = literal(
    `OVER(${info.partition}|${info.orders.map((o) => `${o.direction} NULLS ${o.nulls}`).join(',')})`,
    'KEYWORD',
    src,
  );
  const args = [...fnArgs, ...partition, ...orders, shape];
  const e: Expr = { kind: 'Fn', def: windowDefinition(info), args, dataType, src };
  return args.every(isResolved) ? e : { ...e, dataType: 'UNSUPPORTED' };
}
