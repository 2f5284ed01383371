/**
 * Planning a JOIN (issue 16): the plan over the join is optimized for in-memory evaluation, split
 * (plan/join.ts), and each input is optimized and folded into its own QueryContainer — every
 * index access is one Query DSL search. `joinSearchSource` is what `_sql/translate` and EXPLAIN
 * show: both searches, the join and the operations that run in memory after it.
 */
import type { EvalContext } from '../functions/definition.js';
import { optimize, optimizeInMemory } from '../optimize/index.js';
import type { LogicalPlan } from '../plan/logical.js';
import { findPlan, forEachPlanDown, isUnary, planExpressions } from '../plan/logical.js';
import { conjuncts, DEFAULT_JOIN_MAX_ROWS, splitJoin, type JoinPlan } from '../plan/join.js';
import { exprText, nodeText } from '../plan/explain.js';
import { anyMatch, type Expr } from '../expression/nodes.js';
import { verificationException, type Failure } from '../analyze/verifier.js';
import { foldToContainer } from './fold.js';
import type { QueryContainer } from './container.js';
import type { ScriptContext } from './script.js';
import { toSearchSource } from './to-search-source.js';
import type { Json } from './query-dsl.js';

/** The aggregate functions evaluated in memory over joined rows. */
export const IN_MEMORY_AGGREGATES: ReadonlySet<string> = new Set([
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
]);

/** Rows of one input per search page. */
export const JOIN_PAGE_SIZE = 10_000;

export interface PlannedInput {
  /** The optimized input plan. */
  readonly optimized: LogicalPlan;
  /** Its search; null when the input needs none (a WHERE folded to FALSE). */
  readonly container: QueryContainer | null;
}

export interface PlannedJoin {
  readonly split: JoinPlan;
  readonly left: PlannedInput;
  readonly right: PlannedInput;
}

export function planJoin(analyzed: LogicalPlan, cfg: EvalContext, sctx: ScriptContext) {
  const optimized = optimizeInMemory(analyzed, cfg);
  const split = splitJoin(optimized);
  checkInMemory(split.above);
  const side = (plan: LogicalPlan): PlannedInput => {
    const o = optimize(plan, cfg);
    return {
      optimized: o,
      container: findPlan(o, 'EsRelation') === null ? null : foldToContainer(o, sctx),
    };
  };
  const join: PlannedJoin = { split, left: side(split.left.plan), right: side(split.right.plan) };
  return { optimized, join };
}

/** What the in-memory part cannot evaluate is refused before any search runs. */
function checkInMemory(above: LogicalPlan): void {
  const failures: Failure[] = [];
  const scan = (e: Expr) =>
    anyMatch(e, (x) => {
      if (x.kind === 'Agg' && !IN_MEMORY_AGGREGATES.has(x.def.name))
        failures.push({
          src: x.src,
          message: `Aggregate function [${x.def.name}] is not supported over a JOIN; use ${[...IN_MEMORY_AGGREGATES].join(', ')}`,
        });
      else if (x.kind === 'Score' || x.kind === 'FullText')
        failures.push({
          src: x.src,
          message: `[${x.src.text}] over a JOIN must filter one input only (it runs in that input's search)`,
        });
      else return false;
      return true;
    });
  forEachPlanDown(above, (p) => {
    if (p.kind === 'Pivot')
      failures.push({ src: p.src, message: 'PIVOT over a JOIN is not supported' });
    if (p.kind === 'Join') return;
    for (const e of planExpressions(p)) scan(e);
  });
  if (failures.length > 0) throw verificationException(failures);
}

/** An expression as written (as the plan prints it when rewritten beyond its source). */
const shown = (e: Expr): string => e.src.text || exprText(e);

/** The plan above the join, top down, one node per entry. */
export function inMemorySteps(above: LogicalPlan): string[] {
  const out: string[] = [];
  let p: LogicalPlan | null = above;
  while (p !== null && p.kind !== 'Join') {
    out.push(nodeText(p));
    p = isUnary(p) ? p.child : null;
  }
  return out;
}

function inputSource(
  name: 'left' | 'right',
  p: PlannedInput,
  split: JoinPlan,
  filter: Json | null,
): Json {
  const input = split[name];
  return {
    index: p.container ? p.container.pattern : null,
    columns: input.attrs.map((a) => (a.qualifier ? `${a.qualifier}.${a.name}` : a.name)),
    pushed_filters: input.pushed.map(shown),
    search: p.container ? toSearchSource(p.container, filter, JOIN_PAGE_SIZE) : null,
  };
}

/**
 * The `_sql/translate` body of a JOIN: `join` (type, equality keys, hash join build side, the
 * per-input row limit, the steps run in memory after the join), then the `left` and `right`
 * searches, each a Query DSL body as a plain query would translate.
 */
export function joinSearchSource(
  j: PlannedJoin,
  filter: Json | null,
  maxRows = DEFAULT_JOIN_MAX_ROWS,
): Record<string, Json> {
  const s = j.split;
  return {
    join: {
      type: s.joinType,
      on: conjuncts(s.join.condition).map(shown),
      algorithm: 'hash',
      build: s.joinType === 'LEFT' ? 'right' : 'smaller input',
      max_rows_per_input: maxRows,
      in_memory: inMemorySteps(s.above),
    },
    left: inputSource('left', j.left, s, filter),
    right: inputSource('right', j.right, s, filter),
  };
}
