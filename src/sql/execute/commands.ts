/**
 * Metadata commands (ES plan.logical.command): SHOW TABLES / COLUMNS (DESCRIBE) / FUNCTIONS /
 * SCHEMAS and the JDBC/ODBC driver queries SYS TABLES / COLUMNS / TYPES. They read index names,
 * aliases and merged mappings and never search.
 */
import type * as A from '../ast/nodes.js';
import { qualifiedIndex } from '../ast/nodes.js';
import { likeToJavaPattern } from '../../functions/like.js';
import {
  DATA_TYPES,
  isPrimitive,
  isString,
  type DataTypeName,
} from '../../functions/data-types.js';
import { showFunctions } from '../functions/registry.js';
import {
  displaySize,
  metaSqlDataType,
  metaSqlDateTimeSub,
  metaSqlRadix,
  sqlType,
  SYS_TYPES_COLUMNS,
  sysTypesRows,
} from '../types/jdbc.js';
import type { EsField, EsIndex } from '../analyze/es-index.js';
import type { ColumnMeta } from './cursors.js';

/** An index or alias as SHOW TABLES lists it (ES IndexResolver.IndexInfo). */
export interface TableInfo {
  readonly name: string;
  readonly type: 'TABLE' | 'VIEW' | 'FROZEN TABLE';
}

/** What commands need to know about the cluster. */
export interface CommandCatalog {
  readonly clusterName: string;
  /** The request's `index_include_frozen` (ES SqlConfiguration.includeFrozen). */
  readonly includeFrozen: boolean;
  /**
   * Index and alias names matching an index wildcard expression (`a*,-ab`); frozen indices only
   * with `includeFrozen` (then typed `FROZEN TABLE`).
   */
  tables(expression: string, includeFrozen: boolean): TableInfo[];
  /** The merged mapping behind an expression, or null. */
  mergedIndex(expression: string, includeFrozen: boolean): EsIndex | null;
  /** One EsIndex per concrete index matching the expression. */
  separateIndices(expression: string, includeFrozen: boolean): EsIndex[];
}

/** IndexType.toSql: frozen indices are plain tables to SQL clients. */
const sqlTableType = (t: TableInfo): 'TABLE' | 'VIEW' => (t.type === 'VIEW' ? 'VIEW' : 'TABLE');

export interface CommandResult {
  readonly columns: readonly ColumnMeta[];
  readonly rows: unknown[][];
}

const kw = (...names: string[]): ColumnMeta[] => names.map((name) => ({ name, type: 'KEYWORD' }));

/** ES LikePattern.asIndexNameWildcard: `%`/`_` become `*`. */
function indexWildcard(p: A.LikePattern): string {
  let out = '';
  for (let i = 0; i < p.pattern.length; i++) {
    const c = p.pattern[i]!;
    if (p.escape !== null && c === p.escape && i + 1 < p.pattern.length) {
      out += p.pattern[++i];
    } else out += c === '%' || c === '_' ? '*' : c;
  }
  return out;
}

/** ES StringUtils.likeToUnescaped: the pattern text with its escape characters removed. */
function unescaped(p: A.LikePattern | null): string {
  if (p === null) return '';
  let out = '';
  for (let i = 0; i < p.pattern.length; i++) {
    const c = p.pattern[i]!;
    if (p.escape !== null && c === p.escape && i + 1 < p.pattern.length) out += p.pattern[++i];
    else out += c;
  }
  return out;
}

const regexOf = (p: A.LikePattern | null): RegExp | null =>
  p === null ? null : new RegExp(`^(?:${likeToJavaPattern(p.pattern, p.escape)})$`, 's');

function expressionOf(table: A.TableIdentifier | null, pattern: A.LikePattern | null): string {
  return table !== null ? qualifiedIndex(table) : pattern !== null ? indexWildcard(pattern) : '*';
}

function matchingTables(
  cat: CommandCatalog,
  table: A.TableIdentifier | null,
  pattern: A.LikePattern | null,
  includeFrozen: boolean,
): TableInfo[] {
  const re = regexOf(pattern);
  return cat
    .tables(expressionOf(table, pattern), includeFrozen)
    .filter((t) => re === null || re.test(t.name));
}

function showTables(cmd: A.ShowTables, cat: CommandCatalog): CommandResult {
  const frozen = cmd.includeFrozen || cat.includeFrozen;
  const rows = matchingTables(cat, cmd.table, cmd.pattern, frozen).map((t) => [
    t.name,
    sqlTableType(t),
    t.type === 'VIEW' ? 'ALIAS' : t.type === 'FROZEN TABLE' ? 'FROZEN INDEX' : 'INDEX',
  ]);
  return { columns: kw('name', 'type', 'kind'), rows };
}

function columnRows(fields: readonly EsField[], prefix: string | null, rows: unknown[][]): void {
  for (const f of fields) {
    const name = prefix !== null ? `${prefix}.${f.leaf}` : f.leaf;
    rows.push([name, sqlType(f.dataType).name, DATA_TYPES[f.dataType].typeName]);
    if (f.properties.length > 0) columnRows(f.properties, name, rows);
  }
}

function showColumns(cmd: A.ShowColumns, cat: CommandCatalog): CommandResult {
  const index = cat.mergedIndex(
    expressionOf(cmd.table, cmd.pattern),
    cmd.includeFrozen || cat.includeFrozen,
  );
  const rows: unknown[][] = [];
  if (index !== null) columnRows(index.fields, null, rows);
  return { columns: kw('column', 'type', 'mapping'), rows };
}

function sysTables(cmd: A.SysTables, cat: CommandCatalog): CommandResult {
  const columns = kw(
    'TABLE_CAT',
    'TABLE_SCHEM',
    'TABLE_NAME',
    'TABLE_TYPE',
    'REMARKS',
    'TYPE_CAT',
    'TYPE_SCHEM',
    'TYPE_NAME',
    'SELF_REFERENCING_COL_NAME',
    'REF_GENERATION',
  );
  const cluster = cat.clusterName;
  const types = cmd.indexTypes;
  const cp = cmd.catalogPattern;
  if (
    (cp === null || cp.pattern === '%') &&
    cmd.pattern?.pattern === '' &&
    cmd.table === null &&
    types === null
  ) {
    return { columns, rows: [[cluster, null, null, null, null, null, null, null, null, null]] };
  }
  if (types === null && cp?.pattern === '' && cmd.pattern?.pattern === '' && cmd.table === null) {
    const rows = ['TABLE', 'VIEW'].map((t) => [
      null,
      null,
      null,
      t,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    return { columns, rows };
  }
  const cre = regexOf(cp);
  if (cre !== null && !cre.test(cluster)) return { columns, rows: [] };
  const wanted =
    types === null ? null : new Set(types.map((t) => (t === 'ALIAS' ? 'VIEW' : 'TABLE')));
  const rows = matchingTables(cat, cmd.table, cmd.pattern, cat.includeFrozen)
    .filter((t) => wanted === null || wanted.has(sqlTableType(t)))
    .map((t) => ({ name: t.name, type: sqlTableType(t) }))
    .sort((a, b) =>
      a.type < b.type ? -1 : a.type > b.type ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )
    .map((t) => [cluster, null, t.name, t.type, '', null, null, null, null, null]);
  return { columns, rows };
}

function sysColumnRows(
  cluster: string,
  indexName: string,
  fields: readonly EsField[],
  prefix: string | null,
  rows: unknown[][],
  matcher: RegExp | null,
  pos: { n: number },
  odbc: boolean,
): void {
  const num = (v: number | null) => v;
  for (const f of fields) {
    pos.n++;
    const name = prefix !== null ? `${prefix}.${f.leaf}` : f.leaf;
    const t: DataTypeName = f.dataType;
    if (isPrimitive(t) && t !== 'UNSUPPORTED' && (matcher === null || matcher.test(name))) {
      rows.push([
        cluster,
        null,
        indexName,
        name,
        num(sqlType(t).vendorTypeNumber),
        t,
        displaySize(t),
        DATA_TYPES[t].size,
        null,
        num(metaSqlRadix(t)),
        1,
        null,
        null,
        num(metaSqlDataType(t)),
        num(metaSqlDateTimeSub(t)),
        isString(t) || t === 'BINARY' ? DATA_TYPES[t].size : null,
        pos.n,
        'YES',
        null,
        null,
        null,
        null,
        'NO',
        'NO',
      ]);
    }
    if (f.properties.length > 0 && t !== 'NESTED') {
      sysColumnRows(cluster, indexName, f.properties, name, rows, matcher, pos, odbc);
    }
  }
}

function sysColumns(cmd: A.SysColumns, cat: CommandCatalog, odbc: boolean): CommandResult {
  const small: string = odbc ? 'SHORT' : 'INTEGER';
  const columns: ColumnMeta[] = [
    ...kw('TABLE_CAT', 'TABLE_SCHEM', 'TABLE_NAME', 'COLUMN_NAME'),
    { name: 'DATA_TYPE', type: small },
    ...kw('TYPE_NAME'),
    { name: 'COLUMN_SIZE', type: 'INTEGER' },
    { name: 'BUFFER_LENGTH', type: 'INTEGER' },
    { name: 'DECIMAL_DIGITS', type: small },
    { name: 'NUM_PREC_RADIX', type: small },
    { name: 'NULLABLE', type: small },
    ...kw('REMARKS', 'COLUMN_DEF'),
    { name: 'SQL_DATA_TYPE', type: small },
    { name: 'SQL_DATETIME_SUB', type: small },
    { name: 'CHAR_OCTET_LENGTH', type: 'INTEGER' },
    { name: 'ORDINAL_POSITION', type: 'INTEGER' },
    ...kw('IS_NULLABLE', 'SCOPE_CATALOG', 'SCOPE_SCHEMA', 'SCOPE_TABLE'),
    { name: 'SOURCE_DATA_TYPE', type: 'SHORT' },
    ...kw('IS_AUTOINCREMENT', 'IS_GENERATEDCOLUMN'),
  ];
  const cluster = cat.clusterName;
  if (cmd.catalog !== null && cmd.catalog.length > 0 && cmd.catalog !== cluster)
    return { columns, rows: [] };
  const pattern = cmd.tablePattern;
  const expression = expressionOf(cmd.table, pattern);
  const matcher = regexOf(cmd.columnPattern);
  const rows: unknown[][] = [];
  if (expression === '*') {
    const tableRe = regexOf(pattern);
    for (const idx of cat.separateIndices('*', cat.includeFrozen)) {
      if (tableRe !== null && !tableRe.test(idx.name)) continue;
      sysColumnRows(cluster, idx.name, idx.fields, null, rows, matcher, { n: 0 }, odbc);
    }
  } else {
    const idx = cat.mergedIndex(expression, cat.includeFrozen);
    // ES SysColumns: the table name is the pattern unescaped (`test\_emp` ESCAPE '\' is test_emp)
    const name = cmd.table !== null ? qualifiedIndex(cmd.table) : unescaped(pattern);
    if (idx !== null) sysColumnRows(cluster, name, idx.fields, null, rows, matcher, { n: 0 }, odbc);
  }
  return { columns, rows };
}

/** Runs a metadata command (EXPLAIN/DEBUG are handled by the session). */
export function runCommand(
  cmd: Exclude<A.Command, A.Explain | A.Debug>,
  cat: CommandCatalog,
  mode: string,
): CommandResult {
  switch (cmd.kind) {
    case 'ShowTables':
      return showTables(cmd, cat);
    case 'ShowColumns':
      return showColumns(cmd, cat);
    case 'ShowFunctions':
      return {
        columns: kw('name', 'type'),
        rows: showFunctions(cmd.pattern?.pattern ?? null, cmd.pattern?.escape ?? null),
      };
    case 'ShowSchemas':
      return { columns: kw('schema'), rows: [] };
    case 'SysTables':
      return sysTables(cmd, cat);
    case 'SysColumns':
      return sysColumns(cmd, cat, mode === 'odbc');
    case 'SysTypes':
      return {
        columns: SYS_TYPES_COLUMNS.map((c) => ({ name: c.name, type: c.type })),
        rows: sysTypesRows(cmd.type),
      };
  }
}
