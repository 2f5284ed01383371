/**
 * Evaluating a plan in memory over rows another step produced (issue 16: the plan above a JOIN):
 * filters, projections, grouping with COUNT/SUM/AVG/MIN/MAX, HAVING, ordering and limits. Rows
 * are arrays; a layout maps each expression key (exprKey) to its position, so a node above can
 * read its input's columns and an aggregate's value by the expression that names it.
 */
import { compare } from '../../functions/comparison.js';
import { add } from '../../functions/index.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import { compile, type Compiled } from '../expression/evaluate.js';
import type { Agg, Attribute, Expr } from '../expression/nodes.js';
import { collectFirst } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';
import type { EvalContext } from '../functions/definition.js';
import type { LogicalPlan, Order } from '../plan/logical.js';
import { planExpressions, planOutput } from '../plan/logical.js';

export interface Rel {
  /** exprKey -> column position. */
  readonly layout: ReadonlyMap<string, number>;
  readonly rows: unknown[][];
}

/** The rows of a leaf the in-memory plan stands on (the joined rows). */
export type LeafRows = (leaf: LogicalPlan) => Rel;

export function layoutOf(attrs: readonly Expr[], offset = 0): Map<string, number> {
  const m = new Map<string, number>();
  attrs.forEach((a, i) => {
    const k = exprKey(a);
    if (!m.has(k)) m.set(k, offset + i);
  });
  return m;
}

/** Compiles `e` over rows of `layout`: any sub-expression the layout holds is read, not computed. */
export function compileOver(
  e: Expr,
  layout: ReadonlyMap<string, number>,
  cfg: EvalContext,
): Compiled {
  return compile(e, cfg, (x) => {
    if (x.kind === 'Literal') return null;
    const i = layout.get(exprKey(x));
    if (i !== undefined) return (row) => (row as unknown[])[i] ?? null;
    if (x.kind === 'Field' || x.kind === 'Ref')
      throw sqlIllegalArgument('Cannot find column [{}] in memory', [x.name]);
    return null;
  });
}

/** Appends `inner`'s layout after `width` columns (keys already present win). */
function extend(layout: Map<string, number>, inner: ReadonlyMap<string, number>, width: number) {
  for (const [k, i] of inner) if (!layout.has(k)) layout.set(k, width + i);
  return layout;
}

const aggsIn = (es: readonly Expr[]): Agg[] =>
  es.flatMap((e) => collectFirst(e, (x) => x.kind === 'Agg') as Agg[]);

/** Runs `plan` in memory; `aggsAbove` are aggregates HAVING/ORDER BY read from the Aggregate below. */
export function runInMemory(
  plan: LogicalPlan,
  leaf: LeafRows,
  cfg: EvalContext,
  aggsAbove: readonly Agg[] = [],
): Rel {
  switch (plan.kind) {
    case 'Filter': {
      const input = runInMemory(plan.child, leaf, cfg, [...aggsAbove, ...aggsIn([plan.condition])]);
      const cond = compileOver(plan.condition, input.layout, cfg);
      return { layout: input.layout, rows: input.rows.filter((r) => cond(r) === true) };
    }
    case 'Project': {
      const input = runInMemory(plan.child, leaf, cfg, aggsAbove);
      const evals = plan.projections.map((p) => compileOver(p, input.layout, cfg));
      const out = planOutput(plan);
      const layout = extend(layoutOf(out), input.layout, out.length);
      return { layout, rows: input.rows.map((r) => [...evals.map((f) => f(r)), ...r]) };
    }
    case 'Aggregate':
      return aggregate(plan, runInMemory(plan.child, leaf, cfg), cfg, aggsAbove);
    case 'OrderBy': {
      const input = runInMemory(plan.child, leaf, cfg, [
        ...aggsAbove,
        ...aggsIn(planExpressions(plan)),
      ]);
      return { layout: input.layout, rows: sortRows(input.rows, plan.orders, input.layout, cfg) };
    }
    case 'Limit': {
      const input = runInMemory(plan.child, leaf, cfg, aggsAbove);
      return { layout: input.layout, rows: input.rows.slice(0, plan.limit) };
    }
    case 'Join':
    case 'EsRelation':
    case 'LocalRelation':
      return leaf(plan);
    default:
      throw sqlIllegalArgument('Cannot execute [{}] in memory', [plan.kind]);
  }
}

/** ORDER BY over rows (stable; NULLS FIRST/LAST as ordered). */
export function sortRows(
  rows: unknown[][],
  orders: readonly Order[],
  layout: ReadonlyMap<string, number>,
  cfg: EvalContext,
): unknown[][] {
  const keys = orders.map((o) => ({ f: compileOver(o.child, layout, cfg), o }));
  const decorated = rows.map((r) => ({ r, k: keys.map(({ f }) => f(r)) }));
  decorated.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const o = keys[i]!.o;
      const x = a.k[i] ?? null;
      const y = b.k[i] ?? null;
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === (o.nulls === 'FIRST') ? -1 : 1;
      }
      const c = compare(x, y) ?? 0;
      if (c !== 0) return o.direction === 'ASC' ? c : -c;
    }
    return 0;
  });
  return decorated.map((d) => d.r);
}

/** A grouping / join key of runtime values: equal SQL values, equal keys. */
export function valueKey(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return `n${v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return `b${v}`;
    default: {
      const o = v as { millis?: unknown; nanos?: unknown };
      if (typeof o.millis === 'number') return `d${o.millis}.${String(o.nanos ?? 0)}`;
      return `o${JSON.stringify(v)}`;
    }
  }
}

interface Acc {
  add(v: unknown): void;
  value(): unknown;
}

/** One accumulator per aggregate function (SQL semantics: NULLs are skipped). */
export function accumulator(a: Agg): Acc {
  const name = a.def.name;
  if (name === 'COUNT' && a.distinct) {
    const seen = new Set<string>();
    return {
      add: (v) => void (v !== null && v !== undefined && seen.add(valueKey(v))),
      value: () => seen.size,
    };
  }
  switch (name) {
    case 'COUNT': {
      let n = 0;
      return { add: (v) => void (v !== null && v !== undefined && n++), value: () => n };
    }
    case 'SUM': {
      let s: unknown = null;
      const t = a.dataType;
      return {
        add: (v) => {
          if (v !== null && v !== undefined) s = s === null ? v : add(s, v, t);
        },
        value: () => s,
      };
    }
    case 'AVG': {
      let s = 0;
      let n = 0;
      return {
        add: (v) => {
          if (v !== null && v !== undefined) {
            s += Number(v);
            n++;
          }
        },
        value: () => (n === 0 ? null : s / n),
      };
    }
    case 'MIN':
    case 'MAX': {
      let best: unknown = null;
      const sign = name === 'MIN' ? -1 : 1;
      return {
        add: (v) => {
          if (v === null || v === undefined) return;
          if (best === null || (compare(v, best) ?? 0) * sign > 0) best = v;
        },
        value: () => best,
      };
    }
    default:
      throw sqlIllegalArgument('Aggregate function [{}] is not supported in memory', [name]);
  }
}

function aggregate(
  plan: Extract<LogicalPlan, { kind: 'Aggregate' }>,
  input: Rel,
  cfg: EvalContext,
  aggsAbove: readonly Agg[],
): Rel {
  // every distinct aggregate of the SELECT list, HAVING and ORDER BY, computed once per group
  const aggs: Agg[] = [];
  const aggLayout = new Map<string, number>();
  for (const a of aggsIn([...plan.aggregates, ...aggsAbove])) {
    const k = exprKey(a);
    if (aggLayout.has(k)) continue;
    aggLayout.set(k, aggs.length);
    aggs.push(a);
  }
  const args = aggs.map((a) => (a.args[0] ? compileOver(a.args[0], input.layout, cfg) : () => 1));
  const groupBy = plan.groupings.map((g) => compileOver(g, input.layout, cfg));
  const groups = new Map<string, { first: unknown[]; accs: Acc[] }>();
  for (const row of input.rows) {
    const key = groupBy.map((g) => valueKey(g(row))).join('\u0001');
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { first: row, accs: aggs.map(accumulator) }));
    for (let i = 0; i < args.length; i++) g.accs[i]!.add(args[i]!(row));
  }
  // an implicit group is one row even over no rows (COUNT(*) = 0)
  if (plan.groupings.length === 0 && groups.size === 0) {
    groups.set('', { first: [], accs: aggs.map(accumulator) });
  }
  // rows below are [aggregate values..., input row...]
  const inner = extend(new Map(aggLayout), input.layout, aggs.length);
  const evals = plan.aggregates.map((n) => compileOver(n, inner, cfg));
  const out: Attribute[] = [...planOutput(plan)];
  const layout = extend(layoutOf(out), inner, out.length);
  const rows: unknown[][] = [];
  for (const g of groups.values()) {
    const base = [...g.accs.map((a) => a.value()), ...g.first];
    rows.push([...evals.map((f) => f(base)), ...base]);
  }
  return { layout, rows };
}
