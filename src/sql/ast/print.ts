/**
 * AST -> SQL text. The output parses back to the same AST (positions and source text aside):
 * sub-expressions are parenthesised unless atomic, literals are written in a form that lexes
 * to the same type (`1.0` stays a double, dates as ODBC escapes), names are double-quoted when
 * they are not plain identifiers, and parameter literals print as `?`.
 */
import { keywords, nonReservedKeywords } from '../../../grammar/sql/tokens.js';
import type {
  Expression,
  IntervalValue,
  LikePattern,
  Literal,
  Node,
  NodeKind,
  QueryNoWith,
  Relation,
  Statement,
  TableIdentifier,
} from './nodes.js';
import { dispatch } from './transform.js';
import type { FullTransformMap } from './transform.js';

const RESERVED = new Set(
  keywords
    .map((k) => (k.PATTERN as RegExp).source)
    .filter((word) => !nonReservedKeywords.has(word)),
);

/** An identifier as written back: bare when SqlBase.g4 reads it as one, else double-quoted. */
export function printIdentifier(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_@]*$/.test(name) && !RESERVED.has(name.toUpperCase())) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

export function printString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Prints a statement or any node. */
export function printSql(node: Node): string {
  return dispatch(PRINT, node, undefined);
}

// Kinds that need no parentheses wherever an expression operand goes.
const ATOMIC = new Set<NodeKind>([
  'Column',
  'Star',
  'FunctionCall',
  'Case',
  'Exists',
  'ScalarSubquery',
  'MatchQuery',
  'MultiMatchQuery',
  'StringQuery',
]);

/** An operand: parenthesised unless atomic (a negative number is not: `(-1)::int`). */
function operand(e: Expression): string {
  const text = printSql(e);
  const atomic =
    ATOMIC.has(e.kind) ||
    (e.kind === 'Cast' && e.syntax !== '::') ||
    (e.kind === 'Literal' && !text.startsWith('-'));
  return atomic ? text : `(${text})`;
}

function printLiteral(l: Literal): string {
  if (l.paramIndex !== null) return '?';
  const v = l.value;
  switch (l.dataType) {
    case 'null':
      return 'NULL';
    case 'boolean':
      return v ? 'TRUE' : 'FALSE';
    case 'double':
    case 'float': {
      const text = String(v);
      return /[.e]/.test(text) ? text : `${text}.0`;
    }
    case 'date':
      return `{d ${printString(v as string)}}`;
    case 'time':
      return `{t ${printString(v as string)}}`;
    case 'datetime':
      return `{ts ${printString(v as string)}}`;
    default:
      if (typeof v === 'string') return printString(v);
      if (typeof v === 'object' && v !== null) return printInterval(l.dataType, v as IntervalValue);
      return String(v);
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// `INTERVAL '<value>' <qualifier>` in the string form of the interval's own type
function printInterval(dataType: string, value: IntervalValue): string {
  const qualifier = dataType.substring('interval_'.length).replace(/_/g, ' ').toUpperCase();
  if (value.kind === 'YearMonth') {
    const negative = value.years < 0 || value.months < 0;
    const [y, m] = [Math.abs(value.years), Math.abs(value.months)];
    const body =
      qualifier === 'YEAR TO MONTH' ? `${y}-${m}` : qualifier === 'YEAR' ? `${y}` : `${m}`;
    return `INTERVAL '${negative ? '-' : ''}${body}' ${qualifier}`;
  }
  const negative = value.millis < 0;
  let rest = Math.abs(value.millis);
  const leading = qualifier.split(' ')[0]!;
  const unitMillis: Record<string, number> = {
    DAY: 86400000,
    HOUR: 3600000,
    MINUTE: 60000,
    SECOND: 1000,
  };
  const parts: number[] = [];
  for (const unit of ['DAY', 'HOUR', 'MINUTE', 'SECOND']) {
    if (parts.length === 0 && unit !== leading) continue;
    const size = unitMillis[unit]!;
    parts.push(Math.floor(rest / size));
    rest %= size;
    if (qualifier.endsWith(unit)) break;
  }
  const [first, ...others] = parts;
  let body = String(first);
  if (leading === 'DAY' && others.length > 0) body += ` ${others.map((p) => pad(p)).join(':')}`;
  else if (others.length > 0) body += `:${others.map((p) => pad(p)).join(':')}`;
  if (qualifier.endsWith('SECOND') && rest > 0) body += `.${pad(rest, 3)}`;
  return `INTERVAL '${negative ? '-' : ''}${body}' ${qualifier}`;
}

function printPattern(p: LikePattern): string {
  return printString(p.pattern) + (p.escape === null ? '' : ` ESCAPE ${printString(p.escape)}`);
}

function printTable(t: TableIdentifier): string {
  return (t.catalog === null ? '' : `${printIdentifier(t.catalog)}:`) + printIdentifier(t.index);
}

const alias = (name: string | null) => (name === null ? '' : ` AS ${printIdentifier(name)}`);
const not = (negated: boolean) => (negated ? ' NOT' : '');
const options = (opts: readonly string[]) => opts.map((o) => `, ${printString(o)}`).join('');
const orNull = (s: string | null) => (s === null ? 'NULL' : printString(s));

function printRelation(r: Relation): string {
  return printSql(r);
}

function printTerm(q: QueryNoWith['term']): string {
  return q.kind === 'QueryNoWith' ? `(${printSql(q)})` : printSql(q);
}

const PRINT: FullTransformMap<string> = {
  Literal: printLiteral,
  Column: (n) => n.parts.map(printIdentifier).join('.'),
  Star: (n) => (n.qualifier === null ? '*' : `${printSql(n.qualifier)}.*`),
  FunctionCall: (n) => {
    const name = /^(LEFT|RIGHT)$/i.test(n.name) ? n.name : printIdentifier(n.name);
    if (n.resolution === 'EXTRACT') return `EXTRACT(${name} FROM ${operand(n.args[0]!)})`;
    const distinct = n.resolution === 'DISTINCT' ? 'DISTINCT ' : '';
    return `${name}(${distinct}${n.args.map(printSql).join(', ')})`;
  },
  Cast: (n) => {
    const type = printIdentifier(n.typeName);
    if (n.syntax === 'CAST') return `CAST(${printSql(n.expression)} AS ${type})`;
    if (n.syntax === 'CONVERT') return `CONVERT(${printSql(n.expression)}, ${type})`;
    return `${operand(n.expression)}::${type}`;
  },
  Arithmetic: (n) => `${operand(n.left)} ${n.operator} ${operand(n.right)}`,
  Negate: (n) => `-${operand(n.operand)}`,
  Comparison: (n) => `${operand(n.left)} ${n.operator} ${operand(n.right)}`,
  And: (n) => `${operand(n.left)} AND ${operand(n.right)}`,
  Or: (n) => `${operand(n.left)} OR ${operand(n.right)}`,
  Not: (n) => `NOT ${operand(n.operand)}`,
  Between: (n) =>
    `${operand(n.value)}${not(n.negated)} BETWEEN ${operand(n.lower)} AND ${operand(n.upper)}`,
  In: (n) => `${operand(n.value)}${not(n.negated)} IN (${n.list.map(operand).join(', ')})`,
  Like: (n) => `${operand(n.value)}${not(n.negated)} LIKE ${printPattern(n.pattern)}`,
  RLike: (n) => `${operand(n.value)}${not(n.negated)} RLIKE ${orNull(n.pattern)}`,
  IsNull: (n) => `${operand(n.value)} IS${not(n.negated)} NULL`,
  Case: (n) =>
    [
      'CASE',
      ...(n.operand === null ? [] : [printSql(n.operand)]),
      ...n.whens.map(printSql),
      ...(n.elseResult === null ? [] : [`ELSE ${printSql(n.elseResult)}`]),
      'END',
    ].join(' '),
  When: (n) => `WHEN ${printSql(n.condition)} THEN ${printSql(n.result)}`,
  MatchQuery: (n) => `MATCH(${printSql(n.field)}, ${orNull(n.query)}${options(n.options)})`,
  MultiMatchQuery: (n) => `MATCH(${orNull(n.fields)}, ${orNull(n.query)}${options(n.options)})`,
  StringQuery: (n) => `QUERY(${orNull(n.query)}${options(n.options)})`,
  Exists: (n) => `EXISTS (${printSql(n.query)})`,
  ScalarSubquery: (n) => `(${printSql(n.query)})`,

  Query: (n) => {
    const ctes = n.with.map(printSql).join(', ');
    return (ctes ? `WITH ${ctes} ` : '') + printSql(n.body);
  },
  NamedQuery: (n) => `${printIdentifier(n.name)} AS (${printSql(n.query)})`,
  QueryNoWith: (n) =>
    printTerm(n.term) +
    (n.unions ?? []).map((u) => ` UNION ${u.all ? 'ALL ' : ''}${printTerm(u.term)}`).join('') +
    (n.orderBy.length > 0 ? ` ORDER BY ${n.orderBy.map(printSql).join(', ')}` : '') +
    (n.limit === null ? '' : ` ${printSql(n.limit)}`) +
    (n.offset === undefined ? '' : ` OFFSET ${n.offset.count}`),
  QuerySpecification: (n) =>
    [
      'SELECT',
      ...(n.top === null ? [] : [printSql(n.top)]),
      ...(n.distinct ? ['DISTINCT'] : []),
      n.selectItems.map(printSql).join(', '),
      ...(n.from === null ? [] : [printSql(n.from)]),
      ...(n.where === null ? [] : [`WHERE ${printSql(n.where)}`]),
      ...(n.groupBy === null ? [] : [printSql(n.groupBy)]),
      ...(n.having === null ? [] : [`HAVING ${printSql(n.having)}`]),
    ].join(' '),
  SelectItem: (n) => printSql(n.expression) + alias(n.alias),
  Top: (n) => `TOP ${n.count}`,
  OrderBy: (n) =>
    printSql(n.expression) +
    (n.direction === 'DESC' ? ' DESC' : '') +
    (n.nulls === null ? '' : ` NULLS ${n.nulls}`),
  Limit: (n) => `LIMIT ${n.count === null ? 'ALL' : n.count}`,
  GroupBy: (n) =>
    `GROUP BY ${n.distinct ? 'DISTINCT ' : ''}${n.expressions.map(printSql).join(', ')}`,
  FromClause: (n) =>
    `FROM ${n.relations.map(printRelation).join(', ')}` +
    (n.pivot === null ? '' : ` ${printSql(n.pivot)}`),
  TableRelation: (n) => `${n.frozen ? 'FROZEN ' : ''}${printTable(n.table)}${alias(n.alias)}`,
  SubqueryRelation: (n) => `(${printSql(n.query)})${alias(n.alias)}`,
  ParenthesizedRelation: (n) => `(${printSql(n.relation)})${alias(n.alias)}`,
  JoinRelation: (n) =>
    `${printSql(n.left)} ${n.joinType === 'LEFT' ? 'LEFT OUTER' : 'INNER'} JOIN ${printSql(n.right)} ON ${printSql(n.condition)}`,
  TableIdentifier: printTable,
  Pivot: (n) =>
    `PIVOT (${n.aggregates.map(printSql).join(', ')} FOR ${printSql(n.column)} IN (` +
    `${n.values.map(printSql).join(', ')}))`,
  NamedValue: (n) => operand(n.expression) + alias(n.alias),
  LikePattern: (n) => `LIKE ${printPattern(n)}`,

  Explain: (n) => {
    const opts = [
      ...(n.type === null ? [] : [`PLAN ${n.type}`]),
      ...(n.format === 'TEXT' ? [] : [`FORMAT ${n.format}`]),
      ...(n.verify ? [] : ['VERIFY FALSE']),
    ];
    return `EXPLAIN ${opts.length > 0 ? `(${opts.join(' ')}) ` : ''}${printSql(n.statement)}`;
  },
  Debug: (n) => {
    const opts = [
      ...(n.type === null ? [] : [`PLAN ${n.type}`]),
      ...(n.format === 'TEXT' ? [] : [`FORMAT ${n.format}`]),
    ];
    return `DEBUG ${opts.length > 0 ? `(${opts.join(' ')}) ` : ''}${printSql(n.statement)}`;
  },
  ShowTables: (n) =>
    `SHOW TABLES${n.includeFrozen ? ' INCLUDE FROZEN' : ''}` + target(n.table, n.pattern),
  ShowColumns: (n) =>
    `SHOW COLUMNS${n.includeFrozen ? ' INCLUDE FROZEN' : ''} IN` + target(n.table, n.pattern),
  ShowFunctions: (n) => `SHOW FUNCTIONS${n.pattern === null ? '' : ` ${printSql(n.pattern)}`}`,
  ShowSchemas: () => 'SHOW SCHEMAS',
  SysTables: (n) =>
    'SYS TABLES' +
    (n.catalogPattern === null ? '' : ` CATALOG ${printSql(n.catalogPattern)}`) +
    target(n.table, n.pattern) +
    (n.types.length > 0 ? ` TYPE ${n.types.map(orNull).join(', ')}` : ''),
  SysColumns: (n) =>
    'SYS COLUMNS' +
    (n.catalog === null ? '' : ` CATALOG ${printString(n.catalog)}`) +
    (n.tablePattern === null ? '' : ` TABLE ${printSql(n.tablePattern)}`) +
    (n.table === null ? '' : ` ${printTable(n.table)}`) +
    (n.columnPattern === null ? '' : ` ${printSql(n.columnPattern)}`),
  SysTypes: (n) => `SYS TYPES ${n.type}`,
};

function target(table: TableIdentifier | null, pattern: LikePattern | null): string {
  if (pattern !== null) return ` ${printSql(pattern)}`;
  return table === null ? '' : ` ${printTable(table)}`;
}

/** Prints a statement (alias of printSql for the statement union). */
export function printStatement(statement: Statement): string {
  return printSql(statement);
}
