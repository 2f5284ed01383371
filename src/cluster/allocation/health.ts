/**
 * Cluster health from the routing table (ES ClusterStateHealth, ClusterIndexHealth,
 * ClusterShardHealth, ClusterHealthResponse): a shard is green when every copy is active, yellow
 * when its primary is; an inactive primary is yellow only while a brand-new primary waits for its
 * first allocation, red otherwise. Closed indices are left out, as 6.8 does (they have no routing).
 */
import { worst, type ClusterHealth, type HealthStatus } from '../../engine/health.js';
import type { ClusterState, ShardRouting } from '../state.js';

export type { HealthStatus };

export interface ShardHealth {
  status: HealthStatus;
  primary_active: boolean;
  active_shards: number;
  relocating_shards: number;
  initializing_shards: number;
  unassigned_shards: number;
}

export interface IndexHealth {
  status: HealthStatus;
  number_of_shards: number;
  number_of_replicas: number;
  active_primary_shards: number;
  active_shards: number;
  relocating_shards: number;
  initializing_shards: number;
  unassigned_shards: number;
  shards?: Record<string, ShardHealth>;
}

/** The `_cluster/health` body: a lone node's fields, with the routing table's index and shard detail. */
export type ClusterHealthBody = Omit<ClusterHealth, 'indices'> & {
  indices?: Record<string, IndexHealth>;
};

export interface HealthOptions {
  /** Concrete index names (already resolved); all indices when absent. */
  readonly indices?: readonly string[];
  readonly level?: 'cluster' | 'indices' | 'shards';
  readonly timedOut?: boolean;
  readonly pendingTasks?: number;
  readonly taskMaxWaitingMillis?: number;
}

const active = (c: ShardRouting) => c.state === 'STARTED' || c.state === 'RELOCATING';

/** ES ClusterShardHealth.getInactivePrimaryHealth. */
function inactivePrimaryHealth(p: ShardRouting): HealthStatus {
  const info = p.unassignedInfo;
  const type = p.recoverySource?.type;
  if (
    info &&
    info.lastAllocationStatus !== 'deciders_no' &&
    info.failedAttempts === 0 &&
    (type === 'EMPTY_STORE' || type === 'LOCAL_SHARDS' || type === 'SNAPSHOT')
  )
    return 'yellow';
  return 'red';
}

/** ES's routing table holds a relocation as its source only; the target is derived from it. */
const isTarget = (c: ShardRouting) => c.state === 'INITIALIZING' && c.relocatingNodeId !== null;

export function shardHealth(copies: readonly ShardRouting[]): ShardHealth {
  const group = copies.filter((c) => !isTarget(c));
  let activeN = 0;
  let relocating = 0;
  let initializing = 0;
  let unassigned = 0;
  for (const c of group) {
    if (active(c)) {
      activeN++;
      if (c.state === 'RELOCATING') relocating++;
    } else if (c.state === 'INITIALIZING') initializing++;
    else unassigned++;
  }
  const primary = group.find((c) => c.primary);
  const primaryActive = primary !== undefined && active(primary);
  const status: HealthStatus = primaryActive
    ? activeN === group.length
      ? 'green'
      : 'yellow'
    : primary
      ? inactivePrimaryHealth(primary)
      : 'red';
  return {
    status,
    primary_active: primaryActive,
    active_shards: activeN,
    relocating_shards: relocating,
    initializing_shards: initializing,
    unassigned_shards: unassigned,
  };
}

/**
 * The copies as health sees them while the master has not yet reacted to nodes that left (in
 * etcd a node's key goes before the master's routing update): a copy on a node no longer in the
 * state is not active — a lost primary makes its shard red until the master promotes a replica.
 * Health never reports a lost node's copies as active.
 */
export function liveCopies(
  group: readonly ShardRouting[],
  nodes: ReadonlyMap<string, unknown>,
): readonly ShardRouting[] {
  if (group.every((c) => c.nodeId === null || nodes.has(c.nodeId))) return group;
  return group.map((c) =>
    c.nodeId !== null && !nodes.has(c.nodeId)
      ? { ...c, state: 'UNASSIGNED' as const, nodeId: null, relocatingNodeId: null }
      : c,
  );
}

export function clusterHealth(state: ClusterState, opts: HealthOptions = {}): ClusterHealthBody {
  const level = opts.level ?? 'cluster';
  const names = opts.indices ?? [...state.metadata.indices.keys()];
  const indices: Record<string, IndexHealth> = {};
  let status: HealthStatus = 'green';
  let activePrimary = 0;
  let activeN = 0;
  let relocating = 0;
  let initializing = 0;
  let unassigned = 0;
  for (const name of names) {
    const meta = state.metadata.indices.get(name);
    const table = state.routing.get(name);
    if (!meta || !table || meta.state !== 'open') continue;
    const ih: IndexHealth = {
      status: 'green',
      number_of_shards: meta.numberOfShards,
      number_of_replicas: meta.numberOfReplicas,
      active_primary_shards: 0,
      active_shards: 0,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 0,
    };
    const shards: Record<string, ShardHealth> = {};
    table.shards.forEach((group, i) => {
      const sh = shardHealth(liveCopies(group, state.nodes));
      shards[String(i)] = sh;
      if (sh.primary_active) ih.active_primary_shards++;
      ih.active_shards += sh.active_shards;
      ih.relocating_shards += sh.relocating_shards;
      ih.initializing_shards += sh.initializing_shards;
      ih.unassigned_shards += sh.unassigned_shards;
      ih.status = worst(ih.status, sh.status);
    });
    if (table.shards.length === 0) ih.status = 'red';
    if (level === 'shards') ih.shards = shards;
    indices[name] = ih;
    status = worst(status, ih.status);
    activePrimary += ih.active_primary_shards;
    activeN += ih.active_shards;
    relocating += ih.relocating_shards;
    initializing += ih.initializing_shards;
    unassigned += ih.unassigned_shards;
  }
  // Delayed copies and the active percentage count the whole routing table, as ES does.
  let delayed = 0;
  let allActive = 0;
  let all = 0;
  for (const [name, table] of state.routing) {
    if (state.metadata.indices.get(name)?.state === 'close') continue;
    for (const g of table.shards)
      for (const c of g) {
        if (isTarget(c)) continue;
        all++;
        if (active(c)) allActive++;
        if (c.state === 'UNASSIGNED' && c.unassignedInfo?.delayed) delayed++;
      }
  }
  const body: ClusterHealthBody = {
    cluster_name: state.clusterName,
    status,
    timed_out: opts.timedOut ?? false,
    number_of_nodes: state.nodes.size,
    number_of_data_nodes: [...state.nodes.values()].filter((n) => n.roles.includes('data')).length,
    active_primary_shards: activePrimary,
    active_shards: activeN,
    relocating_shards: relocating,
    initializing_shards: initializing,
    unassigned_shards: unassigned,
    delayed_unassigned_shards: delayed,
    number_of_pending_tasks: opts.pendingTasks ?? 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: opts.taskMaxWaitingMillis ?? 0,
    active_shards_percent_as_number:
      status === 'green' || all === 0 ? 100 : (allActive / all) * 100,
  };
  if (level === 'indices' || level === 'shards') body.indices = indices;
  return body;
}
