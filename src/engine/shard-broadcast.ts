/**
 * Refresh and flush over every copy of some indices (ES TransportBroadcastReplicationAction): the
 * seam between those REST actions and the node's data path. A lone node acts on its own shards;
 * in a cluster every node acts on the copies it holds (src/cluster/broadcast.ts). `_shards`
 * counts every copy in `total` and the active copies that did it in `successful`; a shard without
 * an active primary is neither successful nor failed.
 */
import type { IndexService } from './index-service.js';

export type BroadcastKind = 'refresh' | 'flush';

export interface ShardsSummary {
  total: number;
  successful: number;
  failed: number;
}

export interface ShardBroadcast {
  run(kind: BroadcastKind, indices: readonly IndexService[]): Promise<ShardsSummary>;
}

/** What one node does with its copies of `idx`: the number of copies it acted on. */
export async function actOnLocalCopies(
  kind: BroadcastKind,
  idx: IndexService,
  shards: readonly number[] | null,
): Promise<number> {
  if (idx.failed) return 0;
  const list = shards ?? idx.shards.map((s) => s.id);
  if (kind === 'refresh') for (const n of list) idx.shard(n).search?.refresh();
  else await idx.flush();
  return list.length;
}

export function localBroadcast(): ShardBroadcast {
  return {
    async run(kind, indices) {
      let total = 0;
      let successful = 0;
      for (const idx of indices) {
        total += idx.numberOfShards * (1 + idx.numberOfReplicas);
        successful += await actOnLocalCopies(kind, idx, null);
      }
      return { total, successful, failed: 0 };
    },
  };
}
