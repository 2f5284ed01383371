/**
 * The verifier (ES analysis.analyzer.Verifier): first what did not resolve (unknown indices,
 * columns, functions, type errors, SELECT DISTINCT), bottom-up; when that is clean, the semantic
 * checks (grouping, HAVING, WHERE on aggregates, SCORE placement, nested fields, PIVOT, matrix
 * stats, casts on inexact fields). Failures render as ES's `verification_exception`:
 * "Found 1 problem\nline 1:8: Unknown column [x]".
 */
import { EsError } from '../../common/errors.js';
import { DATA_TYPES, isString } from '../../functions/data-types.js';
import {
  anyMatch,
  childrenOf,
  collectFirst,
  forEachDown,
  forEachUp,
  type Expr,
  type FieldAttr,
  type Src,
} from '../expression/nodes.js';
import {
  exprName,
  isAggregate,
  isFoldable,
  isGrouping,
  semanticEquals,
} from '../expression/props.js';
import type { Aggregate, LogicalPlan } from '../plan/logical.js';
import { forEachPlanDown, forEachPlanUp, planExpressions } from '../plan/logical.js';

export interface Failure {
  readonly src: Src;
  readonly message: string;
}

/** ES VerificationException (Failure.failMessage). */
export function verificationException(failures: readonly Failure[]): EsError {
  const header = `Found ${failures.length} problem${failures.length > 1 ? 's' : ''}\n`;
  const body = failures.map((f) => `line ${f.src.line}:${f.src.column}: ${f.message}`).join('\n');
  return new EsError('verification_exception', header + body, 400);
}

class Failures {
  readonly list: Failure[] = [];
  private readonly seen = new Set<string>();
  add(src: Src, message: string): void {
    const key = `${src.line}:${src.column}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ src, message });
  }
}

/** An expression with an unresolved node in it. */
const hasUnresolved = (e: Expr): boolean => anyMatch(e, (x) => x.kind === 'Unresolved');

/**
 * What one walk over a resolved plan's expressions finds: the alias definitions (ES attributeRefs)
 * and whether the node kinds the rarer checks look for occur at all. A check whose kind is absent
 * would find nothing, so it is skipped rather than walking the plan again.
 */
interface PlanFacts {
  readonly refs: Map<number, Expr>;
  fullText: boolean;
  score: boolean;
  grouping: boolean;
  nested: boolean;
  matrixStats: boolean;
  shapes: boolean;
}

function planFacts(plan: LogicalPlan): PlanFacts {
  const facts: PlanFacts = {
    refs: new Map(),
    fullText: false,
    score: false,
    grouping: false,
    nested: false,
    matrixStats: false,
    shapes: false,
  };
  const visit = (x: Expr): void => {
    switch (x.kind) {
      case 'Alias':
        facts.refs.set(x.id, x.child);
        break;
      case 'FullText':
        facts.fullText = true;
        break;
      case 'Score':
        facts.score = true;
        break;
      case 'Field':
        if (x.nestedParent !== null) facts.nested = true;
        if (x.dataType === 'GEO_SHAPE' || x.dataType === 'SHAPE') facts.shapes = true;
        break;
      case 'Agg':
        if (x.def.name === 'KURTOSIS' || x.def.name === 'SKEWNESS') facts.matrixStats = true;
        break;
    }
    if (isGrouping(x)) facts.grouping = true;
  };
  forEachPlanUp(plan, (p) => {
    for (const e of planExpressions(p)) forEachUp(e, visit);
  });
  return facts;
}

export function verify(plan: LogicalPlan): Failure[] {
  const f = new Failures();
  // one walk, children first, carrying up whether everything below a node resolved (ES
  // LogicalPlan.resolved()): a unary node's child is the node visited just before it
  let belowResolved = true;
  forEachPlanUp(plan, (p) => {
    // when the children are unresolved so is this node; reporting it only adds noise
    if ('child' in p && !belowResolved) return;
    let resolved = true;
    if (p.kind === 'UnresolvedRelation') {
      f.add(p.src, p.message);
      resolved = false;
    } else if (p.kind === 'Distinct') {
      f.add(p.src, 'SELECT DISTINCT is not yet supported');
      resolved = !planExpressions(p).some(hasUnresolved);
    } else {
      for (const e of planExpressions(p)) {
        forEachUp(e, (x) => {
          if (x.kind === 'Unresolved') {
            f.add(x.src, x.message);
            resolved = false;
          }
        });
      }
    }
    belowResolved = resolved;
  });
  if (f.list.length > 0) return f.list;
  const facts = planFacts(plan);
  // ES attributeRefs: references to SELECT aliases stand for the aliased expression
  const refs = facts.refs;
  const deref = (e: Expr): Expr =>
    e.kind === 'Ref' && refs.has(e.id) ? deref(refs.get(e.id)!) : e;
  if (facts.fullText) checkFullTextInSelect(plan, f);
  forEachPlanDown(plan, (p) => {
    if (facts.grouping) checkGroupingFunctions(p, f);
    checkFilters(p, f, deref);
    if (p.kind === 'Aggregate') checkAggregate(p, f);
    if (p.kind === 'Filter' && p.child.kind === 'Aggregate') checkHaving(p.condition, f, deref);
    if (facts.score) checkScoreInFunctions(p, f);
    if (facts.nested) checkNested(p, f);
    if (facts.matrixStats) checkMatrixStats(p, f);
    if (p.kind === 'Pivot') checkPivot(p, f);
  });
  if (facts.shapes) checkGeoShapesOnDocValues(plan, f);
  return f.list;
}

/**
 * ES checkForGeoFunctionsOnDocValues: geo_shape / shape fields have no doc values, so they may not
 * be filtered, grouped or sorted on. Filters are checked first, then groupings, then sorts, and
 * (ES Failure equality is the node's) one failure is kept per field.
 */
function checkGeoShapesOnDocValues(plan: LogicalPlan, f: Failures): void {
  const reported = new Set<string>();
  // An ORDER BY may name a SELECT alias: what the alias stands for is what gets sorted on.
  const aliases = new Map<number, Expr>();
  forEachPlanDown(plan, (p) => {
    for (const e of planExpressions(p))
      forEachUp(e, (x) => {
        if (x.kind === 'Alias') aliases.set(x.id, x.child);
      });
  });
  const scan = (e: Expr, what: string, seen = new Set<number>()): void =>
    forEachUp(e, (x) => {
      if (x.kind === 'Ref' && !seen.has(x.id) && aliases.has(x.id)) {
        seen.add(x.id);
        scan(aliases.get(x.id)!, what, seen);
        return;
      }
      if (x.kind !== 'Field' || (x.dataType !== 'GEO_SHAPE' && x.dataType !== 'SHAPE')) return;
      if (reported.has(x.name)) return;
      reported.add(x.name);
      f.add(x.src, `${x.dataType === 'SHAPE' ? 'shapes' : 'geo shapes'} ${what}`);
    });
  forEachPlanDown(plan, (p) => {
    if (p.kind === 'Filter') scan(p.condition, 'cannot be used for filtering');
  });
  forEachPlanDown(plan, (p) => {
    if (p.kind === 'Aggregate') for (const g of p.groupings) scan(g, 'cannot be used in grouping');
  });
  forEachPlanDown(plan, (p) => {
    if (p.kind === 'OrderBy') for (const o of p.orders) scan(o.child, 'cannot be used for sorting');
  });
  // QUARRY: an aggregate other than COUNT reads doc values, which shapes lack: ES fails such a
  // query when its search runs; refused here rather than answered with nulls.
  forEachPlanDown(plan, (p) => {
    if (p.kind !== 'Aggregate') return;
    for (const a of p.aggregates)
      forEachUp(a, (x) => {
        if (x.kind === 'Agg' && x.def.name !== 'COUNT')
          for (const arg of x.args) scan(arg, 'cannot be used in aggregations');
      });
  });
}

function checkFullTextInSelect(plan: LogicalPlan, f: Failures): void {
  forEachPlanUp(plan, (p) => {
    if (p.kind !== 'Project') return;
    for (const ne of p.projections) {
      forEachUp(ne, (e) => {
        if (e.kind === 'FullText') {
          f.add(
            e.src,
            'Cannot use MATCH() or QUERY() full-text search functions in the SELECT clause',
          );
        }
      });
    }
  });
}

function checkGroupingFunctions(p: LogicalPlan, f: Failures): void {
  const needs = (e: Expr) => f.add(e.src, `[${exprName(e)}] needs to be part of the grouping`);
  if (p.kind === 'Project') {
    for (const ne of p.projections) forEachDown(ne, (e) => isGrouping(e) && needs(e));
  } else if (p.kind === 'Aggregate') {
    for (const ne of p.aggregates) {
      forEachDown(ne, (e) => {
        if (!isGrouping(e)) return;
        if (p.groupings.length === 0 || !p.groupings.some((g) => semanticEquals(g, e))) needs(e);
      });
    }
    for (const g of p.groupings) {
      forEachDown(g, (e) => {
        if (!isGrouping(e) || e.kind !== 'Fn') return;
        const field = e.args[0]!;
        if (anyMatch(field, isGrouping)) {
          f.add(
            field.src,
            `Cannot embed grouping functions within each other, found [${exprName(field)}] in [${exprName(e)}]`,
          );
        }
      });
    }
  }
}

function checkFilters(p: LogicalPlan, f: Failures, deref: (e: Expr) => Expr): void {
  if (p.kind !== 'Filter') return;
  if (p.child.kind !== 'Aggregate') {
    forEachDown(p.condition, (e) => {
      if (isAggregate(deref(e))) {
        f.add(
          e.src,
          `Cannot use WHERE filtering on aggregate function [${exprName(e)}], use HAVING instead`,
        );
      }
    });
  }
  forEachDown(p.condition, (e) => {
    if (isGrouping(deref(e))) {
      f.add(e.src, `Cannot filter on grouping function [${exprName(e)}], use its argument instead`);
    }
    if (e.kind === 'Cast' && e.child.kind === 'Field') {
      const fa = e.child;
      if (!fa.field.exact.hasExact || fa.field.exact.exactName !== null) {
        f.add(
          fa.src,
          `[${fa.src.text}] of data type [${DATA_TYPES[fa.dataType].typeName}] cannot be used for [CAST()] inside the WHERE clause`,
        );
      }
    }
  });
}

/** ES checkGroupByInexactField, checkGroupByAgg, checkGroupByTime. */
function checkAggregate(a: Aggregate, f: Failures): void {
  let ok = true;
  for (const g of a.groupings) {
    forEachUp(g, (c) => {
      if (c.kind === 'Field' && !c.field.exact.hasExact) {
        f.add(
          c.src,
          `Field [${c.src.text}] of data type [${DATA_TYPES[c.dataType].typeName}] cannot be used for grouping; ${c.field.exact.errorMsg}`,
        );
        ok = false;
      }
    });
  }
  if (!ok) return;
  const before = f.list.length;
  for (const g of a.groupings) {
    forEachUp(g, (c) => {
      if (isAggregate(c)) {
        const name = c.kind === 'Agg' ? c.def.name : c.kind === 'InnerAgg' ? c.inner.def.name : '';
        f.add(c.src, `Cannot use an aggregate [${name}] for grouping`);
      }
      if (c.kind === 'Score') f.add(c.src, 'Cannot use [SCORE()] for grouping');
    });
    if (!isGrouping(g)) {
      for (const c of collectFirst(g, isGrouping)) {
        f.add(
          c.src,
          `Cannot combine [${exprName(c)}] grouping function inside GROUP BY, found [${exprName(g)}]; consider moving the expression inside the histogram`,
        );
      }
    }
  }
  if (f.list.length > before) return;
  const missing = new Map<string, { e: Expr; at: Src }>();
  for (const ne of a.aggregates) {
    const target = ne.kind === 'Alias' ? ne.child : ne;
    checkGroupMatch(target, ne.src, a.groupings, missing);
  }
  if (missing.size > 0) {
    const items = [...missing.values()];
    f.add(
      items[0]!.at,
      `Cannot use non-grouped column${items.length > 1 ? 's' : ''} [${items.map((m) => exprName(m.e)).join(', ')}], expected [${a.groupings.map(exprName).join(', ')}]`,
    );
    return;
  }
  for (const g of a.groupings) {
    if (g.dataType === 'TIME') {
      f.add(g.src, `Function [${g.src.text}] with data type [time] cannot be used for grouping`);
    }
  }
}

function checkGroupMatch(
  e: Expr,
  at: Src,
  groupings: readonly Expr[],
  missing: Map<string, { e: Expr; at: Src }>,
): void {
  if (groupings.some((g) => semanticEquals(g, e))) return;
  if (e.kind === 'Score') {
    missing.set(exprName(e), { e, at });
    return;
  }
  if (isFoldable(e) || isAggregate(e)) return;
  const kids = childrenOf(e);
  if (kids.length === 0) {
    if (e.kind === 'Field' || e.kind === 'Ref') missing.set(exprName(e), { e, at });
    return;
  }
  for (const k of kids) checkGroupMatch(k, at, groupings, missing);
}

/** ES checkGroupByHaving. */
function checkHaving(condition: Expr, f: Failures, deref: (e: Expr) => Expr): void {
  const missing: Expr[] = [];
  const unsupported: Expr[] = [];
  const visit = (ref: Expr): void => {
    const e = deref(ref);
    if (e.kind === 'Score') return void unsupported.push(e);
    if (e.kind === 'Agg' && (e.def.name === 'FIRST' || e.def.name === 'LAST')) {
      return void unsupported.push(e);
    }
    if (
      e.kind === 'Agg' &&
      (e.def.name === 'MIN' || e.def.name === 'MAX') &&
      isString(e.args[0]!.dataType)
    ) {
      return void unsupported.push(e);
    }
    if (isFoldable(e) || isAggregate(e) || isGrouping(e)) return;
    if (e.kind === 'Field' || e.kind === 'Ref') return void missing.push(ref);
    childrenOf(e).forEach(visit);
  };
  visit(condition);
  const names = (xs: Expr[]) => [...new Set(xs.map(exprName))].join(', ');
  if (missing.length > 0) {
    f.add(
      condition.src,
      `Cannot use HAVING filter on non-aggregate${missing.length > 1 ? 's' : ''} [${names(missing)}]; use WHERE instead`,
    );
  } else if (unsupported.length > 0) {
    f.add(
      condition.src,
      `HAVING filter is unsupported for function${unsupported.length > 1 ? 's' : ''} [${names(unsupported)}]`,
    );
  }
}

function checkScoreInFunctions(p: LogicalPlan, f: Failures): void {
  for (const e of planExpressions(p)) {
    forEachUp(e, (x) => {
      if (x.kind !== 'Fn' && x.kind !== 'Agg') return;
      for (const arg of x.args) {
        if (anyMatch(arg, (y) => y.kind === 'Score')) {
          f.add(arg.src, '[SCORE()] cannot be an argument to a function');
        }
      }
    });
  }
}

const nestedFields = (e: Expr): FieldAttr[] => {
  const out: FieldAttr[] = [];
  forEachUp(e, (x) => {
    if (x.kind === 'Field' && x.nestedParent !== null) out.push(x);
  });
  return out;
};

function checkNested(p: LogicalPlan, f: Failures): void {
  const report = (list: FieldAttr[], what: string) => {
    if (list.length === 0) return;
    const names = [...new Set(list.map((x) => x.name))].join(', ');
    f.add(list[0]!.src, `${what} [${names}]`);
  };
  if (p.kind === 'Aggregate') {
    report(p.groupings.flatMap(nestedFields), "Grouping isn't (yet) compatible with nested fields");
  }
  if (p.kind === 'Filter') {
    if (p.child.kind === 'Aggregate') {
      report(nestedFields(p.condition), "HAVING isn't (yet) compatible with nested fields");
    }
    const inFunctions: FieldAttr[] = [];
    forEachUp(p.condition, (x) => {
      if (x.kind === 'Fn' || x.kind === 'Arith' || x.kind === 'Cast' || x.kind === 'Neg') {
        inFunctions.push(...childrenOf(x).flatMap(nestedFields));
      }
    });
    report(inFunctions, "WHERE isn't (yet) compatible with scalar functions on nested fields");
  }
  if (p.kind === 'OrderBy') {
    const inFunctions: FieldAttr[] = [];
    for (const o of p.orders) {
      forEachUp(o.child, (x) => {
        if (x.kind === 'Fn' || x.kind === 'Arith' || x.kind === 'Cast' || x.kind === 'Neg') {
          inFunctions.push(...childrenOf(x).flatMap(nestedFields));
        }
      });
    }
    report(inFunctions, "ORDER BY isn't (yet) compatible with scalar functions on nested fields");
  }
}

function checkMatrixStats(p: LogicalPlan, f: Failures): void {
  for (const e of planExpressions(p)) {
    forEachUp(e, (x) => {
      if (x.kind === 'Agg' && (x.def.name === 'KURTOSIS' || x.def.name === 'SKEWNESS')) {
        const arg = x.args[0]!;
        if (arg.kind !== 'Field' && arg.kind !== 'Literal') {
          f.add(arg.src, `[${x.def.name}()] cannot be used on top of operators or scalars`);
        }
      }
    });
  }
}

function checkPivot(p: Extract<LogicalPlan, { kind: 'Pivot' }>, f: Failures): void {
  const col = p.column;
  for (const v of p.values) {
    const ex = v.kind === 'Alias' ? v.child : v;
    if (ex.kind !== 'Literal') {
      f.add(v.src, `Non-literal [${exprName(v)}] found inside PIVOT values`);
    } else if (ex.value === null) {
      f.add(v.src, 'Null not allowed as a PIVOT value');
    }
  }
  for (const a of p.aggregates) {
    const aggs = collectFirst(a, (c) => isAggregate(c) || childrenOf(c).length === 0);
    if (!aggs.some(isAggregate)) {
      f.add(a.src, `No aggregate function found in PIVOT at [${a.src.text}]`);
    } else if (aggs.some((x) => x.kind === 'Field')) {
      f.add(a.src, `Non-aggregate function found in PIVOT at [${a.src.text}]`);
    }
  }
  void col;
}
