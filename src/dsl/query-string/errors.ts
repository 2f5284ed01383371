/**
 * Errors of the classic query parser as Elasticsearch reports them: QueryStringQueryBuilder wraps
 * Lucene's `ParseException("Cannot parse '<q>': <cause>")` in a `query_shard_exception`
 * "Failed to parse query [<q>]"; the original JavaCC `ParseException` / `TokenMgrError` (or
 * `TooManyClauses`) is the innermost `caused_by`. Also renders JavaCC's "Encountered ..." text.
 */
import { EsError } from '../../common/errors.js';

/** A Lucene `ParseException` raised by a parser action (bad escape, leading wildcard...). */
export class LuceneParseError extends Error {
  constructor(
    message: string,
    /** ES exception name of the innermost cause. */
    readonly causeType: string = 'parse_exception',
    /** Reason of the innermost cause when it differs from `message`. */
    readonly causeReason: string = message,
  ) {
    super(message);
    this.name = 'LuceneParseError';
  }
}

/** Index identity for the `query_shard_exception` metadata. */
export interface IndexRef {
  readonly name: string;
  readonly uuid: string;
}

/**
 * ES `QueryShardException(context, "Failed to parse query [" + queryString + "]", e)` where `e` is
 * Lucene's wrapping `ParseException("Cannot parse '" + query + "': " + cause.getMessage())`.
 */
export function failedToParse(
  original: string,
  parsed: string,
  cause: LuceneParseError,
  index?: IndexRef,
): EsError {
  const inner = new EsError(cause.causeType, cause.causeReason, 400);
  const wrapped = new EsError(
    'parse_exception',
    `Cannot parse '${parsed}': ${cause.message}`,
    400,
    {
      causedBy: inner,
    },
  );
  return new EsError('query_shard_exception', `Failed to parse query [${original}]`, 400, {
    meta: index ? { index_uuid: index.uuid, index: index.name } : {},
    causedBy: wrapped,
  });
}
