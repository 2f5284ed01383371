/**
 * Planning a query end to end (ES SqlSession: analyze, optimize, plan/fold): the optimized plan
 * either runs locally (no index involved) or folds into one QueryContainer whose search source is
 * what `_sql/translate` returns and what execution sends to the DSL executor.
 */
import type * as A from '../ast/nodes.js';
import { analyze, type AnalyzeOptions } from '../analyze/index.js';
import { optimize } from '../optimize/index.js';
import type { LogicalPlan } from '../plan/logical.js';
import { findPlan } from '../plan/logical.js';
import { foldToContainer } from './fold.js';
import type { QueryContainer } from './container.js';
import type { ScriptContext } from './script.js';
import { toSearchSource } from './to-search-source.js';
import type { Json } from './query-dsl.js';
import type { UnionPlan } from '../plan/union.js';
import { planUnion } from './union.js';
import { queryPhases } from './phases.js';
import { findJoin } from '../plan/join.js';
import { joinSearchSource, planJoin, type PlannedJoin } from './join.js';
import { planHasWindow } from '../plan/window.js';
import { planWindows, windowSearchSource, type PlannedWindow } from './window.js';

export type { QueryContainer } from './container.js';
export { toSearchSource } from './to-search-source.js';

export interface QueryPlan {
  readonly analyzed: LogicalPlan;
  readonly optimized: LogicalPlan;
  /** null when the plan runs locally (no index) or is a JOIN. */
  readonly container: QueryContainer | null;
  /**
   * EXTENSION: a UNION; its branches are planned on their own and `analyzed`/`optimized`/
   * `container` are the first branch's.
   */
  readonly union?: UnionPlan<QueryPlan>;
  /** A JOIN (issue 16): two searches, a hash join, the rest in memory. */
  readonly join?: PlannedJoin;
  /** Window functions (issue 16): one search, the windows and the rest in memory. */
  readonly window?: PlannedWindow;
}

export function planQuery(q: A.Query, opts: AnalyzeOptions & { zoneId: string }): QueryPlan {
  if (q.body.unions !== undefined) {
    const union = planUnion(q, opts, (b) => planQuery(b, opts));
    return { ...union.branches[0]!, union };
  }
  const analyzed = analyze(q, opts);
  if (findJoin(analyzed) !== null) {
    const { optimized, join } = planJoin(analyzed, opts.cfg, {
      cfg: opts.cfg,
      zoneId: opts.zoneId,
    });
    return { analyzed, optimized, container: null, join };
  }
  if (planHasWindow(analyzed)) {
    const window = planWindows(analyzed, opts.cfg, { cfg: opts.cfg, zoneId: opts.zoneId });
    return { analyzed, optimized: window.inner.optimized, container: null, window };
  }
  const optimized = optimize(analyzed, opts.cfg);
  const sctx: ScriptContext = { cfg: opts.cfg, zoneId: opts.zoneId };
  const local = findPlan(optimized, 'EsRelation') === null;
  return { analyzed, optimized, container: local ? null : foldToContainer(optimized, sctx) };
}

/** The `_search` body of a query (`_sql/translate`); local plans translate to an empty body. */
export function translateQuery(
  q: A.Query,
  opts: AnalyzeOptions & { zoneId: string; fetchSize: number; filter: Json | null },
): { [k: string]: Json } {
  const p = planQuery(q, opts);
  // EXTENSION: a UNION has one request per branch
  if (p.union !== undefined) return queryPhases(p, opts.filter, opts.fetchSize);
  if (p.join) return joinSearchSource(p.join, opts.filter);
  if (p.window) return windowSearchSource(p.window, opts.filter);
  if (p.container === null) return {};
  return toSearchSource(p.container, opts.filter, opts.fetchSize);
}
