/**
 * CST -> AST for primary expressions (ES `ExpressionBuilder`): CAST/CONVERT and their type
 * names, EXTRACT, function calls, CURRENT_DATE/TIME/TIMESTAMP, constants, `*`, sub-selects,
 * column references, parentheses and CASE.
 */
import type {
  CaseCstNode,
  CastExpressionCstNode,
  DataTypeCstNode,
  FunctionExpressionCstNode,
  PrimaryExpressionCstNode,
} from '../../../grammar/sql/sql-cst.js';
import { buildWindowSpec } from './build-window.js';
import { locOf, one, textOf } from './build-context.js';
import type { BuildContext } from './build-context.js';
import {
  buildBooleanExpression,
  buildExpression,
  buildValueExpression,
} from './build-expression.js';
import {
  buildColumn,
  buildConstant,
  identifierRawText,
  identifierText,
  identifierTokenText,
} from './build-literal.js';
import type { Negation } from './build-literal.js';
import { buildQuery } from './build-query.js';
import { castTargetType } from './data-types.js';
import { parsingError } from './errors.js';
import { caseExpression, cast, column, functionCall, scalarSubquery, star, when } from './nodes.js';
import type { DataTypeName, Expression } from './nodes.js';

/** SqlBase.g4 `primaryExpression`; `neg` is the minus ES may fold into a literal. */
export function buildPrimary(
  ctx: BuildContext,
  node: PrimaryExpressionCstNode,
  neg: Negation,
): Expression {
  const c = node.children;
  if (c.IdentifierToken) {
    // SqlBase.g4 #dereference: ES `visitQualifiedName` joins the parts with `.`
    const parts = c.IdentifierToken.map(identifierTokenText);
    const name = parts.join('.');
    return column({ name, parts, sourceText: textOf(ctx, node), loc: locOf(ctx, node) });
  }
  if (c.constant) return buildConstant(ctx, one(c.constant), neg);
  if (c.functionExpression) return buildFunction(ctx, one(c.functionExpression));
  if (c.parenthesizedExpression) {
    const inner = one(one(c.parenthesizedExpression).children.booleanExpression);
    return buildExpression(ctx, inner, neg.number);
  }
  if (c.star) {
    const qualifier = one(c.star).children.qualifiedName?.[0];
    return star({
      qualifier: qualifier ? buildColumn(ctx, qualifier) : null,
      sourceText: textOf(ctx, node),
      loc: locOf(ctx, node),
    });
  }
  if (c.castExpression) return buildCast(ctx, one(c.castExpression));
  if (c.extractExpression) {
    const template = one(one(c.extractExpression).children.extractTemplate).children;
    const extract = one(one(c.extractExpression).children.extractTemplate);
    return functionCall({
      name: identifierText(one(template.identifier)),
      resolution: 'EXTRACT',
      args: [buildValueExpression(ctx, one(template.valueExpression))],
      sourceText: textOf(ctx, extract),
      loc: locOf(ctx, extract),
    });
  }
  if (c.builtinDateTimeFunction) {
    const b = one(c.builtinDateTimeFunction);
    const token = (b.children.CurrentTimestamp ??
      b.children.CurrentDate ??
      b.children.CurrentTime)![0]!;
    return functionCall({
      name: token.image,
      resolution: 'STANDARD',
      args: [],
      sourceText: textOf(ctx, b),
      loc: locOf(ctx, b),
    });
  }
  if (c.subqueryExpression) {
    const sub = one(c.subqueryExpression);
    return scalarSubquery({
      query: buildQuery(ctx, one(sub.children.query)),
      sourceText: textOf(ctx, sub),
      loc: locOf(ctx, sub),
    });
  }
  return buildCase(ctx, one(c.case));
}

/** ES `visitFunctionExpression`: the name as written; DISTINCT sets the resolution type. */
function buildFunction(ctx: BuildContext, node: FunctionExpressionCstNode): Expression {
  const template = one(node.children.functionTemplate).children;
  const nameNode = one(template.functionName).children;
  const name = nameNode.identifier
    ? identifierRawText(nameNode.identifier[0]!)
    : (nameNode.Left ?? nameNode.Right)![0]!.image;
  const distinct = template.setQuantifier?.[0]?.children.Distinct !== undefined;
  const over = node.children.overClause?.[0];
  return functionCall({
    name,
    resolution: distinct ? 'DISTINCT' : 'STANDARD',
    args: (template.booleanExpression ?? []).map((e) => buildExpression(ctx, e)),
    ...(over ? { over: buildWindowSpec(ctx, over) } : {}),
    sourceText: textOf(ctx, node),
    loc: locOf(ctx, node),
  });
}

/**
 * A CAST/CONVERT/`::` target (ES `dataType(source, name)`): `SQL_*` names are ODBC types, others
 * SQL or ES type names. CAST and `::` use the unquoted identifier, CONVERT the raw text.
 */
export function buildCastType(
  ctx: BuildContext,
  node: DataTypeCstNode,
  raw: boolean,
): { typeName: string; dataType: DataTypeName } {
  const identifier = one(node.children.identifier);
  const typeName = raw ? identifierRawText(identifier) : identifierText(identifier);
  const dataType = castTargetType(typeName);
  if (dataType === undefined) {
    throw parsingError(locOf(ctx, node), `Does not recognize type [${typeName}]`);
  }
  return { typeName, dataType };
}

/** ES `visitCastExpression`: the source is the template, without a `{fn ...}` wrapper. */
function buildCast(ctx: BuildContext, node: CastExpressionCstNode): Expression {
  const castTemplate = node.children.castTemplate?.[0];
  if (castTemplate) {
    const c = castTemplate.children;
    const expression = buildExpression(ctx, one(c.booleanExpression));
    const { typeName, dataType } = buildCastType(ctx, one(c.dataType), false);
    return cast({
      expression,
      typeName,
      dataType,
      syntax: 'CAST',
      sourceText: textOf(ctx, castTemplate),
      loc: locOf(ctx, castTemplate),
    });
  }
  const convert = one(node.children.convertTemplate);
  // ES resolves CONVERT's type before building the converted expression
  const { typeName, dataType } = buildCastType(ctx, one(convert.children.dataType), true);
  return cast({
    expression: buildExpression(ctx, one(convert.children.booleanExpression)),
    typeName,
    dataType,
    syntax: 'CONVERT',
    sourceText: textOf(ctx, convert),
    loc: locOf(ctx, convert),
  });
}

/** ES `visitCase`; a missing ELSE stays null here (ES adds a NULL literal). */
function buildCase(ctx: BuildContext, node: CaseCstNode): Expression {
  const c = node.children;
  // the operand and the ELSE result share the `booleanExpression` child list, in order
  const hasOperand = (c.booleanExpression?.length ?? 0) - (c.Else ? 1 : 0) === 1;
  const operandNode = hasOperand ? c.booleanExpression![0]! : null;
  const elseNode = c.Else ? c.booleanExpression![c.booleanExpression!.length - 1]! : null;
  const operand = operandNode ? buildBooleanExpression(ctx, operandNode) : null;
  const whens = c.whenClause.map((w) => {
    const [condition, result] = w.children.booleanExpression.map((e) => buildExpression(ctx, e));
    return when({
      condition: condition!,
      result: result!,
      sourceText: textOf(ctx, w),
      loc: locOf(ctx, w),
    });
  });
  return caseExpression({
    operand,
    whens,
    elseResult: elseNode ? buildBooleanExpression(ctx, elseNode) : null,
    sourceText: textOf(ctx, node),
    loc: locOf(ctx, node),
  });
}
