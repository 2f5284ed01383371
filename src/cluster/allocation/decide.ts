/**
 * Where an unassigned copy may go, and why not (ES PrimaryShardAllocator for existing-store
 * primaries, ReplicaShardAllocator for replicas with data on a node or waiting for their node,
 * BalancedShardsAllocator for the rest). One decision serves both reroute and explain.
 */
import type { DiscoveryNode, ShardRouting } from '../state.js';
import type { AllocationContext } from './context.js';
import { canAllocate, combined, type Decision, type DecisionType } from './deciders.js';
import type { Weigher } from './balance.js';
import { delayedTimeout } from './settings.js';
import { metaOf, termsOf, type Work } from './work.js';

/** ES AllocationDecision, as explain prints it. */
export type AllocationDecisionName =
  | 'yes'
  | 'throttled'
  | 'no'
  | 'worse_balance'
  | 'awaiting_info'
  | 'allocation_delayed'
  | 'no_valid_shard_copy'
  | 'no_attempt';

const ORDER: readonly AllocationDecisionName[] = [
  'yes',
  'throttled',
  'no',
  'worse_balance',
  'awaiting_info',
  'allocation_delayed',
  'no_valid_shard_copy',
  'no_attempt',
];

export interface StoreInfo {
  readonly found?: false;
  readonly inSync?: boolean;
  readonly allocationId?: string;
}

export interface NodeResult {
  readonly node: DiscoveryNode;
  readonly decision: AllocationDecisionName;
  readonly deciders: readonly Decision[];
  /** 0 when the node was not ranked by weight. */
  readonly weightRanking: number;
  readonly store?: StoreInfo;
}

export interface UnassignedDecision {
  readonly decision: 'yes' | 'throttled' | 'no' | 'no_valid_shard_copy' | 'allocation_delayed';
  readonly node?: DiscoveryNode;
  /** The on-disk allocation id an existing-store primary reuses. */
  readonly allocationId?: string;
  /** The NO came from the nodes holding an in-sync copy. */
  readonly reuseStore: boolean;
  readonly nodes: readonly NodeResult[];
  readonly configuredDelay?: number;
  readonly remainingDelay?: number;
}

export const fromType = (t: DecisionType): AllocationDecisionName =>
  t === 'YES' ? 'yes' : t === 'THROTTLE' ? 'throttled' : 'no';

/** ES NodeAllocationResult ordering: by decision, then weight ranking, then node id. */
export function sortNodeResults(rs: readonly NodeResult[]): NodeResult[] {
  return [...rs].sort(
    (a, b) =>
      ORDER.indexOf(a.decision) - ORDER.indexOf(b.decision) ||
      a.weightRanking - b.weightRanking ||
      (a.node.id < b.node.id ? -1 : a.node.id > b.node.id ? 1 : 0),
  );
}

/** The UnassignedInfo.lastAllocationStatus a decision leaves on a copy it could not place. */
export function allocationStatusOf(d: UnassignedDecision): string {
  switch (d.decision) {
    case 'yes':
      return 'no_attempt';
    case 'throttled':
      return 'deciders_throttled';
    case 'no':
      return 'deciders_no';
    case 'no_valid_shard_copy':
      return 'no_valid_shard_copy';
    case 'allocation_delayed':
      return 'delayed_allocation';
  }
}

export function remainingDelay(work: Work, copy: ShardRouting): number {
  const info = copy.unassignedInfo;
  if (!info?.delayed) return 0;
  const timeout = delayedTimeout(metaOf(work, copy.index));
  return Math.max(0, timeout - (work.now - info.at));
}

export function decideUnassigned(
  work: Work,
  ctx: AllocationContext,
  copy: ShardRouting,
  weigher: Weigher,
): UnassignedDecision {
  if (copy.primary && copy.recoverySource?.type === 'EXISTING_STORE')
    return decideExistingPrimary(work, ctx, copy);
  if (!copy.primary) {
    // ES ReplicaShardAllocator: first, can any node take it at all?
    const perNode = work.dataNodes.map((n) => ({ node: n, ds: canAllocate(work, copy, n) }));
    const types = perNode.map((x) => combined(x.ds));
    if (!types.includes('YES'))
      return {
        decision: types.includes('THROTTLE') ? 'throttled' : 'no',
        reuseStore: false,
        nodes: perNode.map((x) => nodeResult(x.node, x.ds)),
      };
    // A replica whose node came back with its data goes back there.
    const onDisk = ctx.copies(copy.indexUuid, copy.shard);
    const lastNode = copy.unassignedInfo?.lastNodeId;
    const withData = perNode
      .filter((x, i) => onDisk.has(x.node.id) && types[i] === 'YES')
      .sort((a, b) => (a.node.id === lastNode ? -1 : b.node.id === lastNode ? 1 : 0));
    if (withData.length > 0)
      return {
        decision: 'yes',
        node: withData[0]!.node,
        reuseStore: true,
        nodes: perNode.map((x) => nodeResult(x.node, x.ds)),
      };
    const delay = remainingDelay(work, copy);
    if (delay > 0)
      return {
        decision: 'allocation_delayed',
        reuseStore: false,
        nodes: perNode.map((x) => nodeResult(x.node, x.ds)),
        configuredDelay: delayedTimeout(metaOf(work, copy.index)),
        remainingDelay: delay,
      };
  }
  return decideBalanced(work, copy, weigher);
}

const nodeResult = (node: DiscoveryNode, ds: readonly Decision[]): NodeResult => ({
  node,
  decision: fromType(combined(ds)),
  deciders: ds,
  weightRanking: 0,
});

function decideExistingPrimary(
  work: Work,
  ctx: AllocationContext,
  copy: ShardRouting,
): UnassignedDecision {
  const inSync = termsOf(work, copy.index, copy.shard).inSync;
  const onDisk = ctx.copies(copy.indexUuid, copy.shard);
  const store = (n: DiscoveryNode): StoreInfo => {
    const aid = onDisk.get(n.id);
    return aid === undefined
      ? { found: false }
      : { inSync: inSync.includes(aid), allocationId: aid };
  };
  const candidates = work.dataNodes.filter((n) => {
    const aid = onDisk.get(n.id);
    return aid !== undefined && inSync.includes(aid);
  });
  const ineligible = (n: DiscoveryNode): NodeResult => ({
    node: n,
    decision: 'no',
    deciders: [],
    weightRanking: 0,
    store: store(n),
  });
  if (candidates.length === 0)
    return {
      decision: 'no_valid_shard_copy',
      reuseStore: false,
      nodes: work.dataNodes.map(ineligible),
    };
  const decided = candidates.map((n) => {
    const ds = canAllocate(work, copy, n);
    return { node: n, ds, type: combined(ds) };
  });
  const nodes: NodeResult[] = [
    ...decided.map((x) => ({
      node: x.node,
      decision: fromType(x.type),
      deciders: x.ds,
      weightRanking: 0,
      store: store(x.node),
    })),
    ...work.dataNodes.filter((n) => !candidates.includes(n)).map(ineligible),
  ];
  const yes = decided.find((x) => x.type === 'YES');
  if (yes)
    return {
      decision: 'yes',
      node: yes.node,
      allocationId: onDisk.get(yes.node.id)!,
      reuseStore: true,
      nodes,
    };
  if (decided.some((x) => x.type === 'THROTTLE'))
    return { decision: 'throttled', reuseStore: true, nodes };
  return { decision: 'no', reuseStore: true, nodes };
}

function decideBalanced(work: Work, copy: ShardRouting, weigher: Weigher): UnassignedDecision {
  let best: { node: DiscoveryNode; weight: number; type: DecisionType } | null = null;
  const scored: { node: DiscoveryNode; weight: number; ds: Decision[] }[] = [];
  for (const node of work.dataNodes) {
    const ds = canAllocate(work, copy, node);
    const weight = weigher.weight(node.id, copy.index, 1);
    scored.push({ node, weight, ds });
    const type = combined(ds);
    if (type === 'NO') continue;
    if (
      best === null ||
      weight < best.weight ||
      (weight === best.weight && type === 'YES' && best.type === 'THROTTLE')
    )
      best = { node, weight, type };
  }
  const ranked = [...scored].sort((a, b) => a.weight - b.weight);
  const nodes = ranked.map((s, i) => ({
    node: s.node,
    decision: fromType(combined(s.ds)),
    deciders: s.ds,
    weightRanking: i + 1,
  }));
  if (best === null) return { decision: 'no', reuseStore: false, nodes };
  if (best.type === 'THROTTLE') return { decision: 'throttled', reuseStore: false, nodes };
  return { decision: 'yes', node: best.node, reuseStore: false, nodes };
}
