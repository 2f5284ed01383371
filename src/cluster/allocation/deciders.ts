/**
 * ES 6.8's allocation deciders, in ES's order (ClusterModule.createAllocationDeciders), with
 * their names and explanation texts. Deciders that ES leaves at Decision.ALWAYS for a question
 * (resize outside a shrink, the rebalance-only ones for canAllocate) are left out, as ES leaves
 * them out of explanations.
 */
import type { DiscoveryNode, ShardRouting } from '../state.js';
import { shardToString, unassignedToString } from './describe.js';
import { filtersFrom, filtersToString, matchNode, type NodeFilters } from './node-filters.js';
import * as S from './settings.js';
import {
  activePrimary,
  allCopies,
  copiesOnNode,
  groupOf,
  isActive,
  metaOf,
  type Work,
} from './work.js';

export type DecisionType = 'YES' | 'THROTTLE' | 'NO';

export interface Decision {
  readonly decider: string;
  readonly decision: DecisionType;
  readonly explanation: string;
}

const d = (decider: string, decision: DecisionType, explanation: string): Decision => ({
  decider,
  decision,
  explanation,
});

/** The combined type of a list (ES Decision.Multi): any NO wins, then THROTTLE. */
export function combined(ds: readonly Decision[]): DecisionType {
  if (ds.some((x) => x.decision === 'NO')) return 'NO';
  if (ds.some((x) => x.decision === 'THROTTLE')) return 'THROTTLE';
  return 'YES';
}

/** ES Decision.Multi.toString: `[NO(...)][YES(...)]`. */
export const decisionsToString = (ds: readonly Decision[]): string =>
  ds.map((x) => `[${x.decision}(${x.explanation})]`).join('');

// --- single deciders -----------------------------------------------------------------------

function maxRetry(work: Work, copy: ShardRouting): Decision {
  const info = copy.unassignedInfo;
  if (info && info.failedAttempts > 0) {
    const max = S.intSetting(metaOf(work, copy.index).settings, S.MAX_RETRIES, 5);
    if (info.failedAttempts >= max)
      return d(
        'max_retry',
        'NO',
        `shard has exceeded the maximum number of retries [${max}] on failed allocation attempts - manually call [/_cluster/reroute?retry_failed=true] to retry, [${unassignedToString(info)}]`,
      );
    return d(
      'max_retry',
      'YES',
      `shard has failed allocating [${info.failedAttempts}] times but [${max}] retries are allowed`,
    );
  }
  return d('max_retry', 'YES', 'shard has no previous failures');
}

function replicaAfterPrimaryActive(work: Work, copy: ShardRouting): Decision {
  const N = 'replica_after_primary_active';
  if (copy.primary) return d(N, 'YES', 'shard is primary and can be allocated');
  if (!activePrimary(work, copy.index, copy.shard))
    return d(N, 'NO', 'primary shard for this replica is not yet active');
  return d(N, 'YES', 'primary shard for this replica is already active');
}

function enable(work: Work, copy: ShardRouting): Decision {
  const N = 'enable';
  if (work.ignoreDisable)
    return d(
      N,
      'YES',
      'explicitly ignoring any disabling of allocation due to manual allocation commands via the reroute API',
    );
  const idx = metaOf(work, copy.index).settings[S.INDEX_ENABLE];
  const usedIndex = idx !== undefined;
  const value = S.parseEnable(usedIndex ? idx : work.settings[S.ENABLE]);
  const why = `${usedIndex ? 'index' : 'cluster'} setting [${usedIndex ? S.INDEX_ENABLE : S.ENABLE}=${value}]`;
  switch (value) {
    case 'all':
      return d(N, 'YES', 'all allocations are allowed');
    case 'none':
      return d(N, 'NO', `no allocations are allowed due to ${why}`);
    case 'new_primaries':
      if (copy.primary && !isActive(copy) && copy.recoverySource?.type !== 'EXISTING_STORE')
        return d(N, 'YES', 'new primary allocations are allowed');
      return d(N, 'NO', `non-new primary allocations are forbidden due to ${why}`);
    case 'primaries':
      if (copy.primary) return d(N, 'YES', 'primary allocations are allowed');
      return d(N, 'NO', `replica allocations are forbidden due to ${why}`);
  }
}

function nodeVersion(work: Work, copy: ShardRouting, node: DiscoveryNode): Decision {
  const N = 'node_version';
  const target = node.esVersion;
  if (copy.primary) {
    if (copy.nodeId === null)
      return d(N, 'YES', 'the primary shard is new or already existed on the node');
    const source = work.base.nodes.get(copy.nodeId)?.esVersion ?? target;
    return d(
      N,
      'YES',
      `can relocate primary shard from a node with version [${source}] to a node with equal-or-newer version [${target}]`,
    );
  }
  const primary = activePrimary(work, copy.index, copy.shard);
  if (!primary) return d(N, 'YES', 'no active primary shard yet');
  const source = work.base.nodes.get(primary.nodeId!)?.esVersion ?? target;
  return d(
    N,
    'YES',
    `can allocate replica shard to a node with version [${target}] since this is equal-or-newer than the primary version [${source}]`,
  );
}

function snapshotInProgress(copy: ShardRouting): Decision {
  // Quarry has no running snapshots in the cluster state.
  return copy.primary
    ? d('snapshot_in_progress', 'YES', 'no snapshots are currently running')
    : d('snapshot_in_progress', 'YES', 'the shard is not being snapshotted');
}

function restoreInProgress(copy: ShardRouting): Decision {
  return copy.recoverySource?.type === 'SNAPSHOT' && copy.nodeId === null
    ? d('restore_in_progress', 'YES', 'shard is currently being restored')
    : d('restore_in_progress', 'YES', 'ignored as shard is not being recovered from a snapshot');
}

interface FilterSet {
  readonly require: NodeFilters | null;
  readonly include: NodeFilters | null;
  readonly exclude: NodeFilters | null;
}

function filterSet(settings: S.Settings, prefix: string): FilterSet {
  return {
    require: filtersFrom(settings, `${prefix}.require`, 'AND'),
    include: filtersFrom(settings, `${prefix}.include`, 'OR'),
    exclude: filtersFrom(settings, `${prefix}.exclude`, 'OR'),
  };
}

/** ES FilterAllocationDecider.shouldFilter (cluster filters first, then the index's). */
export function filter(work: Work, index: string, node: DiscoveryNode): Decision {
  const N = 'filter';
  const c = filterSet(work.settings, 'cluster.routing.allocation');
  if (c.require && !matchNode(c.require, node))
    return d(
      N,
      'NO',
      `node does not match cluster setting [cluster.routing.allocation.require] filters [${filtersToString(c.require)}]`,
    );
  if (c.include && !matchNode(c.include, node))
    return d(
      N,
      'NO',
      // ES's own wording lacks "match" here.
      `node does not cluster setting [cluster.routing.allocation.include] filters [${filtersToString(c.include)}]`,
    );
  if (c.exclude && matchNode(c.exclude, node))
    return d(
      N,
      'NO',
      `node matches cluster setting [cluster.routing.allocation.exclude] filters [${filtersToString(c.exclude)}]`,
    );
  const i = filterSet(metaOf(work, index).settings, 'index.routing.allocation');
  if (i.require && !matchNode(i.require, node))
    return d(
      N,
      'NO',
      `node does not match index setting [index.routing.allocation.require] filters [${filtersToString(i.require)}]`,
    );
  if (i.include && !matchNode(i.include, node))
    return d(
      N,
      'NO',
      `node does not match index setting [index.routing.allocation.include] filters [${filtersToString(i.include)}]`,
    );
  if (i.exclude && matchNode(i.exclude, node))
    return d(
      N,
      'NO',
      // ES prints the affix setting's key, which keeps the trailing dot.
      `node matches index setting [index.routing.allocation.exclude.] filters [${filtersToString(i.exclude)}]`,
    );
  return d(N, 'YES', 'node passes include/exclude/require filters');
}

function sameShard(work: Work, copy: ShardRouting, node: DiscoveryNode): Decision {
  const N = 'same_shard';
  for (const other of groupOf(work, copy.index, copy.shard)) {
    if (other.nodeId !== node.id) continue;
    if (copy.allocationId !== null && other.allocationId?.id === copy.allocationId.id)
      return d(
        N,
        'NO',
        `the shard cannot be allocated to the node on which it already exists [${shardToString(copy)}]`,
      );
    return d(
      N,
      'NO',
      `the shard cannot be allocated to the same node on which a copy of the shard already exists [${shardToString(other)}]`,
    );
  }
  return d(N, 'YES', 'the shard does not exist on the same node');
}

function diskThreshold(work: Work): Decision {
  const N = 'disk_threshold';
  if ((work.settings[S.DISK_THRESHOLD_ENABLED] ?? 'true') === 'false')
    return d(N, 'YES', 'the disk threshold decider is disabled');
  if (work.dataNodes.length <= 1) return d(N, 'YES', 'there is only a single data node present');
  // Quarry's master gathers no disk usage: an empty ES ClusterInfo.
  return d(N, 'YES', 'disk usages are unavailable');
}

/** Copies recovering onto a node (ES RoutingNodes.getIncomingRecoveries). */
export function incomingRecoveries(work: Work, nodeId: string): number {
  let n = 0;
  for (const c of allCopies(work)) if (c.nodeId === nodeId && c.state === 'INITIALIZING') n++;
  return n;
}

/** Peer recoveries served by a node, whose copy is the active primary (getOutgoingRecoveries). */
export function outgoingRecoveries(work: Work, nodeId: string): number {
  let n = 0;
  for (const c of allCopies(work)) {
    if (c.state !== 'INITIALIZING' || c.recoverySource?.type !== 'PEER') continue;
    if (activePrimary(work, c.index, c.shard)?.nodeId === nodeId) n++;
  }
  return n;
}

function throttling(work: Work, copy: ShardRouting, node: DiscoveryNode): Decision {
  const N = 'throttling';
  if (copy.primary && copy.state === 'UNASSIGNED') {
    const limit = S.intSetting(work.settings, S.NODE_INITIAL_PRIMARIES, 4);
    let n = 0;
    for (const c of copiesOnNode(work, node.id))
      if (c.state === 'INITIALIZING' && c.primary && c.relocatingNodeId === null) n++;
    if (n >= limit)
      return d(
        N,
        'THROTTLE',
        `reached the limit of ongoing initial primary recoveries [${n}], cluster setting [${S.NODE_INITIAL_PRIMARIES}=${limit}]`,
      );
    return d(N, 'YES', `below primary recovery limit of [${limit}]`);
  }
  const { incoming, outgoing } = S.recoveryLimits(work.settings);
  const inNow = incomingRecoveries(work, node.id);
  if (inNow >= incoming)
    return d(
      N,
      'THROTTLE',
      `reached the limit of incoming shard recoveries [${inNow}], cluster setting [${S.NODE_INCOMING}=${incoming}] (can also be set via [${S.NODE_CONCURRENT_RECOVERIES}])`,
    );
  const primary = activePrimary(work, copy.index, copy.shard);
  if (!primary) return d(N, 'NO', 'primary shard for this replica is not yet active');
  const outNow = outgoingRecoveries(work, primary.nodeId!);
  if (outNow >= outgoing)
    return d(
      N,
      'THROTTLE',
      `reached the limit of outgoing shard recoveries [${outNow}] on the node [${primary.nodeId}] which holds the primary, cluster setting [${S.NODE_OUTGOING}=${outgoing}] (can also be set via [${S.NODE_CONCURRENT_RECOVERIES}])`,
    );
  return d(
    N,
    'YES',
    `below shard recovery limit of outgoing: [${outNow} < ${outgoing}] incoming: [${inNow} < ${incoming}]`,
  );
}

/** ES ShardsLimitAllocationDecider; `remain` compares with `>` instead of `>=`. */
function shardsLimit(
  work: Work,
  copy: ShardRouting,
  node: DiscoveryNode,
  remain: boolean,
): Decision {
  const N = 'shards_limit';
  const indexLimit = S.intSetting(metaOf(work, copy.index).settings, S.INDEX_TOTAL_SHARDS, -1);
  const clusterLimit = S.intSetting(work.settings, S.CLUSTER_TOTAL_SHARDS, -1);
  if (indexLimit <= 0 && clusterLimit <= 0)
    return d(
      N,
      'YES',
      `total shard limits are disabled: [index: ${indexLimit}, cluster: ${clusterLimit}] <= 0`,
    );
  let nodeCount = 0;
  let indexCount = 0;
  for (const c of copiesOnNode(work, node.id)) {
    if (c.state === 'RELOCATING') continue;
    nodeCount++;
    if (c.index === copy.index) indexCount++;
  }
  const over = (count: number, limit: number) => (remain ? count > limit : count >= limit);
  if (clusterLimit > 0 && over(nodeCount, clusterLimit))
    return d(
      N,
      'NO',
      `too many shards [${nodeCount}] allocated to this node, cluster setting [${S.CLUSTER_TOTAL_SHARDS}=${clusterLimit}]`,
    );
  if (indexLimit > 0 && over(indexCount, indexLimit))
    return d(
      N,
      'NO',
      `too many shards [${indexCount}] allocated to this node for index [${copy.index}], index setting [${S.INDEX_TOTAL_SHARDS}=${indexLimit}]`,
    );
  return d(
    N,
    'YES',
    `the shard count [${nodeCount}] for this node is under the index limit [${indexLimit}] and cluster level node limit [${clusterLimit}]`,
  );
}

function awareness(work: Work): Decision {
  // Awareness attributes are not enforced yet; say so only when they are configured.
  if ((work.settings[S.AWARENESS_ATTRIBUTES] ?? '').trim() === '')
    return d(
      'awareness',
      'YES',
      `allocation awareness is not enabled, set cluster setting [${S.AWARENESS_ATTRIBUTES}] to enable it`,
    );
  return d('awareness', 'YES', 'node meets all awareness attribute requirements');
}

/** Every decider's answer to "can `copy` be allocated to `node`" (ES AllocationDeciders.canAllocate, debug on). */
export function canAllocate(work: Work, copy: ShardRouting, node: DiscoveryNode): Decision[] {
  return [
    maxRetry(work, copy),
    replicaAfterPrimaryActive(work, copy),
    enable(work, copy),
    nodeVersion(work, copy, node),
    snapshotInProgress(copy),
    restoreInProgress(copy),
    filter(work, copy.index, node),
    sameShard(work, copy, node),
    diskThreshold(work),
    throttling(work, copy, node),
    shardsLimit(work, copy, node, false),
    awareness(work),
  ];
}

/** ES canRemain: only the deciders that implement it. */
export function canRemain(work: Work, copy: ShardRouting, node: DiscoveryNode): Decision[] {
  return [filter(work, copy.index, node), shardsLimit(work, copy, node, true)];
}

// --- rebalancing ---------------------------------------------------------------------------

function allReplicasActive(work: Work, copy: ShardRouting): boolean {
  const group = groupOf(work, copy.index, copy.shard);
  const meta = metaOf(work, copy.index);
  return group.length === meta.numberOfReplicas + 1 && group.every(isActive);
}

const newTarget = (work: Work, c: ShardRouting): boolean =>
  c.allocationId !== null && work.roundTargets.has(c.allocationId.id);

function clusterRebalance(work: Work): Decision {
  const N = 'cluster_rebalance';
  const type = S.allowRebalance(work.settings);
  const copies = [...allCopies(work)];
  const why = `cluster setting [${S.ALLOW_REBALANCE}] is set to [${type}]`;
  if (type === 'indices_primaries_active') {
    if (copies.some((c) => c.primary && c.state === 'UNASSIGNED'))
      return d(N, 'NO', `the cluster has unassigned primary shards and ${why}`);
    if (copies.some((c) => c.primary && c.state === 'INITIALIZING' && !newTarget(work, c)))
      return d(N, 'NO', `the cluster has inactive primary shards and ${why}`);
    return d(N, 'YES', 'all primary shards are active');
  }
  if (type === 'indices_all_active') {
    if (copies.some((c) => c.state === 'UNASSIGNED'))
      return d(N, 'NO', `the cluster has unassigned shards and ${why}`);
    if (copies.some((c) => c.state === 'INITIALIZING' && !newTarget(work, c)))
      return d(N, 'NO', `the cluster has inactive shards and ${why}`);
  }
  return d(N, 'YES', 'all shards are active');
}

function concurrentRebalance(work: Work): Decision {
  const N = 'concurrent_rebalance';
  const limit = S.intSetting(work.settings, S.CONCURRENT_REBALANCE, 2);
  if (limit === -1) return d(N, 'YES', 'unlimited concurrent rebalances are allowed');
  let relocating = 0;
  for (const c of allCopies(work)) if (c.state === 'RELOCATING') relocating++;
  if (relocating >= limit)
    return d(
      N,
      'THROTTLE',
      `reached the limit of concurrently rebalancing shards [${relocating}], cluster setting [${S.CONCURRENT_REBALANCE}=${limit}]`,
    );
  return d(
    N,
    'YES',
    `below threshold [${limit}] for concurrent rebalances, current rebalance shard count [${relocating}]`,
  );
}

function enableRebalanceGlobal(work: Work): Decision {
  const value = S.parseRebalance(work.settings[S.REBALANCE_ENABLE]);
  if (value === 'none') {
    for (const meta of work.base.metadata.indices.values()) {
      const v = meta.settings[S.INDEX_REBALANCE_ENABLE];
      if (v !== undefined && S.parseRebalance(v) !== 'none')
        return d('enable', 'YES', 'rebalancing is permitted on one or more indices');
    }
    return d(
      'enable',
      'NO',
      `no rebalancing is allowed due to cluster setting [${S.REBALANCE_ENABLE}=none]`,
    );
  }
  return d('enable', 'YES', 'rebalancing is not globally disabled');
}

function enableRebalance(work: Work, copy: ShardRouting): Decision {
  const N = 'enable';
  const idx = metaOf(work, copy.index).settings[S.INDEX_REBALANCE_ENABLE];
  const usedIndex = idx !== undefined;
  const value = S.parseRebalance(usedIndex ? idx : work.settings[S.REBALANCE_ENABLE]);
  const why = `${usedIndex ? 'index' : 'cluster'} setting [${usedIndex ? S.INDEX_REBALANCE_ENABLE : S.REBALANCE_ENABLE}=${value}]`;
  switch (value) {
    case 'all':
      return d(N, 'YES', 'all rebalancing is allowed');
    case 'none':
      return d(N, 'NO', `no rebalancing is allowed due to ${why}`);
    case 'primaries':
      return copy.primary
        ? d(N, 'YES', 'primary rebalancing is allowed')
        : d(N, 'NO', `replica rebalancing is forbidden due to ${why}`);
    case 'replicas':
      return !copy.primary
        ? d(N, 'YES', 'replica rebalancing is allowed')
        : d(N, 'NO', `primary rebalancing is forbidden due to ${why}`);
  }
}

/** ES AllocationDeciders.canRebalance(allocation): may the balancer run at all. */
export function canRebalanceCluster(work: Work): Decision[] {
  return [clusterRebalance(work), concurrentRebalance(work), enableRebalanceGlobal(work)];
}

/** ES AllocationDeciders.canRebalance(shard, allocation). */
export function canRebalanceShard(work: Work, copy: ShardRouting): Decision[] {
  const N = 'rebalance_only_when_active';
  return [
    allReplicasActive(work, copy)
      ? d(N, 'YES', 'rebalancing is allowed as all replicas are active in the cluster')
      : d(N, 'NO', 'rebalancing is not allowed until all replicas in the cluster are active'),
    clusterRebalance(work),
    concurrentRebalance(work),
    enableRebalance(work, copy),
    snapshotInProgress(copy),
  ];
}
