/**
 * The nodes of the cluster as the REST layer meets them: every selected node's answer to an
 * action (ES TransportNodesAction, behind `_nodes`, `_cat/nodes`, `_cluster/stats`, the task
 * list...) and this node's transport identity. A seam: a lone node answers itself and binds no
 * transport (http/local-members-view.ts); a node of a cluster asks every node of the cluster state
 * over the transport (src/cluster/members-view.ts).
 */
import type { EsError } from '../common/errors.js';

export interface EveryNodeAnswers {
  readonly answers: Array<[nodeId: string, answer: unknown]>;
  /** How many of the nodes asked did not answer (`_nodes.failed`). */
  readonly failed: number;
  /** Why, for those whose failure is known (`_nodes.failures`). */
  readonly failures: Array<{ nodeId: string; error: EsError }>;
}

/** A node as the cluster state lists it (ES DiscoveryNode). */
export interface MemberNode {
  readonly id: string;
  readonly name: string;
  readonly ephemeralId: string;
  readonly transportAddress: string;
  readonly attributes: Readonly<Record<string, string>>;
}

export interface MembersView {
  /** The cluster's nodes, in the cluster state's order. */
  nodes(): MemberNode[];
  /**
   * Every answer to `action` of the nodes `nodeIds` names (ES node filters: ids, names, `_local`,
   * `_master`...; none: all), in the cluster state's node order, with the nodes that did not answer.
   */
  ask(action: string, body: unknown, nodeIds: string[], timeoutMs: number): Promise<EveryNodeAnswers>; // prettier-ignore
  /** This node's transport address as the cluster lists it (`transport_address`). */
  transportAddress(): string;
  /** The address the transport is bound to (`_nodes` `transport.bound_address`). */
  boundTransportAddress(): string;
  /** The `transport` section of `_nodes/stats` (null: the node binds no transport). */
  transportStats(human: boolean): Record<string, unknown> | null;
  /** This node's attributes (`node.attr.*`) as the cluster lists them. */
  attributes(): Readonly<Record<string, string>>;
}
