/**
 * `_explain` on a node of a cluster (ES TransportExplainAction, a single-shard action): the
 * document's shard is explained on a started copy chosen as a GET chooses it (this node's, else
 * the primary's, else any; `preference` honoured), over the transport
 * (`indices:data/read/explain[s]`) when that copy is on another node.
 */
import { EsError } from '../../common/errors.js';
import type { DocumentExplainer, ExplainOutcome, ExplainRequest } from '../../dsl/search/explain-document.js'; // prettier-ignore
import type { IndicesService } from '../../engine/indices-service.js';
import type { Coordinator } from '../coordination/coordinator.js';
import type { Transport, TransportPeer } from '../transport/transport.js';
import { copyToRead } from './cluster-get.js';

export const SHARD_EXPLAIN_ACTION = 'indices:data/read/explain[s]';

interface WireExplain {
  index: string;
  shard: number;
  id: string;
  req: ExplainRequest;
}

export function clusterExplainer(deps: {
  readonly nodeId: string;
  readonly coordinator: Coordinator;
  readonly transport: Transport;
  readonly indices: IndicesService;
  readonly local: DocumentExplainer;
  peerOf(nodeId: string): TransportPeer;
}): DocumentExplainer {
  /** ES's no_master_block for reads: a node whose membership may have lapsed serves none. */
  const checkFresh = () => {
    if (deps.coordinator.leaseFresh && !deps.coordinator.leaseFresh())
      throw new EsError('cluster_block_exception', 'blocked by: [SERVICE_UNAVAILABLE/2/no master];', 503); // prettier-ignore
  };
  deps.transport.registerHandler(SHARD_EXPLAIN_ACTION, async ({ body }) => {
    checkFresh();
    const b = body as WireExplain;
    const idx = deps.indices.get(b.index);
    if (!idx) throw new EsError('shard_not_found_exception', 'no such shard', 404, { meta: { index: b.index } }); // prettier-ignore
    return { body: await deps.local.explain(idx, b.shard, b.id, b.req) };
  });
  return {
    async explain(idx, shard, id, req) {
      const table = deps.coordinator.state().routing.get(idx.name);
      if (!table) return deps.local.explain(idx, shard, id, req);
      const copy = copyToRead(table.shards[shard] ?? [], deps.nodeId, req.preference);
      if (!copy)
        throw new EsError('no_shard_available_action_exception', `No shard available for [explain [${idx.name}][${shard}]]`, 503, { meta: { index: idx.name, shard: String(shard) } }); // prettier-ignore
      if (copy.nodeId === deps.nodeId) {
        checkFresh();
        return deps.local.explain(idx, shard, id, req);
      }
      const wire: WireExplain = { index: idx.name, shard, id, req };
      const r = await deps.transport.send(deps.peerOf(copy.nodeId!), SHARD_EXPLAIN_ACTION, wire, {
        timeoutMs: 60_000,
      });
      return r.body as ExplainOutcome;
    },
  };
}
