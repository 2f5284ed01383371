/**
 * `_termvectors` on a node of a cluster (ES TransportTermVectorsAction, a single-shard action):
 * the document's shard answers on a started copy chosen as a GET chooses it (this node's, else
 * the primary's, else any; `preference` honoured), over the transport
 * (`indices:data/read/tv[s]`) when that copy is on another node. `_mtermvectors` sends each of
 * its documents the same way.
 */
import { EsError } from '../../common/errors.js';
import type { TermVectorsReader, TermVectorsRequest } from '../../dsl/search/term-vectors.js';
import type { IndicesService } from '../../engine/indices-service.js';
import type { Coordinator } from '../coordination/coordinator.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import { copyToRead } from './cluster-get.js';

export const SHARD_TERM_VECTORS_ACTION = 'indices:data/read/tv[s]';

interface WireTermVectors {
  index: string;
  shard: number;
  req: TermVectorsRequest;
}

export function clusterTermVectors(deps: {
  readonly nodeId: string;
  readonly coordinator: Coordinator;
  readonly transport: Transport;
  readonly indices: IndicesService;
  readonly local: TermVectorsReader;
  peerOf(nodeId: string): TransportPeer;
}): TermVectorsReader {
  /** ES's no_master_block for reads: a node whose membership may have lapsed serves none. */
  const checkFresh = () => {
    if (deps.coordinator.leaseFresh && !deps.coordinator.leaseFresh())
      throw new EsError('cluster_block_exception', 'blocked by: [SERVICE_UNAVAILABLE/2/no master];', 503); // prettier-ignore
  };
  deps.transport.registerHandler(SHARD_TERM_VECTORS_ACTION, async ({ body }) => {
    checkFresh();
    const b = body as WireTermVectors;
    const idx = deps.indices.get(b.index);
    if (!idx) throw new EsError('shard_not_found_exception', 'no such shard', 404, { meta: { index: b.index } }); // prettier-ignore
    return { body: await deps.local.termVectors(idx, b.shard, b.req) };
  });
  return {
    async termVectors(idx, shard, req) {
      const table = deps.coordinator.state().routing.get(idx.name);
      if (!table) return deps.local.termVectors(idx, shard, req);
      const copy = copyToRead(table.shards[shard] ?? [], deps.nodeId, req.preference);
      if (!copy)
        throw new EsError('no_shard_available_action_exception', `No shard available for [termvectors [${idx.name}][${shard}]]`, 503, { meta: { index: idx.name, shard: String(shard) } }); // prettier-ignore
      if (copy.nodeId === deps.nodeId) {
        checkFresh();
        return deps.local.termVectors(idx, shard, req);
      }
      const wire: WireTermVectors = { index: idx.name, shard, req };
      const r = await deps.transport.send(
        deps.peerOf(copy.nodeId!),
        SHARD_TERM_VECTORS_ACTION,
        wire,
        {
          timeoutMs: 60_000,
        },
      );
      return r.body as Record<string, unknown>;
    },
  };
}
