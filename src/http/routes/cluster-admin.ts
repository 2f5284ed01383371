/**
 * Cluster admin endpoints of ES 6.8 on a lone node: `_cluster/stats`, `_cluster/pending_tasks`,
 * `_remote/info` and `_nodes/reload_secure_settings`.
 */
import { availableParallelism, freemem, platform, totalmem, type as osType } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { clusterHealth } from '../../engine/health.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import type { Handler } from '../rest.js';
import type { Router } from '../router.js';
import { ES_VERSION } from './info.js';
import { localNodeStats, nodeSelected } from './nodes.js';
import { nodeIndicesStats } from './stats.js';

type Obj = Record<string, unknown>;

/** ES ClusterStatsIndices.ShardStats: min, max and avg over the indices of a per-index figure. */
export function minMaxAvg(values: readonly number[]): { min: number; max: number; avg: number } {
  if (values.length === 0) return { min: 0, max: 0, avg: 0 };
  return {
    min: Math.min(...values),
    max: Math.max(...values),
    avg: values.reduce((a, b) => a + b, 0) / values.length,
  };
}

/** ES ClusterStatsIndices.ShardStats from each index's started (primary) shard counts. */
export function shardStats(perIndex: ReadonlyArray<{ total: number; primaries: number }>): Obj {
  const total = perIndex.reduce((n, i) => n + i.total, 0);
  const primaries = perIndex.reduce((n, i) => n + i.primaries, 0);
  if (perIndex.length === 0) return { total: 0, primaries: 0, replication: 0 };
  return {
    total,
    primaries,
    replication: primaries > 0 ? (total - primaries) / primaries : 0,
    index: {
      shards: minMaxAvg(perIndex.map((i) => i.total)),
      primaries: minMaxAvg(perIndex.map((i) => i.primaries)),
      replication: minMaxAvg(
        perIndex.map((i) => (i.primaries > 0 ? (i.total - i.primaries) / i.primaries : 0)),
      ),
    },
  };
}

/** The sections of a cluster without shards (ES reports them zeroed, never leaves them out). */
const EMPTY_SECTIONS: Obj = {
  docs: { count: 0, deleted: 0 },
  store: { size_in_bytes: 0 },
  fielddata: { memory_size_in_bytes: 0, evictions: 0 },
  query_cache: {
    memory_size_in_bytes: 0,
    total_count: 0,
    hit_count: 0,
    miss_count: 0,
    cache_size: 0,
    cache_count: 0,
    evictions: 0,
  },
  completion: { size_in_bytes: 0 },
  segments: {
    count: 0,
    memory_in_bytes: 0,
    terms_memory_in_bytes: 0,
    stored_fields_memory_in_bytes: 0,
    term_vectors_memory_in_bytes: 0,
    norms_memory_in_bytes: 0,
    points_memory_in_bytes: 0,
    doc_values_memory_in_bytes: 0,
    index_writer_memory_in_bytes: 0,
    version_map_memory_in_bytes: 0,
    fixed_bit_set_memory_in_bytes: 0,
    max_unsafe_auto_id_timestamp: -1,
    file_sizes: {},
  },
};

function clusterStats(node: NodeContext): Obj {
  const open = node.indices.all().filter((i) => !i.closed);
  const health = clusterHealth(node.clusterName, open);
  const started = open.filter((i) => !i.failed);
  const common = nodeIndicesStats(
    node,
    ['docs', 'store', 'fielddata', 'query_cache', 'completion', 'segments'],
    'node',
    false,
  );
  const stats = localNodeStats(node, ['os', 'process', 'fs'], null, {}) as {
    os: { mem: Obj };
    process: { cpu: { percent: number }; open_file_descriptors: number };
    fs: { total: Obj };
  };
  const heap = getHeapStatistics();
  const fds = stats.process.open_file_descriptors;
  return {
    _nodes: { total: 1, successful: 1, failed: 0 },
    cluster_name: node.clusterName,
    cluster_uuid: node.clusterUuid,
    timestamp: Date.now(),
    status: health.status,
    indices: {
      count: started.length,
      shards: shardStats(
        started.map((i) => ({ total: i.numberOfShards, primaries: i.numberOfShards })),
      ),
      ...EMPTY_SECTIONS,
      ...common,
    },
    nodes: {
      count: { total: 1, data: 1, coordinating_only: 0, master: 1, ingest: 1 },
      versions: [ES_VERSION.number],
      os: {
        available_processors: availableParallelism(),
        allocated_processors: availableParallelism(),
        names: [{ name: osType(), count: 1 }],
        pretty_names: [{ pretty_name: platform(), count: 1 }],
        mem: stats.os.mem,
      },
      process: {
        cpu: { percent: stats.process.cpu.percent },
        open_file_descriptors: { min: fds, max: fds, avg: fds },
      },
      jvm: {
        max_uptime_in_millis: Date.now() - node.startedAt,
        versions: [
          {
            version: process.versions.node,
            vm_name: 'Node.js',
            vm_version: process.versions.v8,
            vm_vendor: 'Node.js',
            count: 1,
          },
        ],
        mem: { heap_used_in_bytes: heap.used_heap_size, heap_max_in_bytes: heap.heap_size_limit },
        threads: 1,
      },
      fs: stats.fs.total,
      plugins: [],
      network_types: { transport_types: {}, http_types: { netty4: 1 } },
    },
  };
}

export function registerClusterAdminRoutes(router: Router<Handler>, node: NodeContext): void {
  const stats: Handler = (req) => {
    checkParams(req, ['flat_settings', 'timeout']);
    return { status: 200, body: clusterStats(node) };
  };
  router.add('GET', '/_cluster/stats', stats);
  router.add('GET', '/_cluster/stats/nodes/{node_id}', stats);

  // A lone node runs its cluster state updates at once: nothing ever waits in the master's queue.
  router.add('GET', '/_cluster/pending_tasks', async (req) => {
    checkParams(req, ['local', 'master_timeout']);
    // a lone node's metadata changes run at once: nothing ever waits
    const pending = node.cluster?.indices ? await node.cluster.indices.pendingTasks() : [];
    const now = Date.now();
    const tasks = pending.map((t) => ({
      insert_order: t.insertOrder,
      priority: 'URGENT',
      source: t.source,
      executing: t.executing,
      time_in_queue_millis: now - t.insertedAt,
      time_in_queue: `${now - t.insertedAt}ms`,
    }));
    return { status: 200, body: { tasks } };
  });

  // No remote clusters are configured (Quarry has no cross-cluster search).
  router.add('GET', '/_remote/info', (req) => {
    checkParams(req, []);
    return { status: 200, body: {} };
  });

  // Quarry has no keystore, so there are no secure settings to reload: each node answers done.
  const reload: Handler = (req) => {
    checkParams(req, ['timeout']);
    const ids = (req.params.nodeId ?? '').split(',').filter((s) => s);
    const selected = nodeSelected(node, ids);
    return {
      status: 200,
      body: {
        _nodes: { total: selected ? 1 : 0, successful: selected ? 1 : 0, failed: 0 },
        cluster_name: node.clusterName,
        nodes: selected ? { [node.nodeId]: { name: node.nodeName } } : {},
      },
    };
  };
  router.add('POST', '/_nodes/reload_secure_settings', reload);
  router.add('POST', '/_nodes/{nodeId}/reload_secure_settings', reload);
}
