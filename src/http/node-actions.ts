/**
 * Answers every node gives for the node that asks (ES TransportNodesAction): `_cat/nodeattrs`,
 * `_cat/thread_pool`, `_cat/tasks`, `_cat/allocation`, `_cat/fielddata`, `_cluster/stats` and the
 * task list read every node's part. The routes register
 * each action's local answer when the app is built; the node's members view (node.members) asks
 * them: a lone node answers itself, a node in a cluster registers them with its membership when
 * it joins (node.ts) and asks every node.
 */
import type { EveryNodeAnswers } from '../engine/members-view.js';
import type { NodeContext } from '../node-context.js';

export type NodeAction = (body: unknown) => unknown;

export function registerNodeAction(node: NodeContext, action: string, handler: NodeAction): void {
  node.nodeActions.set(action, handler);
}

/**
 * Every node's answer to `action` — of the nodes `nodeIds` names (ES node filters: ids, names,
 * `_local`, `_master`...; none: all), resolved here — in the order of the cluster state's nodes;
 * nodes that do not answer are left out, as ES leaves out the failed nodes of a table.
 */
export async function fromEveryNode(
  node: NodeContext,
  action: string,
  body: unknown,
  nodeIds: string[] = [],
  timeoutMs = 30_000,
): Promise<Array<[nodeId: string, answer: unknown]>> {
  return (await everyNode(node, action, body, nodeIds, timeoutMs)).answers;
}

export type { EveryNodeAnswers };

/** fromEveryNode, with the nodes that did not answer. */
export function everyNode(
  node: NodeContext,
  action: string,
  body: unknown,
  nodeIds: string[] = [],
  timeoutMs = 30_000,
): Promise<EveryNodeAnswers> {
  return node.members.ask(action, body, nodeIds, timeoutMs);
}

/** The elected master's node id (`*` in `_cat/nodes`, `_master` in node filters); a lone node is its own. */
export function masterNodeId(node: NodeContext): string | null {
  return node.routing.masterNodeId();
}
