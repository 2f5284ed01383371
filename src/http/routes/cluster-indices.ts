/**
 * The index APIs a clustered node serves while its data path is per node (ClusterMembership
 * `dataPlane` false): creating and deleting indices through the master, `_cat/shards` and
 * `_cluster/health` from the cluster's routing table. Registered ahead of the lone node's
 * handlers, which they hand over to when the node runs alone.
 */
import { EsError } from '../../common/errors.js';
import { clusterHealth } from '../../cluster/allocation/index.js';
import type { ClusterState } from '../../cluster/state.js';
import { simpleMatch } from '../../engine/index-names.js';
import { indexNotFoundFor } from '../../engine/documents.js';
import { settingsAtTopLevel } from '../../engine/indices-service.js';
import type { NodeContext } from '../../node-context.js';
import type { Cell } from '../../cat/table.js';
import { SHARDS_COLUMNS } from '../../cat/columns.js';
import type { RestResponse } from '../rest.js';

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

/** PUT /{index} on a clustered node. */
export async function createInCluster(node: NodeContext, name: string, body: unknown) {
  const b = settingsAtTopLevel(body as Record<string, unknown> | undefined) ?? {};
  for (const k of Object.keys(b)) {
    if (k !== 'settings' && k !== 'mappings')
      throw new EsError(
        'illegal_argument_exception',
        `[${k}] at index creation is not supported yet in cluster mode: create the index with settings and mappings only`,
        400,
      );
  }
  const r = await node.cluster!.indices!.create(
    name,
    { settings: b.settings ?? {}, ...(b.mappings !== undefined ? { mappings: b.mappings } : {}) },
    30_000,
  );
  return {
    status: 200,
    body: { acknowledged: true, shards_acknowledged: r.shardsAcknowledged, index: name },
  };
}

/** DELETE /{index} on a clustered node. */
export async function deleteInCluster(node: NodeContext, expr: string): Promise<RestResponse> {
  const names = clusterIndexNames(node.cluster!.state(), expr);
  if (names.length > 0) await node.cluster!.indices!.delete(names);
  return { status: 200, body: { acknowledged: true } };
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

/** `_cat/shards` rows from the cluster's routing table (document counts for local copies). */
export function catShardsInCluster(node: NodeContext, index: string | undefined): Cell[][] {
  const state = node.cluster!.state();
  const names = index === undefined ? [...state.routing.keys()].sort() : clusterIndexNames(state, index); // prettier-ignore
  const rows: Cell[][] = [];
  for (const name of names) {
    const table = state.routing.get(name);
    if (!table) continue;
    for (const copies of table.shards) {
      for (const c of copies) {
        const n = c.nodeId === null ? undefined : state.nodes.get(c.nodeId);
        const local = c.nodeId === node.nodeId ? node.indices.get(name) : undefined;
        const docs = local?.shard(c.shard).search?.stats().docs ?? null;
        const values: Record<string, Cell> = {
          index: name,
          shard: c.shard,
          prirep: c.primary ? 'p' : 'r',
          state: c.state,
          docs,
          ip: n ? n.transportAddress.slice(0, n.transportAddress.lastIndexOf(':')) : null,
          id: n ? n.id : null,
          node: n ? n.name : null,
          'unassigned.reason': c.unassignedInfo?.reason ?? null,
          'unassigned.at': c.unassignedInfo ? new Date(c.unassignedInfo.at).toISOString() : null,
        };
        rows.push(SHARDS_COLUMNS.map((col) => (col.name in values ? values[col.name]! : null)));
      }
    }
  }
  return rows;
}
