/** Who the cluster is, as the REST APIs report it. */
import type { NodeContext } from '../node-context.js';

/** The cluster's uuid: etcd's when the node joined a cluster, else the node's own. */
export function clusterUuidOf(node: NodeContext): string {
  return node.cluster?.state().metadata.clusterUuid || node.clusterUuid;
}
