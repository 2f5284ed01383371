/**
 * JOIN plans (Quarry extension, issue 16; ES SQL rejects every JOIN). A `Join` is a leaf of the
 * plan above it: each input is its own plan, optimized and folded into its own search request,
 * and the plan above the join (WHERE left over, GROUP BY, HAVING, ORDER BY, LIMIT, the SELECT
 * list) runs in memory over the joined rows. `splitJoin` turns an optimized plan over a join
 * into that shape: conjuncts of WHERE that read one input only are pushed into its search, the
 * ON condition becomes pairs of key expressions, and each input keeps only the columns used.
 */
import { sqlIllegalArgument } from '../../functions/errors.js';
import type { Attribute, Expr, Src } from '../expression/nodes.js';
import { forEachUp, transformUp } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';
import type { LogicalPlan } from './logical.js';
import { forEachPlanDown, isUnary, planExpressions, planOutput, withChild } from './logical.js';

/** Rows past which one JOIN input is refused (`sql.join.max_rows`). */
export const DEFAULT_JOIN_MAX_ROWS = 100_000;

export interface Join {
  readonly kind: 'Join';
  readonly joinType: 'INNER' | 'LEFT';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  /**
   * The join's view of each input's output, position by position: qualified by the input's
   * name or alias, and keyed per side (`joinSide`) so both sides' `emp_no` stay two columns.
   */
  readonly leftOutput: readonly Attribute[];
  readonly rightOutput: readonly Attribute[];
  /** The ON condition over leftOutput and rightOutput: equalities, AND-ed. */
  readonly condition: Expr;
  readonly src: Src;
}

/** One input of a split join: the plan to fold into a search, and its columns in the join. */
export interface JoinInput {
  readonly plan: LogicalPlan;
  /** The join's attributes this input's rows fill, in the input's output order. */
  readonly attrs: readonly Attribute[];
  /** The ON keys read from this input, pairwise with the other input's. */
  readonly keys: readonly Expr[];
  /** WHERE conjuncts pushed into this input's search (for EXPLAIN). */
  readonly pushed: readonly Expr[];
}

/** A plan over one join, split into its two searches and the part that runs in memory. */
export interface JoinPlan {
  readonly joinType: 'INNER' | 'LEFT';
  readonly left: JoinInput;
  readonly right: JoinInput;
  /** The plan above the join; its `Join` leaf yields the joined rows. */
  readonly above: LogicalPlan;
  readonly join: Join;
}

/** The AND-ed parts of a condition. */
export function conjuncts(e: Expr): Expr[] {
  return e.kind === 'And' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

const andAll = (xs: readonly Expr[]): Expr =>
  xs.reduce((l, r) => ({ kind: 'And', left: l, right: r, dataType: 'BOOLEAN', src: l.src }));

function attrKeys(e: Expr): Set<string> {
  const out = new Set<string>();
  forEachUp(e, (x) => {
    if (x.kind === 'Field' || x.kind === 'Ref') out.add(exprKey(x));
  });
  return out;
}

const within = (keys: Set<string>, side: ReadonlySet<string>) =>
  [...keys].every((k) => side.has(k));

/**
 * Why an ON condition cannot drive a hash join (null when it can): every conjunct must be
 * `left expression = right expression`, each side reading one input.
 */
export function joinConditionProblem(j: Join): string | null {
  const l = new Set(j.leftOutput.map(exprKey));
  const r = new Set(j.rightOutput.map(exprKey));
  for (const c of conjuncts(j.condition)) {
    const ok =
      c.kind === 'Cmp' &&
      c.op === '=' &&
      ((isSide(c.left, l) && isSide(c.right, r)) || (isSide(c.left, r) && isSide(c.right, l)));
    if (!ok) {
      return `JOIN conditions must be equalities between a column (or expression) of each side, AND-ed; found [${c.src.text}]`;
    }
  }
  return null;
}

function isSide(e: Expr, side: ReadonlySet<string>): boolean {
  const keys = attrKeys(e);
  return keys.size > 0 && within(keys, side);
}

/** The single Join leaf of a plan, or null. */
export function findJoin(p: LogicalPlan): Join | null {
  let found: Join | null = null;
  forEachPlanDown(p, (n) => {
    if (n.kind === 'Join') found = n;
  });
  return found;
}

/** Replaces the join's attributes by the input's own (what its search knows them as). */
function toInput(e: Expr, view: readonly Attribute[], own: readonly Attribute[]): Expr {
  const byKey = new Map(view.map((a, i) => [exprKey(a), own[i]!]));
  return transformUp(e, (x) =>
    x.kind === 'Field' || x.kind === 'Ref' ? (byKey.get(exprKey(x)) ?? x) : x,
  );
}

/** Splits an optimized plan over a join (see the module comment). */
export function splitJoin(plan: LogicalPlan): JoinPlan {
  const join = findJoin(plan);
  if (join === null) throw sqlIllegalArgument('No JOIN in plan');
  const lKeys = new Set(join.leftOutput.map(exprKey));
  const rKeys = new Set(join.rightOutput.map(exprKey));
  const pushed: { left: Expr[]; right: Expr[] } = { left: [], right: [] };
  // WHERE is the Filter right above the join: push what reads one pushable input only
  const rewrite = (p: LogicalPlan): LogicalPlan => {
    if (p.kind === 'Filter' && p.child.kind === 'Join') {
      const keep: Expr[] = [];
      for (const c of conjuncts(p.condition)) {
        const keys = attrKeys(c);
        if (keys.size > 0 && within(keys, lKeys) && pushable(join.left)) pushed.left.push(c);
        // a LEFT join keeps unmatched left rows: a right-side predicate must see their NULLs
        else if (
          keys.size > 0 &&
          within(keys, rKeys) &&
          join.joinType === 'INNER' &&
          pushable(join.right)
        )
          pushed.right.push(c);
        else keep.push(c);
      }
      return keep.length === 0 ? p.child : { ...p, condition: andAll(keep) };
    }
    return isUnary(p) ? withChild(p, rewrite(p.child)) : p;
  };
  const above = rewrite(plan);
  // the columns the plan above reads, per input
  const used = new Set<string>();
  const collect = (p: LogicalPlan) => {
    if (p.kind === 'Join') return;
    for (const e of planExpressions(p)) for (const k of attrKeys(e)) used.add(k);
    if (isUnary(p)) collect(p.child);
  };
  collect(above);
  const leftKeys: Expr[] = [];
  const rightKeys: Expr[] = [];
  for (const c of conjuncts(join.condition)) {
    if (c.kind !== 'Cmp') continue;
    const leftFirst = isSide(c.left, lKeys);
    leftKeys.push(leftFirst ? c.left : c.right);
    rightKeys.push(leftFirst ? c.right : c.left);
  }
  for (const k of [...leftKeys, ...rightKeys]) for (const a of attrKeys(k)) used.add(a);
  return {
    joinType: join.joinType,
    left: input(join.left, join.leftOutput, leftKeys, pushed.left, used),
    right: input(join.right, join.rightOutput, rightKeys, pushed.right, used),
    above,
    join,
  };
}

/** Only a plain index is filtered in its search; a sub-select's rows are filtered in memory. */
const pushable = (p: LogicalPlan) => p.kind === 'EsRelation';

function input(
  plan: LogicalPlan,
  view: readonly Attribute[],
  keys: readonly Expr[],
  pushed: readonly Expr[],
  used: ReadonlySet<string>,
): JoinInput {
  const own = planOutput(plan);
  if (plan.kind !== 'EsRelation') return { plan, attrs: view, keys, pushed };
  // an index: read only the columns used (at least one, so rows are still counted)
  let idx = view.map((a, i) => i).filter((i) => used.has(exprKey(view[i]!)));
  if (idx.length === 0) idx = [0];
  const attrs = idx.map((i) => view[i]!);
  const projections = idx.map((i) => own[i]!);
  let child: LogicalPlan = plan;
  if (pushed.length > 0) {
    const condition = toInput(andAll(pushed), view, own);
    child = { kind: 'Filter', child, condition, src: condition.src };
  }
  return {
    plan: { kind: 'Project', child, projections, src: plan.src },
    attrs,
    keys,
    pushed,
  };
}
