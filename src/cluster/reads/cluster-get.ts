/**
 * Realtime GET on a node of a cluster (ES TransportGetAction, a single-shard action): the shard is
 * routed here, then read on a started copy — this node's when it holds one, else the primary's,
 * else any started copy — over the transport (`indices:data/read/get[s]`). A replica answers
 * realtime reads too: an acknowledged write is on every in-sync copy before its answer. The
 * `_source` text travels as the frame's attachment, so it comes back byte for byte.
 */
import { EsError } from '../../common/errors.js';
import { RawJson } from '../../common/json.js';
import { shardForRouting } from '../../common/murmur3.js';
import type { DocumentReader, GetOptions, GetResult } from '../../engine/document-reader.js';
import type { IndicesService } from '../../engine/indices-service.js';
import type { Coordinator } from '../coordination/coordinator.js';
import type { ShardRouting } from '../state.js';
import type { IndexService } from '../../engine/index-service.js';
import type { PendingWrites } from '../writes/pending-writes.js';
import type { Transport, TransportPeer } from '../transport/transport.js';

export const SHARD_GET_ACTION = 'indices:data/read/get[s]';

interface WireGet {
  index: string;
  type: string;
  id: string;
  routing: string | null;
  opts: GetOptions;
}

const active = (c: ShardRouting) => c.nodeId !== null && (c.state === 'STARTED' || c.state === 'RELOCATING'); // prettier-ignore

/**
 * The copy a GET reads (ES OperationRouting.getShards with the `preference`): by default this
 * node's, else the primary, else any started one. Null when no copy qualifies.
 */
export function copyToRead(
  copies: readonly ShardRouting[],
  nodeId: string,
  preference?: string,
): ShardRouting | null {
  const started = copies.filter(active);
  const local = started.find((c) => c.nodeId === nodeId);
  const primary = started.find((c) => c.primary);
  const replica = started.find((c) => !c.primary);
  switch (preference) {
    case '_only_local':
      return local ?? null;
    case '_primary':
      return primary ?? null;
    case '_replica':
      return replica ?? null;
    case '_primary_first':
      return primary ?? started[0] ?? null;
    case '_replica_first':
      return replica ?? started[0] ?? null;
  }
  if (preference?.startsWith('_only_nodes:') || preference?.startsWith('_prefer_nodes:')) {
    const ids = preference.slice(preference.indexOf(':') + 1).split(',');
    const hit = started.find((c) => ids.includes(c.nodeId!));
    if (hit || preference.startsWith('_only_nodes:')) return hit ?? null;
  }
  return local ?? primary ?? started[0] ?? null;
}

function noShardForGet(index: string, shard: number): EsError {
  return new EsError('no_shard_available_action_exception', `No shard available for [get [${index}][${shard}]]`, 503, { meta: { index, shard: String(shard) } }); // prettier-ignore
}

export function clusterReads(deps: {
  readonly nodeId: string;
  readonly coordinator: Coordinator;
  readonly transport: Transport;
  readonly indices: IndicesService;
  readonly local: DocumentReader;
  /** The primary's writes in flight here: a GET never reads one before it is acknowledged. */
  readonly pending?: PendingWrites;
  peerOf(nodeId: string): TransportPeer;
}): DocumentReader {
  /** ES's no_master_block for reads: a node whose membership may have lapsed serves none. */
  const checkFresh = () => {
    if (deps.coordinator.leaseFresh && !deps.coordinator.leaseFresh())
      throw new EsError('cluster_block_exception', 'blocked by: [SERVICE_UNAVAILABLE/2/no master];', 503); // prettier-ignore
  };
  /** Waits out a write of the document in flight on this node's primary (pending-writes.ts). */
  const settled = async (idx: IndexService, id: string, routing: string | null) => {
    if (!deps.pending) return;
    const state = deps.coordinator.state();
    const shard = shardForRouting(routing ?? id, idx.numberOfShards, idx.routingNumShards);
    const primary = state.routing.get(idx.name)?.shards[shard]?.find((c) => c.primary);
    const term = state.metadata.indices.get(idx.name)?.terms[shard]?.primaryTerm ?? 0;
    await deps.pending.settled(idx.name, shard, id, term, primary?.nodeId === deps.nodeId);
  };
  /**
   * A copy asked by another node serves only if this node's own state agrees: a started copy
   * here, in sync (a replica just dropped from the set may miss acknowledged writes), and the
   * primary when `_primary` was asked — the asking node's state may be older than ours.
   */
  const checkServable = (idx: IndexService, id: string, routing: string | null, pref?: string) => {
    const state = deps.coordinator.state();
    const shard = shardForRouting(routing ?? id, idx.numberOfShards, idx.routingNumShards);
    const copy = state.routing.get(idx.name)?.shards[shard]?.find((c) => c.nodeId === deps.nodeId && active(c)); // prettier-ignore
    const inSync = state.metadata.indices.get(idx.name)?.terms[shard]?.inSync ?? [];
    const servable =
      copy !== undefined &&
      (copy.primary ||
        (pref !== '_primary' &&
          copy.allocationId !== null &&
          inSync.includes(copy.allocationId.id)));
    if (!servable) throw noShardForGet(idx.name, shard);
  };
  const serve = async (b: WireGet): Promise<{ body: unknown; attachment?: Buffer }> => {
    checkFresh();
    const idx = deps.indices.get(b.index);
    if (!idx) throw new EsError('shard_not_found_exception', 'no such shard', 404, { meta: { index: b.index } }); // prettier-ignore
    checkServable(idx, b.id, b.routing, b.opts.preference);
    await settled(idx, b.id, b.routing);
    const r = await deps.local.get(idx, b.type, b.id, b.routing, b.opts);
    const src = r.body._source;
    if (src instanceof RawJson) {
      const { _source: _, ...rest } = r.body;
      // the key order of the body is kept: `_source` goes back where it was
      const keys = Object.keys(r.body);
      return { body: { ...r, body: rest, rawAt: keys.indexOf('_source') }, attachment: Buffer.from(src.text) }; // prettier-ignore
    }
    return { body: r };
  };
  deps.transport.registerHandler(SHARD_GET_ACTION, async (req) => serve(req.body as WireGet));

  return {
    async get(idx, type, id, routing, opts) {
      const state = deps.coordinator.state();
      const table = state.routing.get(idx.name);
      if (!table) return deps.local.get(idx, type, id, routing, opts);
      // routing errors (routing required) come from the local read, which checks them first
      const shard = shardForRouting(routing ?? id, idx.numberOfShards, idx.routingNumShards);
      if (idx.mapping?.routingRequired && routing === null)
        return deps.local.get(idx, type, id, routing, opts);
      const copy = copyToRead(table.shards[shard] ?? [], deps.nodeId, opts.preference);
      if (!copy) throw noShardForGet(idx.name, shard);
      if (copy.nodeId === deps.nodeId) {
        checkFresh();
        await settled(idx, id, routing);
        return deps.local.get(idx, type, id, routing, opts);
      }
      const wire: WireGet = { index: idx.name, type, id, routing, opts };
      const r = await deps.transport.send(deps.peerOf(copy.nodeId!), SHARD_GET_ACTION, wire, {
        timeoutMs: 60_000,
      });
      const out = r.body as GetResult & { rawAt?: number };
      if (out.rawAt === undefined) return out;
      const entries = Object.entries(out.body);
      entries.splice(out.rawAt, 0, ['_source', new RawJson(r.attachment!.toString())]);
      return { found: out.found, sourceDisabled: out.sourceDisabled, body: Object.fromEntries(entries) }; // prettier-ignore
    },
  };
}
