/**
 * The optimizer (ES Optimizer): its batches in ES's order — substitutions, reference replacement,
 * operator optimization to a fixpoint, aggregation rewrites, local execution shortcuts — run by
 * the pure `runBatches`. `optimize(plan, cfg)` is what translation and execution use.
 */
import type { EvalContext } from '../functions/definition.js';
import type { LogicalPlan } from '../plan/logical.js';
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
      exprRuleDown('SimplifyConditional', simplifyConditional),
      rule('SimplifyCase', (p, cfg) => mapAllExpressionsDown(p, simplifyCase(cfg))),
      exprRule('BooleanSimplification', booleanSimplification),
      exprRule('BooleanLiteralsOnTheRight', literalsOnTheRight),
      exprRuleDown('CombineBinaryComparisons', combineBinaryComparisons),
      rule('PruneGroupBy', pruneGroupBy),
      rule('PruneFilters', pruneFilters),
      rule('PruneOrderBy', pruneOrderBy),
      exprRule('PruneCast', pruneCast),
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
