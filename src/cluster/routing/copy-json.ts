/**
 * A cluster's shard copies as ES ShardRouting.toXContent renders them in `_cluster/state`
 * (`routing_table`, `routing_nodes`): state, primary, node, relocating_node, shard, index, then
 * the expected size, recovery source, allocation id and unassigned info when they apply. Pure.
 */
import type { RecoverySource, ShardRouting } from '../state.js';

function recoverySourceJson(r: RecoverySource): Record<string, unknown> {
  switch (r.type) {
    case 'EXISTING_STORE':
      return { type: r.type, bootstrap_new_history_uuid: r.bootstrapNewHistory ?? false };
    case 'SNAPSHOT':
      return { type: r.type, repository: r.repository, snapshot: r.snapshot };
    default:
      return { type: r.type };
  }
}

export function clusterCopyJson(c: ShardRouting): Record<string, unknown> {
  const out: Record<string, unknown> = {
    state: c.state,
    primary: c.primary,
    node: c.nodeId,
    relocating_node: c.relocatingNodeId,
    shard: c.shard,
    index: c.index,
  };
  if (c.expectedSizeInBytes !== undefined && c.expectedSizeInBytes >= 0)
    out.expected_shard_size_in_bytes = c.expectedSizeInBytes;
  if (c.recoverySource) out.recovery_source = recoverySourceJson(c.recoverySource);
  if (c.allocationId)
    out.allocation_id = {
      id: c.allocationId.id,
      ...(c.allocationId.relocationId ? { relocation_id: c.allocationId.relocationId } : {}),
    };
  const u = c.unassignedInfo;
  if (u) {
    out.unassigned_info = {
      reason: u.reason,
      at: new Date(u.at).toISOString(),
      ...(u.failedAttempts > 0 ? { failed_attempts: u.failedAttempts } : {}),
      delayed: u.delayed,
      ...(u.details !== undefined ? { details: u.details } : {}),
      allocation_status: u.lastAllocationStatus,
    };
  }
  return out;
}
