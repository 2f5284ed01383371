/**
 * Nodes info and nodes stats of the one node (ES RestNodesInfoAction, RestNodesStatsAction):
 * identity, addresses, settings, OS and process facts, and live figures (indices stats, OS
 * memory and load, process CPU and descriptors, data path disk space, HTTP connections).
 * The `jvm` section reports this runtime (V8's heap, Node's buffers, http/runtime-stats.ts); there
 * is no thread pool here, so that section is left out, as ES leaves out a section a node does not
 * report.
 */
import { everyNode, registerNodeAction } from '../node-actions.js';
import { readdirSync, readFileSync, realpathSync, statfsSync } from 'node:fs';
import {
  arch,
  availableParallelism,
  cpus,
  freemem,
  loadavg,
  release,
  totalmem,
  type,
} from 'node:os';
import { illegalArgument } from '../../common/errors.js';
import { formatByteSize, formatTimeValue } from '../../common/units.js';
import { simpleMatch } from '../../engine/index-names.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { ES_VERSION } from './info.js';
import { PROCESSOR_TYPES } from '../../ingest/processors/index.js';
import { INDEX_METRICS, nodeIndicesStats, unrecognizedMetrics } from './stats.js';
import { discoveryStats, runtimeStats } from '../runtime-stats.js';

/** RestNodesInfoAction.ALLOWED_METRICS. */
const INFO_METRICS = [
  'http',
  'ingest',
  'indices',
  'jvm',
  'os',
  'plugins',
  'process',
  'settings',
  'thread_pool',
  'transport',
];

/** RestNodesStatsAction.METRICS. */
const STATS_METRICS = [
  'os',
  'jvm',
  'thread_pool',
  'fs',
  'transport',
  'http',
  'indices',
  'process',
  'breaker',
  'script',
  'discovery',
  'ingest',
  'adaptive_selection',
];

const ROLES = ['master', 'data', 'ingest'];

/** The modules a node reports (ES PluginInfo of each built-in module Quarry has). */
const MODULES = [
  {
    name: 'ingest-common',
    version: ES_VERSION.number,
    elasticsearch_version: ES_VERSION.number,
    java_version: '1.8',
    description:
      'Module for ingest processors that do not require additional security permissions or have large dependencies and resources',
    classname: 'org.elasticsearch.ingest.common.IngestCommonPlugin',
    extended_plugins: ['lang-painless'],
    has_native_controller: false,
  },
  {
    name: 'lang-mustache',
    version: ES_VERSION.number,
    elasticsearch_version: ES_VERSION.number,
    java_version: '1.8',
    description: 'Mustache scripting integration for Elasticsearch',
    classname: 'org.elasticsearch.script.mustache.MustachePlugin',
    extended_plugins: [],
    has_native_controller: false,
  },
];
/** ES: the monitor services' default refresh interval (monitor.*.refresh_interval). */
const REFRESH_INTERVAL_MS = 1000;

const commaSet = (s: string): Set<string> =>
  new Set(
    s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x.length > 0),
  );

/**
 * ES DiscoveryNodes.resolveNodes for a cluster of one: `_all`, `_local`, `_master`, the id, the
 * name, host or address (wildcards allowed), and `role:true|false` filters.
 */
export function nodeSelected(node: NodeContext, ids: string[]): boolean {
  if (ids.length === 0 || (ids.length === 1 && ids[0] === '_all')) return true;
  const host = hostOf(node);
  let selected = false;
  for (const id of ids) {
    if (id === '_local' || id === '_master' || id === '_all' || id === node.nodeId) {
      selected = true;
      continue;
    }
    const colon = id.indexOf(':');
    if (colon > 0) {
      const attr = id.slice(0, colon);
      const value = id.slice(colon + 1);
      if (ROLES.includes(attr)) {
        if (value === 'true') selected = true;
        else if (value === 'false') selected = false;
        continue;
      }
      if (attr === 'coordinating_only') {
        if (value === 'false') selected = true;
        continue;
      }
    }
    if (simpleMatch(id, host) || simpleMatch(id, node.nodeName) || simpleMatch(id, node.nodeId))
      selected = true;
  }
  return selected;
}

export function hostOf(node: NodeContext): string {
  const pub = node.publishAddress;
  const colon = pub.lastIndexOf(':');
  return colon > 0 ? pub.slice(0, colon) : node.settings.host;
}

/** The node's transport address as ES prints it (a lone node binds none: it reports ES's default port). */
export function transportAddress(node: NodeContext): string {
  return node.members.transportAddress();
}

/** The fields every node entry starts with (ES NodeInfo / NodeStats toXContent). */
function identity(node: NodeContext, withBuild: boolean): Record<string, unknown> {
  const host = hostOf(node);
  const transport = transportAddress(node);
  return {
    name: node.nodeName,
    transport_address: transport,
    host,
    // ES: NodeInfo writes the host address, NodeStats the transport address.
    ip: withBuild ? host : transport,
    ...(withBuild
      ? {
          version: ES_VERSION.number,
          build_flavor: ES_VERSION.build_flavor,
          build_type: ES_VERSION.build_type,
          build_hash: ES_VERSION.build_hash,
        }
      : {}),
    roles: [...ROLES],
  };
}

/** ES humanReadableField: with `human`, the readable twin comes first. */
function bytesField(
  out: Record<string, unknown>,
  name: string,
  bytes: number,
  human: boolean,
): void {
  if (human) out[name] = formatByteSize(bytes);
  out[`${name}_in_bytes`] = bytes;
}

function millisField(out: Record<string, unknown>, name: string, ms: number, human: boolean): void {
  if (human) out[name] = formatTimeValue(ms);
  out[`${name}_in_millis`] = ms;
}

/** Java's `os.arch` for Node's `process.arch`. */
const JAVA_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'aarch64', ia32: 'x86' };

function osPrettyName(): string | null {
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}

/** ES Settings.toXContent: nested objects on dotted keys unless `flat_settings`. */
function settingsJson(flat: Record<string, string>, asFlat: boolean): Record<string, unknown> {
  const keys = Object.keys(flat).sort();
  if (asFlat) return Object.fromEntries(keys.map((k) => [k, flat[k]]));
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const parts = k.split('.');
    let cur = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const p = parts[i]!;
      const next = cur[p];
      if (next !== null && typeof next === 'object') cur = next as Record<string, unknown>;
      else cur = cur[p] = {};
    }
    cur[parts[parts.length - 1]!] = flat[k];
  }
  return out;
}

function nodeSettings(node: NodeContext): Record<string, string> {
  const s = node.settings;
  return {
    ...s.raw,
    'cluster.name': node.clusterName,
    'node.name': node.nodeName,
    // ES Node adds it to every node's settings (a node, not a transport client)
    'client.type': 'node',
    'path.data': s.dataPath,
    'network.host': s.raw['network.host'] ?? s.host,
    'http.port': s.raw['http.port'] ?? String(s.port),
  };
}

function nodeInfo(node: NodeContext, metrics: Set<string>, req: RestRequest): unknown {
  const all = metrics.has('_all');
  const want = (m: string) => all || metrics.has(m);
  const human = boolParam(req, 'human', false);
  const out = identity(node, true);
  if (want('settings'))
    out.settings = settingsJson(nodeSettings(node), boolParam(req, 'flat_settings', false));
  if (want('os')) {
    const os: Record<string, unknown> = {};
    millisField(os, 'refresh_interval', REFRESH_INTERVAL_MS, human);
    os.name = type();
    const pretty = osPrettyName();
    if (pretty !== null) os.pretty_name = pretty;
    os.arch = JAVA_ARCH[arch()] ?? arch();
    os.version = release();
    os.available_processors = availableParallelism();
    os.allocated_processors = availableParallelism();
    out.os = os;
  }
  if (want('process')) {
    const p: Record<string, unknown> = {};
    millisField(p, 'refresh_interval', REFRESH_INTERVAL_MS, human);
    p.id = process.pid;
    p.mlockall = false;
    out.process = p;
  }
  // a lone node binds no transport port: its section names the address it reports, as
  // `transport_address` does, with no profiles
  if (want('transport')) {
    const addr = node.members.boundTransportAddress();
    out.transport = { bound_address: [addr], publish_address: addr, profiles: {} };
  }
  if (want('http')) {
    const http: Record<string, unknown> = {
      bound_address: [node.publishAddress],
      publish_address: node.publishAddress,
    };
    bytesField(http, 'max_content_length', node.settings.maxContentLength, human);
    out.http = http;
  }
  if (want('plugins')) {
    out.plugins = [];
    out.modules = MODULES;
  }
  if (want('ingest')) out.ingest = { processors: PROCESSOR_TYPES.map((type) => ({ type })) };
  return out;
}

/** ES OsStats: CPU percent and load, memory and swap. */
function osStats(human: boolean): Record<string, unknown> {
  const total = totalmem();
  const free = freemem();
  const used = total - free;
  const [l1, l5, l15] = loadavg();
  const mem: Record<string, unknown> = {};
  bytesField(mem, 'total', total, human);
  bytesField(mem, 'free', free, human);
  bytesField(mem, 'used', used, human);
  mem.free_percent = Math.round((free / total) * 100);
  mem.used_percent = Math.round((used / total) * 100);
  const sw = swapBytes();
  const swap: Record<string, unknown> = {};
  bytesField(swap, 'total', sw.total, human);
  bytesField(swap, 'free', sw.free, human);
  bytesField(swap, 'used', sw.total - sw.free, human);
  return {
    timestamp: Date.now(),
    cpu: {
      percent: systemCpuPercent(),
      load_average: { '1m': l1, '5m': l5, '15m': l15 },
    },
    mem,
    swap,
  };
}

/** System CPU use since the previous sample (since boot at first), from the kernel's tick counts. */
let lastTicks = { busy: 0, total: 0 };
function systemCpuPercent(): number {
  let busy = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times;
    const all = t.user + t.nice + t.sys + t.idle + t.irq;
    total += all;
    busy += all - t.idle;
  }
  const dTotal = total - lastTicks.total;
  const dBusy = busy - lastTicks.busy;
  lastTicks = { busy, total };
  return dTotal > 0 ? Math.round((dBusy / dTotal) * 100) : 0;
}

function swapBytes(): { total: number; free: number } {
  try {
    const info = readFileSync('/proc/meminfo', 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0);
    return { total: kb('SwapTotal') * 1024, free: kb('SwapFree') * 1024 };
  } catch {
    return { total: 0, free: 0 };
  }
}

/** ES ProcessStats: descriptors, CPU time, virtual memory. */
function processStats(human: boolean): Record<string, unknown> {
  const cpu = process.cpuUsage();
  const totalMs = Math.round((cpu.user + cpu.system) / 1000);
  const cpuOut: Record<string, unknown> = { percent: cpuPercent(totalMs) };
  millisField(cpuOut, 'total', totalMs, human);
  const mem: Record<string, unknown> = {};
  bytesField(mem, 'total_virtual', virtualBytes(), human);
  return {
    timestamp: Date.now(),
    open_file_descriptors: openDescriptors(),
    max_file_descriptors: maxDescriptors(),
    cpu: cpuOut,
    mem,
  };
}

/** CPU use since the previous call, as ES's ProcessProbe computes it between samples. */
let lastCpu = { at: performance.now(), totalMs: 0 };
function cpuPercent(totalMs: number): number {
  const now = performance.now();
  const elapsed = now - lastCpu.at;
  const pct = elapsed > 0 ? Math.round(((totalMs - lastCpu.totalMs) / elapsed) * 100) : 0;
  lastCpu = { at: now, totalMs };
  return Math.max(0, pct);
}

function openDescriptors(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

function maxDescriptors(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : -1;
  } catch {
    return -1;
  }
}

function virtualBytes(): number {
  try {
    const m = /^VmSize:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : -1;
  } catch {
    return -1;
  }
}

/** The mount holding `path` (longest mount point prefix in /proc/mounts), as ES names it. */
function mountOf(path: string): { mount: string; type: string } | null {
  try {
    const real = realpathSync(path);
    let best: { point: string; dev: string; type: string } | null = null;
    for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
      const [dev, point, fsType] = line.split(' ');
      if (!dev || !point || !fsType) continue;
      const inside = point === '/' || real === point || real.startsWith(point + '/');
      if (inside && (!best || point.length > best.point.length))
        best = { point, dev, type: fsType };
    }
    return best ? { mount: `${best.point} (${best.dev})`, type: best.type } : null;
  } catch {
    return null;
  }
}

/** ES FsInfo: totals and the data path's file store. */
function fsStats(node: NodeContext, human: boolean): Record<string, unknown> {
  const path = node.settings.dataPath;
  const space = (into: Record<string, unknown>) => {
    try {
      const st = statfsSync(path);
      bytesField(into, 'total', st.blocks * st.bsize, human);
      bytesField(into, 'free', st.bfree * st.bsize, human);
      bytesField(into, 'available', st.bavail * st.bsize, human);
    } catch {
      // ES leaves the figures out when the file store cannot be read.
    }
    return into;
  };
  const m = mountOf(path);
  const data: Record<string, unknown> = { path, ...(m ? { mount: m.mount, type: m.type } : {}) };
  return { timestamp: Date.now(), total: space({}), data: [space(data)] };
}

function parseStatsMetrics(req: RestRequest): {
  metrics: Set<string>;
  indexMetrics: string[] | null;
} {
  const raw = req.params.metric ?? '_all';
  const metrics = commaSet(raw);
  const indexMetricParam = req.params.index_metric;
  if (metrics.size === 1 && metrics.has('_all')) {
    if (indexMetricParam !== undefined)
      throw illegalArgument(
        `request [${req.path}] contains index metrics [${indexMetricParam}] but all stats requested`,
      );
    return { metrics: new Set(STATS_METRICS), indexMetrics: null };
  }
  if (metrics.has('_all'))
    throw illegalArgument(`request [${req.path}] contains _all and individual metrics [${raw}]`);
  const bad = [...metrics].filter((m) => !STATS_METRICS.includes(m));
  if (bad.length) unrecognizedMetrics(req, bad, STATS_METRICS);
  let indexMetrics: string[] | null = null;
  if (metrics.has('indices')) {
    const im = commaSet(indexMetricParam ?? '_all');
    if (!(im.size === 1 && im.has('_all'))) {
      const badIm = [...im].filter((m) => !INDEX_METRICS.includes(m));
      if (badIm.length) unrecognizedMetrics(req, badIm, INDEX_METRICS, 'index metric');
      if (im.has('suggest'))
        req.warnings.push(
          `the suggest index metric is deprecated on the nodes stats API [${req.uri}]`,
        );
      indexMetrics = [...im];
    }
  } else if (indexMetricParam !== undefined) {
    throw illegalArgument(
      `request [${req.path}] contains index metrics [${indexMetricParam}] but indices stats not requested`,
    );
  }
  return { metrics, indexMetrics };
}

function nodeStats(
  node: NodeContext,
  metrics: Set<string>,
  indexMetrics: string[] | null,
  req: RestRequest,
): unknown {
  const human = boolParam(req, 'human', false);
  const levelParam = param(req, 'level') ?? 'node';
  const level = levelParam.toLowerCase();
  if (level !== 'node' && level !== 'indices' && level !== 'shards')
    throw illegalArgument(
      `level parameter must be one of [indices] or [node] or [shards] but was [${levelParam}]`,
    );
  const out = identity(node, false);
  if (metrics.has('indices'))
    out.indices = nodeIndicesStats(
      node,
      indexMetrics,
      level === 'node' ? 'node' : 'indices',
      human,
    );
  if (metrics.has('os')) out.os = osStats(human);
  if (metrics.has('process')) out.process = processStats(human);
  if (metrics.has('jvm')) out.jvm = runtimeStats(node.startedAt, human);
  if (metrics.has('fs')) out.fs = fsStats(node, human);
  // a lone node has no transport layer, so no section (as ES omits what a node does not report)
  const transport = metrics.has('transport') ? node.members.transportStats(human) : null;
  if (transport) out.transport = transport;
  if (metrics.has('http')) {
    const h = node.httpStats?.() ?? { current_open: 0, total_opened: 0 };
    out.http = { current_open: h.current_open, total_opened: h.total_opened };
  }
  if (metrics.has('discovery')) out.discovery = discoveryStats();
  if (metrics.has('ingest') && node.ingest) out.ingest = node.ingest.stats();
  return out;
}

/** Transport actions by which a node collects the other nodes' parts of `_nodes` (ES's names). */
export const NODES_INFO_ACTION = 'cluster:monitor/nodes/info';
export const NODES_STATS_ACTION = 'cluster:monitor/nodes/stats';

/** The query parameters a node's part is rendered with, as they travel between nodes. */
type Params = Record<string, string>;
const paramsOf = (req: RestRequest): Params => Object.fromEntries(req.query);
const asRequest = (params: Params): RestRequest =>
  ({ params: {}, query: new Map(Object.entries(params)), warnings: [] }) as unknown as RestRequest;

/** This node's `_nodes` info entry, for a request's metrics and parameters. */
export function localNodeInfo(node: NodeContext, metrics: string[], params: Params): unknown {
  return nodeInfo(node, new Set(metrics), asRequest(params));
}

/** This node's `_nodes/stats` entry. */
export function localNodeStats(
  node: NodeContext,
  metrics: string[],
  indexMetrics: string[] | null,
  params: Params,
): unknown {
  return nodeStats(node, new Set(metrics), indexMetrics, asRequest(params));
}

/** Every selected node's part (ES TransportNodesAction), this node's included. */
async function nodesResponse(
  node: NodeContext,
  ids: string[],
  action: string,
  body: unknown,
): Promise<unknown> {
  const { answers, failed, failures } = await everyNode(node, action, body, ids);
  return {
    _nodes: {
      total: answers.length + failed,
      successful: answers.length,
      failed,
      ...(failures.length > 0
        ? { failures: failures.map((f) => ({ ...f.error.toInner(), node_id: f.nodeId })) }
        : {}),
    },
    cluster_name: node.clusterName,
    nodes: Object.fromEntries(answers),
  };
}

type InfoBody = { metrics: string[]; params: Params };
type StatsBody = InfoBody & { indexMetrics: string[] | null };

export function registerNodesRoutes(router: Router<Handler>, node: NodeContext): void {
  registerNodeAction(node, NODES_INFO_ACTION, (b) => {
    const body = b as InfoBody;
    return localNodeInfo(node, body.metrics, body.params);
  });
  registerNodeAction(node, NODES_STATS_ACTION, (b) => {
    const body = b as StatsBody;
    return localNodeStats(node, body.metrics, body.indexMetrics, body.params);
  });
  const info: Handler = async (req) => {
    checkParams(req, ['timeout', 'flat_settings', 'settings_filter']);
    let ids: string[];
    let metrics: Set<string>;
    const { nodeId, metrics: metricsParam } = req.params;
    if (nodeId !== undefined && metricsParam === undefined) {
      // ES: /_nodes/os names metrics, /_nodes/_local names nodes.
      const either = commaSet(nodeId);
      if ([...either].every((m) => INFO_METRICS.includes(m))) {
        ids = ['_all'];
        metrics = either;
      } else {
        ids = [...either];
        metrics = new Set(['_all']);
      }
    } else {
      ids = [...commaSet(nodeId ?? '_all')];
      metrics = commaSet(metricsParam ?? '_all');
    }
    const body: InfoBody = { metrics: [...metrics], params: paramsOf(req) };
    return { status: 200, body: await nodesResponse(node, ids, NODES_INFO_ACTION, body) };
  };
  router.add('GET', '/_nodes', info);
  router.add('GET', '/_nodes/{nodeId}', info);
  router.add('GET', '/_nodes/{nodeId}/{metrics}', info);
  router.add('GET', '/_nodes/{nodeId}/info/{metrics}', info);

  const stats: Handler = async (req) => {
    checkParams(req, [
      'timeout',
      'level',
      'types',
      'groups',
      'fields',
      'fielddata_fields',
      'completion_fields',
      'include_segment_file_sizes',
    ]);
    const { metrics, indexMetrics } = parseStatsMetrics(req);
    const ids = req.params.nodeId === undefined ? [] : [...commaSet(req.params.nodeId)];
    const body: StatsBody = { metrics: [...metrics], indexMetrics, params: paramsOf(req) };
    return { status: 200, body: await nodesResponse(node, ids, NODES_STATS_ACTION, body) };
  };
  router.add('GET', '/_nodes/stats', stats);
  router.add('GET', '/_nodes/{nodeId}/stats', stats);
  router.add('GET', '/_nodes/stats/{metric}', stats);
  router.add('GET', '/_nodes/{nodeId}/stats/{metric}', stats);
  router.add('GET', '/_nodes/stats/{metric}/{index_metric}', stats);
  router.add('GET', '/_nodes/{nodeId}/stats/{metric}/{index_metric}', stats);
}
