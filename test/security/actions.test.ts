/**
 * Route → ES action mapping and the roles' grants: every route Quarry registers maps to a known
 * Elasticsearch action, representative routes map to the action ES runs for them, and the three
 * roles grant what the README's table says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Router, type HttpMethod } from '../../src/http/router.js';
import type { Handler } from '../../src/http/rest.js';
import { registerRoutes } from '../../src/http/routes/index.js';
import { openNode } from '../../src/node.js';
import { actionFor, UNMAPPED_PREFIX } from '../../src/security/actions.js';
import { rolesAllow } from '../../src/security/roles.js';

class RecordingRouter extends Router<Handler> {
  readonly routes: Array<[HttpMethod, string]> = [];
  override add(methods: HttpMethod | HttpMethod[], pattern: string, handler: Handler): void {
    for (const m of Array.isArray(methods) ? methods : [methods]) this.routes.push([m, pattern]);
    super.add(methods, pattern, handler);
  }
}

/**
 * Action names Elasticsearch 6.8 defines (each `NAME` constant, checked against the 6.8.13
 * sources) that Quarry's routes may run. A route mapped to anything else is a mapping error.
 */
const ES_ACTIONS = new Set([
  'indices:monitor/upgrade',
  'indices:admin/upgrade',
  'indices:admin/cache/clear',
  'indices:monitor/shard_stores',
  'indices:admin/rollover',
  'cluster:monitor/remote/info',
  'cluster:admin/repository/put',
  'cluster:admin/repository/get',
  'cluster:admin/repository/delete',
  'cluster:admin/repository/verify',
  'cluster:admin/snapshot/create',
  'cluster:admin/snapshot/get',
  'cluster:admin/snapshot/delete',
  'cluster:admin/snapshot/restore',
  'cluster:admin/snapshot/status',
  'cluster:admin/nodes/reload_secure_settings',
  'cluster:admin/render/template/search',
  'indices:data/read/search/template',
  'indices:data/read/msearch/template',
  'indices:data/read/rank_eval',
  'cluster:admin/ingest/pipeline/put',
  'cluster:admin/ingest/pipeline/get',
  'cluster:admin/ingest/pipeline/delete',
  'cluster:admin/ingest/pipeline/simulate',
  'cluster:admin/ingest/processor/grok/get',
  'cluster:admin/reindex/rethrottle',
  'cluster:admin/script/put',
  'cluster:admin/script/get',
  'cluster:admin/script/delete',
  'cluster:admin/settings/update',
  'cluster:admin/tasks/cancel',
  'cluster:admin/xpack/license/delete',
  'cluster:admin/xpack/license/put',
  'cluster:monitor/health',
  'cluster:monitor/main',
  'cluster:monitor/nodes/info',
  'cluster:monitor/nodes/stats',
  'cluster:monitor/state',
  'cluster:monitor/stats',
  'cluster:monitor/task/get',
  'cluster:monitor/tasks/lists',
  'cluster:monitor/xpack/info',
  'cluster:monitor/xpack/license/get',
  'cluster:monitor/xpack/usage',
  'indices:admin/aliases',
  'indices:admin/aliases/get',
  'indices:admin/analyze',
  'indices:admin/close',
  'indices:admin/create',
  'indices:admin/delete',
  'indices:admin/flush',
  'indices:admin/forcemerge',
  'indices:admin/get',
  'indices:admin/mapping/put',
  'indices:admin/mappings/fields/get',
  'indices:admin/mappings/get',
  'indices:admin/open',
  'indices:admin/freeze',
  'indices:admin/refresh',
  'indices:admin/settings/update',
  'indices:admin/shards/search_shards',
  'indices:admin/template/delete',
  'indices:admin/template/get',
  'indices:admin/template/put',
  'indices:admin/validate/query',
  'indices:data/read/explain',
  'indices:data/read/field_caps',
  'indices:data/read/get',
  'indices:data/read/mget',
  'indices:data/read/msearch',
  'indices:data/read/mtv',
  'indices:data/read/scroll',
  'indices:data/read/scroll/clear',
  'indices:data/read/search',
  'indices:data/read/sql',
  'indices:data/read/sql/close_cursor',
  'indices:data/read/sql/translate',
  'indices:data/read/tv',
  'indices:data/write/bulk',
  'indices:data/write/delete',
  'indices:data/write/delete/byquery',
  'indices:data/write/index',
  'indices:data/write/reindex',
  'indices:data/write/update',
  'indices:data/write/update/byquery',
  'indices:monitor/recovery',
  'indices:monitor/segments',
  'indices:monitor/settings/get',
  'indices:monitor/stats',
  'indices:admin/resize',
]);

describe('actionFor', () => {
  it('maps every registered route to an Elasticsearch action', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-actions-'));
    const node = await openNode({ dataPath: dir });
    try {
      const router = new RecordingRouter();
      registerRoutes(router, node.context);
      expect(router.routes.length).toBeGreaterThan(150);
      const mapped = router.routes.map(([m, p]) => [`${m} ${p}`, actionFor(m, p)] as const);
      const unmapped = mapped.filter(([, a]) => a?.startsWith(UNMAPPED_PREFIX));
      expect(unmapped).toEqual([]);
      // Every action is one ES defines; only the `_cat` help runs none.
      const unknown = mapped.filter(([, a]) => (a === null ? false : !ES_ACTIONS.has(a)));
      expect(unknown).toEqual([]);
      expect(mapped.filter(([, a]) => a === null).map(([r]) => r)).toEqual(['GET /_cat']);
    } finally {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['GET', '/', 'cluster:monitor/main'],
    ['HEAD', '/', 'cluster:monitor/main'],
    ['GET', '/_cluster/health/{index}', 'cluster:monitor/health'],
    ['GET', '/_cluster/settings', 'cluster:monitor/state'],
    ['GET', '/_cluster/state', 'cluster:monitor/state'],
    ['GET', '/_cluster/state/{metric}/{indices}', 'cluster:monitor/state'],
    ['PUT', '/_cluster/settings', 'cluster:admin/settings/update'],
    ['GET', '/_cat', null],
    ['GET', '/_cat/health', 'cluster:monitor/health'],
    ['GET', '/_cat/count/{index}', 'indices:data/read/search'],
    ['GET', '/_cat/indices/{index}', 'cluster:monitor/state'],
    ['PUT', '/{index}', 'indices:admin/create'],
    ['DELETE', '/{index}', 'indices:admin/delete'],
    ['HEAD', '/{index}', 'indices:admin/get'],
    ['GET', '/{index}', 'indices:admin/get'],
    ['PUT', '/{index}/{type}/{id}', 'indices:data/write/index'],
    ['POST', '/{index}/{type}', 'indices:data/write/index'],
    ['PUT', '/{index}/{type}/{id}/_create', 'indices:data/write/index'],
    ['GET', '/{index}/{type}/{id}', 'indices:data/read/get'],
    ['HEAD', '/{index}/{type}/{id}/_source', 'indices:data/read/get'],
    ['DELETE', '/{index}/{type}/{id}', 'indices:data/write/delete'],
    ['POST', '/{index}/{type}/{id}/_update', 'indices:data/write/update'],
    ['POST', '/{index}/_bulk', 'indices:data/write/bulk'],
    ['GET', '/{index}/{type}/_mget', 'indices:data/read/mget'],
    ['POST', '/{index}/_search', 'indices:data/read/search'],
    ['GET', '/_count', 'indices:data/read/search'],
    ['POST', '/_msearch', 'indices:data/read/msearch'],
    ['POST', '/_search/scroll/{scroll_id}', 'indices:data/read/scroll'],
    ['DELETE', '/_search/scroll', 'indices:data/read/scroll/clear'],
    ['GET', '/{index}/{type}/{id}/_explain', 'indices:data/read/explain'],
    ['GET', '/{index}/_validate/query', 'indices:admin/validate/query'],
    ['POST', '/{index}/_delete_by_query', 'indices:data/write/delete/byquery'],
    ['POST', '/{index}/{type}/_update_by_query', 'indices:data/write/update/byquery'],
    ['POST', '/_delete_by_query/{task_id}/_rethrottle', 'cluster:admin/reindex/rethrottle'],
    ['PUT', '/_scripts/{id}/{context}', 'cluster:admin/script/put'],
    ['GET', '/_scripts/{id}', 'cluster:admin/script/get'],
    ['DELETE', '/_scripts/{id}', 'cluster:admin/script/delete'],
    ['GET', '/_tasks/{task_id}', 'cluster:monitor/task/get'],
    ['GET', '/_tasks', 'cluster:monitor/tasks/lists'],
    ['POST', '/_tasks/_cancel', 'cluster:admin/tasks/cancel'],
    ['GET', '/{index}/_mappings/{type}', 'indices:admin/mappings/get'],
    ['HEAD', '/{index}/_mapping/{type}', 'indices:admin/mappings/get'],
    ['PUT', '/{index}/{type}/_mapping', 'indices:admin/mapping/put'],
    ['GET', '/_mapping/field/{fields}', 'indices:admin/mappings/fields/get'],
    ['GET', '/{index}/_setting/{name}', 'indices:monitor/settings/get'],
    ['PUT', '/{index}/_settings', 'indices:admin/settings/update'],
    ['POST', '/_aliases', 'indices:admin/aliases'],
    ['DELETE', '/{index}/_alias/{name}', 'indices:admin/aliases'],
    ['HEAD', '/_alias/{name}', 'indices:admin/aliases/get'],
    ['GET', '/_template/{name}', 'indices:admin/template/get'],
    ['PUT', '/_template/{name}', 'indices:admin/template/put'],
    ['DELETE', '/_template/{name}', 'indices:admin/template/delete'],
    ['GET', '/{index}/_stats/{metric}', 'indices:monitor/stats'],
    ['POST', '/{index}/_refresh', 'indices:admin/refresh'],
    ['POST', '/_flush', 'indices:admin/flush'],
    ['POST', '/{index}/_close', 'indices:admin/close'],
    ['POST', '/{index}/_open', 'indices:admin/open'],
    ['POST', '/{index}/_freeze', 'indices:admin/freeze'],
    ['POST', '/{index}/_unfreeze', 'indices:admin/freeze'],
    ['POST', '/{index}/_analyze', 'indices:admin/analyze'],
    ['POST', '/_xpack/sql', 'indices:data/read/sql'],
    ['POST', '/_sql/translate', 'indices:data/read/sql/translate'],
    ['POST', '/_xpack/sql/close', 'indices:data/read/sql/close_cursor'],
    ['GET', '/_nodes', 'cluster:monitor/nodes/info'],
    ['GET', '/_nodes/{nodeId}/info/{metrics}', 'cluster:monitor/nodes/info'],
    ['GET', '/_nodes/stats', 'cluster:monitor/nodes/stats'],
    ['GET', '/_nodes/{nodeId}/stats/{metric}/{index_metric}', 'cluster:monitor/nodes/stats'],
    ['GET', '/_xpack', 'cluster:monitor/xpack/info'],
    ['GET', '/_xpack/license', 'cluster:monitor/xpack/license/get'],
    ['GET', '/_license', 'cluster:monitor/xpack/license/get'],
    ['PUT', '/_license', 'cluster:admin/xpack/license/put'],
    ['DELETE', '/_license', 'cluster:admin/xpack/license/delete'],
    ['GET', '/_xpack/usage', 'cluster:monitor/xpack/usage'],
    ['GET', '/_xpack/security/_authenticate', null],
    ['GET', '/_security/_authenticate', null],
  ])('%s %s runs %s', (method, pattern, action) => {
    expect(actionFor(method, pattern)).toBe(action);
    if (action !== null) expect(ES_ACTIONS.has(action)).toBe(true);
  });

  it('gives an unknown route an action only superuser holds', () => {
    const a = actionFor('POST', '/_made_up/{x}');
    expect(a).toBe(`${UNMAPPED_PREFIX}[POST /_made_up/{x}]`);
    expect(rolesAllow(['write', 'read'], a!)).toBe(false);
    expect(rolesAllow(['superuser'], a!)).toBe(true);
  });
});

describe('roles', () => {
  const read = [
    'cluster:monitor/main',
    'cluster:monitor/health',
    'cluster:monitor/state',
    'indices:data/read/search',
    'indices:data/read/get',
    'indices:data/read/mget',
    'indices:data/read/msearch',
    'indices:data/read/scroll',
    'indices:data/read/scroll/clear',
    'indices:data/read/sql',
    'indices:admin/mappings/get',
    'indices:monitor/settings/get',
    'indices:admin/analyze',
    'indices:admin/get',
    'cluster:monitor/xpack/info',
    'cluster:monitor/xpack/license/get',
  ];
  const write = [
    'indices:data/write/index',
    'indices:data/write/bulk',
    'indices:data/write/delete',
    'indices:data/write/update',
    'indices:data/write/delete/byquery',
    'indices:data/write/update/byquery',
    'indices:admin/create',
    'indices:admin/delete',
    'indices:admin/mapping/put',
    'indices:admin/settings/update',
    'indices:admin/aliases',
    'indices:admin/refresh',
    'indices:admin/template/put',
    'cluster:monitor/task/get',
  ];
  const superOnly = [
    'cluster:admin/settings/update',
    'cluster:admin/tasks/cancel',
    'cluster:admin/xpack/security/user/put',
    'cluster:admin/xpack/license/put',
    'cluster:monitor/xpack/usage',
  ];

  it('read reads, and nothing else', () => {
    for (const a of read) expect(rolesAllow(['read'], a), a).toBe(true);
    for (const a of [...write, ...superOnly]) expect(rolesAllow(['read'], a), a).toBe(false);
  });

  it('write reads and writes, but does not administer the cluster', () => {
    for (const a of [...read, ...write]) expect(rolesAllow(['write'], a), a).toBe(true);
    for (const a of superOnly) expect(rolesAllow(['write'], a), a).toBe(false);
  });

  it('superuser does everything; unknown roles and no roles grant nothing', () => {
    for (const a of [...read, ...write, ...superOnly]) {
      expect(rolesAllow(['superuser'], a)).toBe(true);
      expect(rolesAllow(['admin', 'kibana_user'], a)).toBe(false);
      expect(rolesAllow([], a)).toBe(false);
    }
    expect(rolesAllow(['nope', 'read'], 'indices:data/read/search')).toBe(true);
  });
});

describe('ingest and search template routes', () => {
  it.each([
    ['PUT', '/_ingest/pipeline/{id}', 'cluster:admin/ingest/pipeline/put'],
    ['GET', '/_ingest/pipeline', 'cluster:admin/ingest/pipeline/get'],
    ['DELETE', '/_ingest/pipeline/{id}', 'cluster:admin/ingest/pipeline/delete'],
    ['POST', '/_ingest/pipeline/{id}/_simulate', 'cluster:admin/ingest/pipeline/simulate'],
    ['GET', '/_ingest/processor/grok', 'cluster:admin/ingest/processor/grok/get'],
    ['POST', '/{index}/_search/template', 'indices:data/read/search/template'],
    ['GET', '/_msearch/template', 'indices:data/read/msearch/template'],
    ['POST', '/_rank_eval', 'indices:data/read/rank_eval'],
    ['GET', '/{index}/_rank_eval', 'indices:data/read/rank_eval'],
    ['POST', '/_render/template/{id}', 'cluster:admin/render/template/search'],
    ['PUT', '/_snapshot/{repository}', 'cluster:admin/repository/put'],
    ['GET', '/_snapshot', 'cluster:admin/repository/get'],
    ['POST', '/_snapshot/{repository}/_verify', 'cluster:admin/repository/verify'],
    ['PUT', '/_snapshot/{repository}/{snapshot}', 'cluster:admin/snapshot/create'],
    ['GET', '/_snapshot/{repository}/{snapshot}', 'cluster:admin/snapshot/get'],
    ['DELETE', '/_snapshot/{repository}/{snapshot}', 'cluster:admin/snapshot/delete'],
    ['POST', '/_snapshot/{repository}/{snapshot}/_restore', 'cluster:admin/snapshot/restore'],
    ['GET', '/_snapshot/_status', 'cluster:admin/snapshot/status'],
    ['GET', '/_remote/info', 'cluster:monitor/remote/info'],
    ['POST', '/{index}/_rollover/{new_index}', 'indices:admin/rollover'],
    ['POST', '/_cache/clear', 'indices:admin/cache/clear'],
    ['GET', '/{index}/_upgrade', 'indices:monitor/upgrade'],
    ['GET', '/_shard_stores', 'indices:monitor/shard_stores'],
    [
      'POST',
      '/_nodes/{nodeId}/reload_secure_settings',
      'cluster:admin/nodes/reload_secure_settings',
    ],
  ])('%s %s runs %s', (method, pattern, action) => {
    expect(actionFor(method, pattern)).toBe(action);
  });
});
