/**
 * Elasticsearch 6.8 mappings: parse, validate, merge, render, and parse documents against them.
 * Pure (imports only src/common). Persist a mapping as `mappingToJson` output and restore it with
 * `parseMapping`; RootMapping objects carry precomputed data only this module creates.
 */
export type * from './types.js';
export type {
  MappingContext,
  MappingLimits,
  DateParser,
  DateFormatValidator,
  TokenCounter,
} from './context.js';
export { DEFAULT_LIMITS } from './context.js';
export {
  parseMapping,
  mergeMapping,
  parseIndexMappings,
  mappingToJson,
  fieldMappingToJson,
  lookupField,
  expandFieldPattern,
  validateTypeName,
} from './mapping-service.js';
export { parseDocument } from './document-parser.js';
export { builtinParseDate, builtinValidateDateFormat } from './dates.js';
export { canonicalIp } from './ip.js';
