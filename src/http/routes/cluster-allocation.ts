/**
 * `POST _cluster/reroute` and `GET|POST _cluster/allocation/explain` (ES 6.8
 * RestClusterRerouteAction, RestClusterAllocationExplainAction), run by the cluster layer's
 * allocation functions on the node's cluster state — for a lone node the state its engine implies
 * (cluster/local-state.ts). A lone node cannot carry out a command that would place or move a
 * copy: that is refused with a clear error and changes nothing; `dry_run` shows the outcome.
 */
import { randomBase64Uuid } from '../../common/ids.js';
import { EsError } from '../../common/errors.js';
import {
  applyRerouteCommands,
  explainAllocation,
  parseExplainRequest,
  parseRerouteCommands,
  type AllocationContext,
} from '../../cluster/allocation/index.js';
import { localClusterState, sameRouting } from '../../cluster/local-state.js';
import type { ClusterState, DiscoveryNode } from '../../cluster/state.js';
import { QUARRY_VERSION, SPOKEN_ES_VERSION } from '../../cluster/version.js';
import { LENIENT_EXPAND_OPEN } from '../../engine/index-names.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import type { NodeContext } from '../../node-context.js';
import { clusterStateResponse, METRICS, parseMetrics } from '../cluster-state.js';
import type { StateVersions } from '../cluster-state-version.js';
import { checkParams } from '../params.js';
import { bodyObject, boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import { transportAddress } from './nodes.js';

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

/** ES RestClusterRerouteAction: every metric but metadata unless `metric` names others. */
const REROUTE_DEFAULT_METRICS = METRICS.filter((m) => m !== 'metadata').join(',');

export function registerClusterAllocationRoutes(
  router: Router<Handler>,
  node: NodeContext,
  versions: StateVersions,
): void {
  router.add('POST', '/_cluster/reroute', async (req) => {
    checkParams(req, ['dry_run', 'explain', 'retry_failed', 'metric', 'master_timeout', 'timeout']);
    parseTimeValueMs(param(req, 'master_timeout') ?? '30s', 'master_timeout');
    parseTimeValueMs(param(req, 'timeout') ?? '30s', 'timeout');
    const parsed = parseRerouteCommands(bodyObject(req));
    const dryRun = boolParam(req, 'dry_run', parsed.dryRun ?? false);
    const explain = boolParam(req, 'explain', false);
    const retryFailed = boolParam(req, 'retry_failed', false);
    let clusterExplanations: unknown[] | undefined;
    if (node.cluster?.indices) {
      const r = await node.cluster.indices.reroute(parsed.commands, {
        dryRun,
        explain,
        retryFailed,
      });
      clusterExplanations = r.explanations;
    } else {
      const state = currentState(node);
      const result = applyRerouteCommands(state, parsed.commands, allocationContext(node, state), {
        dryRun,
        explain,
        retryFailed,
      });
      if (result.apply && !sameRouting(state, result.state)) {
        throw new EsError(
          'illegal_argument_exception',
          `[cluster_reroute] this node runs alone and cannot carry out the allocation the commands lead to (moving, starting or cancelling a shard copy); nothing was changed — use dry_run to see the outcome`,
          400,
        );
      }
      clusterExplanations = result.explanations;
    }
    const rendered = await clusterStateResponse(node, versions, {
      metrics: parseMetrics(param(req, 'metric') ?? REROUTE_DEFAULT_METRICS),
      indices: undefined,
      options: LENIENT_EXPAND_OPEN,
      flatSettings: false,
      waitTimeoutMs: 0,
    });
    const body: Record<string, unknown> = { acknowledged: true, state: rendered };
    if (explain) body.explanations = clusterExplanations ?? [];
    return { status: 200, body };
  });

  const explainHandler: Handler = async (req) => {
    checkParams(req, ['include_yes_decisions', 'include_disk_info']);
    const request = parseExplainRequest(bodyObject(req));
    if (node.cluster?.indices) {
      const body = await node.cluster.indices.explain({
        ...request,
        includeYesDecisions: boolParam(req, 'include_yes_decisions', false),
        includeDiskInfo: boolParam(req, 'include_disk_info', false),
      });
      return { status: 200, body };
    }
    const state = currentState(node);
    const body = explainAllocation(state, allocationContext(node, state), {
      ...request,
      includeYesDecisions: boolParam(req, 'include_yes_decisions', false),
      includeDiskInfo: boolParam(req, 'include_disk_info', false),
    });
    return { status: 200, body };
  };
  router.add(['GET', 'POST'], '/_cluster/allocation/explain', explainHandler);
}
