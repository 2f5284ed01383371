/**
 * Type names ES SQL accepts in CAST/CONVERT/`::` and in script `cast(v, 'TYPE')`
 * (SqlDataTypes.fromSqlOrEsType / fromOdbcType): ES type names upper-cased, ODBC names without
 * their SQL_ prefix (note FLOAT means DOUBLE and VARCHAR means TEXT), BOOL, INT and STRING.
 */
import { ALL_DATA_TYPES, DATA_TYPES, type DataTypeName } from './data-types.js';

/** SqlDataTypes.ODBC_TO_ES. */
export const ODBC_TO_ES: Readonly<Record<string, DataTypeName>> = Object.freeze({
  SQL_BIT: 'BOOLEAN',
  SQL_TINYINT: 'BYTE',
  SQL_SMALLINT: 'SHORT',
  SQL_INTEGER: 'INTEGER',
  SQL_BIGINT: 'LONG',
  SQL_REAL: 'FLOAT',
  SQL_FLOAT: 'DOUBLE',
  SQL_DOUBLE: 'DOUBLE',
  SQL_DECIMAL: 'DOUBLE',
  SQL_NUMERIC: 'DOUBLE',
  SQL_GUID: 'KEYWORD',
  SQL_CHAR: 'KEYWORD',
  SQL_WCHAR: 'KEYWORD',
  SQL_VARCHAR: 'TEXT',
  SQL_WVARCHAR: 'TEXT',
  SQL_LONGVARCHAR: 'TEXT',
  SQL_WLONGVARCHAR: 'TEXT',
  SQL_BINARY: 'BINARY',
  SQL_VARBINARY: 'BINARY',
  SQL_LONGVARBINARY: 'BINARY',
  SQL_DATE: 'DATE',
  SQL_TIME: 'TIME',
  SQL_TIMESTAMP: 'DATETIME',
  SQL_INTERVAL_YEAR: 'INTERVAL_YEAR',
  SQL_INTERVAL_MONTH: 'INTERVAL_MONTH',
  SQL_INTERVAL_DAY: 'INTERVAL_DAY',
  SQL_INTERVAL_HOUR: 'INTERVAL_HOUR',
  SQL_INTERVAL_MINUTE: 'INTERVAL_MINUTE',
  SQL_INTERVAL_SECOND: 'INTERVAL_SECOND',
  SQL_INTERVAL_YEAR_TO_MONTH: 'INTERVAL_YEAR_TO_MONTH',
  SQL_INTERVAL_DAY_TO_HOUR: 'INTERVAL_DAY_TO_HOUR',
  SQL_INTERVAL_DAY_TO_MINUTE: 'INTERVAL_DAY_TO_MINUTE',
  SQL_INTERVAL_DAY_TO_SECOND: 'INTERVAL_DAY_TO_SECOND',
  SQL_INTERVAL_HOUR_TO_MINUTE: 'INTERVAL_HOUR_TO_MINUTE',
  SQL_INTERVAL_HOUR_TO_SECOND: 'INTERVAL_HOUR_TO_SECOND',
  SQL_INTERVAL_MINUTE_TO_SECOND: 'INTERVAL_MINUTE_TO_SECOND',
});

/** SqlDataTypes.SQL_TO_ES. */
const SQL_TO_ES: ReadonlyMap<string, DataTypeName> = (() => {
  const m = new Map<string, DataTypeName>();
  for (const t of ALL_DATA_TYPES) {
    if (t !== 'OBJECT' && t !== 'NESTED') m.set(DATA_TYPES[t].typeName.toUpperCase(), t);
  }
  // the ODBC names without "SQL_" override the ES ones (FLOAT becomes DOUBLE)
  for (const [k, v] of Object.entries(ODBC_TO_ES)) m.set(k.slice(4), v);
  m.set('BOOL', 'BOOLEAN');
  m.set('INT', 'INTEGER');
  m.set('STRING', 'KEYWORD');
  return m;
})();

/** SqlDataTypes.fromSqlOrEsType (case-insensitive). */
export function fromSqlOrEsType(name: string): DataTypeName | null {
  return SQL_TO_ES.get(name.toUpperCase()) ?? null;
}

/** SqlDataTypes.fromOdbcType (expects the upper-case SQL_ name). */
export function fromOdbcType(name: string): DataTypeName | null {
  return ODBC_TO_ES[name] ?? null;
}

/**
 * ExpressionBuilder.dataType: the target of CAST/CONVERT/`::`: SQL_ names through ODBC, the rest
 * through fromSqlOrEsType. Returns null for unknown names (ES: "Does not recognize type [x]").
 */
export function castTargetType(name: string): DataTypeName | null {
  const up = name.toUpperCase();
  return up.startsWith('SQL_') ? fromOdbcType(up) : fromSqlOrEsType(up);
}
