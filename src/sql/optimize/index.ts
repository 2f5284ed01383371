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

/** What the rule gates below ask of a plan's expressions. */
interface PlanFacts {
  readonly kinds: ReadonlySet<Expr['kind']>;
  /** The names of its aggregate functions. */
  readonly aggs: ReadonlySet<string>;
  /** Whether an aggregate reads a compound aggregation, or two read the same kind of stats. */
  readonly compounds: boolean;
}

const STATS_AGGS = new Set(['AVG', 'SUM', 'MIN', 'MAX']);

/** A plan's facts, found in one walk, once per plan (plans are immutable). */
const factsByPlan = new WeakMap<LogicalPlan, PlanFacts>();

function planFacts(plan: LogicalPlan): PlanFacts {
  let facts = factsByPlan.get(plan);
  if (facts === undefined) {
    const kinds = new Set<Expr['kind']>();
    const aggs = new Set<string>();
    let enclosed = false;
    let stats = 0;
    const add = (e: Expr): void => {
      kinds.add(e.kind);
      if (e.kind !== 'Agg') return;
      aggs.add(e.def.name);
      const enclosedIn = e.def.aggregate?.enclosedIn;
      if (enclosedIn === 'matrix_stats' || enclosedIn === 'extended_stats') enclosed = true;
      if (STATS_AGGS.has(e.def.name)) stats++;
    };
    forEachPlanUp(plan, (p) => {
      for (const e of planExpressions(p)) forEachUp(e, add);
    });
    facts = { kinds, aggs, compounds: enclosed || stats > 1 };
    factsByPlan.set(plan, facts);
  }
  return facts;
}

/**
 * A rule that can change a plan only when `applies` holds of its facts: otherwise it would walk
 * every expression to give the plan back, so it is skipped (one walk finds the facts for all).
 */
const onlyIf = (applies: (f: PlanFacts) => boolean, r: OptimizerRule): OptimizerRule => ({
  name: r.name,
  apply: (p, cfg) => (applies(planFacts(p)) ? r.apply(p, cfg) : p),
});

/** An expression rule that rewrites only nodes of `kinds`. */
const onlyWith = (kinds: readonly Expr['kind'][], r: OptimizerRule): OptimizerRule =>
  onlyIf((f) => kinds.some((k) => f.kinds.has(k)), r);

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
      onlyIf(
        (f) => f.aggs.has('MIN') || f.aggs.has('MAX'),
        rule('ReplaceMinMaxWithTopHits', replaceMinMaxWithTopHits),
      ),
      onlyIf((f) => f.compounds, rule('ReplaceAggsWithCompounds', replaceAggsWithCompounds)),
      onlyIf(
        (f) => f.aggs.has('PERCENTILE') || f.aggs.has('PERCENTILE_RANK'),
        rule('ReplaceAggsWithPercentiles', (p, cfg) => replaceAggsWithPercentiles(cfg)(p)),
      ),
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
