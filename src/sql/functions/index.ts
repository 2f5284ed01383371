/**
 * ES SQL's functions for the analyzer and planner: the registry (lookup, arity, SHOW FUNCTIONS),
 * per-function type checks and result types, aggregate lowering and scalar evaluation.
 */
export * from './definition.js';
export * from './type-resolutions.js';
export * from './registry.js';
export {
  resolveCase,
  caseDataType,
  caseFoldable,
  evaluateCase,
  resolveConditional,
  conditionalDataType,
  type CaseBranch,
} from './defs/conditional.js';
export { resolveCast } from './defs/misc.js';
export { checkPrecision } from './defs/datetime.js';
export { percentInnerName } from './defs/aggregate.js';
export { parseFullTextOptions, parseFullTextFields } from './fulltext.js';
