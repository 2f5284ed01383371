/**
 * ES's "Aggregation Rewrite" batch: MIN/MAX on strings become FIRST/LAST (top_hits);
 * KURTOSIS/SKEWNESS read `matrix_stats`; STDDEV/VAR/SUM_OF_SQUARES read `extended_stats`; two or
 * more of AVG/SUM/MIN/MAX over one field share a `stats` (promoted to `extended_stats` when one
 * exists); PERCENTILE/PERCENTILE_RANK over one field share one percentiles aggregation. Also
 * ReplaceAggregatesWithLiterals: SUM(2) is `IIF(COUNT(1) = 0, NULL, COUNT(1) * 2)`.
 */
import { isString } from '../../functions/data-types.js';
import { javaDoubleToString } from '../../functions/java-text.js';
import { lookupFunction } from '../functions/registry.js';
import {
  literal,
  mapChildren,
  type Agg,
  type CompoundKind,
  type Expr,
  type InnerAgg,
} from '../expression/nodes.js';
import { argInfos, exprKey, isFoldable } from '../expression/props.js';
import { commonType } from '../types/common-type.js';
import { fold } from '../expression/evaluate.js';
import type { EvalContext } from '../functions/definition.js';
import type { LogicalPlan } from '../plan/logical.js';
import {
  mapPlanExpressions,
  planExpressions,
  transformPlanUp,
  forEachPlanDown,
} from '../plan/logical.js';
import { forEachUp } from '../expression/nodes.js';

function mapAggs(plan: LogicalPlan, f: (a: Agg) => Expr): LogicalPlan {
  const visit = (e: Expr): Expr =>
    e.kind === 'Agg' ? f(e) : e.kind === 'InnerAgg' ? e : mapChildren(e, visit);
  return transformPlanUp(plan, (p) => mapPlanExpressions(p, visit));
}

function allAggs(plan: LogicalPlan): Agg[] {
  const out: Agg[] = [];
  forEachPlanDown(plan, (p) => {
    for (const e of planExpressions(p)) forEachUp(e, (x) => x.kind === 'Agg' && out.push(x));
  });
  return out;
}

/** ES ReplaceMinMaxWithTopHits. */
export function replaceMinMaxWithTopHits(plan: LogicalPlan): LogicalPlan {
  return mapAggs(plan, (a) => {
    if ((a.def.name === 'MIN' || a.def.name === 'MAX') && isString(a.args[0]!.dataType)) {
      return { ...a, def: lookupFunction(a.def.name === 'MIN' ? 'FIRST' : 'LAST')! };
    }
    return a;
  });
}

const inner = (
  a: Agg,
  compound: CompoundKind,
  innerName: string,
  innerKey: number | null,
  values: readonly number[],
): InnerAgg => ({
  kind: 'InnerAgg',
  inner: a,
  compound,
  field: a.args[0]!,
  innerName,
  innerKey,
  values,
  dataType: a.dataType,
  src: a.src,
});

const STATS = new Set(['AVG', 'SUM', 'MIN', 'MAX']);

/** ES ReplaceAggsWithMatrixStats / ExtendedStats / Stats + PromoteStatsToExtendedStats. */
export function replaceAggsWithCompounds(plan: LogicalPlan): LogicalPlan {
  const aggs = allAggs(plan);
  const statsKinds = new Map<string, Set<string>>();
  const extended = new Set<string>();
  for (const a of aggs) {
    const field = exprKey(a.args[0]!);
    if (STATS.has(a.def.name) && !a.distinct) {
      let s = statsKinds.get(field);
      if (!s) statsKinds.set(field, (s = new Set()));
      s.add(a.def.name);
    }
    if (a.def.aggregate?.enclosedIn === 'extended_stats') extended.add(field);
  }
  return mapAggs(plan, (a) => {
    const info = a.def.aggregate;
    const field = exprKey(a.args[0]!);
    if (info?.enclosedIn === 'matrix_stats')
      return inner(a, 'matrix_stats', info.innerName!, null, []);
    if (info?.enclosedIn === 'extended_stats')
      return inner(a, 'extended_stats', info.innerName!, null, []);
    if (STATS.has(a.def.name) && (statsKinds.get(field)?.size ?? 0) > 1) {
      return inner(
        a,
        extended.has(field) ? 'extended_stats' : 'stats',
        a.def.name.toLowerCase(),
        null,
        [],
      );
    }
    return a;
  });
}

/** ES ReplaceAggsWithPercentiles / ReplaceAggsWithPercentileRanks. */
export function replaceAggsWithPercentiles(cfg: EvalContext): (plan: LogicalPlan) => LogicalPlan {
  return (plan) => {
    const byField = new Map<string, number[]>();
    for (const a of allAggs(plan)) {
      if (a.def.name !== 'PERCENTILE' && a.def.name !== 'PERCENTILE_RANK') continue;
      const key = `${a.def.name}:${exprKey(a.args[0]!)}`;
      let list = byField.get(key);
      if (!list) byField.set(key, (list = []));
      const v = Number(fold(a.args[1]!, cfg));
      if (!list.includes(v)) list.push(v);
    }
    return mapAggs(plan, (a) => {
      if (a.def.name !== 'PERCENTILE' && a.def.name !== 'PERCENTILE_RANK') return a;
      const v = Number(fold(a.args[1]!, cfg));
      const values = byField.get(`${a.def.name}:${exprKey(a.args[0]!)}`)!;
      const compound = a.def.name === 'PERCENTILE' ? 'percentiles' : 'percentile_ranks';
      return inner(a, compound, javaDoubleToString(v), v, values);
    });
  };
}

/**
 * ES ReplaceAggregatesWithLiterals. The argument is folded first (ES Literal.of): `MIN(55+2)` is
 * 57, not null.
 */
export const replaceAggregatesWithLiterals =
  (cfg: EvalContext) =>
  (plan: LogicalPlan): LogicalPlan =>
    replaceAggregatesWithLiteralsIn(plan, cfg);

function replaceAggregatesWithLiteralsIn(plan: LogicalPlan, cfg: EvalContext): LogicalPlan {
  const count = lookupFunction('COUNT')!;
  const iif = lookupFunction('IIF')!;
  return mapAggs(plan, (a) => {
    const n = a.def.name;
    const applies =
      n === 'MIN' || n === 'MAX' || n === 'AVG' || n === 'SUM' || (n === 'COUNT' && a.distinct);
    if (!applies || !isFoldable(a.args[0]!)) return a;
    const countOne: Agg = {
      kind: 'Agg',
      def: count,
      args: [literal(1, 'INTEGER', a.src)],
      distinct: false,
      dataType: 'LONG',
      src: a.src,
    };
    const isZero: Expr = {
      kind: 'Cmp',
      op: '=',
      left: countOne,
      right: literal(0, 'LONG'),
      dataType: 'BOOLEAN',
      src: a.src,
    };
    const arg = a.args[0]!;
    const value = literal(fold(arg, cfg), a.dataType, arg.src);
    let then: Expr = literal(null, 'NULL');
    let otherwise: Expr = value;
    if (n === 'SUM')
      otherwise = {
        kind: 'Arith',
        op: '*',
        left: countOne,
        right: value,
        // Mul's type: the common numeric type of LONG and the literal's (SUM(1) is a LONG)
        dataType: commonType('LONG', a.dataType) ?? a.dataType,
        src: a.src,
      };
    if (n === 'COUNT') {
      then = literal(0, 'LONG');
      otherwise = literal(1, 'LONG');
    }
    const args = [isZero, then, otherwise];
    return { kind: 'Fn', def: iif, args, dataType: iif.dataType(argInfos(args)), src: a.src };
  });
}
