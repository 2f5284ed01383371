/**
 * What the REST layer reads of, and asks of, the cluster's routing table: health, the master, the
 * shard copies and their recoveries, the allocation commands, the master's queue and where another
 * node is reached. A seam: a lone node answers from its own shards (http/local-routing-view.ts), a
 * node of a cluster from the published routing table and the master (src/cluster/routing). The
 * routes see one interface: a lone node is a cluster of one.
 */
import type { ClusterHealth, HealthStatus } from './health.js';
import type { IndexService } from './index-service.js';

export type HealthLevel = 'cluster' | 'indices' | 'shards';

/** ES AllocationCommand, parsed (cluster/allocation/commands.ts parses `_cluster/reroute`). */
export type RerouteCommand =
  | {
      readonly kind: 'move';
      readonly index: string;
      readonly shard: number;
      readonly fromNode: string;
      readonly toNode: string;
    }
  | {
      readonly kind: 'cancel';
      readonly index: string;
      readonly shard: number;
      readonly node: string;
      readonly allowPrimary: boolean;
    }
  | {
      readonly kind: 'allocate_replica';
      readonly index: string;
      readonly shard: number;
      readonly node: string;
    }
  | {
      readonly kind: 'allocate_stale_primary' | 'allocate_empty_primary';
      readonly index: string;
      readonly shard: number;
      readonly node: string;
      readonly acceptDataLoss: boolean;
    };

export interface RerouteOptions {
  readonly dryRun: boolean;
  readonly explain: boolean;
  readonly retryFailed: boolean;
}

/** ES ClusterAllocationExplainRequest (cluster/allocation/explain.ts parses the body). */
export interface ExplainRequest {
  readonly index?: string;
  readonly shard?: number;
  readonly primary?: boolean;
  readonly currentNode?: string;
  readonly includeYesDecisions?: boolean;
  readonly includeDiskInfo?: boolean;
}

/** ES PendingClusterTask. */
export interface PendingTask {
  readonly insertOrder: number;
  readonly source: string;
  readonly insertedAt: number;
  readonly executing: boolean;
}

/** A `_cat/shards` cell: sizes as `{ bytes }`, which the cat layer renders. */
export type ShardCell = string | number | null | { readonly bytes: number };

/** One `_cat/shards` row, by column name. */
export interface ShardRow {
  readonly values: Readonly<Record<string, ShardCell>>;
  /**
   * How the columns not in `values` read: as zero (a copy whose statistics this node reports) or
   * empty.
   */
  readonly others: 'zero' | 'empty';
}

/** A shard's primary term and in-sync copies, as a cluster published them. */
export interface PublishedTerms {
  readonly primaryTerm: number;
  readonly inSync: readonly string[];
}

/** A copy of a shard this node holds (`_quarry/copies`). */
export interface CopyHere {
  readonly shard: number;
  readonly primary: boolean;
  readonly state: string;
  readonly allocationId: string | null;
}

export interface RoutingView {
  /**
   * `_cluster/health` over the indices `index` names (all when absent), with index and shard
   * detail down to `level`; `missing` when the expression named no index (the health is red).
   */
  health(
    index: string | undefined,
    level: HealthLevel,
  ): { health: ClusterHealth; missing: boolean };
  /** The cluster's status as `_cluster/stats` reports it. */
  status(): HealthStatus;
  /** Nodes in the cluster. */
  nodeCount(): number;
  /** The elected master's node id (null: none is elected). */
  masterNodeId(): string | null;
  /** The elected master as `_cat/master` lists it (null: none is elected). */
  master(): { id: string; host: string; name: string } | null;
  /** `_cat/shards` rows of the indices `index` names (all when absent). */
  shardRows(index: string | undefined): Promise<ShardRow[]>;
  /** `_recovery` entries of every started copy of `indices`, by index name. */
  recoveries(
    indices: readonly IndexService[],
    human: boolean,
    activeOnly: boolean,
  ): Promise<Record<string, Array<Record<string, unknown>>>>;
  /** `_cluster/reroute`: applies the commands (unless a dry run); the explanations asked for. */
  reroute(
    commands: readonly RerouteCommand[],
    opts: RerouteOptions,
  ): Promise<{ explanations?: unknown[] }>;
  /** `_cluster/allocation/explain`'s body. */
  explain(request: ExplainRequest & { includeYesDecisions: boolean; includeDiskInfo: boolean }): Promise<unknown>; // prettier-ignore
  /** The master's queued state updates (`_cluster/pending_tasks`). */
  pendingTasks(): Promise<PendingTask[]>;
  /** The HTTP base URL of another node, where a request about what it holds is passed on (null: this node, or unknown). */
  peerUrl(nodeId: string): string | null;
  /** The copies of the index's shards this node holds. */
  copiesHere(idx: IndexService): CopyHere[];
  /**
   * Each shard's copies as `_cluster/state` renders them (ES ShardRouting.toXContent); null when
   * the routing table has no entry for the index.
   */
  copiesJson(idx: IndexService): Record<string, unknown>[][] | null;
  /** Each shard's primary term and in-sync copies as published (undefined: the index's own). */
  publishedTerms(idx: IndexService): readonly PublishedTerms[] | undefined;
}
