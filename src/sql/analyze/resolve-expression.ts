/**
 * AST expressions to resolved expressions (ES Analyzer's ResolveRefs + ResolveFunctions + type
 * resolution in one pass): columns resolve against the attributes in scope, functions through the
 * registry with its arity ("error building [X]: ...", a parsing_exception) and argument checks,
 * operators get their ES result types. What fails to resolve stays as `Unresolved` carrying ES's
 * message, for the verifier to report with its location.
 */
import { resolveWindowCall } from './window.js';
import type * as A from '../ast/nodes.js';
import { parsingError } from '../ast/errors.js';
import { isString, type DataTypeName } from '../../functions/data-types.js';
import {
  checkCall,
  invalidExtractMessage,
  lookupFunction,
  resolveCast,
  resolveCase as resolveCaseTypes,
  unknownFunctionMessage,
  checkPrecision,
  parseFullTextFields,
  parseFullTextOptions,
  type FunctionDefinition,
} from '../functions/index.js';
import { checkBoolean, checkExact, checkStringAndExact } from '../functions/type-resolutions.js';
import { resolveArithmetic, resolveNeg } from '../types/operators.js';
import { areCompatible } from '../types/common-type.js';
import {
  literal,
  type Attribute,
  type Expr,
  type FieldAttr,
  type Src,
} from '../expression/nodes.js';
import { argInfo, argInfos, exprName, isFoldable, isResolved } from '../expression/props.js';
import { runtimeValue, typeOfAst } from '../expression/literals.js';
import { fold } from '../expression/evaluate.js';
import type { EvalContext } from '../functions/definition.js';
import { resolveAgainst, unknownColumn, unresolved } from './resolve-attribute.js';
import { DATA_TYPES } from '../../functions/data-types.js';

export interface ResolveContext {
  readonly cfg: EvalContext;
}

/** What names resolve against. `fallback` is tried when `attrs` has no match (aliases, outer input). */
export interface Scope {
  readonly attrs: readonly Attribute[];
  readonly fallback?: (name: string, src: Src) => Expr | null;
}

export const srcOf = (n: { sourceText: string; loc: A.Loc }): Src => ({
  text: n.sourceText,
  line: n.loc.line,
  column: n.loc.column,
});

const typeError = (e: Expr, message: string | null): Expr =>
  message === null ? e : unresolved(exprName(e), message, e.src);

export function resolveColumn(c: A.Column, scope: Scope): Expr {
  const src = srcOf(c);
  const found = resolveAgainst(c.name, scope.attrs, src);
  if (found !== null) return found;
  const alt = scope.fallback?.(c.name, src);
  if (alt) return alt;
  return unknownColumn(c.name, scope.attrs, src);
}

export function resolveExpression(ast: A.Expression, scope: Scope, ctx: ResolveContext): Expr {
  const r = (e: A.Expression) => resolveExpression(e, scope, ctx);
  const src = srcOf(ast);
  switch (ast.kind) {
    case 'Literal':
      return literal(runtimeValue(ast.value, ast.dataType), typeOfAst(ast.dataType), src);
    case 'Column':
      return resolveColumn(ast, scope);
    case 'Star':
      return unresolved('*', 'Cannot use * outside a projection or COUNT(*)', src);
    case 'FunctionCall':
      return resolveCall(ast, scope, ctx);
    case 'Cast': {
      const child = r(ast.expression);
      const to = typeOfAst(ast.dataType);
      const e: Expr = { kind: 'Cast', child, dataType: to, src };
      return isResolved(child) ? typeError(e, resolveCast(child.dataType, to)) : e;
    }
    case 'Arithmetic': {
      const left = r(ast.left);
      const right = r(ast.right);
      if (!isResolved(left) || !isResolved(right))
        return { kind: 'Arith', op: ast.operator, left, right, dataType: 'UNSUPPORTED', src };
      const res = resolveArithmetic(
        ast.operator,
        { type: left.dataType, name: exprName(left), sourceText: left.src.text },
        { type: right.dataType, name: exprName(right), sourceText: right.src.text },
        ast.sourceText,
      );
      const e: Expr = {
        kind: 'Arith',
        op: ast.operator,
        left,
        right,
        dataType: res.ok ? res.type : 'UNSUPPORTED',
        src,
      };
      return res.ok ? e : typeError(e, res.message);
    }
    case 'Negate': {
      const child = r(ast.operand);
      if (!isResolved(child)) return { kind: 'Neg', child, dataType: 'UNSUPPORTED', src };
      const res = resolveNeg({ type: child.dataType, name: exprName(child) }, ast.sourceText);
      const e: Expr = { kind: 'Neg', child, dataType: res.ok ? res.type : 'UNSUPPORTED', src };
      return res.ok ? e : typeError(e, res.message);
    }
    case 'Comparison':
      return comparison(ast.operator, r(ast.left), r(ast.right), src);
    case 'And':
    case 'Or': {
      const left = r(ast.left);
      const right = r(ast.right);
      const e: Expr = { kind: ast.kind, left, right, dataType: 'BOOLEAN', src };
      if (!isResolved(left) || !isResolved(right)) return e;
      return typeError(
        e,
        checkBoolean(argInfo(left), ast.sourceText, 'FIRST') ??
          checkBoolean(argInfo(right), ast.sourceText, 'SECOND'),
      );
    }
    case 'Not': {
      const child = r(ast.operand);
      const e: Expr = { kind: 'Not', child, dataType: 'BOOLEAN', src };
      if (!isResolved(child)) return e;
      return typeError(e, checkBoolean(argInfo(child), ast.sourceText, 'DEFAULT'));
    }
    case 'Between': {
      const e: Expr = {
        kind: 'Range',
        value: r(ast.value),
        lower: r(ast.lower),
        includeLower: true,
        upper: r(ast.upper),
        includeUpper: true,
        dataType: 'BOOLEAN',
        src,
      };
      return ast.negated ? { kind: 'Not', child: e, dataType: 'BOOLEAN', src } : e;
    }
    case 'In': {
      const value = r(ast.value);
      const list = ast.list.map(r);
      let e: Expr = { kind: 'In', value, list, dataType: 'BOOLEAN', src };
      if (isResolved(value) && list.every(isResolved)) e = typeError(e, checkIn(value, list, ast));
      return ast.negated ? { kind: 'Not', child: e, dataType: 'BOOLEAN', src } : e;
    }
    case 'Like':
    case 'RLike': {
      const child = r(ast.value);
      let e: Expr =
        ast.kind === 'Like'
          ? {
              kind: 'Like',
              child,
              pattern: ast.pattern.pattern,
              escape: ast.pattern.escape,
              dataType: 'BOOLEAN',
              src,
            }
          : { kind: 'RLike', child, pattern: ast.pattern ?? '', dataType: 'BOOLEAN', src };
      if (isResolved(child))
        e = typeError(e, checkStringAndExact(argInfo(child), ast.sourceText, 'DEFAULT'));
      return ast.negated ? { kind: 'Not', child: e, dataType: 'BOOLEAN', src } : e;
    }
    case 'IsNull':
      return {
        kind: 'IsNull',
        child: r(ast.value),
        negated: ast.negated,
        dataType: 'BOOLEAN',
        src,
      };
    case 'Case':
      return resolveCase(ast, scope, ctx);
    case 'MatchQuery': {
      const field = resolveColumn(ast.field, scope);
      if (field.kind !== 'Field') return field;
      return {
        kind: 'FullText',
        predicate: 'match',
        field,
        fields: new Map(),
        query: ast.query ?? '',
        options: fullTextOptions(ast.options, src),
        dataType: 'BOOLEAN',
        src,
      };
    }
    case 'MultiMatchQuery':
    case 'StringQuery': {
      let fields: Map<string, number>;
      try {
        fields = parseFullTextFields(ast.kind === 'MultiMatchQuery' ? ast.fields : null);
      } catch (e) {
        throw parsingError(ast.loc, (e as Error).message);
      }
      return {
        kind: 'FullText',
        predicate: ast.kind === 'MultiMatchQuery' ? 'multi_match' : 'query_string',
        field: null,
        fields,
        query: ast.query ?? '',
        options: fullTextOptions(ast.options, src),
        dataType: 'BOOLEAN',
        src,
      };
    }
    case 'Exists':
      return unresolved('EXISTS', 'EXISTS is not yet supported', src);
    case 'ScalarSubquery':
      return unresolved(ast.sourceText, 'Sub-selects are not yet supported', src);
  }
}

function fullTextOptions(options: readonly string[], src: Src): Map<string, string> {
  try {
    return parseFullTextOptions(options.join(';'));
  } catch (e) {
    throw parsingError({ line: src.line, column: src.column }, (e as Error).message);
  }
}

/** ES BinaryComparison: both sides must be exact (text fields need a keyword sub-field). */
export function comparison(op: A.Comparison['operator'], left: Expr, right: Expr, src: Src): Expr {
  const e: Expr = { kind: 'Cmp', op, left, right, dataType: 'BOOLEAN', src };
  if (!isResolved(left) || !isResolved(right)) return e;
  return typeError(
    e,
    checkExact(argInfo(left), src.text, 'FIRST') ?? checkExact(argInfo(right), src.text, 'SECOND'),
  );
}

/** ES In.resolveType: an exact value, constant list items compatible with it. */
function checkIn(value: Expr, list: readonly Expr[], ast: A.In): string | null {
  const ex = checkExact(argInfo(value), 'IN', 'DEFAULT');
  if (ex) return ex;
  for (const item of list) {
    if (!isFoldable(item)) {
      return `Comparisons against fields are not (currently) supported; offender [${exprName(item)}] in [${ast.sourceText}]`;
    }
  }
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    if (!areCompatible(value.dataType, item.dataType)) {
      return `${ordinalWord(i + 1)} argument of [${ast.sourceText}] must be [${DATA_TYPES[value.dataType].typeName}], found value [${exprName(item)}] type [${DATA_TYPES[item.dataType].typeName}]`;
    }
  }
  return null;
}

function ordinalWord(i: number): string {
  const mod100 = i % 100;
  if (mod100 >= 11 && mod100 <= 13) return i + 'th';
  return i + (['th', 'st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th'][i % 10] as string);
}

function resolveCase(ast: A.Case, scope: Scope, ctx: ResolveContext): Expr {
  const src = srcOf(ast);
  const r = (e: A.Expression) => resolveExpression(e, scope, ctx);
  const operand = ast.operand ? r(ast.operand) : null;
  const args: Expr[] = [];
  const texts: string[] = [];
  for (const w of ast.whens) {
    const cond = r(w.condition);
    // ES ExpressionBuilder.visitCase: CASE x WHEN v compares `x = v` for every branch
    args.push(operand ? comparison('=', operand, cond, srcOf(w)) : cond);
    args.push(r(w.result));
    texts.push(w.sourceText);
  }
  args.push(ast.elseResult ? r(ast.elseResult) : literal(null, 'NULL', src));
  const def = lookupFunction('CASE')!;
  const e: Expr = { kind: 'Fn', def, args, dataType: 'UNSUPPORTED', src };
  if (!args.every(isResolved)) return e;
  const infos = argInfos(args, (x) => fold(x, ctx.cfg));
  const branches = texts.map((sourceText, i) => ({
    condition: infos[2 * i]!,
    result: infos[2 * i + 1]!,
    sourceText,
  }));
  const typed: Expr = { ...e, dataType: def.dataType(infos) };
  return typeError(typed, resolveCaseTypes(branches, infos[infos.length - 1]!));
}

function resolveCall(ast: A.FunctionCall, scope: Scope, ctx: ResolveContext): Expr {
  if (ast.over) {
    const { over, ...plain } = ast;
    return resolveWindowCall(
      { ...plain, over },
      (e) => resolveExpression(e, scope, ctx),
      () => resolveCall(plain, scope, ctx),
    );
  }
  const src = srcOf(ast);
  const isCount = ast.name.toUpperCase() === 'COUNT';
  // ES UnresolvedFunction.preprocessStar: COUNT(*) counts a constant
  const args = ast.args.map((a) =>
    a.kind === 'Star' && isCount
      ? literal(1, 'INTEGER', srcOf(a))
      : resolveExpression(a, scope, ctx),
  );
  const def = lookupFunction(ast.name);
  if (def === null)
    return unresolved(ast.name, unknownFunctionMessage(ast.name, ast.resolution), src);
  if (ast.resolution === 'EXTRACT' && !def.extractViable)
    return unresolved(ast.name, invalidExtractMessage(ast.name), src);
  const callError = checkCall(def, args.length, ast.resolution === 'DISTINCT');
  if (callError !== null) throw parsingError(ast.loc, callError);
  if (def.name === 'CURRENT_TIME' || def.name === 'CURRENT_TIMESTAMP') {
    const p = checkPrecision(args[0] ? argInfo(args[0], (e) => fold(e, ctx.cfg)) : undefined);
    if (p !== null) throw parsingError(ast.loc, p);
  }
  return resolveFunction(def, args, src, ast.sourceText, ctx, ast.resolution === 'DISTINCT');
}

/** Builds the function node once its arguments are resolved, checking argument types. */
export function resolveFunction(
  def: FunctionDefinition,
  args: Expr[],
  src: Src,
  sourceText: string,
  ctx: ResolveContext,
  distinct: boolean,
): Expr {
  if (def.type === 'SCORE') return { kind: 'Score', dataType: 'FLOAT', src };
  const resolved = args.every(isResolved);
  const infos = resolved ? argInfos(args, (e) => fold(e, ctx.cfg)) : [];
  const dataType: DataTypeName = resolved ? def.dataType(infos) : 'UNSUPPORTED';
  const e: Expr =
    def.type === 'AGGREGATE'
      ? { kind: 'Agg', def, args, distinct, dataType, src }
      : { kind: 'Fn', def, args, dataType, src };
  if (!resolved) return e;
  return typeError(e, def.resolveType(infos, sourceText));
}

/** `text` fields compare through their keyword sub-field (ES FieldAttribute.exactAttribute). */
export function exactName(f: FieldAttr): string {
  return f.field.exact.exactName ?? f.name;
}

export const isStringType = (t: DataTypeName): boolean => isString(t);
