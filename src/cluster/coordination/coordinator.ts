/**
 * What a node needs from coordination, whether the cluster state lives in etcd (EtcdCoordinator,
 * `discovery.etcd.endpoints` set) or in the node itself (LocalCoordinator, a lone node). Quarry
 * implements no consensus: membership, election and state are etcd's; this interface only names
 * them.
 *
 * - The state is handed out whole and never mutated; `onState` sees every new one, in version
 *   order (in a cluster, one per etcd revision that touched the cluster's keys).
 * - Every write that depends on being master goes through `masterTxn`, every change of a shard's
 *   in-sync set by its primary through `termTxn`: each is one atomic, fenced transaction, so a
 *   deposed master or a stale primary can never commit, whatever its local view says.
 * - `onNoMaster` fires when the node loses its membership (lease lost, etcd unreachable): the
 *   node must block writes (ES's no_master_block) until `onRejoin` fires.
 */
import type { ClusterState, DiscoveryNode, ShardTerms } from '../state.js';
import type { StateOp } from './ops.js';

export type { StateOp } from './ops.js';

export type StateListener = (prev: ClusterState, next: ClusterState) => void;

export interface Coordinator {
  /**
   * Joins: registers the node, reads the state, campaigns for master. Resolves with the first
   * state. Rejects with `node id [x] is already in the cluster` when a live node holds the id.
   */
  start(localNode: DiscoveryNode): Promise<ClusterState>;
  /** Leaves at once (resigns, and others see the node go), and releases every resource. */
  stop(): Promise<void>;
  /** The latest state applied on this node. */
  state(): ClusterState;
  /** True while this node is the elected master and holds its membership. */
  isMaster(): boolean;
  /**
   * True while this node's membership is certainly still valid: its lease was confirmed less than
   * a TTL ago. A node that was paused or cut off from etcd may have been replaced without knowing
   * it yet; it must not serve reads as if its copies were current. Absent: always (a lone node).
   */
  leaseFresh?(): boolean;
  /**
   * Commits `ops` atomically if this node is still the elected master; resolves with the state
   * version (revision) the change got. Rejects with `not_master_exception` otherwise, and then
   * nothing was written. Any other error (etcd unreachable) leaves the outcome unknown; every
   * StateOp is idempotent, so the caller may send the same ops again.
   */
  /**
   * `basedOn`: the version of the state the ops were computed from; when a shard's terms they
   * write changed after it, nothing is written (staleTerms) and the master retries.
   */
  masterTxn(ops: readonly StateOp[], basedOn?: number): Promise<number>;
  /**
   * Replaces the terms of one shard if its primary term is still `expectedTerm`; resolves with
   * the version. Rejects with `no_longer_primary_shard_exception` when the term moved on (the
   * caller is a stale primary: it must not acknowledge, and steps down). A function computes the
   * terms from the ones stored at commit time (removing one copy never undoes another change).
   */
  termTxn(
    indexUuid: string,
    shard: number,
    expectedTerm: number,
    next: ShardTerms | ((current: ShardTerms) => ShardTerms),
  ): Promise<number>;
  /** Resolves once the applied state's version is at least `version`; rejects after `timeoutMs`. */
  waitForVersion(version: number, timeoutMs: number): Promise<ClusterState>;
  /** Each returns a function that removes the listener. */
  onState(listener: StateListener): () => void;
  onNoMaster(listener: () => void): () => void;
  onRejoin(listener: () => void): () => void;
}
