/**
 * Planning window functions (issue 16): the plan is split (plan/window.ts), the inner query is
 * optimized and folded into one search as any query, and `windowSearchSource` is what
 * `_sql/translate` and EXPLAIN show: that search, the windows, and the steps run in memory.
 */
import type { EvalContext } from '../functions/definition.js';
import { optimize } from '../optimize/index.js';
import type { LogicalPlan } from '../plan/logical.js';
import { findPlan } from '../plan/logical.js';
import { exprText } from '../plan/explain.js';
import { splitWindows, type WindowSplit } from '../plan/window.js';
import { foldToContainer } from './fold.js';
import { inMemorySteps, JOIN_PAGE_SIZE, type PlannedInput } from './join.js';
import type { ScriptContext } from './script.js';
import { toSearchSource } from './to-search-source.js';
import type { Json } from './query-dsl.js';

export interface PlannedWindow {
  readonly split: WindowSplit;
  readonly inner: PlannedInput;
}

export function planWindows(
  analyzed: LogicalPlan,
  cfg: EvalContext,
  sctx: ScriptContext,
): PlannedWindow {
  const split = splitWindows(analyzed);
  const o = optimize(split.inner, cfg);
  const container = findPlan(o, 'EsRelation') === null ? null : foldToContainer(o, sctx);
  return { split, inner: { optimized: o, container } };
}

/** `{ window: {functions, in_memory}, search }`: the search is the inner query's body. */
export function windowSearchSource(w: PlannedWindow, filter: Json | null): Record<string, Json> {
  const steps = inMemorySteps(w.split.outer).filter((s) => !s.startsWith('LocalRelation'));
  const functions = w.split.windows.map((x) => x.src.text || exprText(x));
  return {
    window: { functions, in_memory: [...steps, `Window[${functions.join(', ')}]`] },
    search: w.inner.container ? toSearchSource(w.inner.container, filter, JOIN_PAGE_SIZE) : null,
  };
}
