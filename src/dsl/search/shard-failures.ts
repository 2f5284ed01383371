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

export function allShardsFailed(phase: string, fs: ShardFailure[]): EsError {
  const grouped = groupFailures(fs);
  const causes = grouped.map((f) => f.error);
  const status = causes.length ? causes[0]!.status : 503;
  return new EsError('search_phase_execution_exception', 'all shards failed', status, {
    meta: { phase, grouped: true, failed_shards: grouped.map(failureJson) },
    rootCauses: causes,
    ...(causes[0] ? { causedBy: causes[0] } : {}),
  });
}
