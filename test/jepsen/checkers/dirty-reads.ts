/**
 * A diagnosis for register histories that fail the linearizability check: were the failures only
 * dirty reads? Elasticsearch 6.8 serves a realtime GET from what a copy holds, including a write
 * its primary has not acknowledged yet; if that write is then lost (its primary turned out stale
 * and the copies rolled it back), a read saw a value that later vanished — not linearizable, and a
 * known ES limitation. Dropping the observations of versions no acknowledged operation produced
 * (reads of them, and version conflicts naming them) and checking again tells those failures from
 * any other kind. The strict verdict stays the one that counts; this only explains it.
 */
import { checkLinearizable, type KeyVerdict, type LinearizableOptions } from './linearizable.js';
import { versionKey, type Operation, type Version } from '../history.js';

export interface DirtyReadDiagnosis {
  /** Observations of versions that no acknowledged operation produced. */
  readonly unacknowledgedObservations: number;
  /** Per key, the verdict without those observations. */
  readonly verdicts: readonly KeyVerdict[];
}

export function withoutUnacknowledgedObservations(ops: readonly Operation[]): Operation[] {
  // per key: seq_nos are per shard, so two shards' documents can share a (seq_no, term)
  const keyOf = (o: Operation) => ('key' in o.op ? o.op.key : o.op.id);
  const acked = new Set<string>();
  for (const o of ops) {
    if (o.outcome !== 'ok' || !o.result || o.result.kind === 'read') continue;
    if (o.result.version) acked.add(`${keyOf(o)}|${versionKey(o.result.version)}`);
  }
  const known = (o: Operation, v: Version) => acked.has(`${keyOf(o)}|${versionKey(v)}`);
  return ops.filter((o) => {
    if (o.outcome === 'ok' && o.result?.kind === 'read' && o.result.found)
      return known(o, o.result.version);
    if (o.outcome === 'fail' && o.failure?.current) return known(o, o.failure.current);
    return true;
  });
}

export function diagnoseDirtyReads(
  ops: readonly Operation[],
  options: LinearizableOptions = {},
): DirtyReadDiagnosis {
  const kept = withoutUnacknowledgedObservations(ops);
  return {
    unacknowledgedObservations: ops.length - kept.length,
    verdicts: checkLinearizable(kept, options),
  };
}
