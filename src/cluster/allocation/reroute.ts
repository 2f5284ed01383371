/**
 * ES AllocationService.reroute: clear expired delays, place unassigned copies (primaries first),
 * move copies off nodes they may no longer stay on, then rebalance. Returns a new state and, per
 * copy left unassigned, why.
 */
import type { ClusterState, DiscoveryNode, ShardRouting } from '../state.js';
import type { AllocationContext } from './context.js';
import { weigher, withinThreshold, type Weigher } from './balance.js';
import {
  canAllocate,
  canRebalanceCluster,
  canRebalanceShard,
  canRemain,
  combined,
  filter,
} from './deciders.js';
import {
  allocationStatusOf,
  decideUnassigned,
  remainingDelay,
  type UnassignedDecision,
} from './decide.js';
import { explanationOf } from './explain-text.js';
import {
  allCopies,
  bumpTerm,
  closeWork,
  groupOf,
  initialized,
  openWork,
  replace,
  type Work,
} from './work.js';

export interface StuckCopy {
  readonly index: string;
  readonly shard: number;
  readonly primary: boolean;
  /** ES AllocationStatus value left in unassigned_info.last_allocation_status. */
  readonly allocationStatus: string;
  /** ES allocate_explanation. */
  readonly explanation: string;
}

export interface RerouteResult {
  readonly state: ClusterState;
  /** False when the routing and the terms came out as they went in. */
  readonly changed: boolean;
  readonly unassigned: readonly StuckCopy[];
}

export function reroute(state: ClusterState, ctx: AllocationContext): RerouteResult {
  const work = openWork(state, ctx.settings, ctx.now);
  const { changed, unassigned } = rerouteWork(work, ctx);
  return { state: changed ? closeWork(work) : state, changed, unassigned };
}

/** Routing fingerprint, to tell whether a round changed anything. */
function fingerprint(work: Work): string {
  const parts: string[] = [];
  for (const c of allCopies(work))
    parts.push(
      `${c.index}/${c.shard}/${c.primary}/${c.state}/${c.nodeId}/${c.allocationId?.id}/${c.unassignedInfo?.lastAllocationStatus}/${c.unassignedInfo?.delayed}`,
    );
  for (const [name, ts] of work.terms)
    parts.push(`${name}:${ts.map((t) => `${t.primaryTerm}[${t.inSync.join(',')}]`).join(';')}`);
  return parts.join('|');
}

export function rerouteWork(
  work: Work,
  ctx: AllocationContext,
): { changed: boolean; unassigned: StuckCopy[] } {
  const before = fingerprint(work);
  removeDelayMarkers(work);
  const unassigned = allocateUnassigned(work, ctx);
  moveShards(work, ctx);
  rebalance(work, ctx);
  return { changed: fingerprint(work) !== before || work.termsChanged.size > 0, unassigned };
}

function removeDelayMarkers(work: Work): void {
  for (const c of [...allCopies(work)]) {
    if (c.state !== 'UNASSIGNED' || !c.unassignedInfo?.delayed) continue;
    if (remainingDelay(work, c) === 0)
      replace(work, c, { ...c, unassignedInfo: { ...c.unassignedInfo, delayed: false } });
  }
}

/** Primaries first, then by index name and shard number (ES sorts by index priority). */
function unassignedInOrder(work: Work): ShardRouting[] {
  const out = [...allCopies(work)].filter((c) => c.state === 'UNASSIGNED');
  return out.sort(
    (a, b) =>
      Number(b.primary) - Number(a.primary) ||
      (a.index < b.index ? -1 : a.index > b.index ? 1 : 0) ||
      a.shard - b.shard,
  );
}

/** Initializes `copy` on the decided node, as ES's unassigned iterator does. */
export function initializeOn(
  work: Work,
  ctx: AllocationContext,
  copy: ShardRouting,
  node: DiscoveryNode,
  allocationId?: string,
): ShardRouting {
  const next = initialized(copy, node.id, allocationId ?? ctx.newAllocationId());
  replace(work, copy, next);
  // A primary placed from unassigned starts a new term (ES IndexMetaDataUpdater.shardInitialized).
  if (copy.primary) bumpTerm(work, copy.index, copy.shard);
  return next;
}

function allocateUnassigned(work: Work, ctx: AllocationContext): StuckCopy[] {
  const w = weigher(work);
  const stuck: StuckCopy[] = [];
  for (const copy of unassignedInOrder(work)) {
    const d = decideUnassigned(work, ctx, copy, w);
    if (d.decision === 'yes' && d.node) {
      initializeOn(work, ctx, copy, d.node, d.allocationId);
      w.record(d.node.id, copy.index, 1);
      continue;
    }
    const status = allocationStatusOf(d);
    if (copy.unassignedInfo && copy.unassignedInfo.lastAllocationStatus !== status)
      replace(work, copy, {
        ...copy,
        unassignedInfo: { ...copy.unassignedInfo, lastAllocationStatus: status },
      });
    stuck.push({
      index: copy.index,
      shard: copy.shard,
      primary: copy.primary,
      allocationStatus: status,
      explanation: explanationOf(d),
    });
  }
  return stuck;
}

/** ES relocateShard: the source turns RELOCATING, a target recovers from it on `node`. */
export function relocate(
  work: Work,
  ctx: AllocationContext,
  copy: ShardRouting,
  node: DiscoveryNode,
): void {
  const targetId = ctx.newAllocationId();
  const sourceId = copy.allocationId!.id;
  replace(work, copy, {
    ...copy,
    state: 'RELOCATING',
    relocatingNodeId: node.id,
    allocationId: { id: sourceId, relocationId: targetId },
  });
  work.roundTargets.add(targetId);
  groupOf(work, copy.index, copy.shard).push({
    index: copy.index,
    indexUuid: copy.indexUuid,
    shard: copy.shard,
    primary: copy.primary,
    state: 'INITIALIZING',
    nodeId: node.id,
    relocatingNodeId: copy.nodeId,
    allocationId: { id: targetId, relocationId: sourceId },
    unassignedInfo: null,
    recoverySource: { type: 'PEER' },
  });
}

/** The best node a started copy could move to, lowest weight first (ES decideMove). */
function bestTarget(work: Work, w: Weigher, copy: ShardRouting): DiscoveryNode | undefined {
  let best: { node: DiscoveryNode; weight: number } | undefined;
  for (const node of work.dataNodes) {
    if (node.id === copy.nodeId) continue;
    if (combined(canAllocate(work, copy, node)) !== 'YES') continue;
    const weight = w.weight(node.id, copy.index, 1);
    if (!best || weight < best.weight) best = { node, weight };
  }
  return best?.node;
}

/** ES moveShards: started copies a node may no longer hold (filters, limits) move elsewhere. */
function moveShards(work: Work, ctx: AllocationContext): void {
  const w = weigher(work);
  for (const copy of [...allCopies(work)]) {
    if (copy.state !== 'STARTED' || copy.nodeId === null) continue;
    const node = work.base.nodes.get(copy.nodeId);
    if (!node || combined(canRemain(work, copy, node)) !== 'NO') continue;
    const target = bestTarget(work, w, copy);
    if (!target) continue;
    relocate(work, ctx, copy, target);
    w.record(target.id, copy.index, 1);
    w.record(copy.nodeId, copy.index, -1);
  }
}

/**
 * ES balanceByWeights, simplified: per index, move one started copy from the heaviest to the
 * lightest node that accepts it while their weights differ by more than the threshold, until the
 * rebalance deciders say stop.
 */
function rebalance(work: Work, ctx: AllocationContext): void {
  if (work.dataNodes.length < 2) return;
  const maxMoves = [...allCopies(work)].length;
  for (let moves = 0; moves < maxMoves; moves++) {
    if (combined(canRebalanceCluster(work)) !== 'YES') return;
    if (!rebalanceOnce(work, ctx)) return;
  }
}

function rebalanceOnce(work: Work, ctx: AllocationContext): boolean {
  const w = weigher(work);
  const indices = [...work.tables.keys()].sort();
  for (const index of indices) {
    const hasCopy = (n: DiscoveryNode) =>
      [...allCopies(work)].some((c) => c.index === index && c.nodeId === n.id);
    const relevant = work.dataNodes.filter(
      (n) => hasCopy(n) || filter(work, index, n).decision !== 'NO',
    );
    if (relevant.length < 2) continue;
    const byWeight = relevant
      .map((n) => ({ node: n, weight: w.weight(n.id, index) }))
      .sort((a, b) => b.weight - a.weight);
    // Try the pairs farthest apart first.
    const pairs: { from: DiscoveryNode; to: DiscoveryNode; delta: number }[] = [];
    for (const hi of byWeight)
      for (const lo of byWeight)
        if (hi.weight - lo.weight > 0)
          pairs.push({ from: hi.node, to: lo.node, delta: hi.weight - lo.weight });
    pairs.sort((a, b) => b.delta - a.delta);
    for (const { from, to, delta } of pairs) {
      if (withinThreshold(delta, w.threshold)) break;
      // Moving one copy changes the pair's difference by two units of weight; it must shrink.
      const after = Math.abs(w.weight(from.id, index, -1) - w.weight(to.id, index, 1));
      if (after >= delta) continue;
      const candidates = groupsOf(work, index)
        .flat()
        .filter((c) => c.state === 'STARTED' && c.nodeId === from.id)
        // Replicas first: moving them does not touch the write path's primary.
        .sort((a, b) => Number(a.primary) - Number(b.primary) || b.shard - a.shard);
      for (const copy of candidates) {
        if (combined(canRebalanceShard(work, copy)) !== 'YES') continue;
        if (combined(canAllocate(work, copy, to)) !== 'YES') continue;
        relocate(work, ctx, copy, to);
        return true;
      }
    }
  }
  return false;
}

const groupsOf = (work: Work, index: string): ShardRouting[][] => work.tables.get(index) ?? [];
