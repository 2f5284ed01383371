/**
 * Document writes on a node of a cluster (ES TransportBulkAction on the coordinating node): each
 * request is checked and routed here (a missing index is created through the master first), the
 * requests are grouped by shard, and each group goes to its primary's node — this one directly,
 * another over the transport (`indices:data/write/bulk[s]`). A group waits for an active primary
 * (ES retries on a newer cluster state until the `timeout`, 1m), but it is sent again only when
 * the primary certainly did not run it: a write whose outcome is unknown is reported, never
 * repeated, so a compare-and-set is never applied twice.
 */
import { EsError, toEsError } from '../../common/errors.js';
import type { BulkItem } from '../../engine/bulk.js';
import type { DocumentService, WriteOutcome } from '../../engine/documents.js';
import type { IndicesService } from '../../engine/indices-service.js';
import type { WriteExecutor, WriteOptions } from '../../engine/write-executor.js';
import type { WriteRequest } from '../../engine/write-request.js';
import type { Coordinator } from '../coordination/coordinator.js';
import type { ClusterState } from '../state.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import { copiesOf } from './primary-groups.js';
import {
  packResults,
  packShardBulk,
  unpackResults,
  type ShardBulkRequest,
  type ShardItemResult,
} from './shard-bulk-wire.js';

export const SHARD_BULK_ACTION = 'indices:data/write/bulk[s]';

/** Errors after which the primary certainly did not run the group: sent again on a newer state. */
const NOT_RUN = new Set([
  'shard_not_in_primary_mode_exception',
  'connect_transport_exception',
  'action_not_found_transport_exception',
  // the primary's node left the state between choosing it and sending (peerOf)
  'node_not_connected_exception',
]);

/** The primary's node lost its lease (503 no master block): it refused before running anything. */
const notRun = (e: EsError) =>
  NOT_RUN.has(e.type) || (e.type === 'cluster_block_exception' && e.status === 503);

const DEFAULT_TIMEOUT_MS = 60_000;

export interface ClusterWritesDeps {
  readonly nodeId: string;
  readonly coordinator: Coordinator;
  readonly transport: Transport;
  readonly documents: DocumentService;
  readonly indices: IndicesService;
  peerOf(nodeId: string): TransportPeer;
  /** Creates an index through the master (auto-create); resolves once it is open here. */
  createIndex(name: string): Promise<void>;
  /** Runs a group on this node, when it holds the primary. */
  runLocal(req: ShardBulkRequest): Promise<ShardItemResult[]>;
}

const verbOf = (r: WriteRequest): BulkItem['verb'] =>
  r.kind === 'index' ? (r.opType === 'create' ? 'create' : 'index') : r.kind;

/** ES UnavailableShardsException after the wait for an active primary. */
function primaryNotActive(index: string, shard: number, n: number, timeoutMs: number): EsError {
  return new EsError(
    'unavailable_shards_exception',
    `[${index}][${shard}] primary shard is not active Timeout: [${formatMs(timeoutMs)}], request: [BulkShardRequest [[${index}][${shard}]] containing [${n}] requests]`,
    503,
    { meta: { index, shard: String(shard) } },
  );
}

function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** Resolves with the next applied state, or after `ms`. */
function nextState(coordinator: Coordinator, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let off = () => undefined as void;
    const t = setTimeout(() => {
      off();
      resolve();
    }, ms);
    off = coordinator.onState(() => {
      clearTimeout(t);
      off();
      resolve();
    });
  });
}

export function clusterWrites(deps: ClusterWritesDeps): WriteExecutor {
  /** Routes one request, creating its index through the master when it is missing. */
  const routeNow = (req: WriteRequest) => {
    const r = deps.documents.routeWrite(req);
    // an index deleted since whose removal this node has not applied yet: the write recreates it
    if (
      !('missing' in r) &&
      deps.coordinator.state().metadata.indices.get(r.index.name)?.uuid !== r.index.uuid
    )
      return { missing: r.index.name };
    return r;
  };
  const route = async (req: WriteRequest) => {
    let r = routeNow(req);
    if ('missing' in r) {
      await deps.createIndex(r.missing).catch((e: unknown) => {
        // another request created it meanwhile
        if (toEsError(e).type !== 'resource_already_exists_exception') throw e;
      });
      r = deps.documents.routeWrite(req);
      if ('missing' in r) throw new EsError('index_not_found_exception', 'no such index', 404, { meta: { 'resource.type': 'index_expression', 'resource.id': r.missing, index_uuid: '_na_', index: r.missing } }); // prettier-ignore
    }
    return r;
  };

  const sendGroup = async (
    group: ShardBulkRequest,
    timeoutMs: number,
  ): Promise<ShardItemResult[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state: ClusterState = deps.coordinator.state();
      if (state.metadata.indices.get(group.index)?.uuid !== group.uuid)
        throw new EsError('index_not_found_exception', 'no such index', 404, { meta: { 'resource.type': 'index_expression', 'resource.id': group.index, index_uuid: group.uuid, index: group.index } }); // prettier-ignore
      const primary = copiesOf(state, group.index, group.shard).find((c) => c.primary);
      if (primary?.nodeId && (primary.state === 'STARTED' || primary.state === 'RELOCATING')) {
        try {
          if (primary.nodeId === deps.nodeId) return await deps.runLocal(group);
          const { body, attachment } = packShardBulk(group);
          const r = await deps.transport.send(
            deps.peerOf(primary.nodeId),
            SHARD_BULK_ACTION,
            body,
            {
              timeoutMs: Math.max(timeoutMs, DEFAULT_TIMEOUT_MS) + 30_000,
              attachment,
            },
          );
          return unpackResults(r.body);
        } catch (e) {
          const err = toEsError(e);
          if (!notRun(err)) throw err;
        }
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw primaryNotActive(group.index, group.shard, group.items.length, timeoutMs);
      await nextState(deps.coordinator, Math.min(left, 500));
    }
  };

  return {
    async run(reqs, opts: WriteOptions) {
      const items: BulkItem[] = reqs.map((req) => ({ verb: verbOf(req), outcome: null, error: null, req })); // prettier-ignore
      const groups = new Map<string, { req: ShardBulkRequest; at: number[] }>();
      for (let i = 0; i < reqs.length; i++) {
        const item = items[i]!;
        try {
          const prepared = opts.prepare ? opts.prepare(item.req) : item.req;
          if (!('kind' in prepared)) {
            item.outcome = prepared;
            continue;
          }
          // no await (a turn of the event loop per item) unless the index must be created first
          const now = routeNow(prepared);
          const r = 'missing' in now ? await route(prepared) : now;
          const key = `${r.index.uuid}/${r.shard}`;
          let g = groups.get(key);
          if (!g) {
            g = {
              req: {
                index: r.index.name,
                uuid: r.index.uuid,
                shard: r.shard,
                policy: opts.policy,
                items: [],
                ...(opts.waitForActiveShards !== undefined ? { waitForActiveShards: opts.waitForActiveShards } : {}), // prettier-ignore
                ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
              },
              at: [],
            };
            groups.set(key, g);
          }
          (g.req.items as WriteRequest[]).push(r.req);
          g.at.push(i);
        } catch (e) {
          item.error = toEsError(e);
        }
      }
      const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      await Promise.all(
        [...groups.values()].map(async (g) => {
          let results: ShardItemResult[];
          try {
            results = await sendGroup(g.req, timeoutMs);
          } catch (e) {
            const err = toEsError(e);
            results = g.at.map(() => ({ error: err }));
          }
          const index = deps.indices.get(g.req.index) ?? null;
          for (let k = 0; k < results.length; k++) {
            const res = results[k]!;
            const item = items[g.at[k]!]!;
            if (res.error) {
              item.error = res.error;
              continue;
            }
            // the copies were refreshed where they are; nothing to do on this node
            if ('shard' in res) {
              // this node's primary answered with its outcome: reused, not copied per item
              const outcome = res as WriteOutcome;
              outcome.index = index;
              outcome.shard = null;
              item.outcome = outcome;
            } else item.outcome = { status: res.status, body: res.body, index, shard: null };
          }
        }),
      );
      // the primaries marked the answers of the shards they refreshed
      const forcedRefresh = items.some((i) => i.outcome?.body.forced_refresh === true);
      return { items, forcedRefresh };
    },
  };
}

/** Serves `indices:data/write/bulk[s]` on the primaries' node. */
export function registerShardBulkHandler(
  transport: Transport,
  runLocal: (req: ShardBulkRequest) => Promise<ShardItemResult[]>,
  unpack: (body: unknown, attachment: Buffer | undefined) => ShardBulkRequest,
): void {
  transport.registerHandler(SHARD_BULK_ACTION, async (req) => ({
    body: packResults(await runLocal(unpack(req.body, req.attachment))),
  }));
}
