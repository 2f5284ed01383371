/**
 * Indices stats API (ES RestIndicesStatsAction, IndicesStatsResponse, CommonStats): per-shard
 * counters from the engine (indexing, get, search, refresh, request cache, fielddata, translog
 * operations), docs and segment memory from the shards' searchable snapshots, store size from
 * LMDB; summed into primaries/total per index and for `_all`, at `level` cluster, indices or
 * shards. Only primaries are started on one node, so primaries and total coincide.
 */
import { illegalArgument } from '../../common/errors.js';
import { formatByteSize, formatTimeValue } from '../../common/units.js';
import type { IndexService } from '../../engine/index-service.js';
import {
  indicesOptionsFrom,
  simpleMatch,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
} from '../../engine/index-names.js';
import { completionMemory, luceneDocs, segmentMemory } from '../../engine/segment-stats.js';
import { commitInfo } from '../../engine/segment-commits.js';
import type { Shard } from '../../engine/shard.js';
import { ShardCounters } from '../../engine/stats.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, listParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';

/** REST metric names (RestIndicesStatsAction.METRICS) and the stats section each enables. */
const METRICS: Record<string, Section> = {
  docs: 'docs',
  store: 'store',
  indexing: 'indexing',
  search: 'search',
  suggest: 'search',
  get: 'get',
  merge: 'merges',
  refresh: 'refresh',
  flush: 'flush',
  warmer: 'warmer',
  query_cache: 'query_cache',
  segments: 'segments',
  fielddata: 'fielddata',
  completion: 'completion',
  request_cache: 'request_cache',
  recovery: 'recovery',
  translog: 'translog',
};

/** CommonStats.toXContent order. */
const SECTIONS = [
  'docs',
  'store',
  'indexing',
  'get',
  'search',
  'merges',
  'refresh',
  'flush',
  'warmer',
  'query_cache',
  'fielddata',
  'completion',
  'segments',
  'translog',
  'request_cache',
  'recovery',
] as const;
type Section = (typeof SECTIONS)[number];

const PARAMS = [
  'completion_fields',
  'fielddata_fields',
  'fields',
  'groups',
  'level',
  'types',
  'include_segment_file_sizes',
  'ignore_unavailable',
  'allow_no_indices',
  'expand_wildcards',
];

/** A stats tree: numbers summed across shards, maps of per-field/per-type sub-trees. */
type Stats = { [k: string]: number | boolean | null | Stats };

interface Request {
  sections: Set<Section>;
  types: string[] | null;
  fielddataFields: string[] | null;
  completionFields: string[] | null;
  /** Search `stats` groups to list (the `groups` parameter), null for none. */
  groups?: string[] | null;
}

const ms = (v: number) => Math.floor(v);

/** One shard's CommonStats for the requested sections. */
function shardStats(
  idx: Pick<IndexService, 'typeName'>,
  shard: Pick<Shard, 'counters' | 'search' | 'pendingCount'>,
  r: Request,
  storeBytes: number,
): Stats {
  const c = shard.counters;
  const snapshot = shard.search?.searcher();
  const out: Stats = {};
  for (const s of SECTIONS) {
    if (!r.sections.has(s)) continue;
    switch (s) {
      case 'docs':
        out.docs = snapshot ? luceneDocs(snapshot) : { count: 0, deleted: 0 };
        break;
      case 'store':
        out.store = { size_in_bytes: storeBytes };
        break;
      case 'indexing': {
        const totals: Stats = {
          index_total: c.indexTotal,
          index_time_in_millis: ms(c.indexTimeMs),
          index_current: c.indexCurrent,
          index_failed: c.indexFailed,
          delete_total: c.deleteTotal,
          delete_time_in_millis: ms(c.deleteTimeMs),
          delete_current: c.deleteCurrent,
          noop_update_total: c.noopUpdateTotal,
          is_throttled: false,
          throttle_time_in_millis: 0,
        };
        // One mapping type per index: every operation was on it.
        const type = idx.typeName;
        if (r.types && type && r.types.some((p) => simpleMatch(p, type))) {
          totals.types = { [type]: { ...totals } };
        }
        out.indexing = totals;
        break;
      }
      case 'get':
        out.get = {
          total: c.getExists + c.getMissing,
          time_in_millis: ms(c.getExistsTimeMs + c.getMissingTimeMs),
          exists_total: c.getExists,
          exists_time_in_millis: ms(c.getExistsTimeMs),
          missing_total: c.getMissing,
          missing_time_in_millis: ms(c.getMissingTimeMs),
          current: 0,
        };
        break;
      case 'search': {
        const search: Stats = { open_contexts: 0, ...searchTotals(c.queryTotal, c) };
        const groups = r.groups;
        if (groups && groups.length > 0) {
          const listed: Stats = {};
          for (const [g, n] of c.groupQueries) {
            if (groups.some((p) => simpleMatch(p, g))) listed[g] = searchTotals(n, null);
          }
          if (Object.keys(listed).length > 0) search.groups = listed;
        }
        out.search = search;
        break;
      }
      case 'merges':
        out.merges = {
          current: 0,
          current_docs: 0,
          current_size_in_bytes: 0,
          total: 0,
          total_time_in_millis: 0,
          total_docs: 0,
          total_size_in_bytes: 0,
          total_stopped_time_in_millis: 0,
          total_throttled_time_in_millis: 0,
          // ES MergeStats: -1 when auto-throttling is off (no merge scheduler throttle here)
          total_auto_throttle_in_bytes: -1,
        };
        break;
      case 'refresh':
        out.refresh = {
          total: c.refreshTotal,
          total_time_in_millis: ms(c.refreshTimeMs),
          listeners: 0,
        };
        break;
      case 'flush':
        out.flush = {
          total: c.flushTotal,
          periodic: c.flushPeriodic,
          total_time_in_millis: ms(c.flushTimeMs),
        };
        break;
      case 'warmer':
        out.warmer = { current: 0, total: c.warmerTotal, total_time_in_millis: 0 };
        break;
      case 'query_cache':
        out.query_cache = {
          memory_size_in_bytes: 0,
          total_count: 0,
          hit_count: 0,
          miss_count: 0,
          cache_size: 0,
          cache_count: 0,
          evictions: 0,
        };
        break;
      case 'fielddata': {
        const fd: Stats = {
          memory_size_in_bytes: c.fielddataTotalBytes,
          evictions: c.fielddataEvictions,
        };
        if (r.fielddataFields) {
          const fields: Stats = {};
          for (const [f, b] of c.fielddataBytes) {
            if (r.fielddataFields.some((p) => simpleMatch(p, f))) {
              fields[f] = { memory_size_in_bytes: b };
            }
          }
          fd.fields = fields;
        }
        out.fielddata = fd;
        break;
      }
      case 'completion': {
        const perField = snapshot ? completionMemory(snapshot) : new Map<string, number>();
        let total = 0;
        for (const b of perField.values()) total += b;
        const cs: Stats = { size_in_bytes: total };
        if (r.completionFields) {
          const fields: Stats = {};
          for (const [f, b] of perField) {
            if (r.completionFields.some((p) => simpleMatch(p, f))) {
              fields[f] = { size_in_bytes: b };
            }
          }
          cs.fields = fields;
        }
        out.completion = cs;
        break;
      }
      case 'segments': {
        const m = snapshot
          ? segmentMemory(snapshot)
          : { count: 0, terms: 0, storedFields: 0, norms: 0, points: 0, docValues: 0 };
        out.segments = {
          count: m.count,
          memory_in_bytes: m.terms + m.storedFields + m.norms + m.points + m.docValues,
          terms_memory_in_bytes: m.terms,
          stored_fields_memory_in_bytes: m.storedFields,
          term_vectors_memory_in_bytes: 0,
          norms_memory_in_bytes: m.norms,
          points_memory_in_bytes: m.points,
          doc_values_memory_in_bytes: m.docValues,
          index_writer_memory_in_bytes: 0,
          // ES LiveVersionMap: writes not yet committed to the store
          version_map_memory_in_bytes: shard.pendingCount * VERSION_MAP_ENTRY_BYTES,
          fixed_bit_set_memory_in_bytes: 0,
          max_unsafe_auto_id_timestamp: -1,
          file_sizes: {},
        };
        break;
      }
      case 'translog':
        out.translog = {
          operations: c.translogOps,
          size_in_bytes: c.translogBytes + TRANSLOG_HEADER_BYTES,
          uncommitted_operations: c.uncommittedOps,
          uncommitted_size_in_bytes: c.uncommittedBytes + TRANSLOG_HEADER_BYTES,
          earliest_last_modified_age: 0,
        };
        break;
      case 'request_cache':
        out.request_cache = {
          memory_size_in_bytes: c.requestCacheBytes,
          evictions: c.requestCacheEvictions,
          hit_count: c.requestCacheHits,
          miss_count: c.requestCacheMisses,
        };
        break;
      case 'recovery':
        out.recovery = { current_as_source: 0, current_as_target: 0, throttle_time_in_millis: 0 };
        break;
    }
  }
  return out;
}

/**
 * ES SearchStats.Stats: the shard totals (`c`) or a group's, of which only query phases are
 * counted per group.
 */
function searchTotals(queries: number, c: ShardCounters | null): Stats {
  return {
    query_total: queries,
    query_time_in_millis: ms(c?.queryTimeMs ?? 0),
    query_current: 0,
    fetch_total: c?.fetchTotal ?? 0,
    fetch_time_in_millis: ms(c?.fetchTimeMs ?? 0),
    fetch_current: 0,
    scroll_total: c?.scrollTotal ?? 0,
    scroll_time_in_millis: ms(c?.scrollTimeMs ?? 0),
    scroll_current: 0,
    suggest_total: c?.suggestTotal ?? 0,
    suggest_time_in_millis: ms(c?.suggestTimeMs ?? 0),
    suggest_current: 0,
  };
}

/** ES LiveVersionMap.BASE_BYTES_PER_CHM_ENTRY plus a VersionValue. */
const VERSION_MAP_ENTRY_BYTES = 120;
/** An empty translog generation's header (ES TranslogHeader). */
const TRANSLOG_HEADER_BYTES = 55;

/** CommonStats.add: sums, except the maximum of max_unsafe_auto_id_timestamp. */
function addStats(into: Stats, s: Stats): Stats {
  for (const [k, v] of Object.entries(s)) {
    const cur = into[k];
    if (typeof v === 'number') {
      into[k] =
        typeof cur !== 'number'
          ? v
          : k === 'max_unsafe_auto_id_timestamp' || k === 'total_auto_throttle_in_bytes'
            ? Math.max(cur, v)
            : cur + v;
    } else if (typeof v === 'boolean') {
      into[k] = (cur as boolean | undefined) === true || v;
    } else if (v === null) {
      into[k] = null;
    } else {
      into[k] = addStats(cur && typeof cur === 'object' ? cur : {}, v);
    }
  }
  return into;
}

/** Keys whose human-readable twin ES names differently (GetStats.Fields.TIME is "getTime"). */
const HUMAN_NAMES: Record<string, string> = { time_in_millis: 'getTime' };

/** `human=true`: ES humanReadableField writes "size": "1kb" before "size_in_bytes". */
function humanize(s: Stats, section: string | null): Stats {
  const out: Stats = {};
  for (const [k, v] of Object.entries(s)) {
    if (typeof v === 'number' && k.endsWith('_in_bytes')) {
      if (k !== 'total_auto_throttle_in_bytes' || v !== -1) {
        out[k.slice(0, -'_in_bytes'.length)] = formatByteSize(v) as unknown as number;
      }
    } else if (typeof v === 'number' && k.endsWith('_in_millis')) {
      const name =
        section === 'get' && HUMAN_NAMES[k] ? HUMAN_NAMES[k] : k.slice(0, -'_in_millis'.length);
      out[name] = formatTimeValue(v) as unknown as number;
    }
    out[k] = v !== null && typeof v === 'object' ? humanize(v, section ?? k) : v;
  }
  return out;
}

/** BaseRestHandler.unrecognized for metrics, with Lucene LevensteinDistance suggestions. */
export function unrecognizedMetrics(
  req: RestRequest,
  bad: string[],
  knownNames: readonly string[] = Object.keys(METRICS),
  kind = 'metric',
): never {
  const known = [...knownNames].sort();
  const parts = bad.sort().map((m) => {
    const hints = known.filter((k) => levenshteinSimilarity(m, k) > 0.5);
    return hints.length
      ? `[${m}] -> did you mean ${hints.length === 1 ? `[${hints[0]}]` : `any of [${hints.join(', ')}]`}?`
      : `[${m}]`;
  });
  throw illegalArgument(
    `request [${req.path}] contains unrecognized ${kind}${bad.length > 1 ? 's' : ''}: ${parts.join(', ')}`,
  );
}

function levenshteinSimilarity(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  let prev = Array.from({ length: a.length + 1 }, (_, i) => i);
  for (let j = 1; j <= b.length; j++) {
    const cur = [j];
    for (let i = 1; i <= a.length; i++) {
      cur[i] = Math.min(
        cur[i - 1]! + 1,
        prev[i]! + 1,
        prev[i - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return 1 - prev[a.length]! / Math.max(a.length, b.length);
}

function parseSections(req: RestRequest): Set<Section> {
  const raw = req.params.metric ?? '_all';
  const metrics = new Set(
    raw
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m),
  );
  if (metrics.size === 1 && metrics.has('_all')) return new Set(SECTIONS);
  if (metrics.has('_all')) {
    throw illegalArgument(`request [${req.path}] contains _all and individual metrics [${raw}]`);
  }
  const bad = [...metrics].filter((m) => !(m in METRICS));
  if (bad.length) unrecognizedMetrics(req, bad);
  const out = new Set<Section>();
  for (const m of metrics) {
    if (m === 'suggest') {
      req.warnings.push(`the suggest metric is deprecated on the indices stats API [${req.uri}]`);
    }
    out.add(METRICS[m]!);
  }
  return out;
}

/** The index metric names (CommonStatsFlags.Flag REST names), as nodes stats accepts them. */
export const INDEX_METRICS: readonly string[] = Object.keys(METRICS);

/**
 * ES NodeIndicesStats: the CommonStats of every started shard on this node, summed (`node`
 * level) and per index (`indices`). Closed and red indices have no started shard here.
 * `metrics` are REST index metric names, already validated; null for all.
 */
export function nodeIndicesStats(
  node: NodeContext,
  metrics: readonly string[] | null,
  level: 'node' | 'indices',
  human: boolean,
): Record<string, unknown> {
  const sections = metrics === null ? new Set<Section>(SECTIONS) : new Set<Section>();
  if (metrics !== null) for (const m of metrics) sections.add(METRICS[m]!);
  const r: Request = { sections, types: null, fielddataFields: null, completionFields: null };
  const total: Stats = {};
  const perIndex: Record<string, Stats> = {};
  for (const idx of node.indices.all()) {
    if (idx.closed || idx.failed) continue;
    const store = idx.storeBytes();
    const docs = idx.shards.map((s) => s.search?.stats().docs ?? 0);
    const allDocs = docs.reduce((a, b) => a + b, 0);
    const idxStats: Stats = {};
    for (const shard of idx.shards) {
      const bytes =
        allDocs > 0
          ? Math.round((store * docs[shard.id]!) / allDocs)
          : Math.round(store / idx.numberOfShards);
      addStats(idxStats, shardStats(idx, shard, r, bytes));
    }
    addStats(total, idxStats);
    perIndex[idx.name] = idxStats;
  }
  // ES NodeIndicesStats: every section asked for is there, zero on a node without shards
  if (Object.keys(total).length === 0) {
    const none = { counters: new ShardCounters(), search: null, pendingCount: 0 };
    addStats(total, shardStats({ typeName: null }, none, r, 0));
  }
  const h = (s: Stats): Stats => (human ? humanize(s, null) : s);
  const out: Record<string, unknown> = { ...h(total) };
  if (level === 'indices') {
    const indices: Record<string, unknown> = {};
    for (const [name, s] of Object.entries(perIndex)) indices[name] = h(s);
    out.indices = indices;
  }
  return out;
}

export const STATS_OPERATION = 'indices:monitor/stats';

/** The stats request as it travels to the nodes that hold the copies. */
interface WireRequest extends Omit<Request, 'sections'> {
  sections: Section[];
  withShardLevel: boolean;
}

/** One copy's answer: its CommonStats and, at level shards, its commit, seq_no and path. */
interface CopyStats {
  stats: Stats;
  extra?: Record<string, unknown>;
}

/**
 * The stats of the copies this node holds of `idx` (ES TransportIndicesStatsAction
 * shardOperation). LMDB keeps one database per index on a node: its size is shared out among
 * the node's copies by documents.
 */
function copyStats(
  node: NodeContext,
  idx: IndexService,
  shards: readonly number[],
  w: WireRequest,
): CopyStats[] {
  const r: Request = { ...w, sections: new Set(w.sections) };
  const store = idx.storeBytes();
  const docs = shards.map((n) => idx.shard(n).search?.stats().docs ?? 0);
  const allDocs = docs.reduce((a, b) => a + b, 0);
  return shards.map((n, i) => {
    const shard = idx.shard(n);
    const bytes =
      allDocs > 0 ? Math.round((store * docs[i]!) / allDocs) : Math.round(store / shards.length);
    const stats = shardStats(idx, shard, r, bytes);
    return w.withShardLevel ? { stats, extra: shardLevel(node, idx, shard) } : { stats };
  });
}

/**
 * ES ClusterStatsIndices over every started copy of `targets`: documents from the primaries,
 * every other section (`metrics`, REST names) from every copy, and each index's copy counts.
 */
export async function copiesIndicesStats(
  node: NodeContext,
  targets: readonly IndexService[],
  metrics: readonly string[],
): Promise<{
  stats: Record<string, unknown>;
  shards: Array<{ total: number; primaries: number }>;
}> {
  const w: WireRequest = {
    sections: metrics.map((m) => METRICS[m]!),
    types: null,
    fielddataFields: null,
    completionFields: null,
    withShardLevel: false,
  };
  const run = await node.copies.run<CopyStats>(STATS_OPERATION, targets, w);
  const stats: Stats = {};
  const perIndex = new Map<string, { total: number; primaries: number }>();
  for (const { routing, result } of run.copies) {
    const { docs, ...rest } = result.stats;
    addStats(stats, routing.primary && docs ? { docs, ...rest } : rest);
    const n = perIndex.get(routing.index) ?? { total: 0, primaries: 0 };
    n.total++;
    if (routing.primary) n.primaries++;
    perIndex.set(routing.index, n);
  }
  // CommonStats order, whichever copy answered first
  const ordered: Stats = {};
  for (const s of SECTIONS) if (s in stats) ordered[s] = stats[s]!;
  return { stats: ordered, shards: [...perIndex.values()] };
}

export function registerStatsRoutes(router: Router<Handler>, node: NodeContext): void {
  node.copies.operations.set(STATS_OPERATION, (idx, shards, b) =>
    copyStats(node, idx, shards, b as WireRequest),
  );
  const stats: Handler = async (req) => {
    checkParams(req, PARAMS);
    const sections = parseSections(req);
    const levelParam = param(req, 'level') ?? 'indices';
    const level = levelParam.toLowerCase();
    if (!['cluster', 'indices', 'shards'].includes(level)) {
      throw illegalArgument(
        `level parameter must be one of [cluster] or [indices] or [shards] but was [${levelParam}]`,
      );
    }
    const fieldsParam = listParam(req, 'fields');
    const r: Request = {
      sections,
      types: listParam(req, 'types') ?? null,
      fielddataFields: sections.has('fielddata')
        ? (listParam(req, 'fielddata_fields') ?? fieldsParam ?? null)
        : null,
      completionFields: sections.has('completion')
        ? (listParam(req, 'completion_fields') ?? fieldsParam ?? null)
        : null,
      groups: sections.has('search') ? (listParam(req, 'groups') ?? null) : null,
    };
    boolParam(req, 'include_segment_file_sizes', false);
    const targets = node.indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED, (n) => param(req, n)),
    );
    const human = boolParam(req, 'human', false);
    const h = (s: Stats): Stats => (human ? humanize(s, null) : s);
    const asked: WireRequest = { ...r, sections: [...r.sections], withShardLevel: level === 'shards' }; // prettier-ignore
    const run = await node.copies.run<CopyStats>(STATS_OPERATION, targets, asked);
    const all: Stats = {};
    const allTotal: Stats = {};
    const indices: Record<string, { uuid: string; primaries: Stats; total: Stats; shards: Record<string, unknown[]> }> = {}; // prettier-ignore
    // ES: an index without a started copy has no entry; primaries add up the primary copies,
    // total every copy that answered
    for (const { routing, result } of run.copies) {
      const idx = targets.find((i) => i.name === routing.index)!;
      const e = (indices[idx.name] ??= { uuid: idx.uuid, primaries: {}, total: {}, shards: {} });
      if (routing.primary) addStats(e.primaries, structuredClone(result.stats));
      addStats(e.total, structuredClone(result.stats));
      if (level === 'shards') {
        const copy = {
          routing: {
            state: routing.state,
            primary: routing.primary,
            node: routing.nodeId,
            relocating_node: routing.relocatingNodeId,
          },
          ...h(result.stats),
          ...result.extra,
        };
        (e.shards[String(routing.shard)] ??= []).push(copy);
      }
    }
    for (const e of Object.values(indices)) {
      addStats(all, structuredClone(e.primaries));
      addStats(allTotal, structuredClone(e.total));
    }
    const body: Record<string, unknown> = {
      _shards: run.shards,
      _all: { primaries: h(all), total: h(allTotal) },
    };
    if (level !== 'cluster') {
      const out: Record<string, unknown> = {};
      for (const [name, e] of Object.entries(indices)) {
        const entry: Record<string, unknown> = { uuid: e.uuid, primaries: h(e.primaries), total: h(e.total) }; // prettier-ignore
        if (level === 'shards') entry.shards = e.shards;
        out[name] = entry;
      }
      body.indices = out;
    }
    return { status: 200, body };
  };
  router.add('GET', '/_stats', stats);
  router.add('GET', '/_stats/{metric}', stats);
  router.add('GET', '/{index}/_stats', stats);
  router.add('GET', '/{index}/_stats/{metric}', stats);
}

/**
 * ES ShardStats.toXContent after the routing and the stats: the last commit point, seq_no,
 * retention leases, shard path. A shard that has not flushed yet shows the empty commit ES
 * writes when it creates a shard's store (no segments, no documents, no operations). The id
 * changes with every commit that holds new segments or operations.
 */
function shardLevel(node: NodeContext, idx: IndexService, shard: Shard): Record<string, unknown> {
  const path = `${node.settings.dataPath}/nodes/0`;
  const seqNo = shard.maxSeqNo;
  const commit = commitInfo(node.store, idx.uuid, shard.id) ?? { generation: 0, maxSeqNo: -1 };
  const committedDocs =
    commit.maxSeqNo < 0 ? 0 : shard.opsSinceFlush === 0 ? (shard.search?.searcher().numDocs ?? 0) : undefined; // prettier-ignore
  return {
    commit: {
      id: Buffer.from(`${idx.uuid}:${shard.id}:${commit.generation}:${commit.maxSeqNo}`).toString('base64'), // prettier-ignore
      generation: commit.generation,
      // ES SequenceNumbers commit keys, plus the synced flush marker when one holds
      user_data: {
        ...(shard.syncId ? { sync_id: shard.syncId } : {}),
        local_checkpoint: String(commit.maxSeqNo),
        max_seq_no: String(commit.maxSeqNo),
      },
      num_docs: committedDocs,
    },
    seq_no: { max_seq_no: seqNo, local_checkpoint: seqNo, global_checkpoint: seqNo },
    retention_leases: { primary_term: shard.primaryTerm, version: 0, leases: [] },
    shard_path: {
      state_path: path,
      data_path: path,
      is_custom_data_path: false,
    },
  };
}
