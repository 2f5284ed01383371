/**
 * What happens to the routing when copies start or fail and nodes leave or join (ES
 * AllocationService.applyStartedShards / applyFailedShards / disassociateDeadNodes), and the
 * routing and terms of a new index. Each returns a new state; none reroutes by itself except
 * `nodesJoined` (call `reroute` after the others, as ES's master does).
 */
import type {
  ClusterState,
  DiscoveryNode,
  IndexMetadata,
  IndexRoutingTable,
  ShardTerms,
} from '../state.js';
import type { AllocationContext } from './context.js';
import { failShard } from './fail.js';
import { reroute, type RerouteResult } from './reroute.js';
import { delayedTimeout } from './settings.js';
import {
  closeWork,
  copiesOnNode,
  findByAllocationId,
  FORCED_ALLOCATION_ID,
  metaOf,
  openWork,
  relocationPeer,
  replace,
  setInSync,
  started,
  termsOf,
  unassignedCopy,
  unassignedInfo,
} from './work.js';

/** Terms of a new index: term 0 (the first primary allocation makes it 1, as in ES), nothing in sync. */
export function newIndexTerms(numberOfShards: number): ShardTerms[] {
  return Array.from({ length: numberOfShards }, () => ({ primaryTerm: 0, inSync: [] }));
}

/** Every copy of a new index, UNASSIGNED with INDEX_CREATED. */
export function newIndexRouting(meta: IndexMetadata, now: number): IndexRoutingTable {
  const info = unassignedInfo('INDEX_CREATED', now);
  const base = { index: meta.name, indexUuid: meta.uuid };
  return {
    ...base,
    shards: Array.from({ length: meta.numberOfShards }, (_, shard) => [
      unassignedCopy({ ...base, shard }, true, info, { type: 'EMPTY_STORE' }),
      ...Array.from({ length: meta.numberOfReplicas }, () =>
        unassignedCopy({ ...base, shard }, false, info, { type: 'PEER' }),
      ),
    ]),
  };
}

const noSettings = {};

/**
 * INITIALIZING -> STARTED. A finished relocation drops its source. The started copy joins the
 * in-sync set (ES 6.8's master does this on shard-started); a relocation source leaves it.
 * An unknown or not-initializing allocation id is a stale event and changes nothing.
 */
export function shardStarted(state: ClusterState, allocationId: string): ClusterState {
  const work = openWork(state, noSettings, 0);
  const copy = findByAllocationId(work, allocationId);
  if (!copy || copy.state !== 'INITIALIZING') return state;
  const inSync = termsOf(work, copy.index, copy.shard).inSync.filter(
    (id) => id !== FORCED_ALLOCATION_ID,
  );
  if (copy.relocatingNodeId !== null) {
    const source = relocationPeer(work, copy);
    if (source) {
      replace(work, source, null);
      const i = inSync.indexOf(source.allocationId!.id);
      if (i >= 0) inSync.splice(i, 1);
    }
  }
  replace(work, copy, started(copy));
  setInSync(work, copy.index, copy.shard, [...inSync, allocationId]);
  return closeWork(work);
}

export interface ShardFailedOptions {
  /** The primary reports the copy stale: drop it from the in-sync set (ES markAsStale). */
  readonly markAsStale?: boolean;
}

/** A copy failed on its node: UNASSIGNED ALLOCATION_FAILED, one more failed attempt. */
export function shardFailed(
  state: ClusterState,
  allocationId: string,
  reason: string,
  now: number,
  opts: ShardFailedOptions = {},
): ClusterState {
  const work = openWork(state, noSettings, now);
  const copy = findByAllocationId(work, allocationId);
  if (!copy || copy.state === 'UNASSIGNED') return state;
  const info = unassignedInfo('ALLOCATION_FAILED', now, {
    details: `failed shard on node [${copy.nodeId}]: ${reason}`,
    failedAttempts: (copy.unassignedInfo?.failedAttempts ?? 0) + 1,
  });
  if (opts.markAsStale) {
    const t = termsOf(work, copy.index, copy.shard);
    setInSync(
      work,
      copy.index,
      copy.shard,
      t.inSync.filter((id) => id !== allocationId),
    );
  }
  failShard(work, copy, info);
  return closeWork(work);
}

/**
 * Nodes left: their copies become UNASSIGNED NODE_LEFT (delayed when the index's
 * delayed_timeout is above 0), lost primaries are replaced by in-sync replicas, relocations
 * to or from them are undone. The nodes are removed from `state.nodes`.
 */
export function nodesLeft(
  state: ClusterState,
  nodeIds: readonly string[],
  now: number,
): ClusterState {
  const work = openWork(state, noSettings, now);
  for (const nodeId of nodeIds) {
    for (const copy of copiesOnNode(work, nodeId)) {
      const delayed = delayedTimeout(metaOf(work, copy.index)) > 0;
      failShard(
        work,
        copy,
        unassignedInfo('NODE_LEFT', now, {
          details: `node_left [${nodeId}]`,
          delayed,
          lastNodeId: nodeId,
        }),
      );
    }
  }
  const next = closeWork(work);
  const nodes = new Map(next.nodes);
  for (const id of nodeIds) nodes.delete(id);
  return { ...next, nodes };
}

/** Nodes joined: add them and reroute (a delayed replica goes back to its returning node). */
export function nodesJoined(
  state: ClusterState,
  joined: readonly DiscoveryNode[],
  ctx: AllocationContext,
): RerouteResult {
  const nodes = new Map(state.nodes);
  for (const n of joined) nodes.set(n.id, n);
  return reroute({ ...state, nodes }, ctx);
}

function withInSync(
  state: ClusterState,
  index: string,
  shard: number,
  edit: (ids: string[]) => string[],
): ClusterState {
  const work = openWork(state, noSettings, 0);
  const t = termsOf(work, index, shard);
  setInSync(work, index, shard, edit([...t.inSync]));
  return work.termsChanged.size === 0 ? state : closeWork(work);
}

/** Adds a copy to the shard's in-sync set (the primary found it caught up). */
export function markInSync(
  state: ClusterState,
  index: string,
  shard: number,
  allocationId: string,
): ClusterState {
  return withInSync(state, index, shard, (ids) => [...ids, allocationId]);
}

/** Drops a copy from the shard's in-sync set (the primary failed to replicate to it). */
export function removeFromInSync(
  state: ClusterState,
  index: string,
  shard: number,
  allocationId: string,
): ClusterState {
  return withInSync(state, index, shard, (ids) => ids.filter((id) => id !== allocationId));
}

/**
 * Millis until the next delayed copy may be allocated (ES findNextDelayedAllocation), or -1
 * when none waits: the master schedules a reroute then.
 */
export function nextDelayedAllocation(state: ClusterState, now: number): number {
  let next = Infinity;
  for (const [name, table] of state.routing) {
    const meta = state.metadata.indices.get(name);
    if (!meta) continue;
    const timeout = delayedTimeout(meta);
    for (const g of table.shards)
      for (const c of g)
        if (c.state === 'UNASSIGNED' && c.unassignedInfo?.delayed)
          next = Math.min(next, Math.max(0, timeout - (now - c.unassignedInfo.at)));
  }
  return next === Infinity ? -1 : next;
}

/**
 * `index.number_of_replicas` changed (ES RoutingTable.Builder.updateNumberOfReplicas): new
 * replicas are added UNASSIGNED REPLICA_ADDED; removed ones are taken unassigned first, then
 * the first assigned replica (with its relocation target), and leave the in-sync set. The caller
 * updates IndexMetadata.numberOfReplicas and its settings in the same state, then reroutes.
 */
export function updateNumberOfReplicas(
  state: ClusterState,
  index: string,
  replicas: number,
  now: number,
): ClusterState {
  const work = openWork(state, noSettings, now);
  const groups = work.tables.get(index);
  if (!groups) return state;
  groups.forEach((group, shard) => {
    const isTarget = (c: (typeof group)[number]) =>
      c.state === 'INITIALIZING' && c.relocatingNodeId !== null;
    let current = group.filter((c) => !c.primary && !isTarget(c)).length;
    const base = group[0]!;
    for (; current < replicas; current++)
      group.push(
        unassignedCopy(base, false, unassignedInfo('REPLICA_ADDED', now), { type: 'PEER' }),
      );
    for (; current > replicas; current--) {
      const victim =
        group.find((c) => !c.primary && c.state === 'UNASSIGNED') ??
        group.find((c) => !c.primary && !isTarget(c))!;
      const target = relocationPeer(work, victim);
      if (target) replace(work, target, null);
      replace(work, victim, null);
      if (victim.allocationId) {
        const t = termsOf(work, index, shard);
        setInSync(
          work,
          index,
          shard,
          t.inSync.filter((id) => id !== victim.allocationId!.id),
        );
      }
    }
  });
  return closeWork(work);
}
