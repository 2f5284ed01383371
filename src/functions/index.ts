/**
 * Pure runtime of Elasticsearch SQL 7.10's scalar functions and operators, shared by the SQL
 * evaluator and the Query DSL script runtime (which must not import src/sql). Imports only
 * src/common. See values.ts for how SQL values are represented.
 */
export * from './data-types.js';
export * from './values.js';
export * from './errors.js';
export * from './java-text.js';
export * from './type-names.js';
export * from './convert.js';
export * from './comparison.js';
export * from './arithmetic.js';
export * from './conditional.js';
export * as math from './math.js';
export * as strings from './string.js';
export * from './like.js';
export * from './intervals.js';
export * from './geo.js';
export { isValidIp } from './ip.js';
export * as datetime from './datetime/index.js';
export { SCRIPT_METHODS, docValue, asDateTime, type ScriptMethod } from './script-methods.js';
