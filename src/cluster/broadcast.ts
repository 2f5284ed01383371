/**
 * Refresh and flush in a cluster (ES TransportBroadcastReplicationAction): every node acts on the
 * started copies it holds of the named indices and answers how many; `_shards.total` counts every
 * copy the metadata has, a node that fails or does not answer counts its copies as failed.
 */
import type { IndexService } from '../engine/index-service.js';
import type { IndicesService } from '../engine/indices-service.js';
import {
  actOnLocalCopies,
  type BroadcastKind,
  type ShardBroadcast,
} from '../engine/shard-broadcast.js';
import type { ClusterMembership } from './membership.js';
import type { ClusterState } from './state.js';

export const BROADCAST_ACTION = 'indices:admin/broadcast[n]';

interface BroadcastRequest {
  kind: BroadcastKind;
  indices: Array<{ name: string; uuid: string }>;
}

/** Shard numbers of the started copies `nodeId` holds of `index`. */
function activeCopiesOn(state: ClusterState, index: string, nodeId: string): number[] {
  const out: number[] = [];
  for (const copies of state.routing.get(index)?.shards ?? [])
    for (const c of copies)
      if (c.nodeId === nodeId && (c.state === 'STARTED' || c.state === 'RELOCATING'))
        out.push(c.shard);
  return out;
}

export function clusterBroadcast(
  membership: ClusterMembership,
  indices: IndicesService,
): ShardBroadcast {
  const me = membership.localNode.id;
  membership.handle(BROADCAST_ACTION, async (b) => {
    const req = b as BroadcastRequest;
    const state = membership.state();
    let done = 0;
    for (const { name, uuid } of req.indices) {
      const idx = indices.get(name);
      if (!idx || idx.uuid !== uuid) continue;
      done += await actOnLocalCopies(req.kind, idx, activeCopiesOn(state, name, me));
    }
    return { done };
  });
  return {
    async run(kind, targets: readonly IndexService[]) {
      const state = membership.state();
      let total = 0;
      for (const idx of targets) total += idx.numberOfShards * (1 + idx.numberOfReplicas);
      const req: BroadcastRequest = {
        kind,
        indices: targets.map((i) => ({ name: i.name, uuid: i.uuid })),
      };
      const r = await membership.collect(BROADCAST_ACTION, req, 30_000);
      let successful = 0;
      for (const v of r.results.values()) successful += (v as { done: number }).done;
      let failed = 0;
      for (const f of r.failures)
        for (const idx of targets) failed += activeCopiesOn(state, idx.name, f.nodeId).length;
      return { total, successful, failed };
    },
  };
}
