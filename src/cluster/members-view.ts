/**
 * The nodes of a cluster as the REST layer meets them: each selected node of the cluster state
 * answers over the transport (ES TransportNodesAction); this node's transport identity is its
 * membership's.
 */
import { simpleMatch } from '../engine/index-names.js';
import type { MembersView } from '../engine/members-view.js';
import type { ClusterMembership } from './membership.js';
import type { ClusterState } from './state.js';
import { nodeStatsTransport } from './transport/stats.js';

/** ES DiscoveryNodes.resolveNodes over the cluster state's nodes: ids, names, hosts, _local, _master. */
export function selectedNodes(state: ClusterState, localId: string, ids: string[]): Set<string> {
  const out = new Set<string>();
  const all = ids.length === 0 || (ids.length === 1 && ids[0] === '_all');
  for (const n of state.nodes.values()) {
    if (all) out.add(n.id);
    const host = n.httpAddress.slice(0, n.httpAddress.lastIndexOf(':'));
    for (const id of ids) {
      if (id === '_all' || id === n.id) out.add(n.id);
      else if (id === '_local' && n.id === localId) out.add(n.id);
      else if (id === '_master' && n.id === state.masterNodeId) out.add(n.id);
      else if (simpleMatch(id, n.name) || simpleMatch(id, host) || simpleMatch(id, n.id))
        out.add(n.id);
    }
  }
  return out;
}

export function clusterMembersView(membership: ClusterMembership, localId: string): MembersView {
  return {
    nodes: () => [...membership.state().nodes.values()],
    async ask(action, body, nodeIds, timeoutMs) {
      const wanted = selectedNodes(membership.state(), localId, nodeIds);
      const { results, failures } = await membership.collect(action, body, timeoutMs);
      const answers: Array<[string, unknown]> = [];
      let failed = 0;
      for (const id of membership.state().nodes.keys()) {
        if (!wanted.has(id)) continue;
        if (results.has(id)) answers.push([id, results.get(id)]);
        else failed++;
      }
      return { answers, failed, failures: failures.filter((f) => wanted.has(f.nodeId)) };
    },
    transportAddress: () => membership.localNode.transportAddress,
    boundTransportAddress: () =>
      membership.transport.boundAddress() ?? membership.localNode.transportAddress,
    transportStats: (human) => nodeStatsTransport(membership.transport.stats(), human),
    attributes: () => membership.localNode.attributes,
  };
}
