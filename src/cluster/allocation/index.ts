/** Shard allocation for the master: pure functions from a cluster state to a new one. */
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
