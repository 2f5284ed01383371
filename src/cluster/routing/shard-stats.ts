/**
 * Every node's counts of the started copies it holds (`_cat/shards` in a cluster): documents,
 * segments, sequence numbers, sync id and store share, keyed by allocation id.
 */
import type { IndicesService } from '../../engine/indices-service.js';
import { shardStoreShare } from '../../engine/shard-store-share.js';
import type { ClusterMembership } from '../membership.js';

export const SHARD_STATS_ACTION = 'indices:monitor/shards[n]';

export interface CopyStats {
  docs: number;
  segments: number;
  maxSeqNo: number;
  /** The copy's sync id since its last synced flush (null: none, or written since). */
  syncId?: string | null;
  /** The copy's share of its index's store on this node, by its documents. */
  storeBytes?: number;
}

/** Answers, for every started copy this node holds, its counts (keyed by allocation id). */
export function registerShardStats(
  nodeId: string,
  indices: IndicesService,
  membership: ClusterMembership,
): void {
  membership.handle(SHARD_STATS_ACTION, () => {
    const state = membership.state();
    const out: Record<string, CopyStats> = {};
    for (const table of state.routing.values())
      for (const copies of table.shards)
        for (const c of copies) {
          if (c.nodeId !== nodeId || !c.allocationId) continue;
          const idx = indices.get(c.index);
          if (!idx || idx.uuid !== c.indexUuid) continue;
          const shard = idx.shard(c.shard);
          const st = shard.search?.stats();
          const docs = st?.docs ?? 0;
          // as the lone node's _cat/shards: the index's store split by documents
          const storeBytes = shardStoreShare(idx, docs);
          out[c.allocationId.id] = { docs, segments: st?.segments ?? 0, maxSeqNo: shard.maxSeqNo, syncId: shard.syncId, storeBytes }; // prettier-ignore
        }
    return out;
  });
}

/** Every node's counts of its started copies, by allocation id (nodes that do not answer add none). */
export async function collectShardStats(
  membership: ClusterMembership,
): Promise<Map<string, CopyStats>> {
  const stats = new Map<string, CopyStats>();
  const collected = await membership.collect(SHARD_STATS_ACTION, {}, 10_000);
  for (const r of collected.results.values())
    for (const [aid, st] of Object.entries(r as Record<string, CopyStats>)) stats.set(aid, st);
  return stats;
}
