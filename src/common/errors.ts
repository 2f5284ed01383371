/**
 * The one error type. Every layer throws `EsError`; only the HTTP error handler turns it into
 * Elasticsearch's body `{error: {root_cause, type, reason, ...}, status}`. Constructors below keep
 * Elasticsearch's exact type names and reason wording so they can be grepped against ES sources.
 */

export type ErrorMeta = Record<string, unknown>;

export class EsError extends Error {
  readonly type: string;
  readonly reason: string | null;
  readonly status: number;
  /** Extra fields rendered after `reason`, in insertion order (ES metadata like `index`, `line`). */
  readonly meta: ErrorMeta;
  readonly causedBy?: EsError;
  /** When set, replaces the computed `root_cause` list (ES SearchPhaseExecutionException does this). */
  readonly rootCauses?: EsError[];
  /** HTTP headers to send with the error (e.g. `WWW-Authenticate`). */
  readonly headers?: Record<string, string>;

  constructor(
    type: string,
    reason: string | null,
    status: number,
    opts: {
      meta?: ErrorMeta;
      causedBy?: EsError;
      rootCauses?: EsError[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(reason ?? type);
    this.name = 'EsError';
    this.type = type;
    this.reason = reason;
    this.status = status;
    this.meta = opts.meta ?? {};
    if (opts.causedBy) this.causedBy = opts.causedBy;
    if (opts.rootCauses) this.rootCauses = opts.rootCauses;
    if (opts.headers) this.headers = opts.headers;
  }

  /** The error object without `root_cause` (what ES nests under `caused_by` and `root_cause`). */
  toInner(): Record<string, unknown> {
    const out: Record<string, unknown> = { type: this.type, reason: this.reason };
    for (const [k, v] of Object.entries(this.meta)) out[k] = v;
    if (this.causedBy) out.caused_by = this.causedBy.toInner();
    return out;
  }

  /** ES `ElasticsearchException.guessRootCauses`: the exception itself unless overridden. */
  rootCauseList(): EsError[] {
    return this.rootCauses ?? [this];
  }

  /** The full error object (`error` member of the response body). */
  toErrorObject(): Record<string, unknown> {
    const rc = this.rootCauseList().map((e) => {
      const inner = e.toInner();
      delete inner.caused_by;
      return inner;
    });
    return { root_cause: rc, ...this.toInner() };
  }

  toBody(): { error: Record<string, unknown>; status: number } {
    return { error: this.toErrorObject(), status: this.status };
  }
}

export function isEsError(e: unknown): e is EsError {
  return e instanceof EsError;
}

/** Wraps anything thrown into an EsError; unexpected errors become a 500 `exception`. */
export function toEsError(e: unknown): EsError {
  if (e instanceof EsError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new EsError('exception', msg, 500);
}

// ---------------------------------------------------------------------------------------------
// Constructors, one per Elasticsearch exception the service raises.

const indexMeta = (index: string, uuid = '_na_'): ErrorMeta => ({ index_uuid: uuid, index });

export const illegalArgument = (reason: string, causedBy?: EsError) =>
  new EsError('illegal_argument_exception', reason, 400, causedBy ? { causedBy } : {});

export const illegalState = (reason: string) => new EsError('illegal_state_exception', reason, 500);

/**
 * How deep queries and aggregations may nest. ES 6.8 sets no limit and overflows its stack on
 * such requests (elasticsearch#55303); later versions refuse them with these messages, at far
 * lower depths. Quarry refuses them where its own stack is still safe (aggregations recurse
 * more per level, through collection, reduction and rendering).
 */
export const MAX_NESTED_DEPTH = 1000;
export const MAX_AGGREGATIONS_DEPTH = 500;
export const queryTooDeep = () =>
  illegalArgument(
    'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.max_nested_depth]',
  );
export const aggregationsTooDeep = () =>
  illegalArgument(
    `The nested depth of the aggregations exceeds the maximum nested depth for aggregations of [${MAX_AGGREGATIONS_DEPTH}]`,
  );

export const indexNotFound = (index: string) =>
  new EsError('index_not_found_exception', 'no such index', 404, {
    meta: { 'resource.type': 'index_or_alias', 'resource.id': index, ...indexMeta(index) },
  });

export const indexNotFoundNoRes = (index: string) =>
  new EsError('index_not_found_exception', 'no such index', 404, {
    meta: indexMeta(index),
  });

export const resourceAlreadyExists = (index: string, uuid: string) =>
  new EsError('resource_already_exists_exception', `index [${index}/${uuid}] already exists`, 400, {
    meta: indexMeta(index, uuid),
  });

export const invalidIndexName = (index: string, reason: string) =>
  new EsError('invalid_index_name_exception', `Invalid index name [${index}], ${reason}`, 400, {
    meta: indexMeta(index),
  });

export const versionConflict = (
  type: string,
  id: string,
  reason: string,
  index: string,
  uuid: string,
  shard: number,
) =>
  new EsError(
    'version_conflict_engine_exception',
    `[${type}][${id}]: version conflict, ${reason}`,
    409,
    {
      meta: { index_uuid: uuid, shard: String(shard), index },
    },
  );

export const documentMissing = (
  type: string,
  id: string,
  index: string,
  uuid: string,
  shard: number,
) =>
  new EsError('document_missing_exception', `[${type}][${id}]: document missing`, 404, {
    meta: { index_uuid: uuid, shard: String(shard), index },
  });

export const mapperParsing = (reason: string, causedBy?: EsError) =>
  new EsError('mapper_parsing_exception', reason, 400, causedBy ? { causedBy } : {});

export const strictDynamicMapping = (reason: string) =>
  new EsError('strict_dynamic_mapping_exception', reason, 400);

export const parsingException = (reason: string, line?: number, col?: number) =>
  new EsError(
    'parsing_exception',
    reason,
    400,
    line !== undefined ? { meta: { line, col: col ?? 0 } } : {},
  );

export const xContentParse = (reason: string, line?: number, col?: number) =>
  new EsError(
    'x_content_parse_exception',
    reason,
    400,
    line !== undefined ? { meta: { line, col: col ?? 0 } } : {},
  );

export const jsonParse = (reason: string) => new EsError('json_parse_exception', reason, 400);

export const parseException = (reason: string) => new EsError('parse_exception', reason, 400);

/** ES ActionRequestValidationException: "Validation Failed: 1: x;2: y;" */
export const actionRequestValidation = (problems: string[]) =>
  new EsError(
    'action_request_validation_exception',
    `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`,
    400,
  );

export const searchPhaseFailed = (phase: string, reason: string, cause: EsError) =>
  new EsError('search_phase_execution_exception', reason, cause.status >= 500 ? 503 : 400, {
    meta: { phase, grouped: true, failed_shards: [] },
    causedBy: cause,
    rootCauses: [cause],
  });

export const queryShardException = (reason: string, index: string, uuid: string) =>
  new EsError('query_shard_exception', reason, 400, { meta: indexMeta(index, uuid) });

export const resourceNotFound = (reason: string) =>
  new EsError('resource_not_found_exception', reason, 404);

export const tooManyClauses = (max: number) =>
  new EsError('too_many_clauses', `maxClauseCount is set to ${max}`, 400);

export const tooManyBuckets = (max: number, count: number) =>
  new EsError(
    'too_many_buckets_exception',
    `Trying to create too many buckets. Must be less than or equal to: [${max}] but was [${count}]. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
    503,
    { meta: { max_buckets: max } },
  );

export const rejectedExecution = (reason: string) =>
  new EsError('es_rejected_execution_exception', reason, 429);

export const circuitBreaking = (reason: string, bytesWanted: number, bytesLimit: number) =>
  new EsError('circuit_breaking_exception', reason, 429, {
    meta: { bytes_wanted: bytesWanted, bytes_limit: bytesLimit },
  });

export const contentTooLong = (len: number, max: number) =>
  new EsError(
    'content_too_long_exception',
    `Request content length [${len}] exceeds the limit [${max}]`,
    413,
  );

export const securityException = (
  reason: string,
  status: number,
  headers?: Record<string, string>,
) => new EsError('security_exception', reason, status, headers ? { headers } : {});
