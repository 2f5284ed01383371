/**
 * What a node in a cluster coordinated by etcd serves while its data path is not yet cluster-aware
 * (ClusterMembership.dataPlane false): the node, cluster and health APIs. Every other request is
 * refused with a global block — ES's answer when the cluster cannot serve data — naming why, so
 * no index is created on one node that the others would not know of.
 */
import { EsError } from '../common/errors.js';

const SERVED = [
  /^\/$/,
  /^\/_cat\/?$/,
  /^\/_cat\/(nodes|master|health|shards)(\/[^/]+)?\/?$/,
  /^\/_cluster\/(health|state)(\/.*)?$/,
  /^\/_nodes(\/.*)?$/,
  /^\/_(xpack\/)?security\/_authenticate\/?$/,
  /^(\/[^/]+){0,2}\/_(search|count|msearch)\/?$/,
];

/** Index creation and deletion (`PUT|DELETE /{index}`), which go through the master. */
const INDEX_ADMIN = /^\/[^_/][^/]*\/?$/;

export function servedWithoutDataPlane(method: string, path: string): boolean {
  if ((method === 'PUT' || method === 'DELETE') && INDEX_ADMIN.test(path)) return true;
  return SERVED.some((re) => re.test(path));
}

export function dataPlaneBlocked(): EsError {
  return new EsError(
    'cluster_block_exception',
    'blocked by: [SERVICE_UNAVAILABLE/1001/cluster mode serves the cluster, node and health APIs and index creation and deletion only: this version of Quarry does not yet store or search documents in a cluster coordinated by etcd; run the node without discovery.etcd.endpoints to store and search documents];',
    503,
  );
}
