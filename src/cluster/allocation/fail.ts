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
