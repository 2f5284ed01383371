/**
 * What a node in a cluster coordinated by etcd serves while only part of the API is cluster-aware
 * (ClusterMembership.dataPlane false): the node, cluster and health APIs, index creation and
 * deletion through the master, and documents (writes routed to their primaries, GETs to a started
 * copy). Every other request is refused with a global block — ES's answer when the cluster cannot
 * serve it — naming why, so nothing is changed on one node that the others would not know of.
 */
import { EsError } from '../common/errors.js';

const SERVED = [
  /^\/$/,
  /^\/_cat\/?$/,
  /^\/_cat\/(nodes|master|health|shards)(\/[^/]+)?\/?$/,
  /^\/_cluster\/(health|state)(\/.*)?$/,
  // Quarry-specific, read-only: this node's own copies of an index (routes/quarry-copies.ts)
  /^\/_quarry\/copies\/[^/]+\/?$/,
  /^\/_nodes(\/.*)?$/,
  /^\/_(xpack\/)?security\/_authenticate\/?$/,
  // documents: writes go to their primaries (src/cluster/writes), GETs to a started copy
  /^\/(([^_/][^/]*)\/)?_bulk\/?$/,
  /^\/[^_/][^/]*\/[^/]+\/_bulk\/?$/,
  /^\/(([^_/][^/]*)\/([^/]+)\/)?_mget\/?$/,
  /^\/[^_/][^/]*\/_mget\/?$/,
];

/**
 * `/{index}/{type}`, `/{index}/{type}/{id}` and its `_create`, `_update`, `_source`: a type is
 * `_doc` or a name without `_` (any other `_x` there is an endpoint).
 */
function isDocumentPath(path: string): boolean {
  const parts = path.replace(/\/$/, '').split('/').slice(1);
  if (parts.length < 2 || parts.length > 4 || parts[0]!.startsWith('_')) return false;
  if (parts[1]!.startsWith('_') && parts[1] !== '_doc') return false;
  if (parts.length === 4) return ['_create', '_update', '_source'].includes(parts[3]!);
  return true;
}

/** Index creation and deletion (`PUT|DELETE /{index}`), which go through the master. */
const INDEX_ADMIN = /^\/[^_/][^/]*\/?$/;

/**
 * Reads of index metadata (`GET|HEAD /{index}`, `_mapping`, `_settings`): every node holds every
 * index's metadata, kept as the master publishes it.
 */
const METADATA_READ = [
  /^\/[^_/][^/]*\/?$/,
  /^\/([^_/][^/]*\/)?_mappings?(\/.*)?$/,
  /^\/[^_/][^/]*\/_mappings?(\/.*)?$/,
  /^\/([^_/][^/]*\/)?_settings(\/.*)?$/,
];

export function servedWithoutDataPlane(method: string, path: string): boolean {
  if ((method === 'GET' || method === 'HEAD') && METADATA_READ.some((re) => re.test(path)))
    return true;
  if ((method === 'PUT' || method === 'DELETE') && INDEX_ADMIN.test(path)) return true;
  if (isDocumentPath(path)) return true;
  return SERVED.some((re) => re.test(path));
}

export function dataPlaneBlocked(): EsError {
  return new EsError(
    'cluster_block_exception',
    'blocked by: [SERVICE_UNAVAILABLE/1001/this API is not cluster-aware yet: in a cluster coordinated by etcd a node serves the cluster, node and health APIs, index creation and deletion, document writes, GETs and searches; run the node without discovery.etcd.endpoints for the rest];',
    503,
  );
}
