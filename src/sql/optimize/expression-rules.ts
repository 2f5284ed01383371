/**
 * Expression rewrites of ES's "Operator Optimization" batch, applied to every expression of every
 * plan node: FoldNull (`x + NULL` -> NULL), ConstantFolding (`1 + 2` -> 3), SimplifyConditional
 * (drop NULL arguments of COALESCE & co.), SimplifyCase (drop false branches), PruneCast,
 * BooleanSimplification (`x AND TRUE` -> x), BooleanLiteralsOnTheRight (`10 < a` -> `a > 10`) and
 * CombineBinaryComparisons (`a > 1 AND a < 5` -> `1 < a < 5`, one range query).
 */
import type { EvalContext } from '../functions/definition.js';
import {
  FALSE,
  TRUE,
  literal,
  mapChildren,
  type Cmp,
  type CmpOp,
  type Expr,
  type Range,
} from '../expression/nodes.js';
import { argInfos, exprKey, isFoldable, isNullExpr, semanticEquals } from '../expression/props.js';
import { lookupFunction } from '../functions/registry.js';
import { fold } from '../expression/evaluate.js';
import type { LogicalPlan } from '../plan/logical.js';
import { mapPlanExpressions, transformPlanUp } from '../plan/logical.js';

/** Applies `f` bottom-up to every expression of every node. */
export function mapAllExpressions(plan: LogicalPlan, f: (e: Expr) => Expr): LogicalPlan {
  const up = (e: Expr): Expr => f(mapChildren(e, up));
  return transformPlanUp(plan, (p) => mapPlanExpressions(p, up));
}

/** Applies `f` top-down (ES TransformDirection.DOWN) to every expression of every node. */
export function mapAllExpressionsDown(plan: LogicalPlan, f: (e: Expr) => Expr): LogicalPlan {
  const down = (e: Expr): Expr => mapChildren(f(e), down);
  return transformPlanUp(plan, (p) => mapPlanExpressions(p, down));
}

const NULLABLE_KINDS = new Set(['Arith', 'Neg', 'Cast', 'Like', 'RLike']);
/** Scalars that override Function.nullable() (Concat: FALSE, DateDiff: UNKNOWN). */
const NOT_NULL_FOLDED = new Set(['CONCAT', 'DATE_DIFF']);

const CASE_DEF = lookupFunction('CASE')!;

/** ES FoldNull. */
export function foldNull(e: Expr): Expr {
  if (e.kind === 'In' && isNullExpr(e.value)) return literal(null, 'BOOLEAN', e.src);
  // Function.nullable(): any NULL argument makes the call (aggregates included) NULL
  if (
    (e.kind === 'Agg' || (e.kind === 'Fn' && e.def.type === 'SCALAR')) &&
    !NOT_NULL_FOLDED.has(e.def.name) &&
    e.args.some((a) => a.kind === 'Literal' && a.value === null)
  ) {
    return literal(null, e.dataType, e.src);
  }
  const nullable = NULLABLE_KINDS.has(e.kind) || (e.kind === 'Cmp' && e.op !== '<=>');
  if (nullable && e.kind !== 'Literal') {
    const kids =
      e.kind === 'Cmp' || e.kind === 'Arith' ? [e.left, e.right] : 'child' in e ? [e.child] : [];
    if (kids.some((k) => k.kind === 'Literal' && k.value === null)) {
      return literal(null, e.dataType, e.src);
    }
  }
  return e;
}

/** ES ConstantFolding. */
export function constantFolding(cfg: EvalContext): (e: Expr) => Expr {
  return (e) => {
    if (e.kind === 'Literal' || e.kind === 'Alias') return e;
    if (!isFoldable(e, (x) => fold(x, cfg))) return e;
    return literal(fold(e, cfg), e.dataType, e.src);
  };
}

/** ES SimplifyConditional: NULL arguments of COALESCE/IFNULL/GREATEST/LEAST are dropped. */
export function simplifyConditional(e: Expr): Expr {
  if (e.kind !== 'Fn') return e;
  const n = e.def.name;
  if (n !== 'COALESCE' && n !== 'IFNULL' && n !== 'GREATEST' && n !== 'LEAST') return e;
  const kept: Expr[] = [];
  for (const a of e.args) {
    if (isNullExpr(a)) continue;
    kept.push(a);
    if (n === 'COALESCE' && isFoldable(a)) break;
  }
  return kept.length < e.args.length ? { ...e, args: kept } : e;
}

/**
 * ES SimplifyCase (CASE and IIF, which extends Case): constant-false branches go, a constant-true
 * branch ends the list. The rebuilt node's type is recomputed from what is left (Case.dataType),
 * so `CASE WHEN 10 < 5 THEN emp_no ELSE languages END` is a BYTE. An IIF whose condition went
 * becomes a branch-less CASE (Iif with no conditions).
 */
export function simplifyCase(cfg: EvalContext): (e: Expr) => Expr {
  return (e) => {
    if (e.kind !== 'Fn' || (e.def.name !== 'CASE' && e.def.name !== 'IIF')) return e;
    const all = [...e.args];
    if (e.def.name === 'IIF' && all.length === 2) all.push(literal(null, 'NULL', e.src));
    const args: Expr[] = [];
    for (let i = 0; i + 1 < all.length; i += 2) {
      const cond = all[i]!;
      if (isFoldable(cond)) {
        if (fold(cond, cfg) === true) {
          args.push(cond, all[i + 1]!);
          break;
        }
      } else args.push(cond, all[i + 1]!);
    }
    args.push(all[all.length - 1]!);
    if (args.length === all.length) return e;
    const def = args.length === 1 && e.def.name === 'IIF' ? CASE_DEF : e.def;
    return { ...e, def, args, dataType: def.dataType(argInfos(args)) };
  };
}

/** ES PruneCast. */
export function pruneCast(e: Expr): Expr {
  return e.kind === 'Cast' && e.child.dataType === e.dataType ? e.child : e;
}

const isTrue = (e: Expr) => e.kind === 'Literal' && e.value === true;
const isFalse = (e: Expr) => e.kind === 'Literal' && e.value === false;

/** ES BooleanSimplification (the literal cases). */
export function booleanSimplification(e: Expr): Expr {
  if (e.kind === 'And') {
    if (isTrue(e.right)) return e.left;
    if (isTrue(e.left)) return e.right;
    if (isFalse(e.left) || isFalse(e.right)) return { ...FALSE, src: e.src };
    if (semanticEquals(e.left, e.right)) return e.left;
  }
  if (e.kind === 'Or') {
    if (isFalse(e.right)) return e.left;
    if (isFalse(e.left)) return e.right;
    if (isTrue(e.left) || isTrue(e.right)) return { ...TRUE, src: e.src };
    if (semanticEquals(e.left, e.right)) return e.left;
  }
  if (e.kind === 'Not') {
    if (isTrue(e.child)) return { ...FALSE, src: e.src };
    if (isFalse(e.child)) return { ...TRUE, src: e.src };
    if (e.child.kind === 'Not') return e.child.child;
  }
  return e;
}

const SWAP: Record<CmpOp, CmpOp> = {
  '=': '=',
  '<=>': '<=>',
  '!=': '!=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

/** ES BooleanLiteralsOnTheRight. */
export function literalsOnTheRight(e: Expr): Expr {
  if (e.kind === 'Cmp' && e.left.kind === 'Literal' && e.right.kind !== 'Literal') {
    return { ...e, op: SWAP[e.op], left: e.right, right: e.left };
  }
  if (
    (e.kind === 'And' || e.kind === 'Or') &&
    e.left.kind === 'Literal' &&
    e.right.kind !== 'Literal'
  ) {
    return { ...e, left: e.right, right: e.left };
  }
  return e;
}

/** The conjuncts of `e`, left to right (iterative: conjunction chains can be very long). */
function splitAnd(e: Expr): Expr[] {
  const out: Expr[] = [];
  const todo: Expr[] = [e];
  while (todo.length > 0) {
    const x = todo.pop()!;
    if (x.kind === 'And') todo.push(x.right, x.left);
    else out.push(x);
  }
  return out;
}

function combineAnd(list: Expr[], src: Expr['src']): Expr {
  return list.reduce((l, r) => ({
    kind: 'And',
    left: l,
    right: r,
    dataType: 'BOOLEAN',
    src: l.src ?? src,
  }));
}

const isRangeOp = (op: CmpOp) => op === '<' || op === '<=' || op === '>' || op === '>=';

/**
 * ES OptimizerRules.CombineBinaryComparisons, for conjunctions: a repeated bound is dropped, and
 * each comparison pairs with the first later one on the same value from the other side into a
 * range (the ranges in the order of their first comparison). Linear in the conjuncts.
 */
export function combineBinaryComparisons(e: Expr): Expr {
  if (e.kind !== 'And') return e;
  const ranges: Range[] = [];
  const bcs: Cmp[] = [];
  const exps: Expr[] = [];
  let changed = false;
  const seen = new Set<string>();
  for (const ex of splitAnd(e)) {
    if (ex.kind === 'Range') ranges.push(ex);
    else if (ex.kind === 'Cmp' && isRangeOp(ex.op) && isFoldable(ex.right)) {
      // a weaker duplicate bound on the same side is dropped
      const key = `${ex.op}|${exprKey(ex.left)}|${exprKey(ex.right)}`;
      if (seen.has(key)) changed = true;
      else {
        seen.add(key);
        bcs.push(ex);
      }
    } else exps.push(ex);
  }
  // per value, the comparisons of each side still waiting for a partner, oldest first
  const waiting = new Map<string, { lower: number[]; upper: number[] }>();
  const partner = new Int32Array(bcs.length).fill(-1);
  bcs.forEach((b, i) => {
    const value = exprKey(b.left);
    let w = waiting.get(value);
    if (!w) waiting.set(value, (w = { lower: [], upper: [] }));
    const isLower = b.op[0] === '>';
    const other = isLower ? w.upper : w.lower;
    if (other.length > 0) {
      const first = other.shift()!;
      partner[first] = i;
      partner[i] = first;
    } else (isLower ? w.lower : w.upper).push(i);
  });
  const kept: Cmp[] = [];
  bcs.forEach((b, i) => {
    const j = partner[i]!;
    if (j < 0) kept.push(b);
    else if (j > i) {
      const lower = b.op[0] === '>' ? b : bcs[j]!;
      const upper = lower === b ? bcs[j]! : b;
      ranges.push({
        kind: 'Range',
        value: b.left,
        lower: lower.right,
        includeLower: lower.op === '>=',
        upper: upper.right,
        includeUpper: upper.op === '<=',
        dataType: 'BOOLEAN',
        src: e.src,
      });
      changed = true;
    }
  });
  return changed ? combineAnd([...exps, ...kept, ...ranges], e.src) : e;
}
