/** ES toString renderings that appear inside decider explanations and error messages. */
import type { DiscoveryNode, RecoverySource, ShardRouting, UnassignedInfo } from '../state.js';

/** ES UnassignedInfo.DATE_TIME_FORMATTER (strict_date_optional_time, UTC). */
export const isoDate = (ms: number): string => new Date(ms).toISOString();

function recoverySourceString(r: RecoverySource): string {
  switch (r.type) {
    case 'EMPTY_STORE':
      return 'new shard recovery';
    case 'EXISTING_STORE':
      return `existing store recovery; bootstrap_history_uuid=${r.bootstrapNewHistory === true}`;
    case 'PEER':
      return 'peer recovery';
    case 'LOCAL_SHARDS':
      return 'local shards recovery';
    case 'SNAPSHOT':
      return `snapshot recovery from ${r.repository}:${r.snapshot}`;
  }
}

/** ES UnassignedInfo.shortSummary. */
export function unassignedSummary(u: UnassignedInfo): string {
  let s = `[reason=${u.reason}], at[${isoDate(u.at)}]`;
  if (u.failedAttempts > 0) s += `, failed_attempts[${u.failedAttempts}]`;
  s += `, delayed=${u.delayed}`;
  if (u.details !== undefined) s += `, details[${u.details}]`;
  return s + `, allocation_status[${u.lastAllocationStatus}]`;
}

export const unassignedToString = (u: UnassignedInfo): string =>
  `unassigned_info[${unassignedSummary(u)}]`;

/** ES ShardRouting.shortSummary / toString. */
export function shardToString(c: ShardRouting): string {
  let s = `[${c.index}][${c.shard}], node[${c.nodeId}], `;
  if (c.relocatingNodeId !== null) s += `relocating [${c.relocatingNodeId}], `;
  s += c.primary ? '[P]' : '[R]';
  if (c.recoverySource) s += `, recovery_source[${recoverySourceString(c.recoverySource)}]`;
  s += `, s[${c.state}]`;
  if (c.allocationId) {
    const rid = c.allocationId.relocationId;
    s += `, a[id=${c.allocationId.id}${rid === undefined ? '' : `, rId=${rid}`}]`;
  }
  if (c.unassignedInfo) s += `, ${unassignedToString(c.unassignedInfo)}`;
  return s;
}

/** Host part of a `host:port` transport address. */
export const hostOf = (address: string): string =>
  address.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');

/** ES DiscoveryNode.toString: `{name}{id}{ephemeralId}{hostName}{hostAddress}{address}{attrs}`. */
export function nodeToString(n: DiscoveryNode): string {
  const host = hostOf(n.transportAddress);
  let s = n.name.length > 0 ? `{${n.name}}` : '';
  s += `{${n.id}}{${n.ephemeralId}}{${host}}{${host}}{${n.transportAddress}}`;
  const attrs = Object.entries(n.attributes);
  if (attrs.length > 0) s += `{${attrs.map(([k, v]) => `${k}=${v}`).join(', ')}}`;
  return s;
}
