/**
 * The nodes of a lone node's cluster: itself alone. It answers its own actions and binds no
 * transport, so it reports the address a transport would have and no transport statistics.
 */
import { EsError } from '../common/errors.js';
import type { MembersView } from '../engine/members-view.js';
import type { NodeContext } from '../node-context.js';
import { hostOf, nodeSelected } from './routes/nodes.js';

/** ES's default transport port, which a lone node reports as its own. */
const TRANSPORT_PORT = 9300;

/** `nodeOf`: the node, complete by the time a route asks (the view is built with it). */
export function localMembersView(nodeOf: () => NodeContext): MembersView {
  const transportAddress = () => `${hostOf(nodeOf())}:${TRANSPORT_PORT}`;
  return {
    nodes() {
      const node = nodeOf();
      // the attributes are only published to a cluster
      const self = { id: node.nodeId, name: node.nodeName, ephemeralId: node.ephemeralId };
      return [{ ...self, transportAddress: transportAddress(), attributes: {} }];
    },
    async ask(action, body, nodeIds) {
      const node = nodeOf();
      if (!nodeSelected(node, nodeIds)) return { answers: [], failed: 0, failures: [] };
      const h = node.nodeActions.get(action);
      if (!h) throw new EsError('action_not_found_transport_exception', `No handler for action [${action}]`, 500); // prettier-ignore
      return { answers: [[node.nodeId, await h(body)]], failed: 0, failures: [] };
    },
    transportAddress,
    boundTransportAddress: transportAddress,
    transportStats: () => null,
    // the attributes are only published to a cluster
    attributes: () => ({}),
  };
}
