/**
 * Error helpers for the mapping module. Elasticsearch wraps exceptions in chains
 * (mapper_parsing_exception → illegal_argument_exception → number_format_exception …); the
 * `root_cause` it reports is the deepest *Elasticsearch* exception of the chain (Java exceptions
 * such as IllegalArgumentException never become root causes of a wrapper). ES: ElasticsearchException.guessRootCauses
 */
import { EsError } from '../common/errors.js';

/** Exception types that are ElasticsearchException subclasses (the rest are plain Java ones). */
const ES_TYPES = new Set([
  'mapper_parsing_exception',
  'strict_dynamic_mapping_exception',
  'mapper_exception',
  'parse_exception',
  'invalid_type_name_exception',
  'x_content_parse_exception',
  'parsing_exception',
]);

export const isEsExceptionType = (type: string): boolean => ES_TYPES.has(type);

/** Builds `type: reason` caused by `cause`, with ES's root-cause rule. */
export function chain(type: string, reason: string, cause?: EsError, status = 400): EsError {
  if (!cause) return new EsError(type, reason, status);
  if (!isEsExceptionType(type)) return new EsError(type, reason, status, { causedBy: cause });
  let root: EsError | undefined;
  for (let e: EsError | undefined = cause; e && isEsExceptionType(e.type); e = e.causedBy) root = e;
  const opts: { causedBy: EsError; rootCauses?: EsError[] } = { causedBy: cause };
  if (root) opts.rootCauses = root.rootCauseList();
  return new EsError(type, reason, status, opts);
}

export const mapperParsing = (reason: string, cause?: EsError) =>
  chain('mapper_parsing_exception', reason, cause);
export const illegalArgument = (reason: string, cause?: EsError) =>
  chain('illegal_argument_exception', reason, cause);
export const illegalState = (reason: string) => new EsError('illegal_state_exception', reason, 500);
export const numberFormat = (reason: string) => new EsError('number_format_exception', reason, 400);
/** ElasticsearchParseException. */
export const parseException = (reason: string, cause?: EsError) =>
  chain('parse_exception', reason, cause);
export const mapperException = (reason: string) => new EsError('mapper_exception', reason, 400);
/** Jackson's JsonParseException (message without the `at [Source: …]` location suffix). */
export const jsonParse = (reason: string) => new EsError('json_parse_exception', reason, 400);

/** Anything thrown by a pluggable service becomes an EsError (plain Errors → illegal_argument). */
export function asEsError(e: unknown): EsError {
  if (e instanceof EsError) return e;
  if (e instanceof Error) return illegalArgument(e.message);
  return illegalArgument(String(e));
}
