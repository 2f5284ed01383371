/**
 * A count search (ES TransportCountAction runs a size-0 search): over this node's shards, or —
 * in a cluster — over every shard on the node of a copy the routing picks. `_count` and
 * `_cat/count` (through filtering aliases) both run it.
 */
import { executeCount } from '../dsl/search/count.js';
import { shardTargets } from '../dsl/search/execute.js';
import type { ClusterCountRequest } from '../cluster/search/index.js';
import type { NodeContext } from '../node-context.js';

export type CountRequest = ClusterCountRequest;

export async function runCount(
  node: NodeContext,
  r: CountRequest,
): Promise<Record<string, unknown>> {
  if (node.cluster && node.clusterSearch) return node.clusterSearch.count(r);
  const { shardFilter, ...opts } = r.opts;
  return executeCount(shardTargets(r.indices, shardFilter), r.query, opts);
}
