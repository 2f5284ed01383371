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
import { segmentMemory } from '../../engine/segment-stats.js';
import type { Shard } from '../../engine/shard.js';
import type { Segment } from '../../search/index/segment.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, listParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { hostOf, transportAddress } from './nodes.js';

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
export function recoveryPercent(recovered: number, total: number): string {
  if (total < 0) return '-1.0%';
  const p = total === 0 ? 100 : (100 * recovered) / total;
  return `${p.toFixed(1)}%`;
}

export function registerIndexShardRoutes(router: Router<Handler>, node: NodeContext): void {
  const resolve = (req: RestRequest, base: IndicesOptions): IndexService[] =>
    node.indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(base, (n) => param(req, n)),
    );
  const routing = { state: 'STARTED', primary: true, node: node.nodeId };

  // ---- segments: the segments each started primary searches
  const segments: Handler = (req) => {
    checkParams(req, [...OPTS, 'verbose']);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    let total = 0;
    let successful = 0;
    const out: Record<string, unknown> = {};
    for (const idx of targets) {
      total += idx.numberOfShards * (1 + idx.numberOfReplicas);
      if (idx.failed) continue;
      const shards: Record<string, unknown> = {};
      for (const shard of idx.shards) {
        const snap = shard.search?.searcher();
        if (!snap) continue;
        successful++;
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
            attributes: { 'Lucene50StoredFieldsFormat.mode': 'BEST_SPEED' },
          };
        }
        shards[String(shard.id)] = [
          {
            routing,
            num_committed_segments: committed,
            num_search_segments: snap.segments.length,
            segments: segs,
          },
        ];
      }
      out[idx.name] = { shards };
    }
    return {
      status: 200,
      body: { _shards: { total, successful, failed: 0 }, indices: out },
    };
  };
  router.add('GET', '/_segments', segments);
  router.add('GET', '/{index}/_segments', segments);

  // ---- shard stores: the store copies of shards of the asked health (default yellow, red)
  const shardStores: Handler = (req) => {
    checkParams(req, [...OPTS, 'status', 'operation_threading']);
    const statuses = new Set(listParam(req, 'status') ?? ['yellow', 'red']);
    for (const s of statuses) {
      if (s !== 'green' && s !== 'yellow' && s !== 'red' && s !== 'all')
        throw new EsError('illegal_argument_exception', `unknown status [${s}]`, 400);
    }
    const all = statuses.has('all');
    const targets = resolve(req, STRICT_EXPAND_OPEN);
    const out: Record<string, unknown> = {};
    for (const idx of targets) {
      const shards: Record<string, unknown> = {};
      for (const shard of idx.shards) {
        const health = idx.failed ? 'red' : idx.numberOfReplicas > 0 ? 'yellow' : 'green';
        if (!all && !statuses.has(health)) continue;
        const stores = idx.failed
          ? []
          : [
              {
                [node.nodeId]: {
                  name: node.nodeName,
                  ephemeral_id: node.ephemeralId,
                  transport_address: transportAddress(node),
                  attributes: {},
                },
                allocation_id: allocationId(idx.uuid, shard.id),
                allocation: 'primary',
              },
            ];
        shards[String(shard.id)] = { stores };
      }
      if (Object.keys(shards).length > 0) out[idx.name] = { shards };
    }
    return { status: 200, body: { indices: out } };
  };
  router.add('GET', '/_shard_stores', shardStores);
  router.add('GET', '/{index}/_shard_stores', shardStores);

  // ---- recovery: how each started primary was recovered (all are done on a lone node)
  const recovery: Handler = (req) => {
    checkParams(req, [...OPTS, 'detailed', 'active_only']);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    const human = boolParam(req, 'human', false);
    const activeOnly = boolParam(req, 'active_only', false);
    const time = (field: string, ms: number): Record<string, unknown> =>
      human
        ? { [field]: formatTimeValue(ms), [`${field}_in_millis`]: ms }
        : { [`${field}_in_millis`]: ms };
    const date = (field: string, ms: number): Record<string, unknown> =>
      human
        ? { [field]: new Date(ms).toISOString(), [`${field}_in_millis`]: ms }
        : { [`${field}_in_millis`]: ms };
    const bytes = (field: string, n: number): Record<string, unknown> =>
      human
        ? { [field]: formatByteSize(n), [`${field}_in_bytes`]: n }
        : { [`${field}_in_bytes`]: n };
    const host = hostOf(node);
    const body: Record<string, unknown> = {};
    for (const idx of targets) {
      if (idx.failed || activeOnly) continue;
      const shards = idx.shards.map((shard) => {
        const r = shard.recovery;
        const took = r.stopMs - r.startMs;
        return {
          id: shard.id,
          type: r.type,
          stage: 'DONE',
          primary: true,
          ...date('start_time', r.startMs),
          ...date('stop_time', r.stopMs),
          ...time('total_time', took),
          source: r.type === 'EXISTING_STORE' ? { bootstrap_new_history_uuid: false } : {},
          target: {
            id: node.nodeId,
            host,
            transport_address: transportAddress(node),
            ip: host,
            name: node.nodeName,
          },
          // the store is reused in place: no files are copied
          index: {
            size: {
              ...bytes('total', 0),
              ...bytes('reused', 0),
              ...bytes('recovered', 0),
              percent: recoveryPercent(0, 0),
            },
            files: { total: 0, reused: 0, recovered: 0, percent: recoveryPercent(0, 0) },
            ...time('total_time', took),
            ...time('source_throttle_time', 0),
            ...time('target_throttle_time', 0),
          },
          translog: {
            recovered: r.replayedOps,
            total: r.replayedOps,
            percent: recoveryPercent(r.replayedOps, r.replayedOps),
            total_on_start: r.replayedOps,
            ...time('total_time', took),
          },
          verify_index: { ...time('check_index_time', 0), ...time('total_time', 0) },
        };
      });
      body[idx.name] = { shards };
    }
    return { status: 200, body };
  };
  router.add('GET', '/_recovery', recovery);
  router.add('GET', '/{index}/_recovery', recovery);
}
