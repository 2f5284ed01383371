/**
 * Cluster APIs: `_cluster/health` (with wait_for_* and timeouts answered as Elasticsearch does,
 * 408 on timeout) over the node's routing view, `_cluster/state` and `_cluster/settings`.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { statusAtLeast, type HealthStatus } from '../../engine/health.js';
import { indicesOptionsFrom, LENIENT_EXPAND_OPEN } from '../../engine/index-names.js';
import { DEFAULT_MAX_AGG_DEPTH, MAX_AGG_DEPTH_SETTING } from '../../dsl/aggs/parse/parse-aggs.js';
import {
  DEFAULT_MAX_NESTED_QUERY_DEPTH,
  MAX_NESTED_QUERY_DEPTH_SETTING,
} from '../../dsl/query/index.js';
import { STATIC_SCRIPT_SETTINGS } from '../../dsl/script/settings.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import type { HealthLevel } from '../../engine/routing-view.js';
import type { NodeContext } from '../../node-context.js';
import { clusterStateResponse, parseMetrics } from '../cluster-state.js';
import { StateVersions } from '../cluster-state-version.js';
import { registerClusterAllocationRoutes } from './cluster-allocation.js';
import { checkParams, longParam } from '../params.js';
import { bodyObject, boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import {
  DEFAULT_ALLOW_PARTIAL_RESULTS,
  DEFAULT_SEARCH_TIMEOUT,
  validateSearchSetting,
} from '../search-settings.js';

interface ClusterSettings {
  persistent: Record<string, string>;
  transient: Record<string, string>;
}

export function registerClusterRoutes(router: Router<Handler>, node: NodeContext): void {
  const health: Handler = async (req) => {
    checkParams(req, [
      'level',
      'local',
      'master_timeout',
      'timeout',
      'wait_for_active_shards',
      'wait_for_nodes',
      'wait_for_events',
      'wait_for_no_relocating_shards',
      'wait_for_no_initializing_shards',
      'wait_for_status',
      'index',
    ]);
    const level = param(req, 'level') ?? 'cluster';
    if (!['cluster', 'indices', 'shards'].includes(level)) {
      throw illegalArgument(`level must be one of [cluster, indices, shards], but was [${level}]`);
    }
    const wantStatus = param(req, 'wait_for_status') as HealthStatus | undefined;
    if (wantStatus && !['green', 'yellow', 'red'].includes(wantStatus)) {
      throw illegalArgument(`unknown cluster health status [${wantStatus}]`);
    }
    const timeoutMs = parseTimeValueMs(param(req, 'timeout') ?? '30s', 'timeout');
    const waitNodes = param(req, 'wait_for_nodes');
    const waitActive = param(req, 'wait_for_active_shards');
    const waitNoRelocating = boolParam(req, 'wait_for_no_relocating_shards', false);
    const waitNoInitializing = boolParam(req, 'wait_for_no_initializing_shards', false);
    const indexExpr = req.params.index;
    const compute = () => {
      // a lone node answers a missing index red (and waits for it); a cluster refuses it
      const { health: h, missing } = node.routing.health(indexExpr, level as HealthLevel);
      h.number_of_nodes = h.number_of_data_nodes = node.routing.nodeCount();
      let satisfied = !missing;
      if (wantStatus && !statusAtLeast(h.status, wantStatus)) satisfied = false;
      if (waitNodes !== undefined && !nodesSatisfied(waitNodes, h.number_of_nodes))
        satisfied = false;
      if (waitActive === 'all' && h.unassigned_shards + h.initializing_shards > 0)
        satisfied = false;
      if (waitActive !== undefined && waitActive !== 'all') {
        const n = Number(waitActive);
        if (Number.isFinite(n) && h.active_shards < n) satisfied = false;
      }
      if (waitNoRelocating && h.relocating_shards > 0) satisfied = false;
      if (waitNoInitializing && h.initializing_shards > 0) satisfied = false;
      return { h, satisfied };
    };
    const deadline = Date.now() + timeoutMs;
    let r = compute();
    while (!r.satisfied && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, Math.min(50, Math.max(1, deadline - Date.now()))));
      r = compute();
    }
    if (!r.satisfied) {
      r.h.timed_out = true;
      return { status: 408, body: r.h };
    }
    return { status: 200, body: r.h };
  };
  router.add('GET', '/_cluster/health', health);
  router.add('GET', '/_cluster/health/{index}', health);

  const versions = new StateVersions();
  const state: Handler = async (req) => {
    // ES RestClusterStateAction also reads `metric` and `indices` from the query string
    checkParams(req, [
      'metric',
      'indices',
      'local',
      'master_timeout',
      'flat_settings',
      'wait_for_metadata_version',
      'wait_for_timeout',
      'ignore_unavailable',
      'allow_no_indices',
      'expand_wildcards',
    ]);
    // read for their errors only: the one node is the master, its state always local
    boolParam(req, 'local', false);
    parseTimeValueMs(param(req, 'master_timeout') ?? '30s', 'master_timeout');
    const waitForVersion = longParam(req, 'wait_for_metadata_version');
    const body = await clusterStateResponse(node, versions, {
      metrics: parseMetrics(param(req, 'metric')),
      indices: param(req, 'indices'),
      options: indicesOptionsFrom(LENIENT_EXPAND_OPEN, (k) => param(req, k)),
      flatSettings: boolParam(req, 'flat_settings', false),
      ...(waitForVersion !== undefined ? { waitForVersion } : {}),
      // ES ClusterStateRequest.DEFAULT_WAIT_FOR_NODE_TIMEOUT
      waitTimeoutMs: parseTimeValueMs(param(req, 'wait_for_timeout') ?? '1m', 'wait_for_timeout'),
    });
    return { status: 200, body };
  };
  router.add('GET', '/_cluster/state', state);
  router.add('GET', '/_cluster/state/{metric}', state);
  router.add('GET', '/_cluster/state/{metric}/{indices}', state);
  registerClusterAllocationRoutes(router, node, versions);

  const load = (): ClusterSettings =>
    node.store.getMeta<ClusterSettings>('cluster:settings') ?? { persistent: {}, transient: {} };

  router.add('GET', '/_cluster/settings', (req) => {
    checkParams(req, ['flat_settings', 'include_defaults', 'master_timeout', 'timeout', 'local']);
    const s = load();
    const flat = boolParam(req, 'flat_settings', false);
    const render = (m: Record<string, string>) => (flat ? m : nest(m));
    const body: Record<string, unknown> = {
      persistent: render(s.persistent),
      transient: render(s.transient),
    };
    if (boolParam(req, 'include_defaults', false)) {
      body.defaults = render({
        'search.max_buckets': '10000',
        [DEFAULT_SEARCH_TIMEOUT]: '-1',
        [DEFAULT_ALLOW_PARTIAL_RESULTS]: 'true',
        'indices.query.bool.max_clause_count': '1024',
        [MAX_NESTED_QUERY_DEPTH_SETTING]:
          node.settings.raw[MAX_NESTED_QUERY_DEPTH_SETTING] ??
          String(DEFAULT_MAX_NESTED_QUERY_DEPTH),
        [MAX_AGG_DEPTH_SETTING]: String(DEFAULT_MAX_AGG_DEPTH),
        'action.auto_create_index': 'true',
        'cluster.name': node.clusterName,
        // ES: the node's own settings (config file, -E) show among the defaults
        ...node.settings.raw,
      });
    }
    return { status: 200, body };
  });
  router.add('PUT', '/_cluster/settings', async (req) => {
    checkParams(req, ['flat_settings', 'master_timeout', 'timeout']);
    const body = bodyObject(req) ?? {};
    const flatSettings = boolParam(req, 'flat_settings', false);
    // ES ClusterUpdateSettingsRequest.validate
    if (['transient', 'persistent'].every((k) => Object.keys(flat(body[k] ?? {})).length === 0)) {
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: no settings to update;',
        400,
      );
    }
    // ES SettingsUpdater: every value is validated (transient first) before any is applied
    for (const scope of ['transient', 'persistent'] as const)
      for (const [k, v] of Object.entries(flat(body[scope] ?? {}))) {
        // AbstractScopedSettings.updateSettings: node-level settings are not dynamic
        if (STATIC_SCRIPT_SETTINGS.has(k))
          throw illegalArgument(`${scope} setting [${k}], not dynamically updateable`);
        if (v !== null) validateSearchSetting(k, String(v));
      }
    const s = load();
    const out: Record<string, unknown> = { acknowledged: true, persistent: {}, transient: {} };
    for (const scope of ['persistent', 'transient'] as const) {
      const upd = flat(body[scope] ?? {});
      for (const [k, v] of Object.entries(upd)) {
        if (v === null) delete s[scope][k];
        else s[scope][k] = String(v);
      }
      out[scope] = (flatSettings ? (m: Record<string, string>) => m : nest)(
        Object.fromEntries(
          Object.entries(upd)
            .filter(([, v]) => v !== null)
            .map(([k, v]) => [k, String(v)]),
        ),
      );
    }
    await node.store.putMeta('cluster:settings', s);
    await node.store.durable();
    node.clusterSettingsChanged?.(effectiveClusterSettings(s));
    await node.metadata.clusterSettingsChanged(s);
    return { status: 200, body: out };
  });
}

export function effectiveClusterSettings(s: ClusterSettings | undefined): Record<string, string> {
  return { ...(s?.persistent ?? {}), ...(s?.transient ?? {}) };
}

function nodesSatisfied(expr: string, n: number): boolean {
  const m = /^(>=|<=|>|<|ge\(|le\(|gt\(|lt\()?\s*(\d+)\)?$/.exec(expr.trim());
  if (!m) return false;
  const k = Number(m[2]);
  switch (m[1]) {
    case '>=':
    case 'ge(':
      return n >= k;
    case '<=':
    case 'le(':
      return n <= k;
    case '>':
    case 'gt(':
      return n > k;
    case '<':
    case 'lt(':
      return n < k;
    default:
      return n === k;
  }
}

function flat(v: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      flat(x, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = v;
  return out;
}

function nest(m: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const k of Object.keys(m).sort()) {
    const parts = k.split('.');
    let n = root;
    for (let i = 0; i < parts.length - 1; i++) {
      if (typeof n[parts[i]!] !== 'object' || n[parts[i]!] === null) n[parts[i]!] = {};
      n = n[parts[i]!] as Record<string, unknown>;
    }
    n[parts[parts.length - 1]!] = m[k];
  }
  return root;
}
