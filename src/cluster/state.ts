/**
 * The cluster state as every node holds it (ES ClusterState): the nodes, the master, the index
 * metadata, the routing table and, per shard, the primary term and the in-sync copies. In a
 * cluster it is read from etcd (`../shared/design/cluster.md` §2) and its `version` is the etcd
 * revision it was read at; a lone node builds it from its own store. Plain readonly data: every
 * change makes a new state, so a state handed out is never mutated under its reader.
 */

/** ES DiscoveryNode, as `_cat/nodes`, `_nodes` and the cluster state list it. */
export interface DiscoveryNode {
  /** Persistent, stored in the node's data path; never derived from an address. */
  readonly id: string;
  readonly name: string;
  /** New at every start. */
  readonly ephemeralId: string;
  /** `host:port` of the transport (node-to-node) port. */
  readonly transportAddress: string;
  /** `host:port` of the HTTP (REST) port. */
  readonly httpAddress: string;
  /** `node.attr.*` settings, without the prefix (e.g. `{ zone: 'a' }`). */
  readonly attributes: Readonly<Record<string, string>>;
  /** Quarry's version (the peer check compares it) and the ES version it speaks. */
  readonly version: string;
  readonly esVersion: string;
  /** `master`, `data`, `ingest` (every Quarry node has all three for now). */
  readonly roles: readonly string[];
}

export type ShardState = 'UNASSIGNED' | 'INITIALIZING' | 'STARTED' | 'RELOCATING';

/** ES UnassignedInfo.Reason, as `_cat/shards` `unassigned.reason` prints it. */
export type UnassignedReason =
  | 'INDEX_CREATED'
  | 'CLUSTER_RECOVERED'
  | 'INDEX_REOPENED'
  | 'DANGLING_INDEX_IMPORTED'
  | 'NEW_INDEX_RESTORED'
  | 'EXISTING_INDEX_RESTORED'
  | 'REPLICA_ADDED'
  | 'ALLOCATION_FAILED'
  | 'NODE_LEFT'
  | 'REROUTE_CANCELLED'
  | 'REINITIALIZED'
  | 'REALLOCATED_REPLICA'
  | 'PRIMARY_FAILED'
  | 'FORCED_EMPTY_PRIMARY'
  | 'MANUAL_ALLOCATION';

/** ES UnassignedInfo. */
export interface UnassignedInfo {
  readonly reason: UnassignedReason;
  /** Epoch millis when the copy became unassigned. */
  readonly at: number;
  readonly details?: string;
  /** Set while `index.unassigned.node_left.delayed_timeout` holds the copy back. */
  readonly delayed: boolean;
  readonly failedAttempts: number;
  /** ES AllocationStatus: `no_attempt`, `deciders_no`, `no_valid_shard_copy`, `awaiting_info`, `delayed_allocation`. */
  readonly lastAllocationStatus: string;
  /** The node the copy was on when it became unassigned (NODE_LEFT), for delayed reallocation. */
  readonly lastNodeId?: string;
}

/** How a copy being initialized gets its data (ES RecoverySource.Type). */
export type RecoverySource =
  | { readonly type: 'EMPTY_STORE' }
  | { readonly type: 'EXISTING_STORE'; readonly bootstrapNewHistory?: boolean }
  | { readonly type: 'PEER' }
  | { readonly type: 'SNAPSHOT'; readonly repository: string; readonly snapshot: string }
  | { readonly type: 'LOCAL_SHARDS' };

/** One copy of one shard (ES ShardRouting). */
export interface ShardRouting {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly primary: boolean;
  readonly state: ShardState;
  /** Null while UNASSIGNED. */
  readonly nodeId: string | null;
  /** RELOCATING: the node it moves to; the INITIALIZING target names its source here. */
  readonly relocatingNodeId: string | null;
  /** Null while UNASSIGNED. `relocationId` is set on both halves of a relocation. */
  readonly allocationId: { readonly id: string; readonly relocationId?: string } | null;
  readonly unassignedInfo: UnassignedInfo | null;
  /** Set while UNASSIGNED or INITIALIZING. */
  readonly recoverySource: RecoverySource | null;
  /** Primaries: the size in bytes the master expects (unknown: -1). */
  readonly expectedSizeInBytes?: number;
}

/** The copies of every shard of one index, by shard number. */
export interface IndexRoutingTable {
  readonly index: string;
  readonly indexUuid: string;
  readonly shards: readonly (readonly ShardRouting[])[];
}

/** Per shard: the primary term and the allocation ids of the in-sync copies (ES IndexMetaData). */
export interface ShardTerms {
  readonly primaryTerm: number;
  readonly inSync: readonly string[];
}

/** What the cluster knows of an index (ES IndexMetaData). */
export interface IndexMetadata {
  readonly name: string;
  readonly uuid: string;
  readonly state: 'open' | 'close';
  /** Flat `index.*` settings as strings, e.g. `index.number_of_shards: "5"`. */
  readonly settings: Readonly<Record<string, string>>;
  /** The mapping of the index's one type (`{ typeName: {...} }`), as stored; null when none. */
  readonly mappings: Readonly<Record<string, unknown>> | null;
  /** Alias name to its definition (filter, routing, is_write_index), as ES renders it. */
  readonly aliases: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly numberOfShards: number;
  readonly numberOfReplicas: number;
  /** Bumped on every metadata change of this index (ES IndexMetaData.version). */
  readonly version: number;
  readonly mappingVersion: number;
  readonly settingsVersion: number;
  /** Terms and in-sync sets by shard number. */
  readonly terms: readonly ShardTerms[];
}

export interface ClusterMetadata {
  readonly clusterUuid: string;
  readonly indices: ReadonlyMap<string, IndexMetadata>;
  /** Template name to its body as stored (ES IndexTemplateMetaData). */
  readonly templates: ReadonlyMap<string, unknown>;
  /** Stored script id to its source (ES StoredScriptSource). */
  readonly scripts: ReadonlyMap<string, unknown>;
  /** Ingest pipeline id to its config (ES IngestMetadata); absent: none. */
  readonly pipelines?: ReadonlyMap<string, unknown>;
  /** Snapshot repository name to its type and settings (ES RepositoriesMetaData); absent: none. */
  readonly repositories?: ReadonlyMap<string, unknown>;
  readonly persistentSettings: Readonly<Record<string, string>>;
  readonly transientSettings: Readonly<Record<string, string>>;
}

export interface ClusterState {
  readonly clusterName: string;
  /** Strictly increasing; the etcd revision the state was read at in a cluster. */
  readonly version: number;
  /** The elected master's node id; null while there is none. */
  readonly masterNodeId: string | null;
  readonly nodes: ReadonlyMap<string, DiscoveryNode>;
  readonly metadata: ClusterMetadata;
  /** By index name. */
  readonly routing: ReadonlyMap<string, IndexRoutingTable>;
}

/** Every copy of every shard in the routing table. */
export function* allShards(state: Pick<ClusterState, 'routing'>): Generator<ShardRouting> {
  for (const table of state.routing.values())
    for (const copies of table.shards) for (const copy of copies) yield copy;
}

/** The primary copy of a shard, or undefined when the table has none. */
export function primaryOf(
  state: Pick<ClusterState, 'routing'>,
  index: string,
  shard: number,
): ShardRouting | undefined {
  return state.routing.get(index)?.shards[shard]?.find((c) => c.primary);
}
