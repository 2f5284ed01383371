/**
 * The routing view of a lone node: it is its own master and holds every primary; replicas can
 * never be assigned, so they are listed unassigned. Reroute and explain run the cluster layer's
 * allocation functions on the state its engine implies (cluster/local-state.ts); a command that
 * would place or move a copy is refused with a clear error and changes nothing, while `dry_run`
 * shows the outcome. Nothing ever waits in its master's queue.
 */
import { randomBase64Uuid } from '../common/ids.js';
import { EsError } from '../common/errors.js';
import {
  applyRerouteCommands,
  explainAllocation,
  type AllocationContext,
} from '../cluster/allocation/index.js';
import { localClusterState, sameRouting } from '../cluster/local-state.js';
import type { ClusterState, DiscoveryNode } from '../cluster/state.js';
import { QUARRY_VERSION, SPOKEN_ES_VERSION } from '../cluster/version.js';
import { clusterHealth, indexHealth, type ClusterHealth } from '../engine/health.js';
import { STRICT_EXPAND_OPEN_CLOSED, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../engine/index-names.js'; // prettier-ignore
import { recoveryEntry } from '../engine/recovery-entry.js';
import { indexRouting } from '../engine/shard-routing.js';
import type { RoutingView, ShardRow } from '../engine/routing-view.js';
import { shardStoreShare } from '../engine/shard-store-share.js';
import type { NodeContext } from '../node-context.js';
import { transportAddress } from './routes/nodes.js';

/** This node as the cluster state lists it. */
export function localDiscoveryNode(node: NodeContext): DiscoveryNode {
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(node.settings.raw))
    if (k.startsWith('node.attr.')) attributes[k.slice('node.attr.'.length)] = v;
  return {
    id: node.nodeId,
    name: node.nodeName,
    ephemeralId: node.ephemeralId,
    transportAddress: transportAddress(node),
    httpAddress: node.publishAddress,
    attributes,
    version: QUARRY_VERSION,
    esVersion: SPOKEN_ES_VERSION,
    roles: ['master', 'data', 'ingest'],
  };
}

function currentState(node: NodeContext): ClusterState {
  const settings = node.store.getMeta<{
    persistent: Record<string, string>;
    transient: Record<string, string>;
  }>('cluster:settings');
  return localClusterState({
    clusterName: node.clusterName,
    clusterUuid: node.clusterUuid,
    version: 0,
    node: localDiscoveryNode(node),
    startedAt: node.startedAt,
    indices: node.indices.all(),
    persistentSettings: settings?.persistent ?? {},
    transientSettings: settings?.transient ?? {},
  });
}

function allocationContext(node: NodeContext, state: ClusterState): AllocationContext {
  return {
    now: Date.now(),
    settings: node.clusterSettings?.() ?? {},
    // the copies on disk: each started primary, on this node
    copies(indexUuid, shard) {
      for (const table of state.routing.values()) {
        if (table.indexUuid !== indexUuid) continue;
        const p = table.shards[shard]?.find((c) => c.primary && c.allocationId);
        if (p?.nodeId && p.allocationId) return new Map([[p.nodeId, p.allocationId.id]]);
      }
      return new Map();
    },
    newAllocationId: randomBase64Uuid,
  };
}

/** The host part of the address clients reach the node on. */
const publishHost = (node: NodeContext) => node.publishAddress.split(':')[0] || node.settings.host;

/** `nodeOf`: the node, complete by the time a route asks (the view is built with it). */
export function localRoutingView(nodeOf: () => NodeContext): RoutingView {
  return {
    health(index, level) {
      const node = nodeOf();
      let targets = node.indices.all();
      let missing = false;
      if (index) {
        try {
          targets = node.indices.resolve(index, STRICT_EXPAND_OPEN_CLOSED);
        } catch (e) {
          if (e instanceof EsError && e.status === 404) {
            missing = true;
            targets = [];
          } else throw e;
        }
      }
      const h: ClusterHealth = clusterHealth(node.clusterName, targets);
      if (missing) h.status = 'red';
      if (level !== 'cluster') {
        h.indices = {};
        for (const i of targets) {
          const ih: Record<string, unknown> = { ...indexHealth(i) };
          if (level === 'shards') {
            const shards: Record<string, unknown> = {};
            for (let s = 0; s < i.numberOfShards; s++) {
              shards[String(s)] = {
                status: ih.status,
                primary_active: !i.failed,
                active_shards: i.failed ? 0 : 1,
                relocating_shards: 0,
                initializing_shards: 0,
                unassigned_shards: i.numberOfReplicas + (i.failed ? 1 : 0),
              };
            }
            ih.shards = shards;
          }
          h.indices[i.name] = ih as never;
        }
      }
      return { health: h, missing };
    },

    status() {
      const node = nodeOf();
      return clusterHealth(
        node.clusterName,
        node.indices.all().filter((i) => !i.closed),
      ).status;
    },
    nodeCount: () => 1,
    masterNodeId: () => nodeOf().nodeId,

    master() {
      const node = nodeOf();
      const host = publishHost(node);
      return { id: node.nodeId, host, name: node.nodeName };
    },

    async shardRows(index) {
      const node = nodeOf();
      // ES RestShardsAction lists the routing table, where closed indices have no entry, and asks
      // the indices stats of the named ones, which refuses a closed index by name
      const targets = index
        ? node.indices.resolve(index, STRICT_EXPAND_OPEN_FORBID_CLOSED)
        : node.indices.all().filter((i) => !i.closed);
      const rows: ShardRow[] = [];
      const host = publishHost(node);
      for (const idx of targets) {
        for (const shard of idx.shards) {
          const s = shard.search?.stats();
          const docs = s?.docs ?? 0;
          const bytes = shardStoreShare(idx, docs);
          // A red index (failed to open) has no started primary.
          const down = idx.closed || idx.failed;
          rows.push({
            values: {
              index: idx.name,
              shard: shard.id,
              prirep: 'p',
              state: down ? 'UNASSIGNED' : 'STARTED',
              docs: down ? null : docs,
              store: down ? null : { bytes },
              ip: down ? null : host,
              id: down ? null : node.nodeId.slice(0, 4),
              node: down ? null : node.nodeName,
              ...(idx.failed ? { 'unassigned.reason': 'ALLOCATION_FAILED' } : {}),
              sync_id: shard.syncId,
              'segments.count': s?.segments ?? 0,
              'seq_no.max': shard.maxSeqNo,
              'seq_no.local_checkpoint': shard.maxSeqNo,
              'seq_no.global_checkpoint': shard.maxSeqNo,
            },
            others: 'zero',
          });
          for (let r = 0; r < idx.numberOfReplicas; r++) {
            rows.push({
              values: {
                index: idx.name,
                shard: shard.id,
                prirep: 'r',
                state: 'UNASSIGNED',
                docs: null,
                store: null,
                ip: null,
                id: null,
                node: null,
                'unassigned.reason': 'INDEX_CREATED',
                'unassigned.at': new Date(idx.meta.creationDate).toISOString(),
              },
              others: 'empty',
            });
          }
        }
      }
      return rows;
    },

    // every copy here was recovered from its own store when the node started: none is active
    async recoveries(live, human, activeOnly) {
      const node = nodeOf();
      const out: Record<string, Array<Record<string, unknown>>> = {};
      if (activeOnly) return out;
      const self = { id: node.nodeId, name: node.nodeName, transportAddress: transportAddress(node) }; // prettier-ignore
      for (const idx of live)
        out[idx.name] = idx.shards.map((shard) => recoveryEntry(shard.id, shard.recovery, true, self, human)); // prettier-ignore
      return out;
    },

    async reroute(commands, opts) {
      const node = nodeOf();
      const state = currentState(node);
      const result = applyRerouteCommands(state, commands, allocationContext(node, state), opts);
      if (result.apply && !sameRouting(state, result.state)) {
        throw new EsError(
          'illegal_argument_exception',
          `[cluster_reroute] this node runs alone and cannot carry out the allocation the commands lead to (moving, starting or cancelling a shard copy); nothing was changed — use dry_run to see the outcome`,
          400,
        );
      }
      return { explanations: result.explanations };
    },

    async explain(request) {
      const node = nodeOf();
      const state = currentState(node);
      return explainAllocation(state, allocationContext(node, state), request);
    },

    copiesJson(idx) {
      const node = nodeOf();
      const here = { nodeId: node.nodeId, startedAt: node.startedAt };
      return indexRouting(idx, here) as unknown as Record<string, unknown>[][] | null;
    },
    // every shard has the index's one primary term and its one copy
    publishedTerms: () => undefined,

    // a lone node's metadata changes run at once: nothing ever waits
    pendingTasks: async () => [],
    peerUrl: () => null,
    copiesHere: (idx) =>
      Array.from({ length: idx.numberOfShards }, (_, shard) => ({
        shard,
        primary: true,
        state: 'STARTED',
        allocationId: null,
      })),
  };
}
