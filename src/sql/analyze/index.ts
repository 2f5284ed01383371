/**
 * Analysis entry point: AST query -> analyzed logical plan, verified (ES Analyzer.analyze with
 * verify=true). Throws ES's `verification_exception` listing every problem.
 */
import type * as A from '../ast/nodes.js';
import type { LogicalPlan } from '../plan/logical.js';
import { analyzeQuery, type AnalyzeOptions } from './analyzer.js';
import { verificationException, verify, type Failure } from './verifier.js';
import { findJoin } from '../plan/join.js';

function joinInputFailures(plan: LogicalPlan): Failure[] {
  const j = findJoin(plan);
  return j === null ? [] : [...verify(j.left), ...verify(j.right)];
}

export type { AnalyzeOptions } from './analyzer.js';
export type { Catalog } from './relations.js';
export { verify, verificationException, type Failure } from './verifier.js';

export function analyze(q: A.Query, opts: AnalyzeOptions): LogicalPlan {
  const plan = analyzeQuery(q, opts);
  // a JOIN's inputs are plans of their own (leaves of the plan above): verified after it
  const failures = [...verify(plan), ...joinInputFailures(plan)];
  if (failures.length > 0) throw verificationException(failures);
  return plan;
}
