/**
 * What the REST layer reads from a cluster's routing table: `_cluster/health`, and `_cat/shards`
 * with every node's counts of the copies it holds.
 */
import { clusterHealth } from '../../cluster/allocation/index.js';
import type { ClusterState } from '../../cluster/state.js';
import type { ClusterMembership } from '../../cluster/membership.js';
import { simpleMatch } from '../../engine/index-names.js';
import { indexNotFoundFor } from '../../engine/documents.js';
import type { NodeContext } from '../../node-context.js';
import { ByteSize, type Cell } from '../../cat/table.js';
import { indexStats } from './cat.js';
import { SHARDS_COLUMNS } from '../../cat/columns.js';

/** Index names of the cluster state an expression names (names, wildcards, `_all`). */
export function clusterIndexNames(state: ClusterState, expr: string): string[] {
  const all = [...state.metadata.indices.keys()].sort();
  if (expr === '_all' || expr === '*') return all;
  const out = new Set<string>();
  for (const part of expr.split(',')) {
    const hits = all.filter((n) => simpleMatch(part, n));
    if (hits.length === 0 && !part.includes('*')) throw indexNotFoundFor(part);
    for (const h of hits) out.add(h);
  }
  return [...out];
}

/** `_cluster/health` body from the cluster's routing table. */
export function healthInCluster(node: NodeContext, index: string | undefined, level: string) {
  const state = node.cluster!.state();
  const indices = index === undefined ? undefined : clusterIndexNames(state, index);
  const body = clusterHealth(state, {
    level: level as 'cluster' | 'indices' | 'shards',
    ...(indices ? { indices } : {}),
  });
  return { ...body, cluster_name: node.clusterName };
}

export const SHARD_STATS_ACTION = 'indices:monitor/shards[n]';

interface CopyStats {
  docs: number;
  segments: number;
  maxSeqNo: number;
  /** The copy's sync id since its last synced flush (null: none, or written since). */
  syncId?: string | null;
  /** The copy's share of its index's store on this node, by its documents. */
  storeBytes?: number;
}

/** Answers, for every started copy this node holds, its document count (keyed by allocation id). */
export function registerShardStats(node: NodeContext, membership: ClusterMembership): void {
  membership.handle(SHARD_STATS_ACTION, () => {
    const state = membership.state();
    const out: Record<string, CopyStats> = {};
    for (const table of state.routing.values())
      for (const copies of table.shards)
        for (const c of copies) {
          if (c.nodeId !== node.nodeId || !c.allocationId) continue;
          const idx = node.indices.get(c.index);
          if (!idx || idx.uuid !== c.indexUuid) continue;
          const shard = idx.shard(c.shard);
          const st = shard.search?.stats();
          const docs = st?.docs ?? 0;
          // as the lone node's _cat/shards: the index's store split by documents
          const total = indexStats(idx);
          const storeBytes = total.docs > 0 ? Math.round((total.bytes * docs) / total.docs) : Math.round(total.bytes / idx.numberOfShards); // prettier-ignore
          out[c.allocationId.id] = { docs, segments: st?.segments ?? 0, maxSeqNo: shard.maxSeqNo, syncId: shard.syncId, storeBytes }; // prettier-ignore
        }
    return out;
  });
}

const hostAddress = (transportAddress: string) =>
  transportAddress.slice(0, transportAddress.lastIndexOf(':'));

/** `_cat/shards` rows from the cluster's routing table, with every node's counts of its copies. */
export async function catShardsInCluster(
  node: NodeContext,
  index: string | undefined,
): Promise<Cell[][]> {
  const stats = new Map<string, CopyStats>();
  const collected = await node.cluster!.collect(SHARD_STATS_ACTION, {}, 10_000);
  for (const r of collected.results.values())
    for (const [aid, st] of Object.entries(r as Record<string, CopyStats>)) stats.set(aid, st);
  const state = node.cluster!.state();
  const names = index === undefined ? [...state.routing.keys()].sort() : clusterIndexNames(state, index); // prettier-ignore
  const rows: Cell[][] = [];
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
        const values: Record<string, Cell> = {
          index: name,
          shard: c.shard,
          prirep: c.primary ? 'p' : 'r',
          state: c.state,
          docs: st?.docs ?? null,
          store: st?.storeBytes !== undefined ? new ByteSize(st.storeBytes) : null,
          'segments.count': st?.segments ?? null,
          'seq_no.max': st?.maxSeqNo ?? null,
          sync_id: st?.syncId ?? null,
          ip: n ? hostAddress(n.transportAddress) : null,
          id: n ? n.id : null,
          node: !n ? null : to === null ? n.name : `${n.name} -> ${toNode ? hostAddress(toNode.transportAddress) : ''} ${to} ${toNode?.name ?? to}`, // prettier-ignore
          'unassigned.reason': c.unassignedInfo?.reason ?? null,
          'unassigned.at': c.unassignedInfo ? new Date(c.unassignedInfo.at).toISOString() : null,
        };
        rows.push(SHARDS_COLUMNS.map((col) => (col.name in values ? values[col.name]! : null)));
      }
    }
  }
  return rows;
}
