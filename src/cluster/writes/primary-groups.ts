/**
 * The replication groups of the primaries this node holds (ES: one ReplicationTracker per primary
 * shard). A tracker is made when a copy first acts as primary — its own checkpoint, the copies the
 * cluster state lists in sync — and lives while that allocation id is the primary here. Writes
 * feed it the replicas' checkpoints; a recovery starts tracking its copy so that copy receives
 * live writes before it catches up.
 */
import type { ClusterState, ShardRouting } from '../state.js';
import { ReplicationTracker } from '../replication/replication-tracker.js';
import type { ReplicationGroup } from '../replication/replicate.js';

export class PrimaryGroups {
  private readonly trackers = new Map<string, ReplicationTracker>();

  /** The tracker of the primary with allocation id `primaryAid`, made on first use. */
  tracker(
    primaryAid: string,
    localCheckpoint: number,
    inSync: readonly string[],
  ): ReplicationTracker {
    let t = this.trackers.get(primaryAid);
    if (!t) {
      t = new ReplicationTracker(primaryAid, localCheckpoint, -1, inSync);
      this.trackers.set(primaryAid, t);
    }
    return t;
  }

  /** The tracker if this node already acts as that primary. */
  existing(primaryAid: string): ReplicationTracker | undefined {
    return this.trackers.get(primaryAid);
  }

  /** Forgets trackers of allocation ids that are no longer a primary on `nodeId`. */
  prune(state: ClusterState, nodeId: string): void {
    const live = new Set<string>();
    for (const table of state.routing.values())
      for (const copies of table.shards)
        for (const c of copies)
          if (c.primary && c.nodeId === nodeId && c.allocationId) live.add(c.allocationId.id);
    for (const id of this.trackers.keys()) if (!live.has(id)) this.trackers.delete(id);
  }
}

/** The copies of a shard as the cluster state lists them. */
export function copiesOf(
  state: ClusterState,
  index: string,
  shard: number,
): readonly ShardRouting[] {
  return state.routing.get(index)?.shards[shard] ?? [];
}

/**
 * Who receives a write of the primary `primaryAid` (ES ReplicationOperation): every other copy
 * that is started, or initializing and already tracked (its recovery began) — a relocation target
 * included, so nothing is missing when it takes over; unassigned copies and copies not yet
 * tracked count in `_shards.total` only.
 */
export function replicationGroup(
  state: ClusterState,
  index: string,
  shard: number,
  primaryAid: string,
  primaryTerm: number,
  primaryNodeId: string,
  tracker: ReplicationTracker,
): ReplicationGroup {
  const copies = copiesOf(state, index, shard);
  const tracked = new Set(tracker.trackedIds());
  const targets: Array<{ allocationId: string; nodeId: string }> = [];
  let others = 0;
  for (const c of copies) {
    if (c.allocationId?.id === primaryAid) continue;
    const relocationTarget =
      c.state === 'INITIALIZING' && c.relocatingNodeId !== null && !!c.allocationId?.relocationId;
    // a relocation target not yet tracked is no copy of its own (its source is counted)
    if (relocationTarget && !tracked.has(c.allocationId!.id)) continue;
    others++;
    if (!c.nodeId || !c.allocationId) continue;
    const started = c.state === 'STARTED' || c.state === 'RELOCATING';
    if (started || (c.state === 'INITIALIZING' && tracked.has(c.allocationId.id)))
      targets.push({ allocationId: c.allocationId.id, nodeId: c.nodeId });
  }
  return {
    index,
    shard,
    primaryTerm,
    primaryNodeId,
    targets,
    skipped: others - targets.length,
  };
}
