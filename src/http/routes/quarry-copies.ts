/**
 * `GET /_quarry/copies/{index}` — Quarry-specific, read-only, not part of the Elasticsearch API:
 * this node's own copies of the index's shards, each with every document and tombstone it holds
 * (`_id`, `_version`, `_seq_no`, `_primary_term`, `deleted`) in sequence number order, the copy's
 * primary term and max sequence number. The fault test (test/jepsen) compares the copies of each
 * shard with it after healing; nothing here changes anything.
 */
import { indexNotFoundFor } from '../../engine/documents.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import type { Handler } from '../rest.js';
import type { Router } from '../router.js';

export function registerQuarryCopiesRoutes(router: Router<Handler>, node: NodeContext): void {
  router.add('GET', '/_quarry/copies/{index}', (req) => {
    checkParams(req, []);
    const name = req.params.index!;
    const idx = node.indices.get(name);
    if (!idx) throw indexNotFoundFor(name);
    // In a cluster every node opens every index; only the copies assigned here hold documents.
    const state = node.cluster?.state();
    const localId = node.cluster?.localNode.id;
    const table = state?.routing.get(name);
    const shards = [];
    for (let n = 0; n < idx.numberOfShards; n++) {
      const assigned = table
        ? table.shards[n]?.find((c) => c.nodeId === localId && c.allocationId)
        : undefined;
      if (table && !assigned) continue;
      const shard = idx.shard(n);
      shards.push({
        shard: n,
        primary: assigned ? assigned.primary : true,
        state: assigned ? assigned.state : 'STARTED',
        allocation_id: assigned?.allocationId?.id ?? null,
        primary_term: shard.primaryTerm,
        max_seq_no: shard.maxSeqNo,
        docs: shard.changesSince(0).map(({ id, record }) => ({
          _id: id,
          _version: record.version,
          _seq_no: record.seqNo,
          _primary_term: record.primaryTerm,
          deleted: record.tombstone,
        })),
      });
    }
    return {
      status: 200,
      body: { index: name, index_uuid: idx.uuid, node: localId ?? node.nodeId, shards },
    };
  });
}
