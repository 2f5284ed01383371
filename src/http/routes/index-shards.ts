/**
 * Per-shard reports of the targeted indices: segments, shard stores and recoveries (ES
 * RestIndicesSegmentsAction, RestIndicesShardStoresAction, RestRecoveryAction). On a lone node
 * every primary is here and started; replicas are unassigned and have no store.
 */
import { EsError } from '../../common/errors.js';
import { formatByteSize, formatTimeValue } from '../../common/units.js';
import { allocationId } from '../../engine/shard-routing.js';
import {
  indicesOptionsFrom,
  STRICT_EXPAND_OPEN,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
  type IndicesOptions,
} from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import { isCommitted } from '../../engine/segment-commits.js';
import { segmentSortJson } from '../../engine/index-sort-settings.js';
import { lookupField } from '../../mapping/index.js';
import { segmentMemory } from '../../engine/segment-stats.js';
import type { Shard } from '../../engine/shard.js';
import type { Segment } from '../../search/index/segment.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, listParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { transportAddress } from './nodes.js';
import { RECOVERY_COLUMNS } from '../../cat/columns.js';
import { TimeValue, type Cell } from '../../cat/table.js';
import { CAT_PARAMS, respond } from './cat.js';

const OPTS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const LUCENE_VERSION = '7.7.3';

/**
 * Segment names in the order a shard first shows them (Lucene names segments `_` + base 36 of a
 * per-shard counter); names hold for the life of the process.
 */
const names = new WeakMap<Shard, { next: number; of: WeakMap<Segment, number> }>();
export function segmentName(shard: Shard, segment: Segment): { name: string; generation: number } {
  let n = names.get(shard);
  if (!n) names.set(shard, (n = { next: 0, of: new WeakMap() }));
  let g = n.of.get(segment);
  if (g === undefined) n.of.set(segment, (g = n.next++));
  return { name: `_${g.toString(36)}`, generation: g };
}

/** ES RecoveryState percentages: "%1.1f%%", 100% when there was nothing to recover. */
export { recoveryPercent } from '../../engine/recovery-entry.js';

export const SEGMENTS_OPERATION = 'indices:monitor/segments';
export const SHARD_STORES_OPERATION = 'indices:monitor/shard_stores';

/** ES ShardSegments of one copy, after its routing; null while the shard has no searcher. */
function copySegments(idx: IndexService, shard: Shard): Record<string, unknown> | null {
  const snap = shard.search?.searcher();
  if (!snap) return null;
  const indexSort = shard.search?.indexSort;
  const sort =
    indexSort && indexSort.length > 0
      ? segmentSortJson(indexSort, (p) =>
          idx.mapping ? lookupField(idx.mapping, p)?.type : undefined,
        )
      : null;
  const segs: Record<string, unknown> = {};
  let committed = 0;
  for (const ls of snap.segments) {
    const { name, generation } = segmentName(shard, ls.segment);
    const m = segmentMemory({ ...snap, segments: [ls] });
    const memory = m.terms + m.storedFields + m.norms + m.points + m.docValues;
    const isCommit = isCommitted(ls.segment);
    if (isCommit) committed++;
    segs[name] = {
      generation,
      num_docs: ls.segment.maxDoc - ls.deleted,
      deleted_docs: ls.deleted,
      // segments live on the heap: their size is the memory they hold
      size_in_bytes: memory,
      memory_in_bytes: memory,
      committed: isCommit,
      search: true,
      version: LUCENE_VERSION,
      compound: false,
      ...(sort ? { sort } : {}),
      attributes: { 'Lucene50StoredFieldsFormat.mode': 'BEST_SPEED' },
    };
  }
  return {
    num_committed_segments: committed,
    num_search_segments: snap.segments.length,
    segments: segs,
  };
}

export function registerIndexShardRoutes(router: Router<Handler>, node: NodeContext): void {
  const resolve = (req: RestRequest, base: IndicesOptions): IndexService[] =>
    node.indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(base, (n) => param(req, n)),
    );

  // ---- segments: the segments each started copy searches
  node.copies.operations.set(SEGMENTS_OPERATION, (idx, shards) =>
    shards.map((n) => copySegments(idx, idx.shard(n))),
  );
  const segments: Handler = async (req) => {
    checkParams(req, [...OPTS, 'verbose']);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    const run = await node.copies.run<Record<string, unknown> | null>(SEGMENTS_OPERATION, targets, {}); // prettier-ignore
    const out: Record<string, unknown> = {};
    let successful = 0;
    for (const idx of targets) {
      const copies = run.copies.filter((c) => c.routing.index === idx.name);
      if (copies.length === 0) continue;
      const shards: Record<string, unknown[]> = {};
      for (const { routing, result } of copies) {
        if (!result) continue;
        successful++;
        const r = { state: routing.state, primary: routing.primary, node: routing.nodeId };
        (shards[String(routing.shard)] ??= []).push({ routing: r, ...result });
      }
      out[idx.name] = { shards };
    }
    return {
      status: 200,
      body: { _shards: { ...run.shards, successful }, indices: out },
    };
  };
  router.add('GET', '/_segments', segments);
  router.add('GET', '/{index}/_segments', segments);

  // ---- shard stores: the store copies of shards of the asked health (default yellow, red)
  // every node names itself for the copies it holds (ES TransportNodesListGatewayStartedShards)
  node.copies.operations.set(SHARD_STORES_OPERATION, (_idx, shards) => {
    const self = {
      id: node.nodeId,
      name: node.nodeName,
      ephemeral_id: node.ephemeralId,
      transport_address: transportAddress(node),
      attributes: node.members.attributes(),
    };
    return shards.map(() => self);
  });
  const shardStores: Handler = async (req) => {
    checkParams(req, [...OPTS, 'status', 'operation_threading']);
    const statuses = new Set(listParam(req, 'status') ?? ['yellow', 'red']);
    for (const s of statuses) {
      if (s !== 'green' && s !== 'yellow' && s !== 'red' && s !== 'all')
        throw new EsError('illegal_argument_exception', `unknown status [${s}]`, 400);
    }
    const all = statuses.has('all');
    const targets = resolve(req, STRICT_EXPAND_OPEN);
    type StoreNode = { id: string } & Record<string, unknown>;
    const run = await node.copies.run<StoreNode>(SHARD_STORES_OPERATION, targets, {});
    const out: Record<string, unknown> = {};
    for (const idx of targets) {
      const shards: Record<string, unknown> = {};
      for (let n = 0; n < idx.numberOfShards; n++) {
        const copies = run.copies.filter((c) => c.routing.index === idx.name && c.routing.shard === n); // prettier-ignore
        // a shard is red without a started primary, yellow while a replica is not started
        const health = !copies.some((c) => c.routing.primary)
          ? 'red'
          : copies.length < 1 + idx.numberOfReplicas
            ? 'yellow'
            : 'green';
        if (!all && !statuses.has(health)) continue;
        const stores = copies.map(({ routing, result: { id, ...rest } }) => ({
          [id]: rest,
          allocation_id: routing.allocationId,
          allocation: routing.primary ? 'primary' : 'replica',
        }));
        shards[String(n)] = { stores };
      }
      if (Object.keys(shards).length > 0) out[idx.name] = { shards };
    }
    return { status: 200, body: { indices: out } };
  };
  router.add('GET', '/_shard_stores', shardStores);
  router.add('GET', '/{index}/_shard_stores', shardStores);

  /** Every started copy's recovery entry, by index (in the targets' order). */
  const recoveries = (targets: IndexService[], human: boolean, activeOnly: boolean) =>
    node.routing.recoveries(
      targets.filter((i) => !i.failed),
      human,
      activeOnly,
    );

  // ---- recovery: how each started copy was recovered (all are done on a lone node)
  const recovery: Handler = async (req) => {
    checkParams(req, [...OPTS, 'detailed', 'active_only']);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    const got = await recoveries(targets, boolParam(req, 'human', false), boolParam(req, 'active_only', false)); // prettier-ignore
    const body: Record<string, unknown> = {};
    for (const [name, shards] of Object.entries(got)) body[name] = { shards };
    return { status: 200, body };
  };

  // ---- _cat/recovery (ES RestCatRecoveryAction), from the same entries
  const catRecovery: Handler = async (req) => {
    checkParams(req, [...CAT_PARAMS, 'detailed', 'active_only', 'bytes']);
    const targets = req.params.index
      ? resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED)
      : node.indices.all().filter((i) => !i.closed);
    const got = await recoveries(targets, false, boolParam(req, 'active_only', false));
    const rows: Cell[][] = [];
    for (const [name, entries] of Object.entries(got))
      for (const e of [...entries].sort((a, b) => (a.id as number) - (b.id as number)))
        rows.push(recoveryRow(name, e));
    return respond(req, { columns: RECOVERY_COLUMNS, rows });
  };
  router.add('GET', '/_cat/recovery', catRecovery);
  router.add('GET', '/_cat/recovery/{index}', catRecovery);
  router.add('GET', '/_recovery', recovery);
  router.add('GET', '/{index}/_recovery', recovery);
}

/** One `_cat/recovery` row from a `_recovery` entry. */
function recoveryRow(index: string, e: Record<string, unknown>): Cell[] {
  const source = e.source as { host?: string; name?: string };
  const target = e.target as { host: string; name: string };
  const translog = e.translog as { recovered: number; total: number; percent: string };
  const start = e.start_time_in_millis as number;
  const stop = e.stop_time_in_millis as number;
  const values: Record<string, Cell> = {
    index,
    shard: e.id as number,
    start_time: new Date(start).toISOString(),
    start_time_millis: start,
    stop_time: new Date(stop).toISOString(),
    stop_time_millis: stop,
    time: new TimeValue(e.total_time_in_millis as number),
    type: String(e.type).toLowerCase(),
    stage: String(e.stage).toLowerCase(),
    source_host: source.host ?? 'n/a',
    source_node: source.name ?? 'n/a',
    target_host: target.host,
    target_node: target.name,
    repository: 'n/a',
    snapshot: 'n/a',
    files: 0,
    files_recovered: 0,
    files_percent: '100.0%',
    files_total: 0,
    // 6.8 prints these as plain byte counts (7.x made them sizes)
    bytes: 0,
    bytes_recovered: 0,
    bytes_percent: '100.0%',
    bytes_total: 0,
    translog_ops: translog.total,
    translog_ops_recovered: translog.recovered,
    translog_ops_percent: translog.percent,
  };
  return RECOVERY_COLUMNS.map((c) => values[c.name] ?? null);
}
