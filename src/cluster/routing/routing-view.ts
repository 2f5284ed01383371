/**
 * The routing view of a node of a cluster: health and `_cat/shards` from the published routing
 * table (with every node's counts of the copies it holds), the elected master, and the master's
 * reroute, explain, recoveries and queue through the cluster's indices.
 */
import type { ClusterHealth } from '../../engine/health.js';
import type { CopyHere, RoutingView, ShardRow, ShardCell } from '../../engine/routing-view.js';
import { clusterHealth } from '../allocation/index.js';
import type { ClusterIndices } from '../cluster-indices.js';
import type { ClusterMembership } from '../membership.js';
import { clusterCopyJson } from './copy-json.js';
import { clusterIndexNames } from './index-names.js';
import { collectShardStats } from './shard-stats.js';

export interface ClusterRoutingDeps {
  readonly clusterName: string;
  readonly membership: ClusterMembership;
  readonly indices: ClusterIndices;
}

const hostAddress = (transportAddress: string) =>
  transportAddress.slice(0, transportAddress.lastIndexOf(':'));

export function clusterRoutingView({
  clusterName,
  membership,
  indices,
}: ClusterRoutingDeps): RoutingView {
  /** `_cluster/health` body from the cluster's routing table. */
  const healthOf = (index: string | undefined, level: 'cluster' | 'indices' | 'shards') => {
    const state = membership.state();
    const names = index === undefined ? undefined : clusterIndexNames(state, index);
    const body = clusterHealth(state, { level, ...(names ? { indices: names } : {}) });
    return { ...body, cluster_name: clusterName } as ClusterHealth;
  };

  return {
    health: (index, level) => ({ health: healthOf(index, level), missing: false }),
    status: () => healthOf(undefined, 'cluster').status,
    nodeCount: () => membership.state().nodes.size,
    masterNodeId: () => membership.state().masterNodeId,

    master() {
      const state = membership.state();
      const m = state.masterNodeId === null ? undefined : state.nodes.get(state.masterNodeId);
      if (!m) return null;
      const host = hostAddress(m.transportAddress);
      return { id: m.id, host, name: m.name };
    },

    async shardRows(index) {
      const stats = await collectShardStats(membership);
      const state = membership.state();
      const names = index === undefined ? [...state.routing.keys()].sort() : clusterIndexNames(state, index); // prettier-ignore
      const rows: ShardRow[] = [];
      for (const name of names) {
        const table = state.routing.get(name);
        if (!table) continue;
        for (const copies of table.shards) {
          for (const c of copies) {
            // ES lists the routing table, where a relocation is its source's row alone
            if (c.state === 'INITIALIZING' && c.relocatingNodeId !== null) continue;
            const n = c.nodeId === null ? undefined : state.nodes.get(c.nodeId);
            const to = c.state === 'RELOCATING' && c.relocatingNodeId !== null ? c.relocatingNodeId : null; // prettier-ignore
            const toNode = to === null ? undefined : state.nodes.get(to);
            const st = c.allocationId && c.state !== 'UNASSIGNED' ? stats.get(c.allocationId.id) : undefined; // prettier-ignore
            const values: Record<string, ShardCell> = {
              index: name,
              shard: c.shard,
              prirep: c.primary ? 'p' : 'r',
              state: c.state,
              docs: st?.docs ?? null,
              store: st?.storeBytes !== undefined ? { bytes: st.storeBytes } : null,
              'segments.count': st?.segments ?? null,
              'seq_no.max': st?.maxSeqNo ?? null,
              sync_id: st?.syncId ?? null,
              ip: n ? hostAddress(n.transportAddress) : null,
              id: n ? n.id : null,
              node: !n ? null : to === null ? n.name : `${n.name} -> ${toNode ? hostAddress(toNode.transportAddress) : ''} ${to} ${toNode?.name ?? to}`, // prettier-ignore
              'unassigned.reason': c.unassignedInfo?.reason ?? null,
              'unassigned.at': c.unassignedInfo
                ? new Date(c.unassignedInfo.at).toISOString()
                : null,
            };
            rows.push({ values, others: 'empty' });
          }
        }
      }
      return rows;
    },

    async recoveries(live, human, activeOnly) {
      const out: Record<string, Array<Record<string, unknown>>> = {};
      const got = await indices.recoveries(
        live.map((i) => i.name),
        human,
        activeOnly,
      );
      for (const i of live) if (got[i.name]) out[i.name] = got[i.name] as Array<Record<string, unknown>>; // prettier-ignore
      return out;
    },

    reroute: (commands, opts) => indices.reroute(commands, opts),
    explain: (request) => indices.explain(request),
    pendingTasks: () => indices.pendingTasks(),

    peerUrl(nodeId) {
      if (nodeId === membership.localNode.id) return null;
      const n = membership.state().nodes.get(nodeId);
      return n ? `http://${n.httpAddress}` : null;
    },

    copiesJson(idx) {
      const table = membership.state().routing.get(idx.name);
      return table ? table.shards.map((copies) => copies.map(clusterCopyJson)) : null;
    },
    publishedTerms: (idx) => membership.state().metadata.indices.get(idx.name)?.terms,

    copiesHere(idx) {
      // every node opens every index; only the copies assigned here hold documents
      const table = membership.state().routing.get(idx.name);
      const out: CopyHere[] = [];
      for (let n = 0; n < idx.numberOfShards; n++) {
        if (!table) {
          out.push({ shard: n, primary: true, state: 'STARTED', allocationId: null });
          continue;
        }
        const c = table.shards[n]?.find((x) => x.nodeId === membership.localNode.id && x.allocationId); // prettier-ignore
        if (c) out.push({ shard: n, primary: c.primary, state: c.state, allocationId: c.allocationId?.id ?? null }); // prettier-ignore
      }
      return out;
    },
  };
}
