/**
 * JOIN analysis (Quarry extension, issue 16): both inputs are analyzed as FROM items, the join's
 * view of their columns is qualified by each input's name or alias and keyed per side, and the
 * ON condition is resolved against both. What the hash join cannot run — a second JOIN, an ON
 * that is not AND-ed equalities across the sides — becomes an `UnresolvedRelation` whose message
 * the verifier reports (`verification_exception`).
 */
import type * as A from '../ast/nodes.js';
import { qualifiedIndex } from '../ast/nodes.js';
import type { Attribute } from '../expression/nodes.js';
import { isResolved } from '../expression/props.js';
import type { LogicalPlan } from '../plan/logical.js';
import { planOutput } from '../plan/logical.js';
import type { Join } from '../plan/join.js';
import { joinConditionProblem } from '../plan/join.js';
import { srcOf } from './resolve-expression.js';
import type { AnalyzerState } from './analyzer.js';

const src = (loc: A.Loc, text: string) => ({ text, line: loc.line, column: loc.column });

/** The name `e.col` qualifies an input's columns with. */
function inputName(r: A.Relation): string | null {
  switch (r.kind) {
    case 'TableRelation':
      return r.alias ?? qualifiedIndex(r.table);
    case 'SubqueryRelation':
    case 'ParenthesizedRelation':
      return r.alias;
    case 'JoinRelation':
      return null;
  }
}

function view(plan: LogicalPlan, side: 'left' | 'right', name: string | null): Attribute[] {
  return planOutput(plan).map((a) =>
    a.kind === 'Field'
      ? { ...a, joinSide: side, qualifier: name ?? a.qualifier }
      : { ...a, qualifier: name ?? a.qualifier ?? null },
  );
}

export function analyzeJoin(
  s: AnalyzerState,
  r: A.JoinRelation,
  relation: (r: A.Relation) => LogicalPlan,
): LogicalPlan {
  if (r.left.kind === 'JoinRelation') {
    return {
      kind: 'UnresolvedRelation',
      name: 'JOIN',
      message: 'Queries with more than one JOIN are not supported; join the result of a sub-select',
      src: src(r.loc, 'JOIN'),
    };
  }
  const left = relation(r.left);
  const right = relation(r.right);
  // an unknown index is reported as for FROM, without the ON columns it hides
  if (left.kind === 'UnresolvedRelation') return left;
  if (right.kind === 'UnresolvedRelation') return right;
  const leftOutput = view(left, 'left', inputName(r.left));
  const rightOutput = view(right, 'right', inputName(r.right));
  const condition = s.resolve(r.condition, { attrs: [...leftOutput, ...rightOutput] });
  const join: Join = {
    kind: 'Join',
    joinType: r.joinType,
    left,
    right,
    leftOutput,
    rightOutput,
    condition,
    src: src(r.loc, 'JOIN'),
  };
  if (isResolved(condition)) {
    const problem = joinConditionProblem(join);
    if (problem !== null) {
      return {
        kind: 'UnresolvedRelation',
        name: 'JOIN',
        message: problem,
        src: srcOf(r.condition),
      };
    }
  }
  return join;
}
