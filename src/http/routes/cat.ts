/**
 * `_cat` APIs: health, nodes, indices, count, shards (plain text tables or JSON/YAML).
 */
import { fromEveryNode, masterNodeId, registerNodeAction } from '../node-actions.js';
import { parseSearchBody } from '../../dsl/search/request.js';
import { statfsSync } from 'node:fs';
import { freemem, loadavg, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { ByteSize, renderCat, TimeValue, type CatTable, type Cell } from '../../cat/table.js';
import { aliasRows } from '../../cat/aliases.js';
import { templateRows } from '../../cat/templates.js';
import {
  columns,
  ALIASES_COLUMNS,
  TEMPLATES_COLUMNS,
  COUNT_COLUMNS,
  HEALTH_COLUMNS,
  INDICES_COLUMNS,
  NODES_COLUMNS,
  SHARDS_COLUMNS,
} from '../../cat/columns.js';
import { allShardsFailed } from '../../dsl/search/shard-failures.js';
import { parseQuery } from '../../dsl/query/index.js';
import { findAliases } from '../../engine/alias-listing.js';
import {
  indicesOptionsFrom,
  STRICT_EXPAND_OPEN,
  STRICT_EXPAND_OPEN_CLOSED,
} from '../../engine/index-names.js';
import type { NodeContext } from '../../node-context.js';
import { ES_VERSION } from './info.js';
import { transportAddress } from './nodes.js';
import { EsError } from '../../common/errors.js';
import { searchLimits } from './search.js';
import { checkParams } from '../params.js';
import { param, type Handler, type RestRequest, type RestResponse } from '../rest.js';
import type { Router } from '../router.js';

export const CAT_PARAMS = [
  'format',
  'h',
  'help',
  'v',
  's',
  'ts',
  'pri',
  'bytes',
  'size',
  'time',
  'local',
  'master_timeout',
];

export function respond(req: RestRequest, t: CatTable): RestResponse {
  const r = renderCat(t, {
    get: (n) => param(req, n),
    has: (n) => req.query.has(n),
    accept: String(req.headers['accept'] ?? ''),
  });
  if (r.json) return { status: 200, body: r.json };
  return { status: 200, body: r.text ?? '', contentType: 'text/plain; charset=UTF-8' };
}

const hms = (d: Date) => d.toISOString().slice(11, 19);

export function registerCatRoutes(router: Router<Handler>, node: NodeContext): void {
  const { indices } = node;

  router.add('GET', '/_cat', () => ({
    status: 200,
    contentType: 'text/plain; charset=UTF-8',
    // ES RestCatAction: every registered cat action's endpoints, in registration order
    body: [
      '=^.^=',
      '/_cat/allocation',
      '/_cat/shards',
      '/_cat/shards/{index}',
      '/_cat/master',
      '/_cat/nodes',
      '/_cat/tasks',
      '/_cat/indices',
      '/_cat/indices/{index}',
      '/_cat/segments',
      '/_cat/segments/{index}',
      '/_cat/count',
      '/_cat/count/{index}',
      '/_cat/health',
      '/_cat/aliases',
      '/_cat/aliases/{alias}',
      '/_cat/thread_pool',
      '/_cat/thread_pool/{thread_pools}',
      '/_cat/plugins',
      '/_cat/fielddata',
      '/_cat/fielddata/{fields}',
      '/_cat/nodeattrs',
      '/_cat/repositories',
      '/_cat/snapshots/{repository}',
      '/_cat/templates',
      '',
    ].join('\n'),
  }));

  router.add('GET', '/_cat/health', (req) => {
    checkParams(req, CAT_PARAMS);
    const h = node.routing.health(undefined, 'cluster').health;
    h.number_of_nodes = h.number_of_data_nodes = node.routing.nodeCount();
    const now = new Date();
    return respond(req, {
      columns: HEALTH_COLUMNS,
      rows: [
        [
          Math.floor(now.getTime() / 1000),
          hms(now),
          h.cluster_name,
          h.status,
          h.number_of_nodes,
          h.number_of_data_nodes,
          h.active_shards,
          h.active_primary_shards,
          h.relocating_shards,
          h.initializing_shards,
          h.unassigned_shards,
          h.number_of_pending_tasks,
          '-',
          `${h.active_shards_percent_as_number.toFixed(1)}%`,
        ],
      ],
    });
  });

  registerNodeAction(node, CAT_NODES_ACTION, (b) =>
    localCatNodeRow(node, (b as { fullId: boolean }).fullId),
  );
  router.add('GET', '/_cat/nodes', async (req) => {
    checkParams(req, [...CAT_PARAMS, 'full_id']);
    const fullId = param(req, 'full_id') === 'true';
    // ES RestNodesAction: every node's info and stats; nodes that do not answer are left out
    const answers = await fromEveryNode(node, CAT_NODES_ACTION, { fullId });
    const master = masterNodeId(node);
    const rows: Cell[][] = [];
    for (const [id, wire] of answers) {
      const values = cellsFromWire(wire as Record<string, WireCell>);
      values.master = id === master ? '*' : '-';
      rows.push(
        NODES_COLUMNS.map((c) => (c.name in values ? values[c.name]! : defaultStat(c.name))),
      );
    }
    return respond(req, { columns: NODES_COLUMNS, rows });
  });

  router.add('GET', '/_cat/master', (req) => {
    checkParams(req, CAT_PARAMS);
    const columns = MASTER_COLUMNS;
    const m = node.routing.master();
    if (!m) {
      throw new EsError('master_not_discovered_exception', 'no master is elected', 503);
    }
    return respond(req, { columns, rows: [[m.id, m.host, m.host, m.name]] });
  });

  const catIndices: Handler = async (req) => {
    checkParams(req, [...CAT_PARAMS, 'health', 'include_unloaded_segments', 'expand_wildcards']);
    const targets = req.params.index
      ? indices.resolve(
          req.params.index,
          indicesOptionsFrom(STRICT_EXPAND_OPEN_CLOSED, (n) => param(req, n)),
        )
      : indices.all();
    const wantHealth = param(req, 'health');
    const rows: Cell[][] = [];
    const summaries = await node.summaries.of(targets);
    for (const idx of targets) {
      const st = summaries.get(idx)!;
      const h = { status: st.status };
      if (wantHealth && h.status !== wantHealth) continue;
      // ES RestIndicesAction: closed and red indices have no stats, so every stats cell is empty.
      const noStats = idx.closed || idx.failed;
      const values: Record<string, Cell> = {
        health: idx.closed ? null : h.status,
        status: idx.closed ? 'close' : 'open',
        index: idx.name,
        uuid: idx.uuid,
        pri: idx.closed ? null : idx.numberOfShards,
        rep: idx.closed ? null : idx.numberOfReplicas,
        'docs.count': noStats ? null : st.docs,
        'docs.deleted': noStats ? null : st.deleted,
        'creation.date': idx.meta.creationDate,
        'creation.date.string': new Date(idx.meta.creationDate).toISOString(),
        'store.size': noStats ? null : new ByteSize(st.bytes),
        'pri.store.size': noStats ? null : new ByteSize(st.priBytes),
        'segments.count': noStats ? null : st.segments,
        'pri.segments.count': noStats ? null : st.priSegments,
        'refresh.total': noStats ? null : st.refreshes,
        'pri.refresh.total': noStats ? null : st.priRefreshes,
        'search.throttled': false,
      };
      rows.push(
        INDICES_COLUMNS.map((c) =>
          c.name in values ? values[c.name]! : noStats ? null : defaultStat(c.name),
        ),
      );
    }
    return respond(req, { columns: INDICES_COLUMNS, rows });
  };
  router.add('GET', '/_cat/indices', catIndices);
  router.add('GET', '/_cat/indices/{index}', catIndices);

  const catCount: Handler = async (req) => {
    checkParams(req, CAT_PARAMS);
    const targets = req.params.index
      ? indices.resolve(req.params.index, STRICT_EXPAND_OPEN)
      : indices.all().filter((i) => !i.closed);
    // ES: _cat/count runs a count search: red indices add nothing, and only red ones fail it.
    const live = targets.filter((i) => !i.failed);
    if (targets.length > 0 && live.length === 0) throw allShardsFailed('query', []);
    // ES: through filtering aliases the search counts the filter's matches only
    const filters = indices.aliasFilters(req.params.index, live);
    let count = 0;
    const summaries = await node.summaries.of(live.filter((i) => !filters.has(i)));
    for (const s of summaries.values()) count += s.docs;
    if (filters.size > 0) {
      const r = await node.searches.count({
        indices: [...filters.keys()],
        sreq: parseSearchBody({}),
        query: parseQuery({ match_all: {} }),
        opts: { now: Date.now(), limits: searchLimits(node), nodeId: node.nodeId, aliasFilters: filters }, // prettier-ignore
      });
      count += r.count as number;
    }
    const now = new Date();
    return respond(req, {
      columns: COUNT_COLUMNS,
      rows: [[Math.floor(now.getTime() / 1000), hms(now), count]],
    });
  };
  router.add('GET', '/_cat/count', catCount);
  router.add('GET', '/_cat/count/{index}', catCount);

  const catShards: Handler = async (req) => {
    checkParams(req, CAT_PARAMS);
    const rows = (await node.routing.shardRows(req.params.index)).map(({ values, others }) =>
      SHARDS_COLUMNS.map((c) => {
        const v = values[c.name];
        if (v === undefined) return others === 'zero' ? defaultStat(c.name) : null;
        return v !== null && typeof v === 'object' ? new ByteSize(v.bytes) : v;
      }),
    );
    return respond(req, { columns: SHARDS_COLUMNS, rows });
  };
  router.add('GET', '/_cat/shards', catShards);
  router.add('GET', '/_cat/shards/{index}', catShards);

  const catAliases: Handler = (req) => {
    checkParams(req, CAT_PARAMS);
    // ES RestAliasAction: a get-aliases request over every index, open or closed
    const names = req.params.name?.split(',').filter((n) => n.length > 0) ?? [];
    const found = findAliases(
      indices.all().map((i) => ({ name: i.name, aliases: i.meta.aliases })),
      names,
    );
    return respond(req, { columns: ALIASES_COLUMNS, rows: aliasRows(found) });
  };
  router.add('GET', '/_cat/aliases', catAliases);
  router.add('GET', '/_cat/aliases/{name}', catAliases);

  const catTemplates: Handler = (req) => {
    checkParams(req, CAT_PARAMS);
    const rows = templateRows(indices.templates.all(), req.params.name);
    return respond(req, { columns: TEMPLATES_COLUMNS, rows });
  };
  router.add('GET', '/_cat/templates', catTemplates);
  router.add('GET', '/_cat/templates/{name}', catTemplates);
}

export function diskCells(path: string): Record<string, Cell> {
  try {
    const st = statfsSync(path);
    const total = st.blocks * st.bsize;
    const avail = st.bavail * st.bsize;
    const used = total - st.bfree * st.bsize;
    return {
      'disk.total': new ByteSize(total),
      'disk.used': new ByteSize(used),
      'disk.avail': new ByteSize(avail),
      'disk.used_percent': total > 0 ? ((used / total) * 100).toFixed(2) : '0.00',
    };
  } catch {
    return {};
  }
}

function defaultStat(name: string): Cell {
  if (/(size|memory)$/.test(name)) return new ByteSize(0);
  if (/(time)$/.test(name)) return new TimeValue(0);
  return 0;
}

/** Transport action by which a node collects the other nodes' `_cat/nodes` rows. */
export const CAT_NODES_ACTION = 'internal:quarry/cat/nodes';

/** `_cat/master` columns (ES RestMasterAction). */
const MASTER_COLUMNS = columns([
  'id|||node id',
  'host|h||host name',
  'ip|||ip address',
  'node|n||node name',
]);

/** A `_cat` cell as it travels between nodes: sizes and times tagged, the rest as is. */
export type WireCell = string | number | boolean | null | { b: number } | { ms: number };

export function cellsFromWire(wire: Record<string, WireCell>): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const [k, v] of Object.entries(wire)) {
    if (v !== null && typeof v === 'object')
      out[k] = 'b' in v ? new ByteSize(v.b) : new TimeValue(v.ms);
    else out[k] = v;
  }
  return out;
}

/** This node's `_cat/nodes` cells, ready to travel to the node that collects them. */
export function localCatNodeRow(node: NodeContext, fullId: boolean): Record<string, WireCell> {
  return cellsToWire(localCatNodeValues(node, fullId));
}

/** Cells ready to travel between nodes: sizes and times tagged. */
export function cellsToWire(cells: Record<string, Cell>): Record<string, WireCell> {
  const out: Record<string, WireCell> = {};
  for (const [k, v] of Object.entries(cells)) {
    out[k] = v instanceof ByteSize ? { b: v.bytes } : v instanceof TimeValue ? { ms: v.millis } : (v as WireCell); // prettier-ignore
  }
  return out;
}

/** This node's `_cat/nodes` cells (ES RestNodesAction.buildTable, from its own info and stats). */
function localCatNodeValues(node: NodeContext, fullId: boolean): Record<string, Cell> {
  const heap = getHeapStatistics();
  const [l1, l5, l15] = loadavg();
  const ramPct = Math.round(((totalmem() - freemem()) / totalmem()) * 100);
  const host = node.publishAddress.split(':')[0] || node.settings.host;
  const transport = transportAddress(node);
  return {
    id: fullId ? node.nodeId : node.nodeId.slice(0, 4),
    pid: process.pid,
    ip: host,
    port: Number(transport.slice(transport.lastIndexOf(':') + 1)),
    http_address: node.publishAddress,
    version: ES_VERSION.number,
    flavor: ES_VERSION.build_flavor,
    type: ES_VERSION.build_type,
    build: ES_VERSION.build_hash,
    jdk: `node ${process.versions.node}`,
    'heap.current': new ByteSize(heap.used_heap_size),
    'heap.percent': Math.round((heap.used_heap_size / heap.heap_size_limit) * 100),
    'heap.max': new ByteSize(heap.heap_size_limit),
    'ram.current': new ByteSize(totalmem() - freemem()),
    'ram.percent': ramPct,
    'ram.max': new ByteSize(totalmem()),
    cpu: Math.min(100, Math.round((l1! / 2) * 100)),
    load_1m: l1!.toFixed(2),
    load_5m: l5!.toFixed(2),
    load_15m: l15!.toFixed(2),
    uptime: new TimeValue(Date.now() - node.startedAt),
    ...diskCells(node.settings.dataPath),
    'node.role': 'mdi',
    master: '*',
    name: node.nodeName,
  };
}
