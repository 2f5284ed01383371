/**
 * Shard allocation for the master (ES AllocationService and friends): pure functions from a
 * cluster state to a new one; none mutates its input or changes `ClusterState.version` (the etcd
 * write that publishes the state sets it).
 *
 * How the master uses them:
 * - index created: metadata with `terms: newIndexTerms(n)`, routing `newIndexRouting(meta, now)`,
 *   then `reroute`;
 * - a node's copy finished recovering: `shardStarted` (adds it to the in-sync set), then `reroute`;
 * - a copy failed: `shardFailed` (with `markAsStale` when its primary reports it stale), `reroute`;
 * - nodes left: `nodesLeft`, then `reroute`; joined: `nodesJoined` (reroutes);
 * - a delayed copy waits: schedule a `reroute` after `nextDelayedAllocation(state, now)` millis;
 * - number_of_replicas changed: `updateNumberOfReplicas` plus the metadata, then `reroute`;
 * - REST: `parseRerouteCommands` + `applyRerouteCommands` (`_cluster/reroute`),
 *   `parseExplainRequest` + `explainAllocation` (`_cluster/allocation/explain`), `clusterHealth`.
 */
export type { AllocationContext } from './context.js';
export { reroute, type RerouteResult, type StuckCopy } from './reroute.js';
export {
  markInSync,
  newIndexRouting,
  newIndexTerms,
  nextDelayedAllocation,
  nodesJoined,
  nodesLeft,
  removeFromInSync,
  shardFailed,
  shardStarted,
  updateNumberOfReplicas,
} from './events.js';
export { FORCED_ALLOCATION_ID } from './work.js';
export {
  applyRerouteCommands,
  parseRerouteCommands,
  resolveNode,
  type ApplyOptions,
  type ApplyResult,
  type RerouteCommand,
  type RerouteExplanation,
} from './commands.js';
export { explainAllocation, parseExplainRequest, type ExplainRequest } from './explain.js';
export {
  clusterHealth,
  shardHealth,
  type ClusterHealthBody,
  type HealthOptions,
  type HealthStatus,
  type IndexHealth,
  type ShardHealth,
} from './health.js';
