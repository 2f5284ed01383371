/**
 * Folding (ES Mapper + QueryFolder): an optimized plan that reads an index becomes one
 * QueryContainer, bottom-up as ES's FoldFilter/FoldProject/FoldAggregate/FoldOrderBy/FoldLimit/
 * FoldPivot/PlanOutputToQueryRef rules do. Example: `SELECT gender, COUNT(*) FROM emp GROUP BY
 * gender HAVING COUNT(*) > 10` folds to a composite `groupby` over `gender` whose bucket doc count
 * is the COUNT(*) column and a `bucket_selector` reading `_count`.
 */
import { sqlIllegalArgument } from '../../functions/errors.js';
import { DATA_TYPES, type DataTypeName } from '../../functions/data-types.js';
import { IntervalDayTime, IntervalYearMonth } from '../../functions/values.js';
import type { Agg, Attribute, Expr, FieldAttr, InnerAgg } from '../expression/nodes.js';
import { childrenOf, unalias } from '../expression/nodes.js';
import { containsAggregate, exprKey, isAggregate, isFoldable } from '../expression/props.js';
import { fold as foldValue } from '../expression/evaluate.js';
import type { Aggregate, LogicalPlan, OrderBy, Pivot } from '../plan/logical.js';
import { planOutput, pivotGrouping } from '../plan/logical.js';
import type { GroupKey, LeafAgg, AggSource } from './aggs.js';
import type { Column, ColumnRef, QueryContainer, SortSpec } from './container.js';
import { toAggFilter, toQuery, type AggFilter } from './query.js';
import { combine, withNestedField, type Query } from './query-dsl.js';
import { asScript, type ScriptContext } from './script.js';
import { exprName } from '../expression/props.js';

const DAY_MS = 86_400_000;

/** The canonical id of an attribute or expression (ES Expressions.id). */
export const idOf = (e: Expr): string => exprKey(unalias(e));

const isDateBased = (t: DataTypeName) => t === 'DATE' || t === 'DATETIME';

/** ES SqlDataTypes.isFromDocValuesOnly. */
const fromDocValuesOnly = (t: DataTypeName) =>
  t === 'KEYWORD' ||
  t === 'DATE' ||
  t === 'DATETIME' ||
  t === 'SCALED_FLOAT' ||
  t === 'CONSTANT_KEYWORD' ||
  t === 'GEO_POINT' ||
  t === 'SHAPE';

class Folder {
  query: Query | null = null;
  readonly groups: GroupKey[] = [];
  readonly groupIdByKey = new Map<string, GroupKey>();
  readonly aggs: LeafAgg[] = [];
  readonly aggIdByKey = new Map<string, string>();
  readonly pipelines: AggFilter[] = [];
  fields: Column[] = [];
  readonly sort = new Map<string, SortSpec>();
  limit = -1;
  offset = 0;
  trackHits = false;
  includeFrozen = false;
  minPageSize = -1;
  /** Set once an Aggregate folded: ORDER BY over aggregates then sorts its rows in memory. */
  aggregated: { grouped: boolean } | null = null;
  readonly aliases = new Map<string, Expr>();
  private nextGroup = 0;
  private nextAgg = 0;
  indices: readonly string[] = [];
  pattern = '';

  constructor(readonly ctx: ScriptContext) {}

  /** Folds one plan node over its folded child; returns the node's output. */
  fold(p: LogicalPlan): readonly Attribute[] {
    switch (p.kind) {
      case 'EsRelation':
        this.indices = p.index.concreteIndices;
        this.pattern = p.index.name;
        this.includeFrozen = p.frozen;
        return p.output;
      case 'Filter': {
        const out = this.fold(p.child);
        if (p.child.kind === 'Aggregate') {
          this.pipelines.push(toAggFilter(p.condition, this.ctx, (e) => this.havingName(e)));
        } else {
          this.query = combine(true, this.query, toQuery(p.condition, this.ctx));
        }
        return out;
      }
      case 'Project': {
        this.fold(p.child);
        for (const ne of p.projections) {
          if (ne.kind === 'Alias') this.aliases.set(`R(${ne.id})`, ne.child);
        }
        return planOutput(p);
      }
      case 'Aggregate':
        this.fold(p.child);
        this.foldAggregate(p);
        return planOutput(p);
      case 'OrderBy': {
        const out = this.fold(p.child);
        this.foldOrderBy(p);
        return out;
      }
      case 'Limit': {
        const out = this.fold(p.child);
        this.limit = this.limit < 0 ? p.limit : Math.min(this.limit, p.limit);
        return out;
      }
      case 'Offset': {
        // rows [offset, offset + limit) of the child: skipping also shortens an inner LIMIT
        const out = this.fold(p.child);
        this.offset += p.offset;
        if (this.limit >= 0) this.limit = Math.max(this.limit - p.offset, 0);
        return out;
      }
      case 'Pivot':
        this.fold(p.child);
        this.foldPivot(p);
        return planOutput(p);
      default:
        throw sqlIllegalArgument('Cannot fold [{}] into a query', [p.kind]);
    }
  }

  private havingName(e: Expr): string {
    const target =
      e.kind === 'Cmp' ? e.left : e.kind === 'In' ? e.value : e.kind === 'Range' ? e.value : e;
    const name =
      this.aggIdByKey.get(exprKey(target)) ??
      this.groupIdByKey.get(exprKey(target))?.id ??
      exprName(target);
    // aggregation names may not contain `[`, `]` or `>` (ES AggregatorFactories.VALID_AGG_NAME);
    // ES names these by the expression's hex hash code (Expressions.id), so do the same
    return /[[\]>]/.test(name) ? hexHash(exprKey(target)) : name;
  }

  // ---- output columns ------------------------------------------------------------------------

  /** ES QueryContainer.addColumn(Attribute). */
  addAttributeColumn(attr: Attribute): void {
    const e = this.aliases.get(exprKey(attr)) ?? attr;
    this.fields.push({ ref: this.extraction(e), id: idOf(e) });
  }

  private extraction(e: Expr): ColumnRef {
    const target = this.aliases.get(exprKey(e)) ?? e;
    if (target.kind === 'Field') return this.hitField(target);
    if (isFoldable(target)) return { kind: 'constant', value: foldValue(target, this.ctx.cfg) };
    if (target.kind === 'Score') return { kind: 'score' };
    const leaves = new Map<string, ColumnRef>();
    const collect = (x: Expr) => {
      const t = this.aliases.get(exprKey(x)) ?? x;
      if (t.kind === 'Field' || t.kind === 'Score') leaves.set(exprKey(x), this.extraction(t));
      else if (!isFoldable(t)) childrenOf(t).forEach(collect);
    };
    collect(target);
    return { kind: 'computed', expr: target, leaves };
  }

  /** ES QueryContainer.topHitFieldRef. */
  private hitField(f: FieldAttr): ColumnRef {
    if (f.nestedParent !== null) return this.nestedHitField(f, f.nestedParent);
    let name = f.name;
    let type = f.dataType;
    if (
      !f.field.isAlias &&
      f.parentName !== null &&
      !f.parentIsObject &&
      !fromDocValuesOnly(f.dataType)
    ) {
      name = f.parentName;
    }
    const docValue = f.field.isAlias
      ? f.field.aggregatable
      : fromDocValuesOnly(f.dataType)
        ? f.field.aggregatable
        : false;
    void type;
    return { kind: 'hit', name, dataType: f.dataType, docValue };
  }

  /** ES QueryContainer.nestedHitFieldRef: the field comes from the nested query's inner hits. */
  private nestedHitField(f: FieldAttr, path: string): ColumnRef {
    const docValue = fromDocValuesOnly(f.dataType);
    const format = isDateBased(f.dataType) || f.dataType === 'TIME' ? 'epoch_millis' : null;
    this.query = withNestedField(this.query, path, { name: f.name, docValue, format });
    return { kind: 'hit', name: f.name, dataType: f.dataType, docValue, hitName: path };
  }

  // ---- aggregations --------------------------------------------------------------------------

  private groupFor(e: Expr): GroupKey | null {
    return this.groupIdByKey.get(exprKey(e)) ?? null;
  }

  /** ES FoldAggregate.groupBy. */
  private addGroups(groupings: readonly Expr[]): void {
    for (const g of groupings) {
      const key = exprKey(g);
      if (this.groupIdByKey.has(key)) continue;
      const group = this.groupKey(g, `${this.nextGroup++}`);
      this.groups.push(group);
      this.groupIdByKey.set(key, group);
    }
  }

  private source(e: Expr, exact: boolean): AggSource {
    if (e.kind === 'Field') return { field: exact ? (e.field.exact.exactName ?? e.name) : e.name };
    return { script: asScript(e, this.ctx) };
  }

  private groupKey(g: Expr, id: string): GroupKey {
    const base = { id, direction: 'ASC' as const, exprKey: exprKey(g) };
    const zoneId = this.ctx.zoneId;
    if (g.kind === 'Field') {
      return {
        ...base,
        type: 'terms',
        source: this.source(g, true),
        dateTime: isDateBased(g.dataType),
      };
    }
    if (g.kind === 'Fn' && g.def.name === 'YEAR') {
      return {
        ...base,
        type: 'date_histogram',
        source: this.source(g.args[0]!, false),
        calendarInterval: '1y',
        zoneId,
        dateTime: true,
      };
    }
    if (g.kind === 'Fn' && g.def.name === 'HISTOGRAM') {
      const field = g.args[0]!;
      const interval = foldValue(g.args[1]!, this.ctx.cfg);
      if (isDateBased(g.dataType)) {
        const cal =
          interval instanceof IntervalYearMonth && interval.totalMonths === 12
            ? '1y'
            : interval instanceof IntervalYearMonth && interval.totalMonths === 1
              ? '1M'
              : interval instanceof IntervalDayTime && interval.millis === DAY_MS
                ? '1d'
                : null;
        if (cal !== null) {
          return {
            ...base,
            type: 'date_histogram',
            source: this.source(field, false),
            calendarInterval: cal,
            zoneId,
            dateTime: true,
          };
        }
        let ms =
          interval instanceof IntervalYearMonth
            ? interval.totalMonths * 30 * DAY_MS
            : interval instanceof IntervalDayTime
              ? interval.millis
              : Number(interval);
        if (g.dataType === 'DATE') ms = ms < DAY_MS ? DAY_MS : ms - (ms % DAY_MS);
        return {
          ...base,
          type: 'date_histogram',
          source: this.source(field, false),
          fixedIntervalMs: ms,
          zoneId,
          dateTime: true,
        };
      }
      return {
        ...base,
        type: 'histogram',
        source: this.source(field, false),
        interval: Number(interval),
        dateTime: false,
      };
    }
    return {
      ...base,
      type: 'terms',
      source: { script: asScript(g, this.ctx) },
      dateTime: isDateBased(g.dataType),
    };
  }

  private groupRef(group: GroupKey, e: Expr): ColumnRef {
    const year = group.type === 'date_histogram' && e.kind === 'Fn' && e.def.name === 'YEAR';
    return {
      kind: 'group',
      groupId: group.id,
      count: false,
      dateTime: year || isDateBased(e.dataType),
      year,
      dataType: e.dataType,
    };
  }

  /** ES FoldAggregate.fold. */
  private foldAggregate(a: Aggregate): void {
    for (const ne of a.aggregates) {
      if (ne.kind === 'Alias') this.aliases.set(`R(${ne.id})`, ne.child);
    }
    this.addGroups(a.groupings);
    const grouped = a.groupings.length > 0;
    this.aggregated = { grouped };
    for (const ne of a.aggregates) {
      const target = unalias(ne);
      const id = idOf(target);
      if (isFoldable(target)) {
        this.fields.push({ ref: { kind: 'constant', value: foldValue(target, this.ctx.cfg) }, id });
        continue;
      }
      const group = this.groupFor(target);
      if (group !== null) {
        this.fields.push({ ref: this.groupRef(group, target), id });
        continue;
      }
      if (isAggregate(target)) {
        this.fields.push({ ref: this.addAggFunction(target as Agg | InnerAgg, grouped), id });
        continue;
      }
      // a scalar over groups and/or aggregates: a computed column
      this.fields.push({ ref: this.computedOverAggs(target, grouped), id });
    }
    // only literals selected: keep the grouping keys so every bucket still yields a row
    if (grouped && a.aggregates.every((ne) => isFoldable(unalias(ne)))) {
      for (const g of a.groupings) {
        const group = this.groupFor(g)!;
        this.fields.push({ ref: this.groupRef(group, g), id: `${idOf(g)}#group` });
      }
    }
  }

  /** A scalar over grouping keys and aggregates, computed per bucket. */
  private computedOverAggs(target: Expr, grouped: boolean): ColumnRef {
    const leaves = new Map<string, ColumnRef>();
    const collect = (x: Expr): void => {
      const g = this.groupFor(x);
      if (g !== null) return void leaves.set(exprKey(x), this.groupRef(g, x));
      if (isAggregate(x))
        return void leaves.set(exprKey(x), this.addAggFunction(x as Agg | InnerAgg, grouped));
      if (isFoldable(x)) return;
      if (x.kind === 'Field' || x.kind === 'Ref' || x.kind === 'Score') {
        throw sqlIllegalArgument('Cannot find grouping for [{}]', [exprName(x)]);
      }
      childrenOf(x).forEach(collect);
    };
    collect(target);
    return { kind: 'computed', expr: target, leaves };
  }

  private newAggId(): string {
    return `${this.nextAgg++}`;
  }

  private addLeaf(key: string, make: (id: string) => LeafAgg): string {
    let id = this.aggIdByKey.get(key);
    if (id === undefined) {
      id = this.newAggId();
      this.aggIdByKey.set(key, id);
      this.aggs.push(make(id));
    }
    return id;
  }

  /** ES FoldAggregate.addAggFunction. */
  addAggFunction(f: Agg | InnerAgg, grouped: boolean): ColumnRef {
    const dateTime = isDateBased(f.dataType);
    if (f.kind === 'InnerAgg') {
      const field = f.field;
      const compoundKey = `${f.compound}(${exprKey(field)})${f.values.length ? `[${f.values.join(',')}]` : ''}`;
      const aggId = this.addLeaf(compoundKey, (id) => {
        const source = this.source(field, false);
        switch (f.compound) {
          case 'percentiles':
          case 'percentile_ranks':
            return { kind: f.compound, id, source, values: f.values };
          case 'matrix_stats':
            return {
              kind: 'matrix_stats',
              id,
              fields: [field.kind === 'Field' ? field.name : exprName(field)],
            };
          default:
            return { kind: 'metric', type: f.compound, id, source };
        }
      });
      this.aggIdByKey.set(exprKey(f.inner), aggId);
      return {
        kind: 'metric',
        aggId,
        property: f.innerName,
        innerKey: f.innerKey,
        dateTime,
        dataType: f.dataType,
      };
    }
    const arg = f.args[0]!;
    const name = f.def.name;
    if (name === 'COUNT') {
      if (isFoldable(arg)) {
        if (!grouped) {
          this.trackHits = true;
          return { kind: 'globalCount' };
        }
        const last = this.groups[this.groups.length - 1]!;
        return {
          kind: 'group',
          groupId: last.id,
          count: true,
          dateTime: false,
          year: false,
          dataType: 'LONG',
        };
      }
      if (!f.distinct) {
        const aggId = this.addLeaf(exprKey(f), (id) => ({
          kind: 'filter_exists',
          id,
          source: this.source(arg, false),
        }));
        return {
          kind: 'metric',
          aggId,
          property: '_count',
          innerKey: null,
          dateTime: false,
          dataType: 'LONG',
        };
      }
      const aggId = this.addLeaf(exprKey(f), (id) => ({
        kind: 'metric',
        type: 'cardinality',
        id,
        source: this.source(arg, true),
      }));
      return {
        kind: 'metric',
        aggId,
        property: null,
        innerKey: null,
        dateTime: false,
        dataType: 'LONG',
      };
    }
    if (name === 'FIRST' || name === 'LAST') {
      const sortArg = f.args[1] ?? null;
      const aggId = this.addLeaf(exprKey(f), (id) => ({
        kind: 'top_hits',
        id,
        source: this.source(arg, true),
        fieldType: arg.dataType,
        sortSource: sortArg !== null ? this.source(sortArg, true) : null,
        sortType: sortArg !== null ? sortArg.dataType : null,
        order: name === 'FIRST' ? 'asc' : 'desc',
      }));
      return { kind: 'topHits', aggId, dataType: f.dataType };
    }
    const type =
      name === 'AVG'
        ? 'avg'
        : name === 'SUM'
          ? 'sum'
          : name === 'MIN'
            ? 'min'
            : name === 'MAX'
              ? 'max'
              : name === 'MAD'
                ? 'median_absolute_deviation'
                : null;
    if (type === null)
      throw sqlIllegalArgument("Don't know how to translate {} {}", [name, f.src.text]);
    const aggId = this.addLeaf(exprKey(f), (id) => ({
      kind: 'metric',
      type,
      id,
      source: this.source(arg, false),
    }));
    return {
      kind: 'metric',
      aggId,
      property: null,
      innerKey: null,
      dateTime,
      dataType: f.dataType,
    };
  }

  /** ES FoldOrderBy. */
  private foldOrderBy(o: OrderBy): void {
    for (const ord of o.orders) {
      let e = ord.child;
      e = this.aliases.get(exprKey(e)) ?? e;
      const lookup = idOf(e);
      // a repeated item changes nothing: the first one already ordered by it (Map.set would
      // keep the first position but take the later direction)
      if (this.sort.has(lookup)) continue;
      const group = this.groupIdByKey.get(exprKey(e));
      if (group !== undefined) {
        const i = this.groups.indexOf(group);
        const updated: GroupKey = { ...group, direction: ord.direction };
        this.groups[i] = updated;
        this.groupIdByKey.set(exprKey(e), updated);
      }
      let spec: SortSpec;
      if (e.kind === 'Field') {
        const exact = e.field.exact.exactName ?? e.name;
        spec = {
          kind: 'field',
          field: exact,
          esType: DATA_TYPES[e.dataType].esType ?? e.dataType.toLowerCase(),
          direction: ord.direction,
          missing: ord.nulls,
          ...(e.nestedParent !== null ? { nested: e.nestedParent } : {}),
        };
      } else if (e.kind === 'Score') spec = { kind: 'score', direction: ord.direction };
      else if (isAggregate(e))
        spec = { kind: 'aggregate', direction: ord.direction, missing: ord.nulls };
      else if (this.aggregated !== null && containsAggregate(e)) {
        // an expression over aggregates (`AVG(x) - MIN(x)`, or its alias): ES sorts the buckets
        // in memory after fetching them all, as for a bare aggregate; a hidden column computes it
        // when the SELECT list does not
        if (!this.fields.some((f) => f.id === lookup)) {
          this.fields.push({ ref: this.computedOverAggs(e, this.aggregated.grouped), id: lookup });
        }
        spec = { kind: 'aggregate', direction: ord.direction, missing: ord.nulls };
      } else if (e.kind === 'Fn' && e.def.name === 'HISTOGRAM')
        spec = { kind: 'grouping', direction: ord.direction };
      else {
        const script = asScript(e, this.ctx);
        spec = { kind: 'script', script, direction: ord.direction };
      }
      // the composite keeps a key's null bucket first ascending and last descending (ES 7.10's
      // order when none is written): a written other null order (`ORDER BY gender NULLS LAST`)
      // sorts the rows in memory rather than being ignored
      const natural = ord.direction === 'ASC' ? 'FIRST' : 'LAST';
      if (group !== undefined && ord.nullsExplicit === true && ord.nulls !== natural) {
        if (!this.fields.some((f) => f.id === lookup)) {
          this.fields.push({ ref: this.groupRef(group, e), id: lookup });
        }
        spec = { kind: 'aggregate', direction: ord.direction, missing: ord.nulls };
      }
      this.sort.set(lookup, spec);
    }
  }

  /** ES FoldPivot: aggregate over grouping + pivot column, then one column per pivot value. */
  private foldPivot(p: Pivot): void {
    const grouping = pivotGrouping(p);
    const agg: Aggregate = {
      kind: 'Aggregate',
      child: p.child,
      groupings: grouping,
      aggregates: [...grouping, ...p.aggregates],
      src: p.src,
    };
    this.foldAggregate(agg);
    const fields = [...this.fields];
    const start = fields.length - p.aggregates.length - 1;
    const [pivotCol] = fields.splice(start, 1);
    const aggCols = fields.splice(start);
    const values = p.values.map((v) => foldValue(unalias(v), this.ctx.cfg));
    let n = 0;
    for (const aggCol of aggCols) {
      for (const value of values) {
        const attr = p.valueAttrs[n++]!;
        fields.push({
          ref: { kind: 'pivot', pivot: pivotCol!.ref, agg: aggCol.ref, value },
          id: exprKey(attr),
        });
      }
    }
    this.fields = fields;
    this.minPageSize = values.length;
  }
}

/** A deterministic 32-bit FNV-1a hash in hex (a stand-in for Java's hashCode). */
function hexHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** Folds an optimized plan that reads an index into its query container. */
export function foldToContainer(plan: LogicalPlan, ctx: ScriptContext): QueryContainer {
  const f = new Folder(ctx);
  const output = f.fold(plan);
  // ES PlanOutputToQueryRef: plain (non-aggregate) queries extract each output column
  if (f.fields.length === 0) for (const attr of output) f.addAttributeColumn(attr);
  const used = new Set<number>();
  const mask = output.map((attr) => {
    const target = f.aliases.get(exprKey(attr)) ?? attr;
    const id = idOf(target);
    const i = f.fields.findIndex(
      (c, idx) => !used.has(idx) && (c.id === id || c.id === exprKey(attr)),
    );
    if (i < 0)
      throw sqlIllegalArgument('Cannot resolve field extractor index for column [{}]', [attr.name]);
    used.add(i);
    return i;
  });
  return Object.freeze({
    indices: f.indices,
    pattern: f.pattern,
    query: f.query,
    groups: f.groups,
    aggs: f.aggs,
    aggIdByKey: f.aggIdByKey,
    pipelines: f.pipelines,
    fields: f.fields,
    sort: [...f.sort.entries()],
    limit: f.limit,
    ...(f.offset > 0 ? { offset: f.offset } : {}),
    trackHits: f.trackHits,
    includeFrozen: f.includeFrozen,
    minPageSize: f.minPageSize,
    mask,
    columns: output.map((a) => ({ name: a.name, dataType: a.dataType })),
  });
}

export type { QueryContainer };
