/**
 * `POST _cluster/reroute` and `GET|POST _cluster/allocation/explain` (ES 6.8
 * RestClusterRerouteAction, RestClusterAllocationExplainAction): the node's routing view runs
 * them — the master's allocation in a cluster, the state a lone node's engine implies otherwise
 * (http/local-routing-view.ts).
 */
import { parseExplainRequest, parseRerouteCommands } from '../../cluster/allocation/index.js';
import { LENIENT_EXPAND_OPEN } from '../../engine/index-names.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import type { NodeContext } from '../../node-context.js';
import { clusterStateResponse, METRICS, parseMetrics } from '../cluster-state.js';
import type { StateVersions } from '../cluster-state-version.js';
import { checkParams } from '../params.js';
import { bodyObject, boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';

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
    const { explanations } = await node.routing.reroute(parsed.commands, {
      dryRun,
      explain,
      retryFailed,
    });
    const rendered = await clusterStateResponse(node, versions, {
      metrics: parseMetrics(param(req, 'metric') ?? REROUTE_DEFAULT_METRICS),
      indices: undefined,
      options: LENIENT_EXPAND_OPEN,
      flatSettings: false,
      waitTimeoutMs: 0,
    });
    const body: Record<string, unknown> = { acknowledged: true, state: rendered };
    if (explain) body.explanations = explanations ?? [];
    return { status: 200, body };
  });

  const explainHandler: Handler = async (req) => {
    checkParams(req, ['include_yes_decisions', 'include_disk_info']);
    const request = parseExplainRequest(bodyObject(req));
    const body = await node.routing.explain({
      ...request,
      includeYesDecisions: boolParam(req, 'include_yes_decisions', false),
      includeDiskInfo: boolParam(req, 'include_disk_info', false),
    });
    return { status: 200, body };
  };
  router.add(['GET', 'POST'], '/_cluster/allocation/explain', explainHandler);
}
