/**
 * What a node in a cluster coordinated by etcd serves while only part of the API is cluster-aware
 * (ClusterMembership.dataPlane false): the node, cluster and health APIs, index creation,
 * deletion, rollover, shrink and split through the master, documents (writes routed to their primaries, GETs and
 * explain to a started copy), searches, analysis and query validation, snapshot repositories and
 * every node's tasks and `_cat` rows. Every other request is refused with a global block — ES's answer when the cluster cannot
 * serve it — naming why, so nothing is changed on one node that the others would not know of.
 */
import { EsError } from '../common/errors.js';
import { forwardedToMaster } from './master-forward.js';

const SERVED = [
  /^\/$/,
  /^\/_cat\/?$/,
  /^\/_cat\/(nodes|master|health|shards|indices|count|recovery|aliases|templates|plugins)(\/[^/]+)?\/?$/,
  // a row set from every node (http/node-actions.ts)
  /^\/_cat\/(nodeattrs|thread_pool|tasks)(\/[^/]+)?\/?$/,
  // a task is read on its own node; no remote clusters are configured
  /^\/_tasks(\/[^/]+)?\/?$/,
  // a cancellation: each node cancels its own tasks; one task's is relayed to its node
  /^\/_tasks(\/[^/]+)?\/_cancel\/?$/,
  /^\/_remote\/info\/?$/,
  // snapshot repositories: changes on the master (master-forward.ts), reads of the published set
  /^\/_snapshot(\/(?!_status\/?$)[^/]+)?\/?$/,
  /^\/_snapshot\/[^/]+\/_verify\/?$/,
  /^\/_cat\/repositories\/?$/,
  /^\/([^_/][^/]*\/)?_recovery\/?$/,
  /^\/_cluster\/(health|state|settings|reroute|allocation\/explain|pending_tasks|stats)(\/.*)?$/,
  // Quarry-specific, read-only: this node's own copies of an index (routes/quarry-copies.ts)
  /^\/_quarry\/copies\/[^/]+\/?$/,
  /^\/_nodes(\/.*)?$/,
  /^\/_(xpack\/)?security\/_authenticate\/?$/,
  // documents: writes go to their primaries (src/cluster/writes), GETs to a started copy
  /^\/(([^_/][^/]*)\/)?_bulk\/?$/,
  /^\/[^_/][^/]*\/[^/]+\/_bulk\/?$/,
  /^\/(([^_/][^/]*)\/([^/]+)\/)?_mget\/?$/,
  /^\/[^_/][^/]*\/_mget\/?$/,
  // templates and stored scripts: changes run on the master (master-forward.ts), reads on the
  // published copy
  /^\/_template(\/[^/]+)?\/?$/,
  /^\/_scripts\/[^/]+(\/[^/]+)?\/?$/,
  // (this also serves the painless execute API, node-local: it reads one index's mapping)
  // ingest pipelines likewise; simulate runs where it is asked
  /^\/_ingest\/pipeline(\/[^/]+)?(\/_simulate)?\/?$/,
  /^\/_ingest\/processor\/grok\/?$/,
  // every node refreshes or flushes the copies it holds (src/cluster/broadcast.ts)
  /^\/(([^_/][^/]*|_all)\/)?_(refresh|flush)\/?$/,
  // shard statistics: every node answers for the copies it holds (src/cluster/copy-broadcast.ts)
  /^\/([^_/][^/]*\/|_all\/)?_stats(\/[^/]+)?\/?$/,
  /^\/([^_/][^/]*\/|_all\/)?_(segments|shard_stores|forcemerge|upgrade|cache\/clear|flush\/synced)\/?$/,
  /^\/_cat\/(segments|allocation|fielddata)(\/[^/]+)?\/?$/,
  // search shards read the published routing table and aliases
  /^\/(([^_/][^/]*|_all)\/)?_search_shards\/?$/,
  // field capabilities read the published mappings
  /^\/(([^_/][^/]*|_all)\/)?_field_caps\/?$/,
  // explain: on a started copy of the document's shard (src/cluster/reads/cluster-explain.ts)
  /^\/[^_/][^/]*\/[^/]+\/[^/]+\/_explain\/?$/,
  // term vectors: on a started copy of the document's shard (cluster-termvectors.ts)
  /^\/[^_/][^/]*\/[^/]+(\/[^/]+)?\/_termvectors\/?$/,
  /^\/(([^_/][^/]*)\/(([^/]+)\/)?)?_mtermvectors\/?$/,
  // analysis and query validation need only the index's analyzers and mappings, which every
  // node holds
  /^\/([^_/][^/]*\/)?_analyze\/?$/,
  /^(\/[^/]+){0,2}\/_validate\/query\/?$/,
  // searches: query then fetch over one copy of each shard (src/cluster/search)
  /^(\/[^/]+){0,2}\/_(search|count|msearch)\/?$/,
  // scroll pages and clear-scroll: the scroll id names the nodes holding its contexts
  /^\/_search\/scroll(\/[^/]+)?\/?$/,
  // SQL: searches across the nodes, catalog commands on the published metadata
  /^\/(_sql|_xpack\/sql)(\/(translate|close))?\/?$/,
  // by-query tasks: each shard scanned on its primary's node, the writes sent to the primaries
  /^\/([^_/][^/]*|_all)(\/[^/]+)?\/_(delete|update)_by_query\/?$/,
  // search templates render here and search across the nodes
  /^(\/[^/]+){0,2}\/_(search|msearch)\/template\/?$/,
  /^\/_render\/template(\/[^/]+)?\/?$/,
  // ranking evaluation: its rated requests search across the nodes as _msearch items
  /^(\/[^/]+)?\/_rank_eval\/?$/,
  // freezing changes settings through the master
  /^\/[^_/][^/]*\/_(freeze|unfreeze)\/?$/,
  // reindex: the source scanned on its primaries' nodes, the copies written through the primaries
  /^\/_reindex\/?$/,
  // snapshots of shared-filesystem repositories: each shard read where its primary is, restores
  // created through the master and written through the primaries
  /^\/_snapshot\/[^/]+\/[^/]+(\/_(restore|status))?\/?$/,
  /^\/_snapshot\/_status\/?$/,
  /^\/_cat\/snapshots(\/[^/]+)?\/?$/,
  // a rethrottle runs on the task's node (relayed there)
  /^\/_(delete_by_query|update_by_query|reindex)\/[^/]+\/_rethrottle\/?$/,
];

/**
 * `/{index}/{type}`, `/{index}/{type}/{id}` and its `_create`, `_update`, `_source`: a type is
 * `_doc` or a name without `_` (any other `_x` there is an endpoint).
 */
function isDocumentPath(path: string): boolean {
  const parts = path.replace(/\/$/, '').split('/').slice(1);
  if (parts.length < 2 || parts.length > 4 || parts[0]!.startsWith('_')) return false;
  if (parts[1]!.startsWith('_') && parts[1] !== '_doc' && parts[1] !== '_all') return false;
  if (parts.length === 4) return ['_create', '_update', '_source'].includes(parts[3]!);
  return true;
}

/** An index expression in a path: names and wildcards, or `_all`. */
const IDX = '(?:[^_/][^/]*|_all)';
const re = (src: string) => new RegExp(`^${src}\\/?$`);

/** Index creation and deletion (`PUT|DELETE /{index}`), which go through the master. */
const INDEX_ADMIN = /^\/[^_/][^/]*\/?$/;

/**
 * Reads of index metadata (`GET|HEAD /{index}`, `_alias`, `_mapping`, `_settings`): every node
 * holds every index's metadata, kept as the master publishes it.
 */
const METADATA_READ = [
  re(`\\/(${IDX}\\/)?_alias(es)?(\\/[^/]+)?`),
  re(`\\/${IDX}`),
  re(`\\/(${IDX}\\/)?_mappings?(\\/.*)?`),
  re(`\\/${IDX}\\/[^/]+\\/_mappings?\\/field\\/[^/]+`),
  re(`\\/${IDX}\\/_setting\\/[^/]+`),
  re(`\\/${IDX}\\/[^/]+\\/_mappings?`),
  re(`\\/(${IDX}\\/)?_settings(\\/.*)?`),
];

/** Changes the master merges and publishes (mappings, settings); see also master-forward.ts. */
const MASTER_CHANGES: ReadonlyArray<{ methods: readonly string[]; path: RegExp }> = [
  { methods: ['PUT', 'POST'], path: re(`\\/(${IDX}\\/)?_mappings?(\\/[^/]+)?`) },
  { methods: ['PUT', 'POST'], path: re(`\\/${IDX}\\/[^/]+\\/_mappings?`) },
  { methods: ['PUT'], path: re(`\\/(${IDX}\\/)?_settings`) },
];

/**
 * `params` are the route's parameters: a one-segment path the router gave to `/{index}` is an
 * index read even when its name is invalid (`GET /_foo`, refused as ES refuses it).
 */
export function servedWithoutDataPlane(
  method: string,
  path: string,
  params: Readonly<Record<string, string>> = {},
): boolean {
  // what the master runs itself (aliases, templates, scripts, pipelines, create, open/close...)
  if (forwardedToMaster(method, path)) return true;
  if (MASTER_CHANGES.some((c) => c.methods.includes(method) && c.path.test(path))) return true;
  if (method === 'GET' || method === 'HEAD') {
    if (METADATA_READ.some((r) => r.test(path))) return true;
    if (params.index !== undefined && /^\/[^/]+\/?$/.test(path)) return true;
  }
  // (POST /{index} is no API in 6.8: its route refuses it, as a lone node does)
  if ((method === 'PUT' || method === 'DELETE' || method === 'POST') && INDEX_ADMIN.test(path))
    return true;
  if (isDocumentPath(path)) return true;
  return SERVED.some((r) => r.test(path));
}

export function dataPlaneBlocked(): EsError {
  return new EsError(
    'cluster_block_exception',
    'blocked by: [SERVICE_UNAVAILABLE/1001/this API is not cluster-aware yet: in a cluster coordinated by etcd a node serves the cluster, node and health APIs, index creation and deletion, document writes, GETs and searches; run the node without discovery.etcd.endpoints for the rest];',
    503,
  );
}
