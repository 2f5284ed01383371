/**
 * The write path of a node in a cluster: the coordinating side (`clusterWrites`, the node's
 * WriteExecutor) and the primary's side (`indices:data/write/bulk[s]`), wired on one node.
 */
import { EsError, toEsError } from '../../common/errors.js';
import type { DocumentService } from '../../engine/documents.js';
import type { IndicesService } from '../../engine/indices-service.js';
import type { WriteExecutor } from '../../engine/write-executor.js';
import type { Store } from '../../store/store.js';
import type { ClusterIndices } from '../cluster-indices.js';
import type { ClusterMembership } from '../membership.js';
import { clusterWrites, registerShardBulkHandler } from './cluster-writes.js';
import { executeOnPrimary } from './primary-bulk.js';
import type { PrimaryGroups } from './primary-groups.js';
import type { PendingWrites } from './pending-writes.js';
import type { UpdateRequest } from '../../engine/write-request.js';
import { unpackShardBulk, type ShardBulkRequest } from './shard-bulk-wire.js';

export { PrimaryGroups } from './primary-groups.js';

export interface ClusterWritePathDeps {
  readonly membership: ClusterMembership;
  readonly clusterIndices: ClusterIndices;
  readonly groups: PrimaryGroups;
  readonly indices: IndicesService;
  readonly documents: DocumentService;
  readonly store: Store;
  /** Writes applied on this node's primaries and not yet answered (shared with the reads). */
  readonly pending?: PendingWrites;
  /** Gives an update the index's default pipeline for its upsert, on the primary's node. */
  readonly upsertPipeline?: (req: UpdateRequest) => UpdateRequest;
  log?: (level: string, msg: string) => void;
}

export function startClusterWritePath(deps: ClusterWritePathDeps): WriteExecutor {
  const { membership } = deps;
  const { coordinator, transport } = membership;
  const nodeId = membership.localNode.id;
  const peerOf = (id: string) => {
    const n = coordinator.state().nodes.get(id);
    if (!n) throw new EsError('node_not_connected_exception', `[${id}] not in the cluster`, 500);
    return { id: n.id, name: n.name, transportAddress: n.transportAddress };
  };
  // design §2: a node that lost its lease takes no writes until it rejoins
  let leaseLost = false;
  coordinator.onNoMaster(() => (leaseLost = true));
  coordinator.onRejoin(() => (leaseLost = false));
  const runLocal = (req: ShardBulkRequest) =>
    executeOnPrimary(
      {
        nodeId,
        coordinator,
        indices: deps.indices,
        documents: deps.documents,
        store: deps.store,
        transport,
        groups: deps.groups,
        peerOf,
        putMapping: (i, u, t, m) => deps.clusterIndices.putMapping(i, u, t, m),
        shardFailed: (aid, reason) => deps.clusterIndices.shardFailed(aid, reason, true),
        primaryFailed: (aid, reason, term) =>
          deps.clusterIndices.shardFailed(aid, reason, false, term),
        writesBlocked: () => leaseLost,
        ...(deps.pending ? { pending: deps.pending } : {}),
        ...(deps.upsertPipeline ? { upsertPipeline: deps.upsertPipeline } : {}),
        ...(deps.log ? { log: deps.log } : {}),
      },
      req,
    );
  registerShardBulkHandler(transport, runLocal, unpackShardBulk);
  return clusterWrites({
    nodeId,
    coordinator,
    transport,
    documents: deps.documents,
    indices: deps.indices,
    peerOf,
    runLocal,
    createIndex: async (name) => {
      let raced: unknown = null;
      try {
        await deps.clusterIndices.create(name, {}, 30_000);
      } catch (e) {
        // created by a concurrent write (sliced reindex, parallel bulks): it may not be open here
        // yet, so wait for it as for our own
        if (toEsError(e).type !== 'resource_already_exists_exception') throw e;
        raced = e;
      }
      // routed on this node's copy of the metadata, which the applier opens
      const end = Date.now() + 30_000;
      // (the copy of the index this name had before, if its removal is still being applied here,
      // does not count)
      const opened = () => {
        const local = deps.indices.get(name);
        return !!local && local.uuid === coordinator.state().metadata.indices.get(name)?.uuid;
      };
      while (!opened() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      if (raced) throw raced;
    },
  });
}
