/**
 * The Elasticsearch SQL type system for the analyzer, planner and commands: type names and
 * predicates (shared with the runtime in src/functions), ES mapping types, JDBC/ODBC metadata,
 * widening, operator typing and the type names CAST/CONVERT accept.
 */
export * from '../../functions/data-types.js';
export { canConvert, converterFor, convert, type Converter } from '../../functions/convert.js';
export {
  castTargetType,
  fromOdbcType,
  fromSqlOrEsType,
  ODBC_TO_ES,
} from '../../functions/type-names.js';
export { compatibleInterval, intervalType } from '../../functions/intervals.js';
export * from './jdbc.js';
export * from './common-type.js';
export * from './operators.js';
export * from './es-mapping.js';
