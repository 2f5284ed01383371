/**
 * The body of GET _cluster/state as ES 6.8 writes it (RestClusterStateAction,
 * TransportClusterStateAction, ClusterState.toXContent), field order included: the parts the
 * metric list asks for, metadata and routing restricted to the indices an expression names.
 * There is no `compressed_size_in_bytes`: 6.7 dropped it unless the JVM has
 * -Des.cluster_state.size=true.
 */
import { indexBlocks } from '../engine/index-blocks.js';
import type { IndicesOptions } from '../engine/index-names.js';
import type { IndexService } from '../engine/index-service.js';
import { allocationId, type ShardRouting } from '../engine/shard-routing.js';
import type { NodeContext } from '../node-context.js';
import type { PublishedTerms } from '../engine/routing-view.js';
import { StateVersions, type StateVersion } from './cluster-state-version.js';
import { mappingsJson, settingsJson } from './routes/indices.js';
import { clusterUuidOf } from './cluster-identity.js';

/** ES ClusterState.Metric, in its order. */
export const METRICS = [
  'version',
  'master_node',
  'blocks',
  'nodes',
  'metadata',
  'routing_table',
  'routing_nodes',
  'customs',
] as const;
export type Metric = (typeof METRICS)[number];

/**
 * ES ClusterState.Metric.parseString(param, ignoreUnknown = true), as the REST action calls it:
 * names split on commas (not trimmed), `_all` is every metric, and unknown names are dropped.
 */
export function parseMetrics(param: string | undefined): Set<Metric> {
  if (param === undefined) return new Set(METRICS);
  const out = new Set<Metric>();
  for (const m of param.split(',')) {
    if (m === '_all') return new Set(METRICS);
    if ((METRICS as readonly string[]).includes(m)) out.add(m as Metric);
  }
  return out;
}

export interface ClusterStateRequest {
  metrics: ReadonlySet<Metric>;
  /** An index expression; undefined, empty or `_all` means every index, unfiltered. */
  indices: string | undefined;
  /** Default: ES ClusterStateRequest's lenientExpandOpen. */
  options: IndicesOptions;
  flatSettings: boolean;
  /** `wait_for_metadata_version`: answer once the version reaches it, or time out. */
  waitForVersion?: number;
  waitTimeoutMs: number;
}

/**
 * The response body. With `wait_for_metadata_version` it starts with `wait_for_timed_out`; on a
 * timeout it carries no state, as in ES 7 (6.8's REST action fails on the missing state).
 */
export async function clusterStateResponse(
  node: NodeContext,
  versions: StateVersions,
  req: ClusterStateRequest,
): Promise<Record<string, unknown>> {
  // the fingerprint costs a second pass over the state: only taken when a version is needed
  if (req.waitForVersion === undefined) return build(node, () => observe(node, versions), req);
  const deadline = Date.now() + req.waitTimeoutMs;
  for (;;) {
    const v = observe(node, versions);
    if (v.version >= req.waitForVersion)
      return { wait_for_timed_out: false, ...build(node, () => v, req) };
    const left = deadline - Date.now();
    if (left <= 0) return { wait_for_timed_out: true, cluster_name: node.clusterName };
    // each look fingerprints the whole state: poll gently
    await new Promise((r) => setTimeout(r, Math.min(100, left)));
  }
}

/** The state's version: everything a state change would change goes into the fingerprint. */
function observe(node: NodeContext, versions: StateVersions): StateVersion {
  const all = node.indices.all();
  return versions.observe([
    metadataJson(node, null, true),
    blocksJson(all),
    routingTableJson(all, node),
    node.store.getMeta<unknown>('cluster:settings') ?? null,
  ]);
}

function build(
  node: NodeContext,
  version: () => StateVersion,
  req: ClusterStateRequest,
): Record<string, unknown> {
  const m = req.metrics;
  const all = req.indices === undefined || req.indices === '' || req.indices === '_all';
  // ES resolves the expression only for the parts it restricts, so a missing index fails only
  // a request for metadata or routing.
  const restricted =
    !all && (m.has('metadata') || m.has('routing_table') || m.has('routing_nodes'))
      ? node.indices.resolve(req.indices, req.options)
      : null;
  const out: Record<string, unknown> = {
    cluster_name: node.clusterName,
    cluster_uuid: clusterUuidOf(node),
  };
  if (m.has('version')) {
    const v = version();
    out.version = v.version;
    out.state_uuid = v.stateUuid;
  }
  if (m.has('master_node')) out.master_node = node.routing.masterNodeId();
  // ES copies the blocks whole, whatever the indices
  if (m.has('blocks')) out.blocks = blocksJson(node.indices.all());
  if (m.has('nodes')) out.nodes = nodesJson(node);
  if (m.has('metadata')) out.metadata = metadataJson(node, restricted, req.flatSettings);
  const routed = restricted ?? node.indices.all();
  if (m.has('routing_table')) out.routing_table = routingTableJson(routed, node);
  if (m.has('routing_nodes')) {
    // The node is in the state only when nodes (or master_node) were asked for; then it is listed
    // even without shards (ES RoutingNodes starts from the state's data nodes).
    const withNode = m.has('nodes') || m.has('master_node');
    out.routing_nodes = routingNodesJson(routed, node, withNode);
  }
  return out;
}

/** ES ClusterBlock.toXContent per index; no global blocks exist here. */
function blocksJson(indices: readonly IndexService[]): Record<string, unknown> {
  const byIndex: Record<string, unknown> = {};
  for (const idx of indices) {
    const blocks = indexBlocks(idx.meta.settings, idx.closed);
    if (blocks.length === 0) continue;
    byIndex[idx.name] = Object.fromEntries(
      blocks.map((b) => [
        String(b.id),
        { description: b.description, retryable: false, levels: [...b.levels] },
      ]),
    );
  }
  return Object.keys(byIndex).length > 0 ? { indices: byIndex } : {};
}

/** ES DiscoveryNode.toXContent of the cluster's nodes (a lone node publishes no attributes). */
export function nodesJson(node: NodeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of node.members.nodes()) {
    out[n.id] = {
      name: n.name,
      ephemeral_id: n.ephemeralId,
      transport_address: n.transportAddress,
      attributes: { ...n.attributes },
    };
  }
  return out;
}

/**
 * ES ClusterState.toXContent's metadata. Restricted to some indices, ES starts from an empty
 * MetaData: no templates, and only the fresh (empty) index graveyard among the customs.
 */
function metadataJson(
  node: NodeContext,
  restricted: readonly IndexService[] | null,
  flat: boolean,
): Record<string, unknown> {
  const indices: Record<string, unknown> = {};
  for (const idx of restricted ?? node.indices.all())
    indices[idx.name] = indexMetadataJson(idx, flat, node.routing.publishedTerms(idx));
  const out: Record<string, unknown> = {
    cluster_uuid: clusterUuidOf(node),
    templates: restricted ? {} : templatesJson(node, flat),
    indices,
    // Quarry keeps no tombstones of deleted indices
    'index-graveyard': { tombstones: [] },
  };
  const scripts = restricted ? {} : node.indices.scripts.all();
  const ids = Object.keys(scripts).sort();
  if (ids.length > 0) {
    out.stored_scripts = Object.fromEntries(
      ids.map((id) => {
        const s = scripts[id]!;
        return [
          id,
          { lang: s.lang, source: s.source, ...(s.options ? { options: s.options } : {}) },
        ];
      }),
    );
  }
  return out;
}

/** Only these four fields: the cluster state leaves out a template's version and aliases. */
function templatesJson(node: NodeContext, flat: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of node.indices.templates.all()) {
    out[t.name] = {
      index_patterns: t.indexPatterns,
      order: t.order,
      settings: settingsJson(t.settings, flat),
      mappings: t.mappings,
    };
  }
  return out;
}

/** `terms`: each shard's primary term and in-sync copies as a cluster published them. */
function indexMetadataJson(
  idx: IndexService,
  flat: boolean,
  terms?: readonly PublishedTerms[],
): Record<string, unknown> {
  const shards = Array.from({ length: idx.numberOfShards }, (_, i) => i);
  return {
    state: idx.meta.state,
    settings: settingsJson(idx.meta.settings, flat),
    mappings: mappingsJson(idx, true),
    aliases: Object.keys(idx.meta.aliases).sort(),
    // a lone node: every shard has the index's one primary term and its one copy
    primary_terms: Object.fromEntries(
      shards.map((s) => [String(s), terms?.[s]?.primaryTerm ?? idx.meta.primaryTerm]),
    ),
    in_sync_allocations: Object.fromEntries(
      shards.map((s) => [String(s), terms ? [...(terms[s]?.inSync ?? [])] : [allocationId(idx.uuid, s)]]), // prettier-ignore
    ),
  };
}

/** Each shard's copies as JSON: the cluster's routing table, or a lone node's own copies. */
export function copiesOf(node: NodeContext, idx: IndexService): Record<string, unknown>[][] | null {
  return node.routing.copiesJson(idx);
}

function routingTableJson(
  indices: readonly IndexService[],
  node: NodeContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const idx of indices) {
    const routing = copiesOf(node, idx);
    if (routing)
      out[idx.name] = { shards: Object.fromEntries(routing.map((c, s) => [String(s), c])) };
  }
  return { indices: out };
}

/** ES RoutingNodes: unassigned copies in one list, assigned ones under their node. */
function routingNodesJson(
  indices: readonly IndexService[],
  node: NodeContext,
  withNode: boolean,
): Record<string, unknown> {
  const unassigned: Record<string, unknown>[] = [];
  const byNode = new Map<string, Record<string, unknown>[]>();
  // the state's data nodes are listed even without copies (when nodes were asked for)
  if (withNode) for (const n of node.members.nodes()) byNode.set(n.id, []);
  for (const idx of indices)
    for (const copies of copiesOf(node, idx) ?? [])
      for (const c of copies) {
        const at = c.node as string | null;
        if (at === null) unassigned.push(c);
        else byNode.set(at, [...(byNode.get(at) ?? []), c]);
      }
  return { unassigned, nodes: Object.fromEntries(byNode) };
}
