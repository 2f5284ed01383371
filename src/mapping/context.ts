/**
 * What the mapping module needs from its caller: the index name (for error messages), analyzer and
 * normalizer existence checks, the index.mapping.* limits, and optional pluggable services (a full
 * Joda date parser, a token counter for `token_count`) that other modules own.
 */

/**
 * Parses `text` with an Elasticsearch date `format` (possibly `a||b` alternatives) to epoch
 * milliseconds. Throws an EsError (illegal_argument_exception, ES wording) or an Error whose
 * message is used as the illegal_argument_exception reason when the text does not match.
 */
/** Parses a date with a mapping format; `locale` is the field's `locale` (ROOT when absent). */
export type DateParser = (text: string, format: string, locale?: string) => number;

/**
 * Checks a date format pattern when a mapping is parsed (ES `DateFormatter.forPattern`). Throws
 * (EsError or Error) with the reason when the pattern is invalid; returns nothing otherwise.
 */
export type DateFormatValidator = (format: string) => void;

/** Counts the positions `analyzer` produces for `text` (ES TokenCountFieldMapper.countPositions). */
export type TokenCounter = (
  analyzer: string,
  text: string,
  enablePositionIncrements: boolean,
) => number;

export interface MappingLimits {
  /** index.mapping.total_fields.limit (default 1000). */
  totalFields?: number;
  /** index.mapping.depth.limit (default 20). */
  depth?: number;
  /** index.mapping.nested_fields.limit (default 50). */
  nestedFields?: number;
}

export interface MappingContext {
  indexName: string;
  /** For `analyzer`, `search_analyzer`, `search_quote_analyzer`, token_count `analyzer`. */
  analyzerExists(name: string): boolean;
  normalizerExists(name: string): boolean;
  limits?: MappingLimits;
  /** Similarity names defined by the index (BM25, classic and boolean always exist). */
  similarityExists?(name: string): boolean;
  /** Full date parser; the built-in one covers the common formats (see dates.ts). */
  parseDate?: DateParser;
  validateDateFormat?: DateFormatValidator;
  countTokens?: TokenCounter;
  /** index.mapping.coerce (default true) and index.mapping.ignore_malformed (default false). */
  coerceDefault?: boolean;
  ignoreMalformedDefault?: boolean;
}

export const DEFAULT_LIMITS = { totalFields: 1000, depth: 20, nestedFields: 50 } as const;
