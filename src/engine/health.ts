/**
 * Cluster health as a single node computes it (ES ClusterHealthResponse / ClusterStateHealth):
 * every primary is active; replicas can never be assigned on one node, so any index with
 * replicas is yellow, and the cluster is the worst of its indices.
 */
import type { IndexService } from './index-service.js';

export type HealthStatus = 'green' | 'yellow' | 'red';

export interface IndexHealth {
  status: HealthStatus;
  number_of_shards: number;
  number_of_replicas: number;
  active_primary_shards: number;
  active_shards: number;
  relocating_shards: number;
  initializing_shards: number;
  unassigned_shards: number;
}

export function indexHealth(idx: IndexService): IndexHealth {
  const shards = idx.numberOfShards;
  const replicas = idx.closed ? 0 : idx.numberOfReplicas;
  const failed = idx.failed;
  const active = failed || idx.closed ? 0 : shards;
  return {
    status: failed ? 'red' : replicas > 0 ? 'yellow' : 'green',
    number_of_shards: shards,
    number_of_replicas: idx.numberOfReplicas,
    active_primary_shards: active,
    active_shards: active,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: (failed ? shards : 0) + shards * replicas,
  };
}

const RANK: Record<HealthStatus, number> = { green: 0, yellow: 1, red: 2 };

export function worst(a: HealthStatus, b: HealthStatus): HealthStatus {
  return RANK[a] >= RANK[b] ? a : b;
}

export function statusAtLeast(actual: HealthStatus, wanted: HealthStatus): boolean {
  return RANK[actual] <= RANK[wanted];
}

export interface ClusterHealth {
  cluster_name: string;
  status: HealthStatus;
  timed_out: boolean;
  number_of_nodes: number;
  number_of_data_nodes: number;
  active_primary_shards: number;
  active_shards: number;
  relocating_shards: number;
  initializing_shards: number;
  unassigned_shards: number;
  delayed_unassigned_shards: number;
  number_of_pending_tasks: number;
  number_of_in_flight_fetch: number;
  task_max_waiting_in_queue_millis: number;
  active_shards_percent_as_number: number;
  indices?: Record<string, IndexHealth & { shards?: Record<string, unknown> }>;
}

export function clusterHealth(clusterName: string, indices: IndexService[]): ClusterHealth {
  let status: HealthStatus = 'green';
  let pri = 0;
  let act = 0;
  let unassigned = 0;
  for (const i of indices) {
    const h = indexHealth(i);
    status = worst(status, h.status);
    pri += h.active_primary_shards;
    act += h.active_shards;
    unassigned += h.unassigned_shards;
  }
  const total = act + unassigned;
  return {
    cluster_name: clusterName,
    status,
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: pri,
    active_shards: act,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: unassigned,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: total === 0 ? 100 : (act / total) * 100,
  };
}
