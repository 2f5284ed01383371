/**
 * The optimizer (ES Optimizer): its batches in ES's order — substitutions, reference replacement,
 * operator optimization to a fixpoint, aggregation rewrites, local execution shortcuts — run by
 * the pure `runBatches`. `optimize(plan, cfg)` is what translation and execution use.
 */
import type { EvalContext } from '../functions/definition.js';
import { forEachUp, type Expr } from '../expression/nodes.js';
import { forEachPlanUp, planExpressions, type LogicalPlan } from '../plan/logical.js';
import { sameTree } from '../plan/same-tree.js';
import { runBatches, type Batch, type Rule, type Transformation } from '../plan/rules.js';
import {
  booleanSimplification,
  combineBinaryComparisons,
  constantFolding,
  foldNull,
  literalsOnTheRight,
  mapAllExpressions,
  mapAllExpressionsDown,
  pruneCast,
  simplifyCase,
  simplifyConditional,
} from './expression-rules.js';
import {
  combineProjectionsRule,
  propagateEmpty,
  pruneFilters,
  pruneGroupBy,
  pruneOrderBy,
  replaceCountInLocalRelation,
  replaceReferences,
  rewritePivot,
  skipQueryIfFoldingProjection,
  skipQueryOnLimitZero,
  sortAggregateOnOrderBy,
} from './plan-rules.js';
import {
  replaceAggregatesWithLiterals,
  replaceAggsWithCompounds,
  replaceAggsWithPercentiles,
  replaceMinMaxWithTopHits,
} from './aggregate-rules.js';

type OptimizerRule = Rule<LogicalPlan, EvalContext>;

const rule = (
  name: string,
  apply: (p: LogicalPlan, cfg: EvalContext) => LogicalPlan,
): OptimizerRule => ({ name, apply });

type ExprRewrite = (e: Parameters<typeof foldNull>[0]) => ReturnType<typeof foldNull>;
const exprRule = (name: string, f: ExprRewrite) => rule(name, (p) => mapAllExpressions(p, f));
const exprRuleDown = (name: string, f: ExprRewrite) =>
  rule(name, (p) => mapAllExpressionsDown(p, f));

/** The expression kinds a plan holds, found once per plan (plans are immutable). */
const kindsByPlan = new WeakMap<LogicalPlan, ReadonlySet<Expr['kind']>>();

function expressionKinds(plan: LogicalPlan): ReadonlySet<Expr['kind']> {
  let kinds = kindsByPlan.get(plan);
  if (kinds === undefined) {
    const found = new Set<Expr['kind']>();
    const add = (e: Expr): void => void found.add(e.kind);
    forEachPlanUp(plan, (p) => {
      for (const e of planExpressions(p)) forEachUp(e, add);
    });
    kindsByPlan.set(plan, (kinds = found));
  }
  return kinds;
}

/**
 * An expression rule that rewrites only nodes of `kinds`: on a plan holding none it would walk
 * every expression to give the plan back, so it is skipped (one walk finds the kinds for all).
 */
const onlyWith = (kinds: readonly Expr['kind'][], r: OptimizerRule): OptimizerRule => ({
  name: r.name,
  apply: (p, cfg) => {
    const present = expressionKinds(p);
    for (const k of kinds) if (present.has(k)) return r.apply(p, cfg);
    return p;
  },
});

/**
 * The batches, built once: a rule that reads the request's settings gets them as the context
 * `runBatches` hands it (building the batches per statement was a tenth of its optimizing).
 */
const OPTIMIZER_BATCHES: readonly Batch<LogicalPlan, EvalContext>[] = [
  {
    name: 'Substitutions',
    limit: 'once',
    rules: [rule('RewritePivot', rewritePivot)],
  },
  {
    name: 'Replace References',
    limit: 'once',
    rules: [
      rule('ReplaceReferenceAttributeWithSource', replaceReferences),
      rule('ReplaceAggregatesWithLiterals', (p, cfg) => replaceAggregatesWithLiterals(cfg)(p)),
      rule('ReplaceCountInLocalRelation', replaceCountInLocalRelation),
    ],
  },
  {
    name: 'Operator Optimization',
    limit: 'fixpoint',
    rules: [
      rule('CombineProjections', combineProjectionsRule),
      exprRule('FoldNull', foldNull),
      rule('ConstantFolding', (p, cfg) => mapAllExpressions(p, constantFolding(cfg))),
      onlyWith(['Fn'], exprRuleDown('SimplifyConditional', simplifyConditional)),
      onlyWith(
        ['Fn'],
        rule('SimplifyCase', (p, cfg) => mapAllExpressionsDown(p, simplifyCase(cfg))),
      ),
      onlyWith(['And', 'Or', 'Not'], exprRule('BooleanSimplification', booleanSimplification)),
      onlyWith(['Cmp', 'And', 'Or'], exprRule('BooleanLiteralsOnTheRight', literalsOnTheRight)),
      onlyWith(['And'], exprRuleDown('CombineBinaryComparisons', combineBinaryComparisons)),
      rule('PruneGroupBy', pruneGroupBy),
      rule('PruneFilters', pruneFilters),
      rule('PruneOrderBy', pruneOrderBy),
      onlyWith(['Cast'], exprRule('PruneCast', pruneCast)),
      rule('SortAggregateOnOrderBy', sortAggregateOnOrderBy),
    ],
  },
  {
    name: 'Aggregation Rewrite',
    limit: 'once',
    rules: [
      rule('ReplaceMinMaxWithTopHits', replaceMinMaxWithTopHits),
      rule('ReplaceAggsWithCompounds', replaceAggsWithCompounds),
      rule('ReplaceAggsWithPercentiles', (p, cfg) => replaceAggsWithPercentiles(cfg)(p)),
    ],
  },
  {
    name: 'Skip Elasticsearch',
    limit: 'fixpoint',
    rules: [
      rule('SkipQueryOnLimitZero', skipQueryOnLimitZero),
      rule('PropagateEmptyLocal', propagateEmpty),
      rule('SkipQueryIfFoldingProjection', (p, cfg) => skipQueryIfFoldingProjection(cfg)(p)),
    ],
  },
];

/** The optimizer's batches (their rules take the request's settings as context). */
export const optimizerBatches = (): readonly Batch<LogicalPlan, EvalContext>[] => OPTIMIZER_BATCHES;

/** Without the rewrites that only serve a search (see optimizeInMemory). */
const IN_MEMORY_BATCHES = OPTIMIZER_BATCHES.filter(
  (b) => b.name !== 'Aggregation Rewrite' && b.name !== 'Skip Elasticsearch',
);

/** Optimizes an analyzed, verified plan. */
export function optimize(
  plan: LogicalPlan,
  cfg: EvalContext,
  trace?: Transformation[],
): LogicalPlan {
  return runBatches(plan, OPTIMIZER_BATCHES, sameTree, trace, cfg);
}

/**
 * Optimizes the part of a plan that runs in memory over joined rows (issue 16): the expression
 * and plan rules, without the rewrites that only serve a search (aggregations served from
 * compound or top_hits aggregations, skipping the search).
 */
export function optimizeInMemory(plan: LogicalPlan, cfg: EvalContext): LogicalPlan {
  return runBatches(plan, IN_MEMORY_BATCHES, sameTree, undefined, cfg);
}
