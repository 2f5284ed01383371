/**
 * Where each shard copy of an index is, as ES's routing table lists it (ShardRouting and
 * UnassignedInfo toXContent). On one node every primary is STARTED there and every replica
 * UNASSIGNED, since a copy may not share a node with its primary — what `_cluster/health` and
 * `_cat/shards` report too. A closed index has no routing entry (ES 6.8 removes it on close); a red
 * index, one that could not be opened, has its primaries unassigned as well.
 */
import { createHash } from 'node:crypto';
import type { IndexService } from './index-service.js';

export interface UnassignedInfo {
  reason: string;
  at: string;
  failed_attempts?: number;
  delayed: boolean;
  details?: string;
  allocation_status: string;
}

/** Field order is ES's. */
export interface ShardRouting {
  state: 'STARTED' | 'UNASSIGNED';
  primary: boolean;
  node: string | null;
  relocating_node: null;
  shard: number;
  index: string;
  recovery_source?: { type: string; bootstrap_new_history_uuid?: boolean };
  allocation_id?: { id: string };
  unassigned_info?: UnassignedInfo;
}

export interface RoutingNode {
  nodeId: string;
  /** When the node started: a red index's primaries failed then. */
  startedAt: number;
}

/**
 * A primary's allocation id. ES keeps it across restarts (a primary recovering from its own store
 * reuses its in-sync id), so deriving it from the index uuid and shard keeps it stable without
 * storing it. Same shape as ES's random base64 UUIDs.
 */
export function allocationId(indexUuid: string, shard: number): string {
  const b = createHash('sha256').update(`${indexUuid}/${shard}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return b.toString('base64url');
}

/** The copies of each shard of `idx`, primary first; null for a closed index (no routing). */
export function indexRouting(idx: IndexService, node: RoutingNode): ShardRouting[][] | null {
  if (idx.closed) return null;
  const out: ShardRouting[][] = [];
  for (let shard = 0; shard < idx.numberOfShards; shard++) {
    const copies = [
      idx.failed ? failedPrimary(idx, shard, node) : startedPrimary(idx, shard, node),
    ];
    for (let r = 0; r < idx.numberOfReplicas; r++) copies.push(unassignedReplica(idx, shard));
    out.push(copies);
  }
  return out;
}

function startedPrimary(idx: IndexService, shard: number, node: RoutingNode): ShardRouting {
  return {
    ...head('STARTED', true, node.nodeId, shard, idx.name),
    allocation_id: { id: allocationId(idx.uuid, shard) },
  };
}

/** ES AllocationService.applyFailedShard: the failure is kept in the unassigned info. */
function failedPrimary(idx: IndexService, shard: number, node: RoutingNode): ShardRouting {
  return {
    ...head('UNASSIGNED', true, null, shard, idx.name),
    recovery_source: { type: 'EXISTING_STORE', bootstrap_new_history_uuid: false },
    unassigned_info: {
      reason: 'ALLOCATION_FAILED',
      at: new Date(node.startedAt).toISOString(),
      failed_attempts: 1,
      delayed: false,
      details: `failed shard on node [${node.nodeId}]: failed to open the index, failure ${idx.failure ?? 'unknown'}`,
      // no copy of the shard can be opened (ES AllocationStatus.NO_VALID_SHARD_COPY)
      allocation_status: 'no_valid_shard_copy',
    },
  };
}

/**
 * ES RoutingNodes.ignoreShard updates the allocation status of primaries only, so a replica the
 * deciders refuse keeps `no_attempt`. Reason and time are those `_cat/shards` shows.
 */
function unassignedReplica(idx: IndexService, shard: number): ShardRouting {
  return {
    ...head('UNASSIGNED', false, null, shard, idx.name),
    recovery_source: { type: 'PEER' },
    unassigned_info: {
      reason: 'INDEX_CREATED',
      at: new Date(idx.meta.creationDate).toISOString(),
      delayed: false,
      allocation_status: 'no_attempt',
    },
  };
}

function head(
  state: ShardRouting['state'],
  primary: boolean,
  node: string | null,
  shard: number,
  index: string,
): ShardRouting {
  return { state, primary, node, relocating_node: null, shard, index };
}
