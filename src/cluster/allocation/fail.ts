/**
 * ES RoutingNodes.failShard: a copy leaves its node. A failed primary fails the replicas
 * recovering from it and hands its role to a started in-sync replica (the shard's primary term
 * goes up by one), or becomes an unassigned primary that must recover from an in-sync copy. A
 * relocation loses its other half as ES does it.
 */
import type { ShardRouting, UnassignedInfo } from '../state.js';
import {
  bumpTerm,
  groupOf,
  isActive,
  primaryRecoveryAfterLoss,
  relocationPeer,
  replace,
  setInSync,
  termsOf,
  unassignedCopy,
  unassignedInfo,
  type Work,
} from './work.js';

function current(work: Work, copy: ShardRouting): ShardRouting | undefined {
  const id = copy.allocationId?.id;
  return groupOf(work, copy.index, copy.shard).find((c) => c.allocationId?.id === id);
}

function moveToUnassigned(work: Work, copy: ShardRouting, info: UnassignedInfo): void {
  const recovery = copy.primary ? primaryRecoveryAfterLoss(copy) : { type: 'PEER' as const };
  replace(work, copy, unassignedCopy(copy, copy.primary, info, recovery));
}

/** Hands the primary role to a started in-sync replica, or leaves the primary unassigned. */
function failPrimary(work: Work, copy: ShardRouting, info: UnassignedInfo): void {
  const inSync = termsOf(work, copy.index, copy.shard).inSync;
  const group = groupOf(work, copy.index, copy.shard);
  const candidate = group.find(
    (c) =>
      !c.primary && isActive(c) && c.allocationId !== null && inSync.includes(c.allocationId.id),
  );
  const wasActive = isActive(copy);
  if (!candidate) {
    moveToUnassigned(work, copy, info);
    if (wasActive) bumpTerm(work, copy.index, copy.shard);
    return;
  }
  // The failed primary stays as an unassigned replica; the promoted copy (and its relocation
  // target, if it is moving) becomes primary.
  replace(work, copy, unassignedCopy(copy, false, info, { type: 'PEER' }));
  const target = candidate.state === 'RELOCATING' ? relocationPeer(work, candidate) : undefined;
  replace(work, candidate, { ...candidate, primary: true });
  if (target) replace(work, target, { ...target, primary: true });
  bumpTerm(work, copy.index, copy.shard);
  resyncOthers(work, copy, candidate, target, info);
}

/**
 * The other started replicas may hold operations of the old primary that the new one never got
 * (sent to some copies only before it failed), or lack some it has: they leave the in-sync set
 * and recover from the new primary, whose recovery rolls back what it does not have — the first
 * version of ES's replica rollback on a new term (design §4). Kept as they were, the copies of the
 * shard would differ for good.
 */
function resyncOthers(
  work: Work,
  failed: ShardRouting,
  promoted: ShardRouting,
  promotedTarget: ShardRouting | undefined,
  info: UnassignedInfo,
): void {
  const skip = new Set(
    [failed, promoted, promotedTarget].flatMap((c) => (c?.allocationId ? [c.allocationId.id] : [])),
  );
  const stale: string[] = [];
  for (const c of [...groupOf(work, failed.index, failed.shard)]) {
    if (c.primary || c.state !== 'STARTED' || !c.allocationId || skip.has(c.allocationId.id))
      continue;
    stale.push(c.allocationId.id);
    replace(
      work,
      c,
      unassignedCopy(
        c,
        false,
        unassignedInfo('PRIMARY_FAILED', info.at, {
          details: 'primary failed: the replica recovers from the new primary',
        }),
        { type: 'PEER' },
      ),
    );
  }
  if (stale.length === 0) return;
  const t = termsOf(work, failed.index, failed.shard);
  setInSync(
    work,
    failed.index,
    failed.shard,
    t.inSync.filter((id) => !stale.includes(id)),
  );
}

export function failShard(work: Work, failing: ShardRouting, info: UnassignedInfo): void {
  const copy = current(work, failing);
  if (!copy) return;
  if (copy.primary) {
    // Replicas recovering from this primary fail with it (ES PRIMARY_FAILED).
    for (const r of [...groupOf(work, copy.index, copy.shard)]) {
      if (r.primary || r.state !== 'INITIALIZING') continue;
      failShard(
        work,
        r,
        unassignedInfo('PRIMARY_FAILED', info.at, {
          details: 'primary failed while replica initializing',
        }),
      );
    }
  }
  const self = current(work, copy);
  if (!self) return;
  if (self.state === 'RELOCATING') {
    const target = relocationPeer(work, self);
    if (target) {
      if (self.primary) replace(work, target, null);
      else
        // The target carries on as an ordinary recovering replica.
        replace(work, target, {
          ...target,
          relocatingNodeId: null,
          allocationId: { id: target.allocationId!.id },
        });
    }
    if (self.primary) failPrimary(work, self, info);
    else replace(work, self, null);
    return;
  }
  if (self.state === 'INITIALIZING' && self.relocatingNodeId !== null) {
    // A relocation target: the source stays where it is.
    const source = relocationPeer(work, self);
    if (source)
      replace(work, source, {
        ...source,
        state: 'STARTED',
        relocatingNodeId: null,
        allocationId: { id: source.allocationId!.id },
      });
    replace(work, self, null);
    return;
  }
  if (self.primary) failPrimary(work, self, info);
  else moveToUnassigned(work, self, info);
}
