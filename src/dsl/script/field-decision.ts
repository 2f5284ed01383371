/**
 * Scripts that only choose between constants by comparing one numeric field's first doc value
 * with constants: the shape ES SQL emits for `CASE WHEN f < 1000 THEN 'a' WHEN ... ELSE 'z' END`
 * (`nullSafeFilter(lt(docValue(doc, params.v0), params.v1)) ? params.v2 : ...`). Such a script is
 * compiled to a decision over the value (SQL three-valued logic, Java Double.compare ordering, as
 * InternalQlScriptUtils' comparisons), so callers can evaluate it per document from the column and
 * run the real script once per outcome instead of once per document.
 */
import { javaDoubleCompare } from '../../functions/comparison.js';
import type { Expr } from './ast.js';
import { parseScript } from './parser.js';

/**
 * Marks a `docValue(doc, field)` script method that returns the field's first doc value or null
 * (ES InternalQlScriptUtils.docValue); only then is a script a function of that value.
 */
export const FIRST_DOC_VALUE = Symbol('firstDocValue');

export interface FieldDecision {
  /** The one field the script reads. */
  readonly field: string;
  /** Number of outcomes (constant results). */
  readonly outcomes: number;
  /** The outcome for a doc whose first value is `v` (NaN: no value). */
  decide(v: number): number;
  /** The same decision as a table over the compared constants. */
  readonly regions: DecisionRegions;
}

/**
 * A decision's outcomes by region of the value (Double.compare order): below[j] on the open
 * interval between thresholds[j - 1] and thresholds[j] (below[0] under the first, below[m] over
 * the last), at[j] at thresholds[j], `missing` for no value (NaN).
 */
export interface DecisionRegions {
  readonly thresholds: Float64Array;
  readonly at: Int32Array;
  readonly below: Int32Array;
  readonly missing: number;
}

const NAMESPACES = new Set(['InternalQlScriptUtils', 'InternalSqlScriptUtils']);
const COMPARISONS: Record<string, (c: number) => boolean> = {
  lt: (c) => c < 0,
  lte: (c) => c <= 0,
  gt: (c) => c > 0,
  gte: (c) => c >= 0,
  eq: (c) => c === 0,
  neq: (c) => c !== 0,
};
/** SQL truth values: 1 true, 0 false, -1 null. */
type Truth = (v: number) => 1 | 0 | -1;
type Methods = Record<string, unknown>;

class NotADecision extends Error {}
const fail = (): never => {
  throw new NotADecision();
};

/** The decision a script compiles to, or null when it has another shape. */
export function fieldDecision(
  source: string,
  params: Record<string, unknown>,
  methods: Methods | undefined,
): FieldDecision | null {
  if (!methods) return null;
  let body;
  try {
    body = parseScript(source).body;
  } catch {
    return null;
  }
  if (body.length !== 1) return null;
  const stmt = body[0]!;
  const root = stmt.kind === 'ExprStmt' || stmt.kind === 'Return' ? stmt.expr : null;
  if (!root) return null;
  const b = new Builder(params, methods);
  try {
    const decide = b.outcome(root);
    if (b.field === null) return null;
    const { decide: fast, regions } = tabulate(decide, b.constants);
    return { field: b.field, outcomes: b.outcomes, decide: fast, regions };
  } catch (e) {
    if (e instanceof NotADecision) return null;
    throw e;
  }
}

/**
 * Every comparison is against one of `constants`, so the outcome is constant on each open
 * interval between consecutive constants and at each constant: evaluate `slow` once per region
 * and decide by a search over the sorted constants (Double.compare order, so -0.0 < 0.0).
 */
function tabulate(
  slow: (v: number) => number,
  constants: number[],
): { decide: (v: number) => number; regions: DecisionRegions } {
  const ks = [...constants].sort(javaDoubleCompare);
  const distinct = ks.filter((k, i) => i === 0 || javaDoubleCompare(ks[i - 1]!, k) !== 0);
  const m = distinct.length;
  const at = Int32Array.from(distinct, slow);
  const below = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) {
    const lo = j === 0 ? -Infinity : distinct[j - 1]!;
    const hi = j === m ? Infinity : distinct[j]!;
    // any double of the open interval stands for it; an empty one (adjacent doubles,
    // -0.0..0.0, below -Infinity) is never looked up
    const rep = m === 0 ? 0 : j === 0 ? -Infinity : j === m ? Infinity : nextUp(lo);
    const inside =
      m === 0 ||
      ((j === 0 || javaDoubleCompare(rep, lo) > 0) && (j === m || javaDoubleCompare(rep, hi) < 0));
    if (inside) below[j] = slow(rep);
  }
  const missing = slow(NaN);
  const ksa = Float64Array.from(distinct);
  const decide = (v: number): number => {
    if (v !== v) return missing;
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = javaDoubleCompare(v, ksa[mid]!);
      if (c === 0) return at[mid]!;
      if (c < 0) hi = mid;
      else lo = mid + 1;
    }
    return below[lo]!;
  };
  return { decide, regions: { thresholds: ksa, at, below, missing } };
}

const bits = new Float64Array(1);
const word = new BigInt64Array(bits.buffer);

/** Java Math.nextUp: the least double above `x` (MIN_VALUE above both zeros). */
export function nextUp(x: number): number {
  if (x !== x || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  bits[0] = x;
  word[0] += x > 0 ? 1n : -1n;
  return bits[0]!;
}

class Builder {
  field: string | null = null;
  outcomes = 0;
  /** The constants the value is compared with. */
  readonly constants: number[] = [];

  constructor(
    private readonly params: Record<string, unknown>,
    private readonly methods: Methods,
  ) {}

  /** `test ? a : b` chains ending in constants. */
  outcome(e: Expr): (v: number) => number {
    if (e.kind === 'Cond') {
      const test = this.filter(e.test);
      const a = this.outcome(e.then);
      const b = this.outcome(e.otherwise);
      return (v) => (test(v) === 1 ? a(v) : b(v));
    }
    this.constant(e);
    const k = this.outcomes++;
    return () => k;
  }

  private constant(e: Expr): void {
    switch (e.kind) {
      case 'Num':
      case 'Str':
      case 'Bool':
      case 'Null':
        return;
      default:
        this.param(e);
    }
  }

  /** `params.x` / `params['x']`: the param's value (it must exist). */
  private param(e: Expr): unknown {
    let name: string | null = null;
    if (e.kind === 'Field' && !e.nullSafe && isVar(e.object, 'params')) name = e.name;
    else if (e.kind === 'Index' && isVar(e.object, 'params') && e.index.kind === 'Str')
      name = e.index.value;
    if (name === null || !Object.hasOwn(this.params, name)) fail();
    return this.params[name!];
  }

  private numberParam(e: Expr): number {
    const v = e.kind === 'Num' ? e.value : this.param(e);
    // integral double params arrive wrapped (valueOf gives the number)
    const n = typeof v === 'object' && v !== null ? (v as { valueOf(): unknown }).valueOf() : v;
    if (typeof n !== 'number') fail();
    return n as number;
  }

  /** `nullSafeFilter(p)`: true only when p is TRUE. */
  private filter(e: Expr): Truth {
    const args = this.call(e, 'nullSafeFilter', 1);
    const p = this.predicate(args[0]!);
    return (v) => (p(v) === 1 ? 1 : 0);
  }

  private predicate(e: Expr): Truth {
    if (e.kind !== 'Call' || !isNamespace(e.object)) fail();
    const c = e as Extract<Expr, { kind: 'Call' }>;
    const cmp = COMPARISONS[c.name];
    if (cmp && c.args.length === 2) {
      this.ownMethod(c);
      const [l, r] = c.args as [Expr, Expr];
      const left = this.isDocValue(l);
      if (left === this.isDocValue(r)) fail();
      const k = this.numberParam(left ? r : l);
      if (k !== k) fail();
      this.constants.push(k);
      return left
        ? (v) => (v !== v ? -1 : cmp(javaDoubleCompare(v, k)) ? 1 : 0)
        : (v) => (v !== v ? -1 : cmp(javaDoubleCompare(k, v)) ? 1 : 0);
    }
    if ((c.name === 'and' || c.name === 'or') && c.args.length === 2) {
      this.ownMethod(c);
      const l = this.predicate(c.args[0]!);
      const r = this.predicate(c.args[1]!);
      return c.name === 'and'
        ? (v) => {
            const a = l(v);
            const b = r(v);
            return a === 0 || b === 0 ? 0 : a === -1 || b === -1 ? -1 : 1;
          }
        : (v) => {
            const a = l(v);
            const b = r(v);
            return a === 1 || b === 1 ? 1 : a === -1 || b === -1 ? -1 : 0;
          };
    }
    if (c.name === 'not' && c.args.length === 1) {
      this.ownMethod(c);
      const p = this.predicate(c.args[0]!);
      return (v) => {
        const a = p(v);
        return a === -1 ? -1 : a === 1 ? 0 : 1;
      };
    }
    if ((c.name === 'isNull' || c.name === 'isNotNull') && c.args.length === 1) {
      this.ownMethod(c);
      if (!this.isDocValue(c.args[0]!)) fail();
      return c.name === 'isNull' ? (v) => (v !== v ? 1 : 0) : (v) => (v !== v ? 0 : 1);
    }
    return fail();
  }

  private call(e: Expr, name: string, arity: number): Expr[] {
    if (e.kind !== 'Call' || !isNamespace(e.object) || e.name !== name) fail();
    const c = e as Extract<Expr, { kind: 'Call' }>;
    if (c.args.length !== arity) fail();
    this.ownMethod(c);
    return c.args;
  }

  /** The script must call the methods this decision stands for (provided by the caller). */
  private ownMethod(c: Extract<Expr, { kind: 'Call' }>): void {
    const ns = (c.object as { name: string }).name;
    if (typeof this.methods[`${ns}.${c.name}`] !== 'function') fail();
  }

  /** `docValue(doc, 'f')` / `docValue(doc, params.x)` over the one field. */
  private isDocValue(e: Expr): boolean {
    if (e.kind !== 'Call' || !isNamespace(e.object) || e.name !== 'docValue') return false;
    const c = e as Extract<Expr, { kind: 'Call' }>;
    const ns = (c.object as { name: string }).name;
    const m = this.methods[`${ns}.docValue`] as { [FIRST_DOC_VALUE]?: boolean } | undefined;
    if (!m || m[FIRST_DOC_VALUE] !== true || c.args.length !== 2) fail();
    if (!isVar(c.args[0]!, 'doc')) fail();
    const f = c.args[1]!;
    const name = f.kind === 'Str' ? f.value : this.param(f);
    if (typeof name !== 'string') fail();
    if (this.field !== null && this.field !== name) fail();
    this.field = name as string;
    return true;
  }
}

const isVar = (e: Expr, name: string): boolean => e.kind === 'Var' && e.name === name;
const isNamespace = (e: Expr): boolean => e.kind === 'Var' && NAMESPACES.has(e.name);
