/**
 * The key layout of the cluster state in etcd (`../shared/design/cluster.md` §2), under
 * `<prefix>/<cluster.name>/`:
 *
 * | key | value |
 * |---|---|
 * | `nodes/<node_id>` | DiscoveryNode JSON, bound to the node's lease |
 * | `master/<lease id hex>` | election candidates (value: node id); the leader has the lowest create revision |
 * | `meta/indices/<uuid>` | IndexMetadata without `terms` |
 * | `meta/templates/<name>`, `meta/scripts/<id>` | body as stored |
 * | `meta/settings` | `{persistent, transient}` |
 * | `meta/cluster` | `{clusterUuid}` |
 * | `routing/<index_uuid>/<shard>` | the copies (ShardRouting[]) of one shard |
 * | `terms/<index_uuid>/<shard>` | `{primaryTerm, inSync}` |
 */

/** The root of one cluster's keys, ending in `/`. */
export interface KeySpace {
  readonly root: string;
}

export const DEFAULT_PREFIX = '/quarry';

export function keySpace(clusterName: string, prefix: string = DEFAULT_PREFIX): KeySpace {
  return { root: `${prefix.replace(/\/+$/, '')}/${clusterName}/` };
}

/** Names (node ids, uuids, template names) may hold any character but `/`, which splits keys. */
function segment(name: string): string {
  if (name === '' || name.includes('/')) throw new Error(`invalid key segment [${name}]`);
  return name;
}

export const keyForNode = (ks: KeySpace, nodeId: string) => `${ks.root}nodes/${segment(nodeId)}`;
export const masterPrefix = (ks: KeySpace) => `${ks.root}master/`;
/** The campaign key of a candidate, named by its lease as etcd's own election names it. */
export const keyForCampaign = (ks: KeySpace, leaseId: string) =>
  `${masterPrefix(ks)}${BigInt(leaseId).toString(16)}`;
export const keyForIndex = (ks: KeySpace, uuid: string) =>
  `${ks.root}meta/indices/${segment(uuid)}`;
export const keyForTemplate = (ks: KeySpace, name: string) =>
  `${ks.root}meta/templates/${segment(name)}`;
export const keyForScript = (ks: KeySpace, id: string) => `${ks.root}meta/scripts/${segment(id)}`;
export const keyForPipeline = (ks: KeySpace, id: string) =>
  `${ks.root}meta/pipelines/${segment(id)}`;
export const keyForRepository = (ks: KeySpace, name: string) =>
  `${ks.root}meta/repositories/${segment(name)}`;
export const keyForSettings = (ks: KeySpace) => `${ks.root}meta/settings`;
export const keyForClusterMeta = (ks: KeySpace) => `${ks.root}meta/cluster`;
/** Prefix of every routing key of one index (trailing `/` so uuid `ab` never matches `abc`). */
export const routingPrefix = (ks: KeySpace, uuid: string) => `${ks.root}routing/${segment(uuid)}/`;
export const keyForRouting = (ks: KeySpace, uuid: string, shard: number) =>
  `${routingPrefix(ks, uuid)}${shard}`;
export const termsPrefix = (ks: KeySpace, uuid: string) => `${ks.root}terms/${segment(uuid)}/`;
export const keyForTerms = (ks: KeySpace, uuid: string, shard: number) =>
  `${termsPrefix(ks, uuid)}${shard}`;

/** What a key under the root names; null for a key outside the layout. */
export type ParsedKey =
  | { readonly kind: 'node'; readonly nodeId: string }
  | { readonly kind: 'campaign'; readonly name: string }
  | { readonly kind: 'index'; readonly uuid: string }
  | { readonly kind: 'template'; readonly name: string }
  | { readonly kind: 'script'; readonly id: string }
  | { readonly kind: 'pipeline'; readonly id: string }
  | { readonly kind: 'repository'; readonly name: string }
  | { readonly kind: 'settings' }
  | { readonly kind: 'cluster' }
  | { readonly kind: 'routing'; readonly uuid: string; readonly shard: number }
  | { readonly kind: 'terms'; readonly uuid: string; readonly shard: number };

export function parseKey(ks: KeySpace, key: string): ParsedKey | null {
  if (!key.startsWith(ks.root)) return null;
  const parts = key.slice(ks.root.length).split('/');
  const [a, b, c] = parts;
  if (parts.some((p) => p === '')) return null;
  if (parts.length === 2 && a === 'nodes') return { kind: 'node', nodeId: b! };
  if (parts.length === 2 && a === 'master') return { kind: 'campaign', name: b! };
  if (parts.length === 2 && a === 'meta' && b === 'settings') return { kind: 'settings' };
  if (parts.length === 2 && a === 'meta' && b === 'cluster') return { kind: 'cluster' };
  if (parts.length === 3 && a === 'meta') {
    if (b === 'indices') return { kind: 'index', uuid: c! };
    if (b === 'templates') return { kind: 'template', name: c! };
    if (b === 'scripts') return { kind: 'script', id: c! };
    if (b === 'pipelines') return { kind: 'pipeline', id: c! };
    if (b === 'repositories') return { kind: 'repository', name: c! };
  }
  if (parts.length === 3 && (a === 'routing' || a === 'terms') && /^(0|[1-9]\d*)$/.test(c!))
    return { kind: a, uuid: b!, shard: Number(c) };
  return null;
}
