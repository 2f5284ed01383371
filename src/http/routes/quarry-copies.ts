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
    const shards = node.routing.copiesHere(idx).map((c) => {
      const shard = idx.shard(c.shard);
      return {
        shard: c.shard,
        primary: c.primary,
        state: c.state,
        allocation_id: c.allocationId,
        primary_term: shard.primaryTerm,
        max_seq_no: shard.maxSeqNo,
        docs: shard.changesSince(0).map(({ id, record }) => ({
          _id: id,
          _version: record.version,
          _seq_no: record.seqNo,
          _primary_term: record.primaryTerm,
          deleted: record.tombstone,
        })),
      };
    });
    return {
      status: 200,
      body: { index: name, index_uuid: idx.uuid, node: node.nodeId, shards },
    };
  });
}
