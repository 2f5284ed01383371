/**
 * The node-level `_cat` tables of ES 6.8: allocation, nodeattrs, plugins, tasks, thread_pool,
 * fielddata, segments and repositories, and the indices segments API (`_segments`) beside
 * `_cat/segments`. Nodeattrs, thread_pool and tasks collect a row set from every node of a
 * cluster (node-actions.ts); allocation, fielddata and segments take every node's part through
 * the copies seam (src/engine/copy-broadcast.ts); the others render this node alone.
 */
import { ByteSize, TimeValue, type Cell } from '../../cat/table.js';
import {
  ALLOCATION_COLUMNS,
  FIELDDATA_COLUMNS,
  NODEATTRS_COLUMNS,
  PLUGINS_COLUMNS,
  REPOSITORIES_COLUMNS,
  SEGMENTS_COLUMNS,
  tasksColumns,
  THREAD_POOL_COLUMNS,
} from '../../cat/columns.js';
import { allPools, poolCells, selectPools, type PoolFigures } from '../../cat/thread-pools.js';
import { segmentFigures, type SegmentFigures } from '../../engine/segment-stats.js';
import {
  indicesOptionsFrom,
  simpleMatch,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
} from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import {
  CAT_PARAMS,
  cellsFromWire,
  cellsToWire,
  diskCells,
  respond,
  type WireCell,
} from './cat.js';
import { fromEveryNode, registerNodeAction } from '../node-actions.js';
import { localDiscoveryNode } from '../local-routing-view.js';
import { ES_VERSION } from './info.js';
import { hostOf, transportAddress } from './nodes.js';
import type { TaskManager } from './tasks.js';
import { repositories } from './snapshot-repositories.js';

/** ES 6.8's Lucene version, which every segment reports. */
const LUCENE_VERSION = '7.7.3';

/** Transport actions by which a node collects every node's rows of these tables. */
export const CAT_NODEATTRS_ACTION = 'internal:quarry/cat/nodeattrs';
export const CAT_THREAD_POOL_ACTION = 'internal:quarry/cat/thread_pool';
export const CAT_TASKS_ACTION = 'internal:quarry/cat/tasks';

export const CAT_SEGMENTS_OPERATION = 'internal:quarry/cat/segments';

/** A copy's segments and the address of the node that holds it. */
interface CatSegments {
  ip: string;
  id: string;
  segments: SegmentFigures[];
}

export const ALLOCATION_OPERATION = 'internal:quarry/cat/allocation';
/** Each node's disk for `_cat/allocation`. */
export const ALLOCATION_NODE_ACTION = 'internal:quarry/cat/allocation[n]';

/** A node's row of `_cat/allocation` besides its shards. */
interface AllocationNode {
  used: number | null;
  avail: number | null;
  total: number | null;
  percent: number | null;
  host: string;
  name: string;
}

/**
 * The store size of the copies a node holds of `idx`, shared out by documents: LMDB keeps one
 * database per index on a node. The last copy takes what rounding left, so the shares add up.
 */
function storeShares(idx: IndexService, shards: readonly number[]): number[] {
  const store = idx.storeBytes();
  const docs = shards.map((n) => idx.shard(n).search?.stats().docs ?? 0);
  const all = docs.reduce((a, b) => a + b, 0);
  const out = docs.map((d) =>
    all > 0 ? Math.round((store * d) / all) : Math.round(store / shards.length),
  );
  if (out.length > 0) out[out.length - 1] = store - out.slice(0, -1).reduce((a, b) => a + b, 0);
  return out;
}

export const FIELDDATA_OPERATION = 'internal:quarry/cat/fielddata';

/** A node's fielddata memory by field. */
interface NodeFielddata {
  id: string;
  host: string;
  name: string;
  fields: Array<[string, number]>;
}

const hms = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const row = (cols: { name: string }[], v: Record<string, Cell>): Cell[] =>
  cols.map((c) => (c.name in v ? v[c.name]! : null));

export function registerCatAdminRoutes(
  router: Router<Handler>,
  node: NodeContext,
  tasks: TaskManager,
): void {
  const { indices } = node;
  const transportPort = () => {
    const t = transportAddress(node);
    return Number(t.slice(t.lastIndexOf(':') + 1));
  };

  // ES RestAllocationAction: started copies count on their node (with their share of its
  // store), the others in a row of their own; every selected node has a row, with its disk
  node.copies.operations.set(ALLOCATION_OPERATION, (idx, shards) => storeShares(idx, shards));
  registerNodeAction(node, ALLOCATION_NODE_ACTION, (): AllocationNode => {
    const disk = diskCells(node.settings.dataPath);
    const bytes = (k: string) => (disk[k] instanceof ByteSize ? (disk[k] as ByteSize).bytes : null); // prettier-ignore
    const pct = disk['disk.used_percent'];
    return {
      used: bytes('disk.used'),
      avail: bytes('disk.avail'),
      total: bytes('disk.total'),
      percent: pct === undefined ? null : Math.floor(Number(pct)),
      host: hostOf(node),
      name: node.nodeName,
    };
  });
  const allocation: Handler = async (req) => {
    checkParams(req, [...CAT_PARAMS, 'node_id']);
    // `_master` and `_local` name one node: the coordinating node resolves them
    const master = node.routing.masterNodeId() ?? node.nodeId;
    const ids = (req.params.node_id ?? '')
      .split(',')
      .filter((s) => s)
      .map((id) => (id === '_master' ? master : id === '_local' ? node.nodeId : id));
    const open = indices.all().filter((i) => !i.closed);
    const run = await node.copies.run<number>(ALLOCATION_OPERATION, open, {});
    const shards = new Map<string, number>();
    const indexBytes = new Map<string, number>();
    for (const { routing, result } of run.copies) {
      shards.set(routing.nodeId, (shards.get(routing.nodeId) ?? 0) + 1);
      indexBytes.set(routing.nodeId, (indexBytes.get(routing.nodeId) ?? 0) + result);
    }
    const nodes = await fromEveryNode(node, ALLOCATION_NODE_ACTION, {}, ids);
    const rows: Cell[][] = [];
    for (const [nodeId, answer] of nodes) {
      const n = answer as AllocationNode;
      const size = (b: number | null) => (b === null ? null : new ByteSize(b));
      rows.push(
        row(ALLOCATION_COLUMNS, {
          shards: shards.get(nodeId) ?? 0,
          'disk.indices': new ByteSize(indexBytes.get(nodeId) ?? 0),
          'disk.used': size(n.used),
          'disk.avail': size(n.avail),
          'disk.total': size(n.total),
          'disk.percent': n.percent,
          host: n.host,
          ip: n.host,
          node: n.name,
        }),
      );
    }
    const unassigned = run.shards.total - run.shards.successful;
    if (unassigned > 0)
      rows.push(row(ALLOCATION_COLUMNS, { shards: unassigned, node: 'UNASSIGNED' }));
    return respond(req, { columns: ALLOCATION_COLUMNS, rows });
  };
  router.add('GET', '/_cat/allocation', allocation);
  router.add('GET', '/_cat/allocation/{node_id}', allocation);

  // every node lists its own attributes (ES RestNodeAttrsAction reads each node's info)
  registerNodeAction(node, CAT_NODEATTRS_ACTION, () => {
    const host = hostOf(node);
    return Object.entries(localDiscoveryNode(node).attributes).map(([attr, value]) => ({
      node: node.nodeName,
      id: node.nodeId.slice(0, 4),
      pid: process.pid,
      host,
      ip: host,
      port: transportPort(),
      attr,
      value,
    }));
  });
  router.add('GET', '/_cat/nodeattrs', async (req) => {
    checkParams(req, CAT_PARAMS);
    const rows = (await fromEveryNode(node, CAT_NODEATTRS_ACTION, {})).flatMap(([, r]) =>
      (r as Record<string, Cell>[]).map((v) => row(NODEATTRS_COLUMNS, v)),
    );
    return respond(req, { columns: NODEATTRS_COLUMNS, rows });
  });

  // Quarry installs no plugins (its modules are built in, and ES lists no modules here)
  router.add('GET', '/_cat/plugins', (req) => {
    checkParams(req, CAT_PARAMS);
    return respond(req, { columns: PLUGINS_COLUMNS, rows: [] });
  });

  router.add('GET', '/_cat/repositories', (req) => {
    checkParams(req, CAT_PARAMS);
    const rows = Object.entries(repositories(node)).map(([id, r]) => [id, r.type]);
    return respond(req, { columns: REPOSITORIES_COLUMNS, rows });
  });

  registerNodeAction(node, CAT_TASKS_ACTION, (b) => {
    const { detailed, actions, parent } = b as { detailed: boolean; actions: string[]; parent: string | null }; // prettier-ignore
    const columns = tasksColumns(detailed);
    const host = hostOf(node);
    const rows: Record<string, WireCell>[] = [];
    for (const t of tasks.running()) {
      if (actions.length > 0 && !actions.some((a) => simpleMatch(a, t.action))) continue;
      const parentId = tasks.parentId(t);
      if (parent && parent !== '-1' && parentId !== parent) continue;
      const nanos = Number(process.hrtime.bigint() - t.startNanos);
      const cells: Record<string, Cell> = {
        id: t.id,
        action: t.action,
        task_id: tasks.taskId(t),
        parent_task_id: parentId ?? '-',
        type: 'transport',
        start_time: t.startTime,
        timestamp: hms(t.startTime),
        running_time_ns: nanos,
        running_time: new TimeValue(nanos / 1e6),
        node_id: node.nodeId,
        ip: host,
        port: transportPort(),
        node: node.nodeName,
        version: ES_VERSION.number,
        x_opaque_id: null,
        description: t.opts.description ?? null,
      };
      rows.push(cellsToWire(Object.fromEntries(columns.map((c) => [c.name, cells[c.name] ?? null])))); // prettier-ignore
    }
    return rows;
  });
  router.add('GET', '/_cat/tasks', async (req) => {
    checkParams(req, [...CAT_PARAMS, 'detailed', 'actions', 'node_id', 'parent_task_id']);
    const detailed = boolParam(req, 'detailed', false);
    const actions = (param(req, 'actions') ?? '').split(',').filter((s) => s);
    const parent = param(req, 'parent_task_id') ?? null;
    const ids = (param(req, 'node_id') ?? '').split(',').filter((s) => s);
    // ES: listing tasks is a task itself, so the table is never empty
    const self = tasks.register('cluster:monitor/tasks/lists', {
      description: detailed ? '' : null,
    });
    try {
      const columns = tasksColumns(detailed);
      const answers = await fromEveryNode(node, CAT_TASKS_ACTION, { detailed, actions, parent }, ids); // prettier-ignore
      const rows = answers.flatMap(([, r]) =>
        (r as Record<string, WireCell>[]).map((w) => row(columns, cellsFromWire(w))),
      );
      return respond(req, { columns, rows });
    } finally {
      tasks.unregister(self);
    }
  });

  registerNodeAction(node, CAT_THREAD_POOL_ACTION, (b) => {
    const { patterns } = b as { patterns: string | null };
    const real: PoolFigures[] = Object.values(node.overload?.pools ?? {}).map((p) => ({
      name: p.name,
      type: p.name === 'search' ? 'fixed_auto_queue_size' : 'fixed',
      active: p.active,
      size: p.size,
      queue: p.queued,
      queueSize: p.queueSize,
      rejected: p.rejected,
      largest: p.largest,
      completed: p.completed,
    }));
    const host = hostOf(node);
    return selectPools(allPools(real), patterns ?? undefined).map((p) => ({
      node_name: node.nodeName,
      node_id: node.nodeId,
      ephemeral_node_id: node.ephemeralId,
      pid: process.pid,
      host,
      ip: host,
      port: transportPort(),
      ...poolCells(p),
    }));
  });
  const threadPool: Handler = async (req) => {
    checkParams(req, [...CAT_PARAMS, 'thread_pool_patterns']);
    const patterns = req.params.thread_pool_patterns ?? null;
    const rows = (await fromEveryNode(node, CAT_THREAD_POOL_ACTION, { patterns })).flatMap(
      ([, r]) => (r as Record<string, Cell>[]).map((v) => row(THREAD_POOL_COLUMNS, v)),
    );
    return respond(req, { columns: THREAD_POOL_COLUMNS, rows });
  };
  router.add('GET', '/_cat/thread_pool', threadPool);
  router.add('GET', '/_cat/thread_pool/{thread_pool_patterns}', threadPool);

  // every node sums the fielddata its shards hold, by field (ES RestFielddataAction reads
  // every node's stats); shards a node does not hold have loaded nothing there
  registerNodeAction(node, FIELDDATA_OPERATION, (): NodeFielddata => {
    const bytes = new Map<string, number>();
    for (const idx of indices.all()) {
      if (idx.closed) continue;
      for (const shard of idx.shards) {
        for (const [f, b] of shard.counters.fielddataBytes) bytes.set(f, (bytes.get(f) ?? 0) + b);
      }
    }
    return { id: node.nodeId, host: hostOf(node), name: node.nodeName, fields: [...bytes] };
  });
  const fielddata: Handler = async (req) => {
    checkParams(req, [...CAT_PARAMS, 'fields']);
    const wanted = (req.params.fields ?? param(req, 'fields') ?? '').split(',').filter((s) => s);
    const nodes = await fromEveryNode(node, FIELDDATA_OPERATION, {});
    const rows: Cell[][] = [];
    for (const [, answer] of nodes) {
      const n = answer as NodeFielddata;
      for (const [field, b] of n.fields) {
        if (wanted.length > 0 && !wanted.some((w) => simpleMatch(w, field))) continue;
        rows.push(
          row(FIELDDATA_COLUMNS, {
            id: n.id,
            host: n.host,
            ip: n.host,
            node: n.name,
            field,
            size: new ByteSize(b),
          }),
        );
      }
    }
    return respond(req, { columns: FIELDDATA_COLUMNS, rows });
  };
  router.add('GET', '/_cat/fielddata', fielddata);
  router.add('GET', '/_cat/fielddata/{fields}', fielddata);

  // every node lists the segments of the copies it holds, with its own address
  node.copies.operations.set(CAT_SEGMENTS_OPERATION, (idx, shards) =>
    shards.map((n): CatSegments | null => {
      const shard = idx.shard(n);
      const snapshot = shard.search?.searcher();
      if (!snapshot) return null;
      return {
        ip: hostOf(node),
        id: node.nodeId.slice(0, 4),
        segments: segmentFigures(snapshot, (seg) => shard.search!.segmentGeneration(seg)),
      };
    }),
  );
  const segments: Handler = async (req) => {
    checkParams(req, CAT_PARAMS);
    const targets = req.params.index
      ? indices.resolve(req.params.index, STRICT_EXPAND_OPEN_FORBID_CLOSED)
      : indices.all().filter((i) => !i.closed);
    const run = await node.copies.run<CatSegments | null>(CAT_SEGMENTS_OPERATION, targets, {});
    const rows: Cell[][] = [];
    for (const { routing, result } of run.copies) {
      if (!result) continue;
      for (const s of result.segments) {
        // Segments live on the heap: their size is the memory they hold. Every segment of a
        // snapshot is searchable (refreshed); committed ones are in the last commit point.
        rows.push(
          row(SEGMENTS_COLUMNS, {
            index: routing.index,
            shard: routing.shard,
            prirep: routing.primary ? 'p' : 'r',
            ip: result.ip,
            id: result.id,
            segment: s.name,
            generation: s.generation,
            'docs.count': s.docs,
            'docs.deleted': s.deleted,
            size: new ByteSize(s.memoryBytes),
            'size.memory': s.memoryBytes,
            committed: s.committed,
            searchable: true,
            version: LUCENE_VERSION,
            compound: false,
          }),
        );
      }
    }
    return respond(req, { columns: SEGMENTS_COLUMNS, rows });
  };
  router.add('GET', '/_cat/segments', segments);
  router.add('GET', '/_cat/segments/{index}', segments);
}
