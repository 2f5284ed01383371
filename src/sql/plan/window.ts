/**
 * Window functions in plans (Quarry extension, issue 16). A window is an `Fn` whose definition
 * carries `window` (analyze/window.ts). `splitWindows` cuts a plan whose SELECT list holds
 * windows in two: the `inner` plan — the same query with each window replaced by hidden columns
 * for its inputs, so it folds into one search as any query does — and the `outer` steps run in
 * memory over the search's rows: the windows, the SELECT list, then ORDER BY and LIMIT (which
 * apply after windows in SQL, so they are not pushed into the search).
 */
import { sqlIllegalArgument } from '../../functions/errors.js';
import { ARITY, type FunctionDefinition } from '../functions/definition.js';
import { WINDOW_AGGREGATE_FUNCTIONS, WINDOW_ONLY_FUNCTIONS } from '../functions/defs/window.js';
import type { Alias, Expr, Fn, NamedExpr, Src } from '../expression/nodes.js';
import { verificationException } from '../analyze/verifier.js';
import { anyMatch, collectFirst } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';
import type { LogicalPlan, UnaryPlan } from './logical.js';
import { isUnary, planExpressions, toAttribute, withChild } from './logical.js';

export const WINDOW_ONLY: ReadonlySet<string> = new Set(WINDOW_ONLY_FUNCTIONS);
export const WINDOW_AGGREGATES: ReadonlySet<string> = new Set(WINDOW_AGGREGATE_FUNCTIONS);

export interface WindowInfo {
  readonly fn: string;
  /** How many of the Fn's arguments are the function's own. */
  readonly args: number;
  readonly partition: number;
  readonly orders: ReadonlyArray<{
    readonly direction: 'ASC' | 'DESC';
    readonly nulls: 'FIRST' | 'LAST';
  }>;
}

export interface WindowDefinition extends FunctionDefinition {
  readonly window: WindowInfo;
}

/** A definition for one window (never folded, never scripted: evaluated in memory). */
export function windowDefinition(info: WindowInfo): WindowDefinition {
  return {
    name: info.fn,
    aliases: [],
    type: 'SCALAR',
    arity: ARITY.variadic,
    distinct: false,
    extractViable: false,
    configurationAware: false,
    resolveType: () => null as never,
    dataType: () => 'LONG',
    foldable: () => false,
    window: info,
  } as unknown as WindowDefinition;
}

export const isWindow = (e: Expr): e is Fn & { def: WindowDefinition } =>
  e.kind === 'Fn' && 'window' in e.def;

export const hasWindow = (e: Expr): boolean => anyMatch(e, isWindow);

/** The parts of a window Fn's arguments. */
export function windowParts(e: Fn & { def: WindowDefinition }) {
  const w = e.def.window;
  const a = e.args;
  return {
    args: a.slice(0, w.args),
    partition: a.slice(w.args, w.args + w.partition),
    orders: a.slice(w.args + w.partition, w.args + w.partition + w.orders.length),
  };
}

export interface WindowSplit {
  /** The query the search answers: windows replaced by their inputs as hidden columns. */
  readonly inner: LogicalPlan;
  /** Run in memory over the inner rows; its `LocalRelation` leaf stands for them. */
  readonly outer: LogicalPlan;
  readonly windows: ReadonlyArray<Fn & { def: WindowDefinition }>;
}

export function planHasWindow(p: LogicalPlan): boolean {
  let found = false;
  const visit = (n: LogicalPlan) => {
    if (planExpressions(n).some(hasWindow)) found = true;
    if (isUnary(n)) visit(n.child);
  };
  visit(p);
  return found;
}

/** Ids of hidden columns: above any id analysis hands out. */
const HIDDEN_ID_BASE = 1_000_000_000;

const refused = (msg: string, src: Src) => verificationException([{ src, message: msg }]);

export function splitWindows(plan: LogicalPlan): WindowSplit {
  // peel ORDER BY, LIMIT and projections without windows: they run after the windows
  const peeled: UnaryPlan[] = [];
  let node = plan;
  while (
    node.kind === 'Limit' ||
    node.kind === 'OrderBy' ||
    (node.kind === 'Project' && !node.projections.some(hasWindow))
  ) {
    peeled.push(node);
    node = node.child;
  }
  const core = node.kind === 'Filter' && node.child.kind === 'Aggregate' ? node.child : node;
  if (core.kind !== 'Project' && core.kind !== 'Aggregate')
    throw refused('Window functions are allowed in the SELECT list only', node.src);
  const named = core.kind === 'Project' ? core.projections : core.aggregates;
  const windows: Array<Fn & { def: WindowDefinition }> = [];
  const hidden = new Map<string, Alias>();
  const keep: NamedExpr[] = [];
  for (const p of named) {
    if (!hasWindow(p)) {
      keep.push(p);
      continue;
    }
    const w = p.kind === 'Alias' ? p.child : p;
    if (!isWindow(w) || w.args.some(hasWindow))
      throw refused('A window function must be a whole SELECT item (optionally aliased)', p.src);
    windows.push(w);
    const parts = windowParts(w);
    for (const e of [...parts.args, ...parts.partition, ...parts.orders]) {
      const k = exprKey(e);
      if (e.kind === 'Literal' || hidden.has(k)) continue;
      hidden.set(k, {
        kind: 'Alias',
        id: HIDDEN_ID_BASE + hidden.size,
        name: `$window${hidden.size}`,
        child: e,
        dataType: e.dataType,
        src: e.src,
      });
    }
  }
  const computed = new Set(windows.map(exprKey));
  const above = node === core ? [] : planExpressions(node);
  for (const n of [...above, ...peeled.flatMap(planExpressions), ...planExpressions(core.child)]) {
    // a window of the SELECT list may be read again above it (ORDER BY after ReplaceReferences)
    const stray = collectFirst(n, (x) => isWindow(x) && !computed.has(exprKey(x)));
    if (stray.length > 0)
      throw refused('Window functions are allowed in the SELECT list only', stray[0]!.src);
  }
  const list = [...keep, ...hidden.values()];
  const innerCore: LogicalPlan =
    core.kind === 'Project' ? { ...core, projections: list } : { ...core, aggregates: list };
  const inner = node === core ? innerCore : withChild(node as UnaryPlan, innerCore);
  // the original SELECT list over the inner rows (windows are read from their computed column)
  const leaf: LogicalPlan = { kind: 'LocalRelation', output: [], row: null, src: core.src };
  const select: LogicalPlan = {
    kind: 'Project',
    child: leaf,
    projections: named.map((p) => (hasWindow(p) ? p : toAttribute(p))),
    src: core.src,
  };
  let outer: LogicalPlan = select;
  for (let i = peeled.length - 1; i >= 0; i--) outer = withChild(peeled[i]!, outer);
  return { inner, outer, windows };
}

/** The hidden column key a window input is read from in the inner rows. */
export function hiddenKeys(split: WindowSplit): Map<string, string> {
  const out = new Map<string, string>();
  const core = findCore(split.inner);
  const named = core.kind === 'Project' ? core.projections : core.aggregates;
  for (const n of named) {
    if (n.kind === 'Alias' && n.id >= HIDDEN_ID_BASE)
      out.set(exprKey(n.child), exprKey(toAttribute(n)));
  }
  return out;
}

function findCore(p: LogicalPlan): Extract<LogicalPlan, { kind: 'Project' | 'Aggregate' }> {
  if (p.kind === 'Project' || p.kind === 'Aggregate') return p;
  if (isUnary(p)) return findCore(p.child);
  throw sqlIllegalArgument('No projection in window plan');
}
