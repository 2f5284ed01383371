/**
 * Computing window functions in memory (Quarry extension, issue 16) over the rows of the search
 * (or of a JOIN): rows are partitioned by the PARTITION BY values, ordered by the ORDER BY keys
 * (stable, NULLS as ordered), then ROW_NUMBER, RANK (gaps), DENSE_RANK, LAG/LEAD (offset rows
 * back/ahead in the partition, else the default) and the aggregates are computed. An aggregate
 * with ORDER BY is a running aggregate over the rows up to the current one and its peers (SQL's
 * default frame RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW); without, the whole partition.
 */
import { compare } from '../../functions/comparison.js';
import type { Agg, Attribute, Expr, Fn } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';
import type { EvalContext } from '../functions/definition.js';
import {
  hiddenKeys,
  windowParts,
  type WindowDefinition,
  type WindowSplit,
} from '../plan/window.js';
import { planOutput } from '../plan/logical.js';
import type { PlannedWindow } from '../translate/window.js';
import {
  accumulator,
  compileOver,
  layoutOf,
  runInMemory,
  valueKey,
  type Rel,
} from './in-memory.js';
import { fetchInput, RowAccounting, type JoinRunOptions } from './hash-join.js';
import type { SqlNode } from './search.js';

type Window = Fn & { def: WindowDefinition };

/** `rel` with one more column per window (keyed by the window's expression). */
export function computeWindows(rel: Rel, windows: readonly Window[], cfg: EvalContext): Rel {
  const layout = new Map(rel.layout);
  const width = Math.max(-1, ...rel.layout.values()) + 1;
  const rows = rel.rows.map((r) => {
    const copy = r.slice();
    copy.length = width;
    return copy;
  });
  let col = width;
  for (const w of windows) {
    const k = exprKey(w);
    if (layout.has(k)) continue;
    const values = windowValues(rows, rel.layout, w, cfg);
    for (let i = 0; i < rows.length; i++) rows[i]![col] = values[i];
    layout.set(k, col++);
  }
  return { layout, rows };
}

function windowValues(
  rows: readonly unknown[][],
  layout: ReadonlyMap<string, number>,
  w: Window,
  cfg: EvalContext,
): unknown[] {
  const info = w.def.window;
  const parts = windowParts(w);
  const c = (e: Expr) => compileOver(e, layout, cfg);
  const partOf = parts.partition.map(c);
  const orderOf = parts.orders.map(c);
  const args = parts.args.map(c);
  // partitions in first-seen order; row indices inside each
  const partitions = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const key = partOf.map((f) => valueKey(f(r))).join('\u0001');
    const p = partitions.get(key);
    if (p === undefined) partitions.set(key, [i]);
    else p.push(i);
  });
  const keysOf = rows.map((r) => orderOf.map((f) => f(r)));
  const cmp = (a: number, b: number): number => {
    for (let j = 0; j < info.orders.length; j++) {
      const o = info.orders[j]!;
      const x = keysOf[a]![j] ?? null;
      const y = keysOf[b]![j] ?? null;
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === (o.nulls === 'FIRST') ? -1 : 1;
      }
      const r = compare(x, y) ?? 0;
      if (r !== 0) return o.direction === 'ASC' ? r : -r;
    }
    return 0;
  };
  const out = new Array<unknown>(rows.length).fill(null);
  for (const idx of partitions.values()) {
    const sorted = info.orders.length > 0 ? [...idx].sort((a, b) => cmp(a, b) || a - b) : idx;
    fill(info.fn, sorted, cmp, info.orders.length > 0, args, rows, out, w);
  }
  return out;
}

function fill(
  fn: string,
  sorted: readonly number[],
  cmp: (a: number, b: number) => number,
  ordered: boolean,
  args: ReadonlyArray<(row: unknown) => unknown>,
  rows: readonly unknown[][],
  out: unknown[],
  w: Window,
): void {
  switch (fn) {
    case 'ROW_NUMBER':
      sorted.forEach((r, i) => (out[r] = i + 1));
      return;
    case 'RANK':
    case 'DENSE_RANK': {
      let rank = 0;
      let dense = 0;
      sorted.forEach((r, i) => {
        if (i === 0 || cmp(sorted[i - 1]!, r) !== 0) {
          rank = i + 1;
          dense++;
        }
        out[r] = fn === 'RANK' ? rank : dense;
      });
      return;
    }
    case 'LAG':
    case 'LEAD': {
      const n = args[1] ? Number(args[1](rows[sorted[0]!]) ?? 1) : 1;
      const step = fn === 'LAG' ? -n : n;
      sorted.forEach((r, i) => {
        const j = i + step;
        out[r] =
          j >= 0 && j < sorted.length
            ? (args[0]!(rows[sorted[j]!]) ?? null)
            : args[2]
              ? (args[2](rows[r]) ?? null)
              : null;
      });
      return;
    }
    default: {
      // an aggregate: running over peers when ordered, else over the whole partition
      const agg: Agg = {
        kind: 'Agg',
        def: { name: fn } as Agg['def'],
        args: w.args.slice(0, w.def.window.args),
        distinct: false,
        dataType: w.dataType,
        src: w.src,
      };
      const acc = accumulator(agg);
      const arg = args[0] ?? (() => 1);
      if (!ordered) {
        for (const r of sorted) acc.add(arg(rows[r]));
        const v = acc.value();
        for (const r of sorted) out[r] = v;
        return;
      }
      let i = 0;
      while (i < sorted.length) {
        let j = i;
        while (j < sorted.length && cmp(sorted[i]!, sorted[j]!) === 0)
          acc.add(arg(rows[sorted[j++]!]));
        const v = acc.value();
        for (let p = i; p < j; p++) out[sorted[p]!] = v;
        i = j;
      }
    }
  }
}

/** Runs a planned query with window functions: its search (every page), then the windows. */
export async function runWindows(
  node: SqlNode,
  w: PlannedWindow,
  o: JoinRunOptions,
): Promise<{ output: readonly Attribute[]; rows: unknown[][] }> {
  const acct = new RowAccounting(node);
  const rows = await fetchInput(node, 'window', w.inner, o, acct);
  acct.check();
  const layout = layoutOf(planOutput(w.inner.optimized));
  return windowsOver(w.split, { layout, rows }, o.cfg);
}

/** The windows and the steps after them over the inner query's rows. */
export function windowsOver(
  split: WindowSplit,
  inner: Rel,
  cfg: EvalContext,
): { output: readonly Attribute[]; rows: unknown[][] } {
  const layout = new Map(inner.layout);
  for (const [input, hidden] of hiddenKeys(split)) {
    const i = layout.get(hidden);
    if (i !== undefined && !layout.has(input)) layout.set(input, i);
  }
  const rel = computeWindows({ layout, rows: inner.rows }, split.windows, cfg);
  const out = runInMemory(split.outer, () => rel, cfg);
  const output = planOutput(split.outer);
  const idx = output.map((a) => out.layout.get(exprKey(a)) ?? -1);
  return { output, rows: out.rows.map((r) => idx.map((i) => (i < 0 ? null : (r[i] ?? null)))) };
}
