/**
 * One copy's entry in `_recovery` (ES RecoveryState XContent): how it was recovered — from its own
 * store (a lone node's primaries) or from its primary over the transport (PEER, in a cluster) —
 * when, how many operations were replayed, and which node it is on.
 */
import { formatByteSize, formatTimeValue } from '../common/units.js';
import type { ShardRecovery } from './shard.js';

export interface RecoveryNode {
  readonly id: string;
  readonly name: string;
  readonly transportAddress: string;
}

export function recoveryPercent(recovered: number, total: number): string {
  if (total < 0) return '-1.0%';
  const p = total === 0 ? 100 : (100 * recovered) / total;
  return `${p.toFixed(1)}%`;
}

const hostPart = (address: string) => address.slice(0, address.lastIndexOf(':'));

function nodeJson(n: RecoveryNode): Record<string, unknown> {
  const host = hostPart(n.transportAddress);
  return { id: n.id, host, transport_address: n.transportAddress, ip: host, name: n.name };
}

export function recoveryEntry(
  shard: number,
  r: ShardRecovery,
  primary: boolean,
  target: RecoveryNode,
  human: boolean,
): Record<string, unknown> {
  const time = (field: string, ms: number): Record<string, unknown> =>
    human ? { [field]: formatTimeValue(ms), [`${field}_in_millis`]: ms } : { [`${field}_in_millis`]: ms }; // prettier-ignore
  const date = (field: string, ms: number): Record<string, unknown> =>
    human ? { [field]: new Date(ms).toISOString(), [`${field}_in_millis`]: ms } : { [`${field}_in_millis`]: ms }; // prettier-ignore
  const bytes = (field: string, n: number): Record<string, unknown> =>
    human ? { [field]: formatByteSize(n), [`${field}_in_bytes`]: n } : { [`${field}_in_bytes`]: n }; // prettier-ignore
  const took = r.stopMs - r.startMs;
  const source =
    r.type === 'PEER' && r.source
      ? nodeJson(r.source)
      : r.type === 'EXISTING_STORE'
        ? { bootstrap_new_history_uuid: false }
        : r.type === 'SNAPSHOT' && r.snapshot
          ? { ...r.snapshot }
          : {};
  return {
    id: shard,
    type: r.type,
    stage: 'DONE',
    primary,
    ...date('start_time', r.startMs),
    ...date('stop_time', r.stopMs),
    ...time('total_time', took),
    source,
    target: nodeJson(target),
    // stores are reused in place and peers send operations: no files are copied
    index: {
      size: {
        ...bytes('total', 0),
        ...bytes('reused', 0),
        ...bytes('recovered', 0),
        percent: recoveryPercent(0, 0),
      },
      files: { total: 0, reused: 0, recovered: 0, percent: recoveryPercent(0, 0) },
      ...time('total_time', took),
      ...time('source_throttle_time', 0),
      ...time('target_throttle_time', 0),
    },
    translog: {
      recovered: r.replayedOps,
      total: r.replayedOps,
      percent: recoveryPercent(r.replayedOps, r.replayedOps),
      total_on_start: r.replayedOps,
      ...time('total_time', took),
    },
    verify_index: { ...time('check_index_time', 0), ...time('total_time', 0) },
  };
}
