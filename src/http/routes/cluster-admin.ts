/**
 * Cluster admin endpoints of ES 6.8 on a lone node: `_cluster/stats`, `_cluster/pending_tasks`,
 * `_remote/info` and `_nodes/reload_secure_settings`.
 */
import { everyNode, registerNodeAction } from '../node-actions.js';
import { availableParallelism, freemem, platform, totalmem, type as osType } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import type { Handler } from '../rest.js';
import type { Router } from '../router.js';
import { ES_VERSION } from './info.js';
import { localNodeStats, nodeSelected } from './nodes.js';
import { copiesIndicesStats } from './stats.js';

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

export const CLUSTER_STATS_NODE_OPERATION = 'cluster:monitor/stats[n]';

/** What one node contributes to `_cluster/stats` `nodes` (ES ClusterStatsNodeResponse). */
interface NodeFigures {
  processors: number;
  osName: string;
  platform: string;
  mem: { total_in_bytes: number; free_in_bytes: number; used_in_bytes: number };
  cpuPercent: number;
  fds: number;
  uptimeMs: number;
  runtime: { version: string; vm_version: string };
  heapUsed: number;
  heapMax: number;
  fs: Record<string, number>;
}

function localFigures(node: NodeContext): NodeFigures {
  const stats = localNodeStats(node, ['os', 'process', 'fs'], null, {}) as {
    os: { mem: NodeFigures['mem'] };
    process: { cpu: { percent: number }; open_file_descriptors: number };
    fs: { total: Record<string, number> };
  };
  const heap = getHeapStatistics();
  return {
    processors: availableParallelism(),
    osName: osType(),
    platform: platform(),
    mem: stats.os.mem,
    cpuPercent: stats.process.cpu.percent,
    fds: stats.process.open_file_descriptors,
    uptimeMs: Date.now() - node.startedAt,
    runtime: { version: process.versions.node, vm_version: process.versions.v8 },
    heapUsed: heap.used_heap_size,
    heapMax: heap.heap_size_limit,
    fs: stats.fs.total,
  };
}

/** ES ClusterStatsNodes.OsStats names and pretty names, with how many nodes have each. */
function counted<K extends string>(values: string[], key: K): Array<Record<K | 'count', unknown>> {
  const n = new Map<string, number>();
  for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
  return [...n].map(([v, count]) => ({ [key]: v, count }) as Record<K | 'count', unknown>);
}

/** Adds up numeric fields (memory, file stores). */
function sumFields(list: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of list) for (const [k, v] of Object.entries(o)) out[k] = (out[k] ?? 0) + v;
  return out;
}

async function clusterStats(node: NodeContext): Promise<Obj> {
  const open = node.indices.all().filter((i) => !i.closed);
  const status = node.routing.status();
  const common = await copiesIndicesStats(node, open, [
    'docs',
    'store',
    'fielddata',
    'query_cache',
    'completion',
    'segments',
  ]);
  const nodes = await everyNode(node, CLUSTER_STATS_NODE_OPERATION, {});
  const figs = nodes.answers.map(([, f]) => f as NodeFigures);
  const count = figs.length;
  const mem = sumFields(figs.map((f) => f.mem));
  const total = mem.total_in_bytes ?? 0;
  const pct = (v: number) => (total > 0 ? Math.round((v / total) * 100) : 0);
  const fds = figs.map((f) => f.fds);
  const fdStats = minMaxAvg(fds);
  return {
    _nodes: { total: count + nodes.failed, successful: count, failed: nodes.failed },
    cluster_name: node.clusterName,
    cluster_uuid: node.clusterUuid,
    timestamp: Date.now(),
    status,
    indices: {
      count: common.shards.length,
      shards: shardStats(common.shards),
      ...EMPTY_SECTIONS,
      ...common.stats,
    },
    nodes: {
      count: { total: count, data: count, coordinating_only: 0, master: count, ingest: count },
      versions: [ES_VERSION.number],
      os: {
        available_processors: figs.reduce((n, f) => n + f.processors, 0),
        allocated_processors: figs.reduce((n, f) => n + f.processors, 0),
        names: counted(
          figs.map((f) => f.osName),
          'name',
        ),
        pretty_names: counted(
          figs.map((f) => f.platform),
          'pretty_name',
        ),
        mem: {
          ...mem,
          free_percent: pct(mem.free_in_bytes ?? 0),
          used_percent: pct(mem.used_in_bytes ?? 0),
        },
      },
      process: {
        cpu: { percent: figs.reduce((n, f) => n + f.cpuPercent, 0) },
        open_file_descriptors: { min: fdStats.min, max: fdStats.max, avg: Math.floor(fdStats.avg) },
      },
      jvm: {
        max_uptime_in_millis: Math.max(0, ...figs.map((f) => f.uptimeMs)),
        versions: counted(
          figs.map((f) => JSON.stringify(f.runtime)),
          'version',
        ).map(({ version, count }) => {
          const r = JSON.parse(version as string) as NodeFigures['runtime'];
          return { version: r.version, vm_name: 'Node.js', vm_version: r.vm_version, vm_vendor: 'Node.js', count }; // prettier-ignore
        }),
        mem: {
          heap_used_in_bytes: figs.reduce((n, f) => n + f.heapUsed, 0),
          heap_max_in_bytes: figs.reduce((n, f) => n + f.heapMax, 0),
        },
        threads: count,
      },
      fs: sumFields(figs.map((f) => f.fs)),
      plugins: [],
      network_types: { transport_types: {}, http_types: { netty4: count } },
    },
  };
}

export function registerClusterAdminRoutes(router: Router<Handler>, node: NodeContext): void {
  registerNodeAction(node, CLUSTER_STATS_NODE_OPERATION, () => localFigures(node));
  const stats: Handler = async (req) => {
    checkParams(req, ['flat_settings', 'timeout']);
    return { status: 200, body: await clusterStats(node) };
  };
  router.add('GET', '/_cluster/stats', stats);
  router.add('GET', '/_cluster/stats/nodes/{node_id}', stats);

  // ES's master queue (a lone node runs its cluster state updates at once: nothing ever waits)
  router.add('GET', '/_cluster/pending_tasks', async (req) => {
    checkParams(req, ['local', 'master_timeout']);
    const pending = await node.routing.pendingTasks();
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
