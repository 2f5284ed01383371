/**
 * Answers every node gives for the node that asks (ES TransportNodesAction): `_cat/nodeattrs`,
 * `_cat/thread_pool`, `_cat/tasks`, `_cat/allocation`, `_cat/fielddata`, `_cluster/stats` and the
 * task list read every node's part. The routes register
 * each action's local answer when the app is built; a lone node answers itself, a node in a
 * cluster registers them with its membership when it joins (node.ts) and asks every node.
 */
import { EsError } from '../common/errors.js';
import type { NodeContext } from '../node-context.js';
import { clusterNodesSelected, nodeSelected } from './routes/nodes.js';

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

export interface EveryNodeAnswers {
  readonly answers: Array<[nodeId: string, answer: unknown]>;
  /** How many of the nodes asked did not answer (`_nodes.failed`). */
  readonly failed: number;
  /** Why, for those whose failure is known (`_nodes.failures`). */
  readonly failures: Array<{ nodeId: string; error: EsError }>;
}

/** fromEveryNode, with the nodes that did not answer. */
export async function everyNode(
  node: NodeContext,
  action: string,
  body: unknown,
  nodeIds: string[] = [],
  timeoutMs = 30_000,
): Promise<EveryNodeAnswers> {
  if (!node.cluster) {
    if (!nodeSelected(node, nodeIds)) return { answers: [], failed: 0, failures: [] };
    const h = node.nodeActions.get(action);
    if (!h) throw new EsError('action_not_found_transport_exception', `No handler for action [${action}]`, 500); // prettier-ignore
    return { answers: [[node.nodeId, await h(body)]], failed: 0, failures: [] };
  }
  const wanted = clusterNodesSelected(node, nodeIds);
  const { results, failures } = await node.cluster.collect(action, body, timeoutMs);
  const answers: Array<[string, unknown]> = [];
  let failed = 0;
  for (const id of node.cluster.state().nodes.keys()) {
    if (!wanted.has(id)) continue;
    if (results.has(id)) answers.push([id, results.get(id)]);
    else failed++;
  }
  return { answers, failed, failures: failures.filter((f) => wanted.has(f.nodeId)) };
}

/** The elected master's node id (`*` in `_cat/nodes`, `_master` in node filters); a lone node is its own. */
export function masterNodeId(node: NodeContext): string | null {
  return node.routing.masterNodeId();
}
