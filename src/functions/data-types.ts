/**
 * The Elasticsearch SQL data types (ES: ql `DataTypes` + sql `SqlDataTypes`) as a name union plus a
 * descriptor table. Names are the upper-case `DataType.name()` ("LONG", "DATETIME",
 * "INTERVAL_DAY_TO_SECOND"); `typeName` is what `/_sql` prints in `columns[].type`. Runtime code
 * (conversion, arithmetic) needs only these predicates; JDBC/ODBC metadata lives in `src/sql/types`.
 */

export type DataTypeName =
  | 'UNSUPPORTED'
  | 'NULL'
  | 'BOOLEAN'
  | 'BYTE'
  | 'SHORT'
  | 'INTEGER'
  | 'LONG'
  | 'DOUBLE'
  | 'FLOAT'
  | 'HALF_FLOAT'
  | 'SCALED_FLOAT'
  | 'KEYWORD'
  | 'TEXT'
  | 'CONSTANT_KEYWORD'
  | 'DATETIME'
  | 'IP'
  | 'BINARY'
  | 'OBJECT'
  | 'NESTED'
  | 'DATE'
  | 'TIME'
  | 'INTERVAL_YEAR'
  | 'INTERVAL_MONTH'
  | 'INTERVAL_DAY'
  | 'INTERVAL_HOUR'
  | 'INTERVAL_MINUTE'
  | 'INTERVAL_SECOND'
  | 'INTERVAL_YEAR_TO_MONTH'
  | 'INTERVAL_DAY_TO_HOUR'
  | 'INTERVAL_DAY_TO_MINUTE'
  | 'INTERVAL_DAY_TO_SECOND'
  | 'INTERVAL_HOUR_TO_MINUTE'
  | 'INTERVAL_HOUR_TO_SECOND'
  | 'INTERVAL_MINUTE_TO_SECOND'
  | 'GEO_SHAPE'
  | 'GEO_POINT'
  | 'SHAPE';

export interface DataType {
  /** Upper-case name (`DataType.name()`), also what `DataType.toString()` prints in messages. */
  readonly name: DataTypeName;
  /** Lower-case name (`DataType.typeName()`): the `type` of a `/_sql` column. */
  readonly typeName: string;
  /** The Elasticsearch mapping type this SQL type comes from, or null (SQL-only types). */
  readonly esType: string | null;
  /** Size in bytes as ES declares it (used for common-type widening and JDBC metadata). */
  readonly size: number;
  readonly isInteger: boolean;
  readonly isRational: boolean;
  readonly hasDocValues: boolean;
}

const INT_MAX = 2147483647;

function t(
  name: DataTypeName,
  esType: string | null,
  size: number,
  isInteger: boolean,
  isRational: boolean,
  hasDocValues: boolean,
): DataType {
  return Object.freeze({
    name,
    typeName: name.toLowerCase(),
    esType,
    size,
    isInteger,
    isRational,
    hasDocValues,
  });
}

// ES: DataTypes / SqlDataTypes constants (sizes are the Java BYTES constants).
export const DATA_TYPES: Readonly<Record<DataTypeName, DataType>> = Object.freeze({
  UNSUPPORTED: t('UNSUPPORTED', null, 0, false, false, false),
  NULL: t('NULL', 'null', 0, false, false, false),
  BOOLEAN: t('BOOLEAN', 'boolean', 1, false, false, false),
  BYTE: t('BYTE', 'byte', 1, true, false, true),
  SHORT: t('SHORT', 'short', 2, true, false, true),
  INTEGER: t('INTEGER', 'integer', 4, true, false, true),
  LONG: t('LONG', 'long', 8, true, false, true),
  DOUBLE: t('DOUBLE', 'double', 8, false, true, true),
  FLOAT: t('FLOAT', 'float', 4, false, true, true),
  HALF_FLOAT: t('HALF_FLOAT', 'half_float', 4, false, true, true),
  SCALED_FLOAT: t('SCALED_FLOAT', 'scaled_float', 8, false, true, true),
  KEYWORD: t('KEYWORD', 'keyword', INT_MAX, false, false, true),
  TEXT: t('TEXT', 'text', INT_MAX, false, false, false),
  CONSTANT_KEYWORD: t('CONSTANT_KEYWORD', 'constant_keyword', INT_MAX, false, false, true),
  DATETIME: t('DATETIME', 'date', 8, false, false, true),
  IP: t('IP', 'ip', 45, false, false, true),
  BINARY: t('BINARY', 'binary', INT_MAX, false, false, true),
  OBJECT: t('OBJECT', 'object', 0, false, false, false),
  NESTED: t('NESTED', 'nested', 0, false, false, false),
  DATE: t('DATE', null, 8, false, false, true),
  TIME: t('TIME', null, 8, false, false, true),
  INTERVAL_YEAR: t('INTERVAL_YEAR', null, 4, false, false, false),
  INTERVAL_MONTH: t('INTERVAL_MONTH', null, 4, false, false, false),
  INTERVAL_DAY: t('INTERVAL_DAY', null, 8, false, false, false),
  INTERVAL_HOUR: t('INTERVAL_HOUR', null, 8, false, false, false),
  INTERVAL_MINUTE: t('INTERVAL_MINUTE', null, 8, false, false, false),
  INTERVAL_SECOND: t('INTERVAL_SECOND', null, 8, false, false, false),
  INTERVAL_YEAR_TO_MONTH: t('INTERVAL_YEAR_TO_MONTH', null, 4, false, false, false),
  INTERVAL_DAY_TO_HOUR: t('INTERVAL_DAY_TO_HOUR', null, 8, false, false, false),
  INTERVAL_DAY_TO_MINUTE: t('INTERVAL_DAY_TO_MINUTE', null, 8, false, false, false),
  INTERVAL_DAY_TO_SECOND: t('INTERVAL_DAY_TO_SECOND', null, 8, false, false, false),
  INTERVAL_HOUR_TO_MINUTE: t('INTERVAL_HOUR_TO_MINUTE', null, 8, false, false, false),
  INTERVAL_HOUR_TO_SECOND: t('INTERVAL_HOUR_TO_SECOND', null, 8, false, false, false),
  INTERVAL_MINUTE_TO_SECOND: t('INTERVAL_MINUTE_TO_SECOND', null, 8, false, false, false),
  GEO_SHAPE: t('GEO_SHAPE', 'geo_shape', INT_MAX, false, false, false),
  GEO_POINT: t('GEO_POINT', 'geo_point', 16, false, false, false),
  SHAPE: t('SHAPE', 'shape', INT_MAX, false, false, false),
});

/** All type names, sorted by `typeName` as `SqlDataTypes.types()` lists them. */
export const ALL_DATA_TYPES: readonly DataTypeName[] = Object.freeze(
  (Object.keys(DATA_TYPES) as DataTypeName[]).sort((a, b) =>
    DATA_TYPES[a].typeName < DATA_TYPES[b].typeName ? -1 : 1,
  ),
);

export const dataType = (name: DataTypeName): DataType => DATA_TYPES[name];

export const isInteger = (n: DataTypeName): boolean => DATA_TYPES[n].isInteger;
export const isRational = (n: DataTypeName): boolean => DATA_TYPES[n].isRational;
export const isNumeric = (n: DataTypeName): boolean =>
  DATA_TYPES[n].isInteger || DATA_TYPES[n].isRational;
export const isNullType = (n: DataTypeName): boolean => n === 'NULL';
export const isNullOrNumeric = (n: DataTypeName): boolean => n === 'NULL' || isNumeric(n);
export const isString = (n: DataTypeName): boolean =>
  n === 'KEYWORD' || n === 'TEXT' || n === 'CONSTANT_KEYWORD';
/** ES: DataTypes.isPrimitive: everything but OBJECT, NESTED and UNSUPPORTED. */
export const isPrimitive = (n: DataTypeName): boolean =>
  n !== 'OBJECT' && n !== 'NESTED' && n !== 'UNSUPPORTED';
export const isUnsupported = (n: DataTypeName): boolean => n === 'UNSUPPORTED';

export const isYearMonthInterval = (n: DataTypeName): boolean =>
  n === 'INTERVAL_YEAR' || n === 'INTERVAL_MONTH' || n === 'INTERVAL_YEAR_TO_MONTH';
export const isDayTimeInterval = (n: DataTypeName): boolean =>
  n.startsWith('INTERVAL_') && !isYearMonthInterval(n);
export const isInterval = (n: DataTypeName): boolean => n.startsWith('INTERVAL_');
export const isNullOrInterval = (n: DataTypeName): boolean => n === 'NULL' || isInterval(n);
export const isDateBased = (n: DataTypeName): boolean => n === 'DATE' || n === 'DATETIME';
export const isTimeBased = (n: DataTypeName): boolean => n === 'TIME';
export const isDateOrTimeBased = (n: DataTypeName): boolean => isDateBased(n) || n === 'TIME';
export const isDateOrIntervalBased = (n: DataTypeName): boolean => isDateBased(n) || isInterval(n);
export const isGeo = (n: DataTypeName): boolean =>
  n === 'GEO_POINT' || n === 'GEO_SHAPE' || n === 'SHAPE';

/** Type names accepted as `DataTypeName` (for parsing `typeName`-style strings). */
export function dataTypeFromName(name: string): DataTypeName | null {
  const up = name.toUpperCase();
  return Object.prototype.hasOwnProperty.call(DATA_TYPES, up) ? (up as DataTypeName) : null;
}

/** ES: SqlDataTypes.fromTypeName: lower-case `typeName` lookup ("datetime", "keyword"). */
export function dataTypeFromTypeName(typeName: string): DataTypeName | null {
  const lower = typeName.toLowerCase();
  for (const n of ALL_DATA_TYPES) if (DATA_TYPES[n].typeName === lower) return n;
  return null;
}
