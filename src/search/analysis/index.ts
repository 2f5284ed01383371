/**
 * Text analysis as Elasticsearch 6.8 / Lucene 7.7: analyzers, tokenizers, token and char
 * filters, keyword normalizers, and the `_analyze` API logic. Imports only src/common.
 */
export type { Analyzer, AnalyzedToken, Normalizer, TokenSink } from './types.js';
export { AnalysisRegistry, DEFAULT_POSITION_INCREMENT_GAP } from './registry.js';
export { analyzeApi, analyzeToTokens, DEFAULT_MAX_TOKEN_COUNT } from './analyze-api.js';
export { collectDeprecations } from './deprecations.js';
export { registerTokenPredicateCompiler } from './filters/script-filters.js';
export type { ScriptToken, TokenPredicateCompiler } from './filters/script-filters.js';
