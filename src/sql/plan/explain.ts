/**
 * Plans and expressions as text, in the shape of ES's `nodeString()` tree dumps
 * (`Project[[first_name{f}#3, c{r}#9]]` under `\_`-prefixed children): what EXPLAIN/DEBUG print
 * and what the plan goldens compare.
 */
import { javaToString } from '../../functions/java-text.js';
import { isoDateTimeWithMillis, isoTimeWithMillis } from '../../functions/datetime/iso.js';
import { DateTimeValue, TimeValue } from '../../functions/values.js';
import type { Expr } from '../expression/nodes.js';
import type { LogicalPlan, Order } from './logical.js';

function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v;
  if (v instanceof DateTimeValue) return isoDateTimeWithMillis(v);
  if (v instanceof TimeValue) return isoTimeWithMillis(v);
  if (Array.isArray(v)) return `[${v.map(valueText).join(', ')}]`;
  return javaToString(v);
}

/** ES Expression.toString(). */
export function exprText(e: Expr): string {
  const t = exprText;
  switch (e.kind) {
    case 'Literal':
      return valueText(e.value);
    case 'Field':
      return `${e.name}{f}#${e.id}`;
    case 'Ref':
      return `${e.name}{r}#${e.id}`;
    case 'Alias':
      return `${t(e.child)} AS ${e.name}#${e.id}`;
    case 'Fn':
      return `${e.def.name}(${e.args.map(t).join(', ')})`;
    case 'Agg':
      return `${e.def.name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map(t).join(', ')})`;
    case 'InnerAgg':
      return `${t(e.inner)}->${e.compound}.${e.innerName}${e.innerKey !== null ? `[${valueText(e.innerKey)}]` : ''}`;
    case 'Score':
      return 'SCORE()';
    case 'Cast':
      return `CAST(${t(e.child)} AS ${e.dataType})`;
    case 'Arith':
      return `${t(e.left)} ${e.op} ${t(e.right)}`;
    case 'Neg':
      return `-${t(e.child)}`;
    case 'Cmp':
      return `${t(e.left)} ${e.op} ${t(e.right)}`;
    case 'And':
      return `${t(e.left)} AND ${t(e.right)}`;
    case 'Or':
      return `${t(e.left)} OR ${t(e.right)}`;
    case 'Not':
      return `NOT(${t(e.child)})`;
    case 'In':
      return `${t(e.value)} IN(${e.list.map(t).join(', ')})`;
    case 'Range':
      return `${t(e.lower)} ${e.includeLower ? '<=' : '<'} ${t(e.value)} ${e.includeUpper ? '<=' : '<'} ${t(e.upper)}`;
    case 'IsNull':
      return `${t(e.child)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'Like':
      return `${t(e.child)} LIKE ${e.pattern}`;
    case 'RLike':
      return `${t(e.child)} RLIKE ${e.pattern}`;
    case 'FullText':
      return e.src.text;
    case 'Unresolved':
      return `?${e.name}`;
  }
}

const list = (xs: readonly Expr[]) => `[${xs.map(exprText).join(', ')}]`;
const orderText = (o: Order) => `${exprText(o.child)} ${o.direction} NULLS ${o.nulls}`;

/** One node (ES nodeString()). */
export function nodeText(p: LogicalPlan): string {
  switch (p.kind) {
    case 'EsRelation':
      return `EsRelation[${p.index.name}]${p.frozen ? '[frozen]' : ''}${list(p.output)}`;
    case 'LocalRelation':
      return `LocalRelation[${p.row === null ? 'EMPTY' : list(p.row)}]`;
    case 'UnresolvedRelation':
      return `UnresolvedRelation[${p.name}]`;
    case 'Filter':
      return `Filter[${exprText(p.condition)}]`;
    case 'Project':
      return `Project[${list(p.projections)}]`;
    case 'Aggregate':
      return `Aggregate[${list(p.groupings)},${list(p.aggregates)}]`;
    case 'OrderBy':
      return `OrderBy[[${p.orders.map(orderText).join(', ')}]]`;
    case 'Limit':
      return `Limit[${p.limit}]`;
    case 'Pivot':
      return `Pivot[${exprText(p.column)},${list(p.values)},${list(p.aggregates)}]`;
    case 'Distinct':
      return 'Distinct';
    case 'Offset':
      return `Offset[${p.offset}]`;
    case 'Join':
      return `Join[${p.joinType},${exprText(p.condition)}]`;
  }
}

/** The whole tree, one node per line, children indented under `\_` (a JOIN's two inputs too). */
export function planText(p: LogicalPlan): string {
  const lines: string[] = [];
  const walk = (start: LogicalPlan, depth: number) => {
    let node: LogicalPlan | null = start;
    while (node !== null) {
      lines.push(depth === 0 ? nodeText(node) : `${'  '.repeat(depth - 1)}\\_${nodeText(node)}`);
      if (node.kind === 'Join') {
        walk(node.left, depth + 1);
        walk(node.right, depth + 1);
      }
      node = 'child' in node ? node.child : null;
      depth++;
    }
  };
  walk(p, 0);
  return lines.join('\n') + '\n';
}
