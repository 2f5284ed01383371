/**
 * CST -> AST for boolean and value expressions (ES `ExpressionBuilder`): AND/OR/NOT, full-text
 * predicates, BETWEEN/IN/LIKE/RLIKE/IS NULL, arithmetic and comparisons. The grammar reads binary
 * operators as flat lists; here they get SqlBase.g4's precedence and left associativity.
 * Operands are built left to right, so the first error reported is the one ES reports.
 */
import type { CstNode, IToken } from 'chevrotain';
import type {
  BooleanExpressionCstNode,
  BooleanPrimaryCstChildren,
  DataTypeCstNode,
  MatchQueryOptionsCstNode,
  PatternCstNode,
  PrimaryExpressionCstNode,
  ValueExpressionCstNode,
} from '../../../grammar/sql/sql-cst.js';
import * as t from '../../../grammar/sql/tokens.js';
import { endOf, locOf, one, spanOf, startOf, textOf } from './build-context.js';
import type { BuildContext, Span } from './build-context.js';
import { NO_NEGATION, buildColumn, buildString } from './build-literal.js';
import type { Negation } from './build-literal.js';
import { buildCastType, buildPrimary } from './build-primary.js';
import { buildQuery } from './build-query.js';
import { parsingError } from './errors.js';
import {
  and,
  arithmetic,
  between,
  cast,
  comparison,
  exists,
  inList,
  isNull,
  like,
  likePattern,
  matchQuery,
  multiMatchQuery,
  negate,
  not,
  or,
  rlike,
  stringQuery,
} from './nodes.js';
import type { Arithmetic, Comparison, Expression, LikePattern } from './nodes.js';

/**
 * SqlBase.g4 `expression` (a booleanExpression). `minus` carries a number-folding minus through
 * parentheses.
 */
export function buildExpression(
  ctx: BuildContext,
  node: BooleanExpressionCstNode,
  minus: Span | null = null,
): Expression {
  return buildBooleanExpression(ctx, node, minus);
}

interface Operand {
  readonly expr: Expression;
  readonly span: Span;
}

/**
 * Folds `operand (op operand)*` into a left-associative tree where higher `precedence` binds
 * tighter (precedence climbing, iterative per level).
 */
function combine(
  operands: Operand[],
  operators: IToken[],
  precedence: (op: IToken) => number,
  make: (op: IToken, left: Operand, right: Operand, span: Span) => Expression,
): Expression {
  let index = 0;
  const parse = (minPrecedence: number): Operand => {
    let left = operands[index]!;
    while (index < operators.length && precedence(operators[index]!) >= minPrecedence) {
      const op = operators[index]!;
      const level = precedence(op);
      index++;
      const right = parse(level + 1);
      const span = { start: left.span.start, end: right.span.end };
      left = { expr: make(op, left, right, span), span };
    }
    return left;
  };
  return parse(0).expr;
}

/** SqlBase.g4 `booleanExpression`: AND binds tighter than OR. */
export function buildBooleanExpression(
  ctx: BuildContext,
  node: BooleanExpressionCstNode,
  minus: Span | null = null,
): Expression {
  const c = node.children;
  const operators = c.LogicalOperator;
  // the grammar inlines the operands: a lone one is the node's own children
  if (operators === undefined) return buildBooleanPrimary(ctx, c, spanOf(node), minus);
  const operands = splitOperands(c, operators).map((o) => {
    const span = operandSpan(o);
    return { expr: buildBooleanPrimary(ctx, o, span, null), span };
  });
  return combine(
    operands,
    operators,
    (op) => (op.tokenType === t.And ? 2 : 1),
    (op, left, right, span) => {
      const f = {
        left: left.expr,
        right: right.expr,
        sourceText: textOf(ctx, span),
        loc: locOf(ctx, span),
      };
      return op.tokenType === t.And ? and(f) : or(f);
    },
  );
}

const OPERAND_PARTS = [
  'valueExpression',
  'predicate',
  'logicalNot',
  'exists',
  'stringQuery',
  'matchQuery',
  'multiMatchQuery',
] as const;

/**
 * The children of each operand of `operand (op operand)*`: a child belongs to the operand after
 * the operators that start before it (each child list is in input order).
 */
function splitOperands(
  c: BooleanPrimaryCstChildren,
  operators: readonly IToken[],
): BooleanPrimaryCstChildren[] {
  const parts: Array<Record<string, CstNode[]>> = [];
  for (let i = 0; i <= operators.length; i++) parts.push({});
  for (const name of OPERAND_PARTS) {
    const list = c[name] as CstNode[] | undefined;
    if (list === undefined) continue;
    let i = 0;
    for (const n of list) {
      const start = n.location!.startOffset;
      while (i < operators.length && operators[i]!.startOffset < start) i++;
      (parts[i]![name] ??= []).push(n);
    }
  }
  return parts as BooleanPrimaryCstChildren[];
}

/** An operand's span: its value and predicate, or its one full-text, NOT or EXISTS node. */
function operandSpan(c: BooleanPrimaryCstChildren): Span {
  const first = (c.valueExpression ??
    c.logicalNot ??
    c.exists ??
    c.stringQuery ??
    c.matchQuery ??
    c.multiMatchQuery)![0]!;
  return spanOf(first, c.predicate?.[0] ?? first);
}

/** An operand of booleanExpression (or NOT's operand), from its children and span. */
function buildBooleanPrimary(
  ctx: BuildContext,
  c: BooleanPrimaryCstChildren,
  span: Span,
  minus: Span | null,
): Expression {
  if (c.valueExpression) return buildPredicated(ctx, c, span, minus);
  const sourceText = textOf(ctx, span);
  const loc = locOf(ctx, span);
  if (c.logicalNot) {
    const inner = one(one(c.logicalNot).children.booleanPrimary);
    return not({
      operand: buildBooleanPrimary(ctx, inner.children, spanOf(inner), null),
      sourceText,
      loc,
    });
  }
  if (c.exists)
    return exists({ query: buildQuery(ctx, one(one(c.exists).children.query)), sourceText, loc });
  if (c.stringQuery) {
    const q = one(c.stringQuery).children;
    return stringQuery({
      query: buildString(ctx, one(q.string)),
      options: buildOptions(ctx, one(q.matchQueryOptions)),
      sourceText,
      loc,
    });
  }
  if (c.matchQuery) {
    const m = one(c.matchQuery).children;
    return matchQuery({
      field: buildColumn(ctx, one(m.qualifiedName)),
      query: buildString(ctx, one(m.string)),
      options: buildOptions(ctx, one(m.matchQueryOptions)),
      sourceText,
      loc,
    });
  }
  const m = one(c.multiMatchQuery).children;
  return multiMatchQuery({
    fields: buildString(ctx, m.string[0]!),
    query: buildString(ctx, m.string[1]!),
    options: buildOptions(ctx, one(m.matchQueryOptions)),
    sourceText,
    loc,
  });
}

// ES `getQueryOptions` joins these with `;` (a null parameter prints as "null")
function buildOptions(ctx: BuildContext, node: MatchQueryOptionsCstNode): string[] {
  return (node.children.string ?? []).map((s) => buildString(ctx, s) ?? 'null');
}

/** SqlBase.g4 `predicated` (ES `visitPredicated`), an operand's value and predicate. */
function buildPredicated(
  ctx: BuildContext,
  c: BooleanPrimaryCstChildren,
  span: Span,
  minus: Span | null,
): Expression {
  const value = buildValueExpression(ctx, one(c.valueExpression), minus);
  const predicateNode = c.predicate?.[0];
  if (!predicateNode) return value;
  const p = predicateNode.children;
  const sourceText = textOf(ctx, span);
  const loc = locOf(ctx, span);
  const negated = p.Not !== undefined;
  if (p.Is) return isNull({ value, negated, sourceText, loc });
  if (p.Between) {
    const [lower, upper] = p.valueExpression!.map((v: ValueExpressionCstNode) =>
      buildValueExpression(ctx, v, null),
    );
    return between({ value, lower: lower!, upper: upper!, negated, sourceText, loc });
  }
  if (p.In) {
    if (p.query) throw parsingError(loc, 'IN query not supported yet');
    const list = p.valueExpression!.map((v: ValueExpressionCstNode) =>
      buildValueExpression(ctx, v, null),
    );
    return inList({ value, list, negated, sourceText, loc });
  }
  if (p.Like)
    return like({ value, pattern: buildPattern(ctx, one(p.pattern)), negated, sourceText, loc });
  const regex = buildString(ctx, one(p.string));
  return rlike({ value, pattern: regex, negated, sourceText, loc });
}

const isJavaWhitespace = (c: string) => /[\s\u001c-\u001f]/.test(c) && c !== '\u00a0';

/** ES `visitPattern`: the LIKE pattern and its validated escape character. */
export function buildPattern(ctx: BuildContext, node: PatternCstNode): LikePattern {
  const valueNode = one(node.children.string);
  const pattern = buildString(ctx, valueNode);
  if (pattern === null) throw parsingError(locOf(ctx, valueNode), 'Pattern must not be [null]');
  const escapeNode = node.children.patternEscape?.[0];
  const escapeValueNode = escapeNode ? one(escapeNode.children.string) : null;
  const escapeString = escapeValueNode ? buildString(ctx, escapeValueNode) : null;
  let escape: string | null = null;
  // Strings.hasText: blank escapes are ignored
  if (escapeString !== null && [...escapeString].some((ch) => !isJavaWhitespace(ch))) {
    if (escapeString.length > 1) {
      throw parsingError(
        locOf(ctx, escapeNode!),
        `A character not a string required for escaping; found [${escapeString}]`,
      );
    }
    escape = escapeString;
    if (escape === '%' || escape === '_') {
      throw parsingError(
        locOf(ctx, escapeValueNode!),
        `Char [${escape}] cannot be used for escaping as it's one of the wildcard chars [%_]`,
      );
    }
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i] !== escape) continue;
      const where = `Pattern [${pattern}] is invalid as escape char [${escape}] at position ${i}`;
      if (i + 1 === pattern.length) {
        throw parsingError(locOf(ctx, valueNode), `${where} does not escape anything`);
      }
      const next = pattern[i + 1];
      if (next !== '%' && next !== '_') {
        throw parsingError(
          locOf(ctx, valueNode),
          `${where} can only escape wildcard chars [%_]; found [${next}]`,
        );
      }
    }
  }
  return likePattern({ pattern, escape, loc: locOf(ctx, valueNode) });
}

// ---------------------------------------------------------------------------------------------
// Value expressions

const PRECEDENCE = new Map([
  [t.Asterisk, 3],
  [t.Slash, 3],
  [t.Percent, 3],
  [t.Plus, 2],
  [t.Minus, 2],
]);

const COMPARISONS = new Map<unknown, Comparison['operator']>([
  [t.Eq, '='],
  [t.NullEq, '<=>'],
  [t.Neq, '!='],
  [t.Lt, '<'],
  [t.Lte, '<='],
  [t.Gt, '>'],
  [t.Gte, '>='],
]);

/** SqlBase.g4 `valueExpression`: `* / %` over `+ -` over comparisons. */
export function buildValueExpression(
  ctx: BuildContext,
  node: ValueExpressionCstNode,
  minus: Span | null = null,
): Expression {
  const c = node.children;
  const operators = c.BinaryOperator;
  // the grammar inlines the unary operands: a lone one is the node's own children
  if (operators === undefined) {
    const signs =
      c.Minus === undefined && c.Plus === undefined ? NO_SIGNS : sortedSigns(c.Minus, c.Plus);
    const unary = { signs, primary: one(c.primaryExpression), casts: c.dataType ?? NO_CASTS };
    return buildArithmeticUnary(ctx, unary, endOf(node), minus);
  }
  const operands = splitUnaries(c, operators).map((u) => {
    const span = {
      start: u.signs.length > 0 ? u.signs[0]!.startOffset : startOf(u.primary),
      end: endOf(u.casts.length > 0 ? u.casts[u.casts.length - 1]! : u.primary),
    };
    return { expr: buildArithmeticUnary(ctx, u, span.end, null), span };
  });
  return combine(
    operands,
    operators,
    (op) => PRECEDENCE.get(op.tokenType) ?? 1,
    (op, left, right, span) => {
      const f = {
        left: left.expr,
        right: right.expr,
        sourceText: textOf(ctx, span),
        loc: locOf(ctx, span),
      };
      const comparisonOp = COMPARISONS.get(op.tokenType);
      return comparisonOp !== undefined
        ? comparison({ operator: comparisonOp, ...f })
        : arithmetic({ operator: op.image as Arithmetic['operator'], ...f });
    },
  );
}

/** One operand of valueExpression: its signs (in order), primary and `::` casts. */
interface Unary {
  readonly signs: readonly IToken[];
  readonly primary: PrimaryExpressionCstNode;
  readonly casts: readonly DataTypeCstNode[];
}

const NO_SIGNS: readonly IToken[] = [];
const NO_CASTS: readonly DataTypeCstNode[] = [];

function sortedSigns(minus: IToken[] | undefined, plus: IToken[] | undefined): IToken[] {
  return [...(minus ?? []), ...(plus ?? [])].sort((a, b) => a.startOffset - b.startOffset);
}

/** Index of the operand `offset` is in: the number of operators before it. */
function operandIndex(operators: readonly IToken[], offset: number): number {
  let i = 0;
  while (i < operators.length && operators[i]!.startOffset < offset) i++;
  return i;
}

/** The operands of `unary (op unary)*`, each child given to the operand it falls in. */
function splitUnaries(
  c: ValueExpressionCstNode['children'],
  operators: readonly IToken[],
): Unary[] {
  const signs: IToken[][] = [];
  const casts: DataTypeCstNode[][] = [];
  for (let i = 0; i <= operators.length; i++) {
    signs.push([]);
    casts.push([]);
  }
  for (const s of sortedSigns(c.Minus, c.Plus))
    signs[operandIndex(operators, s.startOffset)]!.push(s);
  for (const d of c.dataType ?? []) casts[operandIndex(operators, startOf(d))]!.push(d);
  return c.primaryExpression.map((primary, i) => ({
    signs: signs[i]!,
    primary,
    casts: casts[i]!,
  }));
}

/**
 * Signs, a primary and `::` casts (ES `visitArithmeticUnary`, `visitCastOperatorExpression`).
 * ES folds the innermost minus into a number literal and drops any minus applied to a literal
 * (`-(-2)` is -2, `-'a'` is 'a'); other operands get a `Negate`. `end`: where the operand ends.
 */
function buildArithmeticUnary(
  ctx: BuildContext,
  u: Unary,
  end: number,
  inheritedMinus: Span | null,
): Expression {
  const { signs, primary, casts } = u;
  const innermost = signs[signs.length - 1];
  let neg: Negation = NO_NEGATION;
  if (casts.length === 0) {
    if (innermost === undefined) neg = { number: inheritedMinus, interval: false };
    else if (innermost.tokenType === t.Minus) {
      neg = { number: { start: innermost.startOffset, end }, interval: true };
    }
  }
  let expr = buildPrimary(ctx, primary, neg);
  for (const typeNode of casts) {
    const span = { start: startOf(primary), end: spanOf(typeNode).end };
    const { typeName, dataType } = buildCastType(ctx, typeNode, false);
    expr = cast({
      expression: expr,
      typeName,
      dataType,
      syntax: '::',
      sourceText: textOf(ctx, span),
      loc: locOf(ctx, span),
    });
  }
  for (let i = signs.length - 1; i >= 0; i--) {
    const sign = signs[i]!;
    if (sign.tokenType === t.Plus || expr.kind === 'Literal') continue;
    const span = { start: sign.startOffset, end };
    expr = negate({ operand: expr, sourceText: textOf(ctx, span), loc: locOf(ctx, span) });
  }
  return expr;
}
