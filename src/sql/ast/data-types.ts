/**
 * Data type names the parser resolves: CAST/CONVERT targets (ES `SqlDataTypes.fromSqlOrEsType`
 * and `fromOdbcType`) and REST parameter types (`SqlDataTypes.fromTypeName`). Unknown names
 * are parse errors in ES (`Does not recognize type [x]`, `Invalid parameter data type [x]`).
 */
import type { DataTypeName } from './nodes.js';

/** Every ES SQL type, by `typeName()` (SqlDataTypes.types()). */
const TYPE_NAMES: readonly DataTypeName[] = [
  'unsupported',
  'null',
  'boolean',
  'byte',
  'short',
  'integer',
  'long',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'keyword',
  'text',
  'constant_keyword',
  'datetime',
  'ip',
  'binary',
  'object',
  'nested',
  'date',
  'time',
  'interval_year',
  'interval_month',
  'interval_day',
  'interval_hour',
  'interval_minute',
  'interval_second',
  'interval_year_to_month',
  'interval_day_to_hour',
  'interval_day_to_minute',
  'interval_day_to_second',
  'interval_hour_to_minute',
  'interval_hour_to_second',
  'interval_minute_to_second',
  'geo_shape',
  'geo_point',
  'shape',
];

const BY_TYPE_NAME = new Map<string, DataTypeName>(TYPE_NAMES.map((n) => [n, n]));

// SqlDataTypes.ODBC_TO_ES
const ODBC_TO_ES = new Map<string, DataTypeName>([
  ['SQL_BIT', 'boolean'],
  ['SQL_TINYINT', 'byte'],
  ['SQL_SMALLINT', 'short'],
  ['SQL_INTEGER', 'integer'],
  ['SQL_BIGINT', 'long'],
  ['SQL_REAL', 'float'],
  ['SQL_FLOAT', 'double'],
  ['SQL_DOUBLE', 'double'],
  ['SQL_DECIMAL', 'double'],
  ['SQL_NUMERIC', 'double'],
  ['SQL_GUID', 'keyword'],
  ['SQL_CHAR', 'keyword'],
  ['SQL_WCHAR', 'keyword'],
  ['SQL_VARCHAR', 'text'],
  ['SQL_WVARCHAR', 'text'],
  ['SQL_LONGVARCHAR', 'text'],
  ['SQL_WLONGVARCHAR', 'text'],
  ['SQL_BINARY', 'binary'],
  ['SQL_VARBINARY', 'binary'],
  ['SQL_LONGVARBINARY', 'binary'],
  ['SQL_DATE', 'date'],
  ['SQL_TIME', 'time'],
  ['SQL_TIMESTAMP', 'datetime'],
  ['SQL_INTERVAL_YEAR', 'interval_year'],
  ['SQL_INTERVAL_MONTH', 'interval_month'],
  ['SQL_INTERVAL_DAY', 'interval_day'],
  ['SQL_INTERVAL_HOUR', 'interval_hour'],
  ['SQL_INTERVAL_MINUTE', 'interval_minute'],
  ['SQL_INTERVAL_SECOND', 'interval_second'],
  ['SQL_INTERVAL_YEAR_TO_MONTH', 'interval_year_to_month'],
  ['SQL_INTERVAL_DAY_TO_HOUR', 'interval_day_to_hour'],
  ['SQL_INTERVAL_DAY_TO_MINUTE', 'interval_day_to_minute'],
  ['SQL_INTERVAL_DAY_TO_SECOND', 'interval_day_to_second'],
  ['SQL_INTERVAL_HOUR_TO_MINUTE', 'interval_hour_to_minute'],
  ['SQL_INTERVAL_HOUR_TO_SECOND', 'interval_hour_to_second'],
  ['SQL_INTERVAL_MINUTE_TO_SECOND', 'interval_minute_to_second'],
]);

// SqlDataTypes.SQL_TO_ES: ES type names (but object/nested), then the ODBC names without SQL_
// (overriding: FLOAT is DOUBLE), then BOOL, INT and STRING.
const SQL_TO_ES = new Map<string, DataTypeName>();
for (const name of TYPE_NAMES) {
  if (name !== 'object' && name !== 'nested') SQL_TO_ES.set(name.toUpperCase(), name);
}
for (const [odbc, type] of ODBC_TO_ES) SQL_TO_ES.set(odbc.substring(4), type);
SQL_TO_ES.set('BOOL', 'boolean');
SQL_TO_ES.set('INT', 'integer');
SQL_TO_ES.set('STRING', 'keyword');

/** CAST/CONVERT target (ES `ExpressionBuilder.dataType`); undefined when not recognised. */
export function castTargetType(name: string): DataTypeName | undefined {
  const upper = name.toUpperCase();
  return upper.startsWith('SQL_') ? ODBC_TO_ES.get(upper) : SQL_TO_ES.get(upper);
}

/** A REST parameter's `type` (ES `SqlDataTypes.fromTypeName`); undefined when unknown. */
export function paramType(name: string): DataTypeName | undefined {
  return BY_TYPE_NAME.get(name.toLowerCase());
}

/** ES `DataType.toString()`: the upper-case name (`INTEGER`, `KEYWORD`, `INTERVAL_DAY`). */
export function displayName(type: DataTypeName): string {
  return type.toUpperCase();
}

const INTEGER_TYPES = new Set<DataTypeName>(['byte', 'short', 'integer', 'long']);
const RATIONAL_TYPES = new Set<DataTypeName>(['double', 'float', 'half_float', 'scaled_float']);
const STRING_TYPES = new Set<DataTypeName>(['keyword', 'text', 'constant_keyword']);

export const isIntegerType = (t: DataTypeName) => INTEGER_TYPES.has(t);
export const isRationalType = (t: DataTypeName) => RATIONAL_TYPES.has(t);
export const isStringType = (t: DataTypeName) => STRING_TYPES.has(t);
