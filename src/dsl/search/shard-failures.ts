/**
 * Shard-level failures as Elasticsearch reports them: `_shards.failures` for partial failures,
 * and a `search_phase_execution_exception` ("all shards failed") when every shard failed.
 */
import { EsError } from '../../common/errors.js';

export interface ShardFailure {
  shard: number;
  index: string;
  node: string;
  error: EsError;
}

export function failureJson(f: ShardFailure): Record<string, unknown> {
  return { shard: f.shard, index: f.index, node: f.node, reason: f.error.toInner() };
}

/** ES groups failures by index and cause (ExceptionsHelper.groupBy). */
export function groupFailures(fs: ShardFailure[]): ShardFailure[] {
  const seen = new Set<string>();
  const out: ShardFailure[] = [];
  for (const f of fs) {
    const key = `${f.index}\u0000${f.error.type}\u0000${f.error.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/**
 * ES SearchPhaseExecutionException: `failed_shards` grouped, the root causes guessed from each
 * failure (ElasticsearchException.guessRootCauses: the innermost ES cause), the status of the
 * first failure; `caused_by` the first root cause when the phase failed for lack of shards.
 */
export function shardsFailed(
  phase: string,
  reason: string,
  fs: ShardFailure[],
  withCause = false,
): EsError {
  const grouped = groupFailures(fs);
  const causes = grouped.flatMap((f) => f.error.rootCauseList());
  const status = grouped.length ? grouped[0]!.error.status : 503;
  return new EsError('search_phase_execution_exception', reason, status, {
    meta: { phase, grouped: true, failed_shards: grouped.map(failureJson) },
    rootCauses: causes,
    ...(withCause && causes[0] ? { causedBy: causes[0] } : {}),
  });
}

export function allShardsFailed(phase: string, fs: ShardFailure[]): EsError {
  return shardsFailed(phase, 'all shards failed', fs, true);
}

/**
 * A shard whose query phase timed out when partial results are not allowed (ES QueryPhase):
 * "Time exceeded", wrapped as every query phase failure is.
 */
export function timeExceededFailure(): EsError {
  const inner = new EsError('query_phase_execution_exception', 'Time exceeded', 500);
  return new EsError(
    'query_phase_execution_exception',
    'Query Failed [Failed to execute main query]',
    500,
    { causedBy: inner, rootCauses: [inner] },
  );
}
