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

const rule = (name: string, apply: (p: LogicalPlan) => LogicalPlan): Rule<LogicalPlan> => ({
  name,
  apply,
});

type ExprRewrite = (e: Parameters<typeof foldNull>[0]) => ReturnType<typeof foldNull>;
const exprRule = (name: string, f: ExprRewrite) => rule(name, (p) => mapAllExpressions(p, f));
const exprRuleDown = (name: string, f: ExprRewrite) =>
  rule(name, (p) => mapAllExpressionsDown(p, f));

export function optimizerBatches(cfg: EvalContext): Batch<LogicalPlan>[] {
  return [
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
        rule('ReplaceAggregatesWithLiterals', replaceAggregatesWithLiterals(cfg)),
        rule('ReplaceCountInLocalRelation', replaceCountInLocalRelation),
      ],
    },
    {
      name: 'Operator Optimization',
      limit: 'fixpoint',
      rules: [
        rule('CombineProjections', combineProjectionsRule),
        exprRule('FoldNull', foldNull),
        exprRule('ConstantFolding', constantFolding(cfg)),
        exprRuleDown('SimplifyConditional', simplifyConditional),
        exprRuleDown('SimplifyCase', simplifyCase(cfg)),
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
        rule('ReplaceAggsWithPercentiles', replaceAggsWithPercentiles(cfg)),
      ],
    },
    {
      name: 'Skip Elasticsearch',
      limit: 'fixpoint',
      rules: [
        rule('SkipQueryOnLimitZero', skipQueryOnLimitZero),
        rule('PropagateEmptyLocal', propagateEmpty),
        rule('SkipQueryIfFoldingProjection', skipQueryIfFoldingProjection(cfg)),
      ],
    },
  ];
}

/** Optimizes an analyzed, verified plan. */
export function optimize(
  plan: LogicalPlan,
  cfg: EvalContext,
  trace?: Transformation[],
): LogicalPlan {
  return runBatches(plan, optimizerBatches(cfg), sameTree, trace);
}

/**
 * Optimizes the part of a plan that runs in memory over joined rows (issue 16): the expression
 * and plan rules, without the rewrites that only serve a search (aggregations served from
 * compound or top_hits aggregations, skipping the search).
 */
export function optimizeInMemory(plan: LogicalPlan, cfg: EvalContext): LogicalPlan {
  const batches = optimizerBatches(cfg).filter(
    (b) => b.name !== 'Aggregation Rewrite' && b.name !== 'Skip Elasticsearch',
  );
  return runBatches(plan, batches, sameTree);
}
