/**
 * Executing a JOIN (issue 16) as a hash join of two DSL searches: each input's search runs
 * through the one DSL executor (runQuery, every page of its scroll or composite aggregation), at
 * most `maxRows` rows per input (`sql.join.max_rows`), the rows held accounted against the
 * request circuit breaker. The build side is the right input of a LEFT join, else the smaller
 * one; the other input probes it (a LEFT join's left input page by page, as its pages arrive).
 * The plan above the join then runs in memory (in-memory.ts).
 */
import { EsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { Attribute, Expr } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';
import type { EvalContext } from '../functions/definition.js';
import type { PlannedInput, PlannedJoin } from '../translate/join.js';
import { JOIN_PAGE_SIZE } from '../translate/join.js';
import type { Json } from '../translate/query-dsl.js';
import type { QueryContainer } from '../translate/container.js';
import { DEFAULT_JOIN_MAX_ROWS } from '../plan/join.js';
import { planOutput } from '../plan/logical.js';
import { planHasWindow, splitWindows } from '../plan/window.js';
import { windowsOver } from './window.js';
import type { CursorState } from './cursors.js';
import { compileOver, layoutOf, runInMemory, valueKey, type Rel } from './in-memory.js';
import { executeLocal } from './local.js';
import { nextHitsPage, runQuery } from './query-runner.js';
import { clearScroll, type SqlNode } from './search.js';

/** ES's bucket estimate (BUCKET_BYTES): the request breaker is checked in these units. */
const BREAKER_UNIT_BYTES = 512;

export interface JoinRunOptions {
  readonly cfg: EvalContext;
  readonly lenient: boolean;
  readonly filter: Json | null;
  readonly pageTimeoutMs: number;
  readonly maxRows?: number;
  /** The concrete indices and alias filters of an input's FROM pattern. */
  readonly resolve: (c: QueryContainer) => {
    indices: readonly IndexService[];
    aliasFilters: ReturnType<SqlNode['indices']['aliasFilters']>;
  };
}

/** Estimated heap of held rows, checked against the request breaker as rows arrive. */
export class RowAccounting {
  private bytes = 0;
  private checkedAt = 0;
  constructor(private readonly node: SqlNode) {}
  add(rows: readonly unknown[][]): void {
    for (const r of rows) {
      let b = 48 + 16 * r.length;
      for (const v of r) if (typeof v === 'string') b += 2 * v.length;
      this.bytes += b;
    }
    if (this.bytes - this.checkedAt >= 256 * 1024) this.check();
  }
  check(): void {
    this.checkedAt = this.bytes;
    this.node.limits().breaker?.(Math.ceil(this.bytes / BREAKER_UNIT_BYTES));
  }
}

export const joinTooLarge = (side: string, index: string, max: number): EsError =>
  new EsError(
    'illegal_argument_exception',
    side === 'window'
      ? `The input of the window functions [${index}] has more than [${max}] rows, the limit of rows held in memory ([sql.join.max_rows]); narrow it with WHERE conditions`
      : `The ${side} input of the JOIN [${index}] has more than [${max}] rows, the limit per JOIN input ([sql.join.max_rows]); narrow it with WHERE conditions on that input`,
    400,
  );

/** Every row of one input, through its search's pages. */
export async function fetchInput(
  node: SqlNode,
  side: string,
  p: PlannedInput,
  o: JoinRunOptions,
  acct: RowAccounting,
): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  await forEachInputPage(node, side, p, o, acct, (page) => {
    for (const r of page) rows.push(r);
  });
  return rows;
}

/**
 * One input's rows page by page, in order, each page accounted and counted against
 * `sql.join.max_rows` before `onPage` sees it; the scroll is cleared however it ends.
 */
export async function forEachInputPage(
  node: SqlNode,
  side: string,
  p: PlannedInput,
  o: JoinRunOptions,
  acct: RowAccounting,
  onPage: (rows: readonly unknown[][]) => void,
): Promise<void> {
  const max = o.maxRows ?? DEFAULT_JOIN_MAX_ROWS;
  if (p.container === null) {
    onPage(executeLocal(p.optimized, o.cfg).rows);
    return;
  }
  const c = p.container;
  const { indices, aliasFilters } = o.resolve(c);
  const first = await runQuery(node, indices, c, {
    aliasFilters,
    fetchSize: JOIN_PAGE_SIZE,
    filter: o.filter,
    extract: { cfg: o.cfg, lenient: o.lenient },
    pageTimeoutMs: o.pageTimeoutMs,
  });
  let count = 0;
  let scrollId: string | null = null;
  const take = (page: readonly unknown[][]) => {
    count += page.length;
    acct.add(page);
    if (count > max) throw joinTooLarge(side, c.pattern, max);
    onPage(page);
  };
  try {
    take(first.rows);
    const next = first.next;
    if (next === null) return;
    const base = { columns: [], expiresAt: 0, timeoutMs: o.pageTimeoutMs };
    switch (next.kind) {
      case 'scroll': {
        scrollId = next.scrollId;
        const s = { ...next, ...base } as Extract<CursorState, { kind: 'scroll' }>;
        for (;;) {
          const r = await nextHitsPage(node, s);
          take(r.rows);
          if (r.done) break;
        }
        break;
      }
      case 'composite': {
        let after: Record<string, unknown> | null = next.afterKey;
        let remaining = next.remaining;
        while (after !== null && remaining !== 0) {
          const r = await next.next(after);
          const page = remaining >= 0 ? r.rows.slice(0, remaining) : r.rows;
          if (remaining >= 0) remaining -= page.length;
          take(page);
          after = r.afterKey;
        }
        break;
      }
      case 'list':
        take(next.rows.slice(next.pos) as unknown[][]);
        break;
    }
  } finally {
    if (scrollId !== null) await clearScroll(node, scrollId);
  }
}

function keyOf(keys: readonly Expr[], attrs: readonly Attribute[], cfg: EvalContext) {
  const layout = layoutOf(attrs);
  const fs = keys.map((k) => compileOver(k, layout, cfg));
  // SQL equality: a NULL key part matches nothing
  return (row: unknown[]): string | null => {
    let out = '';
    for (let i = 0; i < fs.length; i++) {
      const v = fs[i]!(row);
      if (v === null || v === undefined) return null;
      out += (i > 0 ? '\u0001' : '') + valueKey(v);
    }
    return out;
  };
}

/**
 * The hash table of the build side's rows and a probe that appends the joined rows of a page of
 * the other input to `out`: [left columns..., right columns...] per match, and for a LEFT join
 * the left row with NULLs when nothing matches.
 */
function joinProbe(
  j: PlannedJoin,
  build: readonly unknown[][],
  buildRight: boolean,
  cfg: EvalContext,
  out: unknown[][],
): (probe: readonly unknown[][]) => void {
  const s = j.split;
  const lKey = keyOf(s.left.keys, s.left.attrs, cfg);
  const rKey = keyOf(s.right.keys, s.right.attrs, cfg);
  const [bKey, pKey] = buildRight ? [rKey, lKey] : [lKey, rKey];
  const table = new Map<string, unknown[][]>();
  for (const row of build) {
    const k = bKey(row as unknown[]);
    if (k === null) continue;
    const bucket = table.get(k);
    if (bucket === undefined) table.set(k, [row as unknown[]]);
    else bucket.push(row as unknown[]);
  }
  const rightNulls = new Array<unknown>(s.right.attrs.length).fill(null);
  return (probe) => {
    for (const row of probe) {
      const k = pKey(row as unknown[]);
      const matches = k === null ? undefined : table.get(k);
      if (matches === undefined) {
        if (s.joinType === 'LEFT') out.push([...row, ...rightNulls]);
        continue;
      }
      for (const m of matches) out.push(buildRight ? [...row, ...m] : [...m, ...row]);
    }
  };
}

/** Hash join of the two inputs' rows: [left columns..., right columns...] per match. */
export function hashJoin(
  j: PlannedJoin,
  left: unknown[][],
  right: unknown[][],
  cfg: EvalContext,
): unknown[][] {
  const buildRight = j.split.joinType === 'LEFT' || right.length <= left.length;
  const out: unknown[][] = [];
  joinProbe(j, buildRight ? right : left, buildRight, cfg, out)(buildRight ? left : right);
  return out;
}

/**
 * A LEFT join, whose build side is always the right input: both searches start together, and
 * the left input's pages are probed as they arrive once the right's table is built (pages that
 * arrive before wait for it), so the left input is not held beside the joined rows. The rows and
 * their order are hashJoin's.
 */
async function streamLeftJoin(
  node: SqlNode,
  j: PlannedJoin,
  o: JoinRunOptions,
  acct: RowAccounting,
): Promise<unknown[][]> {
  const out: unknown[][] = [];
  const waiting: Array<readonly unknown[][]> = [];
  let probe: ((page: readonly unknown[][]) => void) | null = null;
  const build = fetchInput(node, 'right', j.right, o, acct).then((right) => {
    probe = joinProbe(j, right, true, o.cfg, out);
    for (const page of waiting.splice(0)) probe(page);
  });
  const left = forEachInputPage(node, 'left', j.left, o, acct, (page) => {
    if (probe === null) waiting.push([...page]);
    else probe(page);
  });
  await Promise.all([build, left]);
  return out;
}

/** Runs a planned JOIN: the result's columns and every row. */
export async function runJoin(
  node: SqlNode,
  j: PlannedJoin,
  o: JoinRunOptions,
): Promise<{ output: readonly Attribute[]; rows: unknown[][] }> {
  const acct = new RowAccounting(node);
  const s = j.split;
  let joined: unknown[][];
  if (s.joinType === 'LEFT') {
    joined = await streamLeftJoin(node, j, o, acct);
    acct.check();
  } else {
    const [left, right] = await Promise.all([
      fetchInput(node, 'left', j.left, o, acct),
      fetchInput(node, 'right', j.right, o, acct),
    ]);
    acct.check();
    joined = hashJoin(j, left, right, o.cfg);
  }
  const leaf: Rel = { layout: layoutOf([...s.left.attrs, ...s.right.attrs]), rows: joined };
  // window functions over the joined rows: the plan below them, the windows, the rest
  if (planHasWindow(s.above)) {
    const split = splitWindows(s.above);
    return windowsOver(
      split,
      runInMemory(split.inner, () => leaf, o.cfg),
      o.cfg,
    );
  }
  const rel = runInMemory(s.above, () => leaf, o.cfg);
  const output = planOutput(s.above);
  const idx = output.map((a) => {
    const i = rel.layout.get(exprKey(a));
    if (i === undefined)
      throw new EsError('sql_illegal_argument_exception', `Cannot find column [${a.name}]`, 500);
    return i;
  });
  return { output, rows: rel.rows.map((r) => idx.map((i) => r[i] ?? null)) };
}
