/**
 * A lone node as a cluster of one: the ClusterState its engine implies. Every index's primaries
 * are STARTED on this node with their stable allocation ids (in sync, term as the index keeps it),
 * every replica UNASSIGNED (it may not share the node with its primary), a red index's primaries
 * unassigned with the failure, closed indices unrouted — what `_cluster/state` and `_cat/shards`
 * already report. The allocation functions (explain, reroute commands) run on it unchanged.
 */
import { toStateSettings } from './state-settings.js';
import type { IndexService } from '../engine/index-service.js';
import { allocationId } from '../engine/shard-routing.js';
import type {
  ClusterState,
  DiscoveryNode,
  IndexMetadata,
  IndexRoutingTable,
  ShardRouting,
} from './state.js';

export interface LocalStateInput {
  clusterName: string;
  clusterUuid: string;
  version: number;
  node: DiscoveryNode;
  /** When the node started: a red index's primaries failed then. */
  startedAt: number;
  indices: readonly IndexService[];
  persistentSettings: Readonly<Record<string, string>>;
  transientSettings: Readonly<Record<string, string>>;
}

function indexMetadata(idx: IndexService): IndexMetadata {
  const terms = Array.from({ length: idx.numberOfShards }, (_, s) => ({
    primaryTerm: idx.meta.primaryTerm,
    inSync: idx.failed || idx.closed ? [] : [allocationId(idx.uuid, s)],
  }));
  return {
    name: idx.name,
    uuid: idx.uuid,
    state: idx.closed ? 'close' : 'open',
    settings: toStateSettings(idx.meta.settings),
    mappings: null,
    aliases: idx.meta.aliases as unknown as IndexMetadata['aliases'],
    numberOfShards: idx.numberOfShards,
    numberOfReplicas: idx.numberOfReplicas,
    version: idx.meta.version,
    mappingVersion: 1,
    settingsVersion: 1,
    terms,
  };
}

function indexRouting(idx: IndexService, nodeId: string, startedAt: number): IndexRoutingTable {
  const shards: ShardRouting[][] = [];
  for (let s = 0; s < idx.numberOfShards; s++) {
    const base = { index: idx.name, indexUuid: idx.uuid, shard: s, relocatingNodeId: null };
    const primary: ShardRouting = idx.failed
      ? {
          ...base,
          primary: true,
          state: 'UNASSIGNED',
          nodeId: null,
          allocationId: null,
          recoverySource: { type: 'EXISTING_STORE', bootstrapNewHistory: false },
          unassignedInfo: {
            reason: 'ALLOCATION_FAILED',
            at: startedAt,
            details: `failed shard on node [${nodeId}]: failed to open the index, failure ${idx.failure ?? 'unknown'}`,
            delayed: false,
            failedAttempts: 1,
            lastAllocationStatus: 'no_valid_shard_copy',
          },
        }
      : {
          ...base,
          primary: true,
          state: 'STARTED',
          nodeId,
          allocationId: { id: allocationId(idx.uuid, s) },
          recoverySource: null,
          unassignedInfo: null,
        };
    const copies = [primary];
    for (let r = 0; r < idx.numberOfReplicas; r++) {
      copies.push({
        ...base,
        primary: false,
        state: 'UNASSIGNED',
        nodeId: null,
        allocationId: null,
        recoverySource: { type: 'PEER' },
        unassignedInfo: {
          reason: 'INDEX_CREATED',
          at: idx.meta.creationDate,
          delayed: false,
          failedAttempts: 0,
          lastAllocationStatus: 'no_attempt',
        },
      });
    }
    shards.push(copies);
  }
  return { index: idx.name, indexUuid: idx.uuid, shards };
}

export function localClusterState(input: LocalStateInput): ClusterState {
  const metadata = new Map<string, IndexMetadata>();
  const routing = new Map<string, IndexRoutingTable>();
  for (const idx of input.indices) {
    metadata.set(idx.name, indexMetadata(idx));
    if (!idx.closed) routing.set(idx.name, indexRouting(idx, input.node.id, input.startedAt));
  }
  return {
    clusterName: input.clusterName,
    version: input.version,
    masterNodeId: input.node.id,
    nodes: new Map([[input.node.id, input.node]]),
    metadata: {
      clusterUuid: input.clusterUuid,
      indices: metadata,
      templates: new Map(),
      scripts: new Map(),
      persistentSettings: input.persistentSettings,
      transientSettings: input.transientSettings,
    },
    routing,
  };
}

/** Whether two states place every copy alike (a reroute that would change nothing). */
export function sameRouting(a: ClusterState, b: ClusterState): boolean {
  if (a.routing.size !== b.routing.size) return false;
  for (const [name, table] of a.routing) {
    const other = b.routing.get(name);
    if (!other || other.shards.length !== table.shards.length) return false;
    for (let s = 0; s < table.shards.length; s++) {
      const key = (c: ShardRouting) => `${c.primary}|${c.state}|${c.nodeId}|${c.relocatingNodeId}`;
      const x = table.shards[s]!.map(key).sort().join(',');
      const y = other.shards[s]!.map(key).sort().join(',');
      if (x !== y) return false;
    }
  }
  return true;
}
