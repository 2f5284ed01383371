/**
 * Properties of resolved expressions: ES `Expressions.name`, `foldable()`, `nullable()`, whether an
 * expression holds aggregates, and a canonical key used for ES's `semanticEquals` (attributes by
 * id, everything else by structure, sources ignored) so expressions can be matched and
 * deduplicated through maps.
 */
import { javaToString } from '../../functions/java-text.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  TimeValue,
} from '../../functions/values.js';
import type { ArgInfo } from '../functions/type-resolutions.js';
import { anyMatch, childrenOf, type Expr } from './nodes.js';

/** ES Expressions.name: a named expression's name, else its source text. */
export function exprName(e: Expr): string {
  switch (e.kind) {
    case 'Alias':
    case 'Field':
    case 'Ref':
    case 'Unresolved':
      return e.name;
    default:
      return e.src.text;
  }
}

/** ES Expression.foldable(). `foldValue` is needed by a few functions (COALESCE's first argument). */
export function isFoldable(e: Expr, foldValue?: (e: Expr) => unknown): boolean {
  switch (e.kind) {
    case 'Literal':
      return true;
    case 'Field':
    case 'Ref':
    case 'Score':
    case 'Agg':
    case 'InnerAgg':
    case 'FullText':
    case 'Unresolved':
      return false;
    case 'Alias':
      return isFoldable(e.child, foldValue);
    case 'Fn':
      return e.def.foldable(argInfos(e.args, foldValue));
    default:
      return childrenOf(e).every((c) => isFoldable(c, foldValue));
  }
}

/** The registry's view of arguments (type, name, foldability and folded value). */
export function argInfos(args: readonly Expr[], foldValue?: (e: Expr) => unknown): ArgInfo[] {
  return args.map((a) => argInfo(a, foldValue));
}

export function argInfo(a: Expr, foldValue?: (e: Expr) => unknown): ArgInfo {
  const foldable = isFoldable(a, foldValue);
  const info: { -readonly [K in keyof ArgInfo]: ArgInfo[K] } = {
    type: a.dataType,
    name: exprName(a),
    sourceText: a.src.text,
    foldable,
  };
  if (foldable) {
    if (a.kind === 'Literal') info.value = a.value;
    else if (foldValue) {
      try {
        info.value = foldValue(a);
      } catch {
        // folding errors surface at execution, as in ES
      }
    }
  }
  if (a.kind === 'Field' && a.field.dataType === 'TEXT') {
    info.exact = a.field.exact.hasExact
      ? { hasExact: true }
      : { hasExact: false, errorMsg: a.field.exact.errorMsg ?? '' };
  }
  return info;
}

export const isAggregate = (e: Expr): boolean => e.kind === 'Agg' || e.kind === 'InnerAgg';

export const containsAggregate = (e: Expr): boolean => anyMatch(e, isAggregate);

export const isGrouping = (e: Expr): boolean => e.kind === 'Fn' && e.def.type === 'GROUPING';

/** ES Expressions.isNull: a NULL-typed or null literal. */
export const isNullExpr = (e: Expr): boolean =>
  e.dataType === 'NULL' || (e.kind === 'Literal' && (e.value === null || e.value === undefined));

/** Everything resolved (no Unresolved node inside). */
export const isResolved = (e: Expr): boolean => !anyMatch(e, (x) => x.kind === 'Unresolved');

function valueKey(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof DateTimeValue) return `dt${v.millis}.${v.nanos}@${v.zone.id}`;
  if (v instanceof TimeValue) return `t${v.nanoOfDay}@${v.offsetSeconds}`;
  if (v instanceof IntervalYearMonth) return `ym${v.years}:${v.months}:${v.type}`;
  if (v instanceof IntervalDayTime) return `dt${v.seconds}:${v.nanos}:${v.type}`;
  if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
  if (typeof v === 'string') return JSON.stringify(v);
  return javaToString(v);
}

/**
 * A canonical key: two expressions with the same key are semantically equal (ES semanticEquals:
 * aliases see through to their child, attributes compare by identity).
 */
export function exprKey(e: Expr): string {
  // Expressions are immutable: a node's key is computed once (rules compare the same nodes over
  // and over; recomputing made long AND/OR chains cubic).
  let k = keys.get(e);
  if (k === undefined) keys.set(e, (k = computeKey(e)));
  return k;
}

const keys = new WeakMap<Expr, string>();

function computeKey(e: Expr): string {
  const kids = () => childrenOf(e).map(exprKey).join(',');
  switch (e.kind) {
    case 'Literal':
      return `L(${e.dataType}:${valueKey(e.value)})`;
    case 'Field':
      return e.joinSide === undefined ? `F(${e.name})` : `F(${e.joinSide}:${e.name})`;
    case 'Ref':
      return `R(${e.id})`;
    case 'Alias':
      return exprKey(e.child);
    case 'Fn':
      return `${e.def.name}(${kids()})`;
    case 'Agg':
      return `${e.def.name}${e.distinct ? '!D' : ''}(${kids()})`;
    case 'InnerAgg':
      return exprKey(e.inner);
    case 'Score':
      return 'SCORE()';
    case 'Cast':
      return `CAST(${kids()}:${e.dataType})`;
    case 'Arith':
      return `(${exprKey(e.left)}${e.op}${exprKey(e.right)})`;
    case 'Neg':
      return `NEG(${kids()})`;
    case 'Cmp':
      return `(${exprKey(e.left)}${e.op}${exprKey(e.right)})`;
    case 'And':
      return `AND(${kids()})`;
    case 'Or':
      return `OR(${kids()})`;
    case 'Not':
      return `NOT(${kids()})`;
    case 'In':
      return `IN(${kids()})`;
    case 'Range':
      return `RANGE(${kids()}:${e.includeLower}:${e.includeUpper})`;
    case 'IsNull':
      return `${e.negated ? 'NOTNULL' : 'ISNULL'}(${kids()})`;
    case 'Like':
      return `LIKE(${kids()}:${JSON.stringify(e.pattern)}:${e.escape ?? ''})`;
    case 'RLike':
      return `RLIKE(${kids()}:${JSON.stringify(e.pattern)})`;
    case 'FullText':
      return `FT(${e.predicate}:${e.field?.name ?? ''}:${[...e.fields].join(';')}:${JSON.stringify(e.query)}:${[...e.options].join(';')})`;
    case 'Unresolved':
      return `U(${e.name}@${e.src.line}:${e.src.column})`;
  }
}

/** Two attributes compare by name or id without building (and caching) their keys. */
const fieldKeyPart = (f: Extract<Expr, { kind: 'Field' }>): string =>
  f.joinSide === undefined ? f.name : `${f.joinSide}:${f.name}`;

export const semanticEquals = (a: Expr, b: Expr): boolean => {
  if (a === b) return true;
  if (a.kind === 'Field' && b.kind === 'Field') return fieldKeyPart(a) === fieldKeyPart(b);
  if (a.kind === 'Ref' && b.kind === 'Ref') return a.id === b.id;
  return exprKey(a) === exprKey(b);
};
