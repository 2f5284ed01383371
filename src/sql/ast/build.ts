/**
 * CST -> AST entry point and statements (ES `AstBuilder` / `CommandBuilder`): queries,
 * EXPLAIN/DEBUG, SHOW, DESCRIBE and SYS commands. The only module family that reads the CST;
 * it is typed by the generated grammar/sql/sql-cst.d.ts.
 */
import type {
  DebugCstNode,
  ExplainCstNode,
  LikePatternCstNode,
  SingleExpressionCstNode,
  SingleStatementCstNode,
  StatementCstNode,
  SysTablesCstNode,
  SysTypesCstNode,
} from '../../../grammar/sql/sql-cst.js';
import { locOf, one, spanOf } from './build-context.js';
import type { BuildContext } from './build-context.js';
import { buildExpression, buildPattern } from './build-expression.js';
import { buildNumber, buildString } from './build-literal.js';
import { buildQuery, buildTableIdentifier } from './build-query.js';
import { parsingError } from './errors.js';
import {
  debug,
  explain,
  showColumns,
  showFunctions,
  showSchemas,
  showTables,
  sysColumns,
  sysTables,
  sysTypes,
} from './nodes.js';
import type { Explain, Expression, IndexType, LikePattern, Statement } from './nodes.js';

export { createBuildContext } from './build-context.js';
export type { BuildContext } from './build-context.js';

/** SqlBase.g4 `singleStatement`. */
export function buildSingleStatement(ctx: BuildContext, node: SingleStatementCstNode): Statement {
  return buildStatement(ctx, one(node.children.statement));
}

/** SqlBase.g4 `singleExpression` (ES `createExpression`, used by tests). */
export function buildSingleExpression(
  ctx: BuildContext,
  node: SingleExpressionCstNode,
): Expression {
  return buildExpression(ctx, one(node.children.booleanExpression));
}

const likeOf = (ctx: BuildContext, node: LikePatternCstNode | undefined): LikePattern | null =>
  node ? buildPattern(ctx, one(node.children.pattern)) : null;

function buildStatement(ctx: BuildContext, node: StatementCstNode): Statement {
  const c = node.children;
  if (c.query) return buildQuery(ctx, one(c.query));
  if (c.explain) return buildExplain(ctx, one(c.explain));
  if (c.debug) return buildDebug(ctx, one(c.debug));
  if (c.showTables) {
    const s = one(c.showTables);
    const table = s.children.tableIdentifier?.[0];
    return showTables({
      table: table ? buildTableIdentifier(ctx, table) : null,
      pattern: likeOf(ctx, s.children.likePattern?.[0]),
      includeFrozen: s.children.Frozen !== undefined,
      loc: locOf(ctx, s),
    });
  }
  if (c.showColumns) {
    const s = one(c.showColumns);
    const table = s.children.tableIdentifier?.[0];
    return showColumns({
      table: table ? buildTableIdentifier(ctx, table) : null,
      pattern: likeOf(ctx, s.children.likePattern?.[0]),
      includeFrozen: s.children.Frozen !== undefined,
      loc: locOf(ctx, s),
    });
  }
  if (c.showFunctions) {
    const s = one(c.showFunctions);
    return showFunctions({ pattern: likeOf(ctx, s.children.likePattern?.[0]), loc: locOf(ctx, s) });
  }
  if (c.showSchemas) return showSchemas({ loc: locOf(ctx, one(c.showSchemas)) });
  if (c.sysTables) return buildSysTables(ctx, one(c.sysTables));
  if (c.sysColumns) {
    const s = one(c.sysColumns).children;
    const table = s.tableIdentifier?.[0];
    const patterns = s.likePattern ?? [];
    // TABLE LIKE p comes first when present; a trailing LIKE is the column pattern
    const tablePattern = s.Table ? patterns[0] : undefined;
    const columnPattern = patterns[s.Table ? 1 : 0];
    return sysColumns({
      catalog: s.Catalog ? buildString(ctx, one(s.string)) : null,
      table: table ? buildTableIdentifier(ctx, table) : null,
      tablePattern: likeOf(ctx, tablePattern),
      columnPattern: likeOf(ctx, columnPattern),
      loc: locOf(ctx, one(c.sysColumns)),
    });
  }
  return buildSysTypes(ctx, one(c.sysTypes));
}

const EXPLAIN_TYPES = ['Parsed', 'Analyzed', 'Optimized', 'Mapped', 'Executable', 'All'] as const;

/** ES `visitExplain`: PLAN, FORMAT and VERIFY at most once each. */
function buildExplain(ctx: BuildContext, node: ExplainCstNode): Explain {
  const c = node.children;
  const loc = locOf(ctx, node);
  if ((c.Plan?.length ?? 0) > 1)
    throw parsingError(loc, 'Explain TYPE should be specified at most once');
  if ((c.Format?.length ?? 0) > 1)
    throw parsingError(loc, 'Explain FORMAT should be specified at most once');
  if ((c.Verify?.length ?? 0) > 1)
    throw parsingError(loc, 'Explain VERIFY should be specified at most once');
  const type = EXPLAIN_TYPES.find((t) => c[t] !== undefined);
  const verify = c.booleanValue?.[0];
  return explain({
    statement: buildStatement(ctx, one(c.statement)),
    type: type ? (type.toUpperCase() as Explain['type']) : null,
    format: c.Graphviz ? 'GRAPHVIZ' : 'TEXT',
    verify: verify ? verify.children.True !== undefined : true,
    loc,
  });
}

/** ES `visitDebug`: FORMAT, then PLAN, at most once each. */
function buildDebug(ctx: BuildContext, node: DebugCstNode): Statement {
  const c = node.children;
  const loc = locOf(ctx, node);
  if ((c.Format?.length ?? 0) > 1)
    throw parsingError(loc, 'Debug FORMAT should be specified at most once');
  if ((c.Plan?.length ?? 0) > 1)
    throw parsingError(loc, 'Debug PLAN should be specified at most once');
  return debug({
    statement: buildStatement(ctx, one(c.statement)),
    type: c.Analyzed ? 'ANALYZED' : c.Optimized ? 'OPTIMIZED' : null,
    format: c.Graphviz ? 'GRAPHVIZ' : 'TEXT',
    loc,
  });
}

const INDEX_TYPE_ORDER: readonly IndexType[] = [
  'STANDARD_INDEX',
  'ALIAS',
  'FROZEN_INDEX',
  'UNKNOWN',
];

/**
 * ES `visitSysTables`: TYPE strings map to index types (TABLE, VIEW, else UNKNOWN); a lone `%`
 * (ODBC's "all types") and empty strings add nothing.
 */
function buildSysTables(ctx: BuildContext, node: SysTablesCstNode): Statement {
  const c = node.children;
  const types = (c.string ?? []).map((s) => buildString(ctx, s));
  const found = new Set<IndexType>();
  for (const value of types) {
    if (value === null || value.length === 0) continue;
    if (value === '%' && types.length === 1) continue;
    const upper = value.toUpperCase();
    found.add(upper === 'TABLE' ? 'STANDARD_INDEX' : upper === 'VIEW' ? 'ALIAS' : 'UNKNOWN');
  }
  const table = c.tableIdentifier?.[0];
  const patterns = c.likePattern ?? [];
  const catalogPattern = c.Catalog ? patterns[0] : undefined;
  const tablePattern = patterns[c.Catalog ? 1 : 0];
  return sysTables({
    catalogPattern: likeOf(ctx, catalogPattern),
    table: table ? buildTableIdentifier(ctx, table) : null,
    pattern: likeOf(ctx, tablePattern),
    types,
    indexTypes: found.size === 0 ? null : INDEX_TYPE_ORDER.filter((t) => found.has(t)),
    loc: locOf(ctx, node),
  });
}

/** ES `visitSysTypes`: the number (with its sign) read as a Java int. */
function buildSysTypes(ctx: BuildContext, node: SysTypesCstNode): Statement {
  const c = node.children;
  const numberNode = c.number?.[0];
  let type = 0;
  if (numberNode) {
    const value = buildNumber(ctx, numberNode, c.Minus ? spanOf(node) : null).value as
      number | bigint;
    type = javaIntValue(value);
  }
  return sysTypes({ type, loc: locOf(ctx, node) });
}

// Number.intValue(): Long narrows modulo 2^32, Double saturates
function javaIntValue(value: number | bigint): number {
  if (typeof value === 'bigint') return Number(BigInt.asIntN(32, value));
  if (Number.isNaN(value)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(value)));
}
