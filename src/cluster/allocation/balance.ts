/**
 * ES BalancedShardsAllocator's weight function: a node's weight for an index is
 * θ0·(shards on node − mean shards per node) + θ1·(index's shards on node − mean for the index),
 * θ0 = shard balance / (shard + index balance), θ1 = index balance / sum (defaults 0.45 and 0.55).
 * A relocation counts on its target only, as ES's model does.
 */
import * as S from './settings.js';
import { allCopies, type Work } from './work.js';

export interface Weigher {
  /** Weight of `nodeId` for `index` with `delta` copies added (1) or removed (−1). */
  weight(nodeId: string, index: string, delta?: number): number;
  readonly threshold: number;
  /** Records that a copy of `index` now counts on `nodeId` (+1) or no longer does (−1). */
  record(nodeId: string, index: string, delta: number): void;
}

export function weigher(work: Work): Weigher {
  const indexBalance = S.floatSetting(work.settings, S.INDEX_BALANCE, 0.55);
  const shardBalance = S.floatSetting(work.settings, S.SHARD_BALANCE, 0.45);
  const threshold = S.floatSetting(work.settings, S.BALANCE_THRESHOLD, 1.0);
  const sum = indexBalance + shardBalance;
  const theta0 = sum > 0 ? shardBalance / sum : 0;
  const theta1 = sum > 0 ? indexBalance / sum : 0;
  const nodes = Math.max(1, work.dataNodes.length);
  let total = 0;
  const perIndexTotal = new Map<string, number>();
  for (const [name, groups] of work.tables) {
    let n = 0;
    for (const g of groups)
      n += g.filter((c) => !(c.state === 'INITIALIZING' && c.relocatingNodeId !== null)).length;
    perIndexTotal.set(name, n);
    total += n;
  }
  const onNode = new Map<string, number>();
  const onNodeIndex = new Map<string, number>();
  for (const c of allCopies(work)) {
    if (c.nodeId === null || c.state === 'RELOCATING') continue;
    onNode.set(c.nodeId, (onNode.get(c.nodeId) ?? 0) + 1);
    const k = `${c.nodeId}\u0000${c.index}`;
    onNodeIndex.set(k, (onNodeIndex.get(k) ?? 0) + 1);
  }
  return {
    threshold,
    record(nodeId, index, delta) {
      onNode.set(nodeId, (onNode.get(nodeId) ?? 0) + delta);
      const k = `${nodeId}\u0000${index}`;
      onNodeIndex.set(k, (onNodeIndex.get(k) ?? 0) + delta);
    },
    weight(nodeId, index, delta = 0) {
      const ws = (onNode.get(nodeId) ?? 0) + delta - total / nodes;
      const wi =
        (onNodeIndex.get(`${nodeId}\u0000${index}`) ?? 0) +
        delta -
        (perIndexTotal.get(index) ?? 0) / nodes;
      return theta0 * ws + theta1 * wi;
    },
  };
}

/** ES Balancer.lessThan: deltas within 0.001 of the threshold count as below it. */
export const withinThreshold = (delta: number, threshold: number): boolean =>
  delta <= threshold + 0.001;
