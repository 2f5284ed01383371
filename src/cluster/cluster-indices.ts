/**
 * Indices in a cluster: the master creates and deletes them and places their copies (master
 * service + allocation), every node opens the copies assigned to it and recovers replicas from
 * their primaries over the transport (shard applier), and reports each started copy to the master.
 * The requests reach the master from any node (`indices:admin/create`, `indices:admin/delete`,
 * `internal:cluster/shard/started`).
 */
import { randomBase64Uuid } from '../common/ids.js';
import { EsError } from '../common/errors.js';
import type { DocumentService } from '../engine/documents.js';
import type { IndicesService } from '../engine/indices-service.js';
import type { Store } from '../store/store.js';
import { reroute, shardStarted, type AllocationContext } from './allocation/index.js';
import { createIndexUpdate, deleteIndexUpdate } from './master/create-index.js';
import { startMasterService, type MasterService } from './master/master-service.js';
import type { ClusterMembership } from './membership.js';
import {
  CopyCheckpoints,
  registerRecoverySource,
  registerShardHandlers,
} from './replication/shard-transport.js';
import { startShardApplier, type ShardApplier } from './shard-applier.js';
import type { ClusterState } from './state.js';

export const CREATE_INDEX_ACTION = 'indices:admin/create';
export const DELETE_INDEX_ACTION = 'indices:admin/delete';
export const SHARD_STARTED_ACTION = 'internal:cluster/shard/started';

export interface ClusterIndices {
  /** Creates an index through the master; resolves when its primaries are active (or the wait ends). */
  create(name: string, settings: unknown, waitMs: number): Promise<{ shardsAcknowledged: boolean }>;
  /** Deletes indices (exact names) through the master. */
  delete(names: readonly string[]): Promise<void>;
  stop(): void;
}

export interface ClusterIndicesDeps {
  readonly membership: ClusterMembership;
  readonly indices: IndicesService;
  readonly documents: DocumentService;
  readonly store: Store;
  /** Effective cluster settings, for allocation. */
  readonly clusterSettings: () => Readonly<Record<string, string>>;
  log?: (level: string, msg: string) => void;
}

const primariesActive = (state: ClusterState, name: string): boolean => {
  const table = state.routing.get(name);
  return !!table && table.shards.every((c) => c.some((x) => x.primary && x.state === 'STARTED'));
};

export function startClusterIndices(deps: ClusterIndicesDeps): ClusterIndices {
  const { membership } = deps;
  const { coordinator, transport } = membership;
  const allocation = (): AllocationContext => ({
    now: Date.now(),
    settings: deps.clusterSettings(),
    // the shard store listing: not collected yet, so a primary whose copies all left is red
    copies: () => new Map(),
    newAllocationId: randomBase64Uuid,
  });
  const peerOf = (nodeId: string) => {
    const n = coordinator.state().nodes.get(nodeId);
    if (!n) throw new EsError('node_not_connected_exception', `[${nodeId}] not in the cluster`, 500); // prettier-ignore
    return { id: n.id, name: n.name, transportAddress: n.transportAddress };
  };
  const host = {
    documents: deps.documents,
    store: deps.store,
    index: (name: string) => deps.indices.get(name),
  };
  registerShardHandlers(transport, host, new CopyCheckpoints());
  // no writes reach a clustered node yet, so a recovering copy needs no live tracking; the master
  // marks it in sync when it reports the copy started
  registerRecoverySource(transport, host, peerOf, {
    startTracking: () => undefined,
    markInSync: async () => undefined,
  });
  const master: MasterService = startMasterService(coordinator, {
    allocation,
    ...(deps.log ? { log: deps.log } : {}),
  });
  membership.handle(CREATE_INDEX_ACTION, async (b) => {
    const { name, settings } = b as { name: string; settings: unknown };
    await master.submit(`create-index [${name}]`, createIndexUpdate({ name, settings }, randomBase64Uuid(), allocation())); // prettier-ignore
    return {};
  });
  membership.handle(DELETE_INDEX_ACTION, async (b) => {
    const { names } = b as { names: string[] };
    await master.submit(`delete-index ${JSON.stringify(names)}`, deleteIndexUpdate(names));
    return {};
  });
  membership.handle(SHARD_STARTED_ACTION, async (b) => {
    const { allocationId } = b as { allocationId: string };
    await master.submit('shard-started', (s) => reroute(shardStarted(s, allocationId), allocation()).state); // prettier-ignore
    return {};
  });
  const applier: ShardApplier = startShardApplier(coordinator, {
    nodeId: membership.localNode.id,
    indices: deps.indices,
    transport,
    reportStarted: async (_index, _shard, allocationId) => {
      await membership.toMaster(SHARD_STARTED_ACTION, { allocationId });
    },
    ...(deps.log ? { log: deps.log } : {}),
  });
  return {
    async create(name, settings, waitMs) {
      await membership.toMaster(CREATE_INDEX_ACTION, { name, settings });
      const end = Date.now() + waitMs;
      while (!primariesActive(coordinator.state(), name)) {
        if (Date.now() >= end) return { shardsAcknowledged: false };
        await new Promise((r) => setTimeout(r, 50));
      }
      return { shardsAcknowledged: true };
    },
    async delete(names) {
      await membership.toMaster(DELETE_INDEX_ACTION, { names });
    },
    stop() {
      applier.stop();
      master.stop();
    },
  };
}
