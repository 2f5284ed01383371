/**
 * The analyzer (ES Analyzer's Substitution/Resolution batches, done as one structured pass over the
 * AST): FROM to relations, the SELECT list with `*` expanded and aliases assigned (ResolveAliases),
 * WHERE with SELECT aliases as fallback (ResolveFilterRefs), GROUP BY with ordinals and aliases,
 * implicit grouping (ProjectedAggregations, HavingOverProject), HAVING with its aggregates pushed
 * into the Aggregate (ResolveAggsInHaving), ORDER BY with ordinals, aliases, missing columns and
 * aggregates (ResolveOrdinalInOrderByAndGroupBy, ResolveMissingRefs, ResolveAggsInOrderBy), PIVOT,
 * TOP/LIMIT. What cannot be resolved is left `Unresolved` for the verifier.
 */
import type * as A from '../ast/nodes.js';
import { qualifiedIndex } from '../ast/nodes.js';
import {
  literal,
  type Alias,
  type Attribute,
  type Expr,
  type NamedExpr,
  type Src,
} from '../expression/nodes.js';
import { containsAggregate, isFoldable } from '../expression/props.js';
import { fold } from '../expression/evaluate.js';
import type { EvalContext } from '../functions/definition.js';
import { isInteger } from '../../functions/data-types.js';
import type { LogicalPlan } from '../plan/logical.js';
import { planOutput } from '../plan/logical.js';
import { resolveAgainst, unknownColumn, unresolved } from './resolve-attribute.js';
import { resolveExpression, srcOf, type ResolveContext, type Scope } from './resolve-expression.js';
import {
  primitiveAttributes,
  relationOutput,
  requalify,
  tableSrc,
  type Catalog,
} from './relations.js';
import { SourceText } from './source-text.js';
import { applyHaving } from './having.js';
import { applyOrderBy } from './order-by.js';
import { analyzePivot } from './pivot.js';
import { offsetPlan } from './query-extensions.js';
import { unionNotTopLevel } from '../plan/union.js';
import { analyzeJoin } from './join.js';

export interface AnalyzeOptions {
  readonly catalog: Catalog;
  readonly cfg: EvalContext;
  /** The statement text (for clause sources quoted in messages). */
  readonly sql: string;
}

/** Per-analysis state shared by the clause helpers. */
export interface AnalyzerState {
  readonly ctx: ResolveContext;
  readonly text: SourceText;
  newId(): number;
  resolve(e: A.Expression, scope: Scope): Expr;
}

export function analyzeQuery(q: A.Query, opts: AnalyzeOptions): LogicalPlan {
  let id = 1;
  const ctx: ResolveContext = { cfg: opts.cfg };
  const state: AnalyzerState = {
    ctx,
    text: new SourceText(opts.sql),
    newId: () => id++,
    resolve: (e, scope) => resolveExpression(e, scope, ctx),
  };
  const ctes = new Map<string, A.QueryNoWith>();
  for (const n of q.with) ctes.set(n.name, n.query);
  return new QueryAnalyzer(state, opts.catalog, ctes).queryNoWith(q.body);
}

class QueryAnalyzer {
  constructor(
    private readonly s: AnalyzerState,
    private readonly catalog: Catalog,
    private readonly ctes: ReadonlyMap<string, A.QueryNoWith>,
  ) {}

  queryNoWith(q: A.QueryNoWith): LogicalPlan {
    // EXTENSION: a top-level UNION is planned per branch (translate/union.ts)
    if (q.unions !== undefined) throw unionNotTopLevel(q.unions[0]!.loc);
    let plan =
      q.term.kind === 'QuerySpecification' ? this.specification(q.term) : this.queryNoWith(q.term);
    if (q.orderBy.length > 0) plan = applyOrderBy(this.s, plan, q.orderBy);
    if (q.offset !== undefined) plan = offsetPlan(plan, q.offset);
    if (q.limit !== null && q.limit.count !== null) {
      plan = {
        kind: 'Limit',
        child: plan,
        limit: q.limit.count,
        src: locSrc(q.limit.loc, 'LIMIT'),
      };
    }
    return plan;
  }

  private relation(r: A.Relation): LogicalPlan {
    switch (r.kind) {
      case 'TableRelation': {
        const name = qualifiedIndex(r.table);
        const src = tableSrc(r.table, name);
        const cte = r.table.catalog === null ? this.ctes.get(r.table.index) : undefined;
        if (cte) return requalify(this.queryNoWith(cte), r.alias ?? r.table.index);
        const index = this.catalog.resolveIndex(name, r.frozen);
        if (index === null) {
          return { kind: 'UnresolvedRelation', name, message: `Unknown index [${name}]`, src };
        }
        const output = relationOutput(index, r.alias ?? name, src, this.s.newId);
        return { kind: 'EsRelation', index, output, frozen: r.frozen, src };
      }
      case 'SubqueryRelation': {
        const plan = this.queryNoWith(r.query);
        return r.alias !== null ? requalify(plan, r.alias) : plan;
      }
      case 'ParenthesizedRelation': {
        const plan = this.relation(r.relation);
        return r.alias !== null ? requalify(plan, r.alias) : plan;
      }
      case 'JoinRelation':
        return analyzeJoin(this.s, r, (x) => this.relation(x));
    }
  }

  private from(f: A.FromClause | null, spec: A.QuerySpecification): LogicalPlan {
    if (f === null) {
      return { kind: 'LocalRelation', output: [], row: [], src: locSrc(spec.loc, 'SELECT') };
    }
    let plan = this.relation(f.relations[0]!);
    for (let i = 1; i < f.relations.length; i++) {
      const r = f.relations[i]!;
      plan = {
        kind: 'UnresolvedRelation',
        name: 'JOIN',
        message: 'Queries with multiple implicit joins are not supported',
        src: locSrc(r.loc, ''),
      };
    }
    if (f.pivot !== null) plan = analyzePivot(this.s, plan, f.pivot);
    return plan;
  }

  specification(spec: A.QuerySpecification): LogicalPlan {
    const s = this.s;
    let plan = this.from(spec.from, spec);
    const input = planOutput(plan);
    const projections = this.selectList(spec.selectItems, input);
    const aliases = projections.filter((p): p is Alias => p.kind === 'Alias');
    const aliasFallback = (name: string): Expr | null => {
      const a = aliases.find((x) => x.name === name);
      return a ? a.child : null;
    };
    if (spec.where !== null) {
      const condition = s.resolve(spec.where, { attrs: input, fallback: aliasFallback });
      plan = { kind: 'Filter', child: plan, condition, src: srcOf({ ...spec, sourceText: '' }) };
    }
    const grouped = spec.groupBy !== null || projections.some((p) => containsAggregate(p));
    if (spec.groupBy !== null) {
      const groupings = this.groupBy(spec.groupBy, projections, input, aliasFallback);
      plan = { kind: 'Aggregate', child: plan, groupings, aggregates: projections, src: plan.src };
    } else if (grouped) {
      plan = {
        kind: 'Aggregate',
        child: plan,
        groupings: [],
        aggregates: projections,
        src: plan.src,
      };
    } else {
      plan = { kind: 'Project', child: plan, projections, src: plan.src };
    }
    if (spec.having !== null) plan = applyHaving(s, plan, spec.having, input);
    if (spec.distinct) {
      plan = {
        kind: 'Distinct',
        child: plan,
        src: locSrc(s.text.distinctLoc(spec.loc), 'DISTINCT'),
      };
    }
    if (spec.top !== null) {
      plan = {
        kind: 'Limit',
        child: plan,
        limit: spec.top.count,
        src: locSrc(spec.top.loc, 'TOP'),
      };
    }
    return plan;
  }

  /** ES ResolveRefs.expandProjections + ResolveAliases. */
  private selectList(items: readonly A.SelectItem[], input: readonly Attribute[]): NamedExpr[] {
    const out: NamedExpr[] = [];
    for (const item of items) {
      const e = item.expression;
      if (e.kind === 'Star') {
        out.push(...this.expandStar(e, input));
        continue;
      }
      const resolved = this.s.resolve(e, { attrs: input });
      out.push(this.named(resolved, item.alias, e.sourceText));
    }
    return out;
  }

  /** ES ResolveAliases: keep attributes, name casts after their field, else the source text. */
  named(e: Expr, alias: string | null, sourceText: string): NamedExpr {
    if (alias !== null) return this.alias(alias, e);
    if (e.kind === 'Field' || e.kind === 'Ref' || e.kind === 'Unresolved') return e;
    if (e.kind === 'Cast' && (e.child.kind === 'Field' || e.child.kind === 'Ref')) {
      return this.alias(e.child.name, e);
    }
    return this.alias(sourceText, e);
  }

  private alias(name: string, child: Expr): Alias {
    return {
      kind: 'Alias',
      id: this.s.newId(),
      name,
      child,
      dataType: child.dataType,
      src: child.src,
    };
  }

  /** ES ResolveRefs.expandStar. */
  private expandStar(star: A.Star, input: readonly Attribute[]): NamedExpr[] {
    if (star.qualifier === null) return primitiveAttributes(input);
    const q = star.qualifier;
    const src = srcOf(star);
    const qsrc = srcOf(q);
    // the table (or its alias) as qualifier
    if (input.some((a) => a.kind === 'Field' && a.qualifier === q.name)) {
      return primitiveAttributes(input.filter((a) => a.kind === 'Field' && a.qualifier === q.name));
    }
    const found = resolveAgainst(q.name, input, qsrc, true);
    if (found === null) return [unknownColumn(q.name, input, qsrc)];
    if (found.kind === 'Unresolved') return [found];
    const children = input.filter(
      (a) => a.kind === 'Field' && a.dataType !== 'UNSUPPORTED' && a.parentName === found.name,
    );
    if (children.length === 0) {
      return [
        unresolved(star.sourceText, `Cannot determine columns for [${star.sourceText}]`, src),
      ];
    }
    return children.filter((a) => a.dataType !== 'OBJECT' && a.dataType !== 'NESTED');
  }

  /** GROUP BY: ordinals (ES ResolveOrdinalInOrderByAndGroupBy), columns, then SELECT aliases. */
  private groupBy(
    g: A.GroupBy,
    projections: readonly NamedExpr[],
    input: readonly Attribute[],
    aliasFallback: (name: string) => Expr | null,
  ): Expr[] {
    const last = g.expressions[g.expressions.length - 1]!;
    const first = g.expressions[0]!;
    return g.expressions.map((e) => {
      const src = srcOf(e);
      const ordinal = this.ordinal(e);
      if (ordinal !== null) {
        // the clause's text, quoted by the messages about ordinals only
        const clause = this.s.text.groupByClause(first.loc, last.loc, last.sourceText);
        const max = projections.length;
        if (ordinal < 1 || ordinal > max) {
          return unresolved(
            clause,
            `Invalid ordinal [${ordinal}] specified in [${clause}] (valid range is [1, ${max}])`,
            src,
          );
        }
        const ref = projections[ordinal - 1]!;
        if (containsAggregate(ref)) {
          return unresolved(
            clause,
            `Ordinal [${ordinal}] in [${clause}] refers to an invalid argument, aggregate function [${ref.src.text}]`,
            src,
          );
        }
        return ref.kind === 'Alias' ? ref.child : ref;
      }
      // only a bare name may refer to a SELECT alias (ES ResolveRefs on Aggregate)
      const scope: Scope =
        e.kind === 'Column' ? { attrs: input, fallback: aliasFallback } : { attrs: input };
      return this.s.resolve(e, scope);
    });
  }

  private ordinal(e: A.Expression): number | null {
    if (e.kind !== 'Literal' && e.kind !== 'Negate') return null;
    const r = this.s.resolve(e, { attrs: [] });
    if (!isFoldable(r) || !isInteger(r.dataType)) return null;
    const v = fold(r, this.s.ctx.cfg);
    return typeof v === 'number' ? Math.trunc(v) : null;
  }
}

export const locSrc = (loc: A.Loc, text: string): Src => ({
  text,
  line: loc.line,
  column: loc.column,
});

export { literal };
