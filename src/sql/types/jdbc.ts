/**
 * JDBC/ODBC metadata of the SQL types (ES SqlDataTypes.sqlType/defaultPrecision/displaySize and the
 * metaSql* helpers, ExtTypes), as SYS TYPES, SYS COLUMNS, DESCRIBE/SHOW COLUMNS and the drivers'
 * column info report them. Also the rows of `SYS TYPES [type]`.
 */
import {
  ALL_DATA_TYPES,
  DATA_TYPES,
  isInterval,
  isNumeric,
  isString,
  type DataTypeName,
} from '../../functions/data-types.js';

/** A java.sql.SQLType: JDBCType or ES's ExtTypes. */
export interface SqlTypeInfo {
  readonly name: string;
  readonly vendorTypeNumber: number;
}

const J = (name: string, n: number): SqlTypeInfo => Object.freeze({ name, vendorTypeNumber: n });

// java.sql.Types codes / ES ExtTypes (101..114)
const JDBC = {
  OTHER: J('OTHER', 1111),
  NULL: J('NULL', 0),
  BOOLEAN: J('BOOLEAN', 16),
  TINYINT: J('TINYINT', -6),
  SMALLINT: J('SMALLINT', 5),
  INTEGER: J('INTEGER', 4),
  BIGINT: J('BIGINT', -5),
  DOUBLE: J('DOUBLE', 8),
  REAL: J('REAL', 7),
  FLOAT: J('FLOAT', 6),
  VARCHAR: J('VARCHAR', 12),
  TIMESTAMP: J('TIMESTAMP', 93),
  BINARY: J('BINARY', -2),
  STRUCT: J('STRUCT', 2002),
  DATE: J('DATE', 91),
  TIME: J('TIME', 92),
  GEOMETRY: J('GEOMETRY', 114),
};

const INTERVAL_CODES: Partial<Record<DataTypeName, number>> = {
  INTERVAL_YEAR: 101,
  INTERVAL_MONTH: 102,
  INTERVAL_DAY: 103,
  INTERVAL_HOUR: 104,
  INTERVAL_MINUTE: 105,
  INTERVAL_SECOND: 106,
  INTERVAL_YEAR_TO_MONTH: 107,
  INTERVAL_DAY_TO_HOUR: 108,
  INTERVAL_DAY_TO_MINUTE: 109,
  INTERVAL_DAY_TO_SECOND: 110,
  INTERVAL_HOUR_TO_MINUTE: 111,
  INTERVAL_HOUR_TO_SECOND: 112,
  INTERVAL_MINUTE_TO_SECOND: 113,
};

/** SqlDataTypes.sqlType. */
export function sqlType(t: DataTypeName): SqlTypeInfo {
  switch (t) {
    case 'UNSUPPORTED':
      return JDBC.OTHER;
    case 'NULL':
      return JDBC.NULL;
    case 'BOOLEAN':
      return JDBC.BOOLEAN;
    case 'BYTE':
      return JDBC.TINYINT;
    case 'SHORT':
      return JDBC.SMALLINT;
    case 'INTEGER':
      return JDBC.INTEGER;
    case 'LONG':
      return JDBC.BIGINT;
    case 'DOUBLE':
    case 'SCALED_FLOAT':
      return JDBC.DOUBLE;
    case 'FLOAT':
      return JDBC.REAL;
    case 'HALF_FLOAT':
      return JDBC.FLOAT;
    case 'KEYWORD':
    case 'TEXT':
    case 'CONSTANT_KEYWORD':
    case 'IP':
      return JDBC.VARCHAR;
    case 'DATETIME':
      return JDBC.TIMESTAMP;
    case 'BINARY':
      return JDBC.BINARY;
    case 'OBJECT':
    case 'NESTED':
      return JDBC.STRUCT;
    case 'DATE':
      return JDBC.DATE;
    case 'TIME':
      return JDBC.TIME;
    case 'GEO_SHAPE':
    case 'GEO_POINT':
    case 'SHAPE':
      return JDBC.GEOMETRY;
  }
  return J(t, INTERVAL_CODES[t]!);
}

const INT_MAX = 2147483647;

/** SqlDataTypes.defaultPrecision. */
export function defaultPrecision(t: DataTypeName): number {
  const size = DATA_TYPES[t].size;
  switch (t) {
    case 'BYTE':
      return 3;
    case 'SHORT':
      return 5;
    case 'INTEGER':
      return 10;
    case 'LONG':
      return 19;
    case 'DOUBLE':
    case 'SCALED_FLOAT':
    case 'KEYWORD':
    case 'CONSTANT_KEYWORD':
      return 15;
    case 'FLOAT':
      return 7;
    case 'HALF_FLOAT':
    case 'DATETIME':
    case 'DATE':
    case 'TIME':
      return 3;
    case 'TEXT':
      return 32766;
    case 'GEO_POINT':
      return INT_MAX;
    case 'INTERVAL_YEAR':
    case 'INTERVAL_MONTH':
    case 'INTERVAL_YEAR_TO_MONTH':
      return 7;
  }
  if (isInterval(t)) return 23;
  return size;
}

/** SqlDataTypes.displaySize. */
export function displaySize(t: DataTypeName): number {
  switch (t) {
    case 'BYTE':
      return 5;
    case 'SHORT':
      return 6;
    case 'INTEGER':
      return 11;
    case 'LONG':
      return 20;
    case 'DOUBLE':
    case 'HALF_FLOAT':
    case 'SCALED_FLOAT':
      return 25;
    case 'FLOAT':
      return 15;
    case 'KEYWORD':
    case 'CONSTANT_KEYWORD':
      return 32766;
    case 'DATETIME':
    case 'DATE':
      return 29;
    case 'TIME':
      return 18;
    case 'GEO_POINT':
      return 25 * 2 + 8;
  }
  if (isInterval(t)) return defaultPrecision(t);
  return DATA_TYPES[t].size;
}

/** SqlDataTypes.metaSqlDataType: ODBC SQL_DATETIME (9) for DATETIME, else the JDBC code. */
export const metaSqlDataType = (t: DataTypeName): number =>
  t === 'DATETIME' ? 9 : sqlType(t).vendorTypeNumber;

/** SqlDataTypes.metaSqlDateTimeSub. */
export const metaSqlDateTimeSub = (t: DataTypeName): number =>
  t === 'DATETIME' ? 3 : t === 'DATE' ? 1 : t === 'TIME' ? 2 : 0;

/** SqlDataTypes.metaSqlMinimumScale / metaSqlMaximumScale (identical by design). */
export function metaSqlScale(t: DataTypeName): number | null {
  if (DATA_TYPES[t].isInteger) return 0;
  if (t === 'DATETIME' || t === 'TIME' || DATA_TYPES[t].isRational) return defaultPrecision(t);
  return null;
}

/** SqlDataTypes.metaSqlRadix: 10 for integers, 2 for rationals, else null. */
export const metaSqlRadix = (t: DataTypeName): number | null =>
  DATA_TYPES[t].isInteger ? 10 : DATA_TYPES[t].isRational ? 2 : null;

/** SqlDataTypes.precision (ODBC column size). */
export const precision = (t: DataTypeName): number =>
  isNumeric(t) ? defaultPrecision(t) : displaySize(t);

/** One row of SYS TYPES, in column order. */
export type SysTypesRow = [
  typeName: string,
  dataType: number,
  precision: number,
  literalPrefix: string,
  literalSuffix: string,
  createParams: null,
  nullable: number,
  caseSensitive: boolean,
  searchable: number,
  unsignedAttribute: boolean,
  fixedPrecScale: boolean,
  autoIncrement: boolean,
  localTypeName: null,
  minimumScale: number | null,
  maximumScale: number | null,
  sqlDataType: number,
  sqlDatetimeSub: number,
  numPrecRadix: number | null,
  intervalPrecision: null,
];

/** SYS TYPES columns with their SQL types. */
export const SYS_TYPES_COLUMNS: ReadonlyArray<{ name: string; type: DataTypeName }> = [
  { name: 'TYPE_NAME', type: 'KEYWORD' },
  { name: 'DATA_TYPE', type: 'INTEGER' },
  { name: 'PRECISION', type: 'INTEGER' },
  { name: 'LITERAL_PREFIX', type: 'KEYWORD' },
  { name: 'LITERAL_SUFFIX', type: 'KEYWORD' },
  { name: 'CREATE_PARAMS', type: 'KEYWORD' },
  { name: 'NULLABLE', type: 'SHORT' },
  { name: 'CASE_SENSITIVE', type: 'BOOLEAN' },
  { name: 'SEARCHABLE', type: 'SHORT' },
  { name: 'UNSIGNED_ATTRIBUTE', type: 'BOOLEAN' },
  { name: 'FIXED_PREC_SCALE', type: 'BOOLEAN' },
  { name: 'AUTO_INCREMENT', type: 'BOOLEAN' },
  { name: 'LOCAL_TYPE_NAME', type: 'KEYWORD' },
  { name: 'MINIMUM_SCALE', type: 'SHORT' },
  { name: 'MAXIMUM_SCALE', type: 'SHORT' },
  { name: 'SQL_DATA_TYPE', type: 'INTEGER' },
  { name: 'SQL_DATETIME_SUB', type: 'INTEGER' },
  { name: 'NUM_PREC_RADIX', type: 'INTEGER' },
  { name: 'INTERVAL_PRECISION', type: 'INTEGER' },
];

/** ES SysTypes: every type (or those of one JDBC code), by JDBC code then JDBC name. */
export function sysTypesRows(jdbcType = 0): SysTypesRow[] {
  return ALL_DATA_TYPES.filter((t) => jdbcType === 0 || sqlType(t).vendorTypeNumber === jdbcType)
    .map((t) => ({ t, s: sqlType(t) }))
    .sort(
      (a, b) =>
        a.s.vendorTypeNumber - b.s.vendorTypeNumber ||
        (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0),
    )
    .map(({ t }) => [
      t,
      sqlType(t).vendorTypeNumber,
      precision(t),
      "'",
      "'",
      null,
      2, // DatabaseMetaData.typeNullableUnknown
      isString(t),
      3, // DatabaseMetaData.typeSearchable
      !isNumeric(t),
      false,
      false,
      null,
      metaSqlScale(t),
      metaSqlScale(t),
      metaSqlDataType(t),
      metaSqlDateTimeSub(t),
      metaSqlRadix(t),
      null,
    ]);
}
