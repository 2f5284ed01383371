/**
 * Which Elasticsearch action a REST route runs, so roles can be checked the way x-pack checks
 * them (ES: each Rest*Action calls one transport action; security authorises its name). Routes
 * are named by method and pattern (`/{index}/_search`). `null` means "any authenticated user"
 * (ES: `_authenticate` and help texts run no privileged action). Unknown routes get an action
 * only `superuser` holds, so a route added without a mapping fails closed.
 */

export const UNMAPPED_PREFIX = 'cluster:admin/quarry/unmapped';

type Method = string;

/** Endpoints keyed by the last `_` segment of the pattern; per method, `*` for any. */
const BY_ENDPOINT: Record<string, Record<Method, string | null>> = {
  _search: { '*': 'indices:data/read/search' },
  _count: { '*': 'indices:data/read/search' },
  _msearch: { '*': 'indices:data/read/msearch' },
  _rank_eval: { '*': 'indices:data/read/rank_eval' },
  _mget: { '*': 'indices:data/read/mget' },
  _explain: { '*': 'indices:data/read/explain' },
  _validate: { '*': 'indices:admin/validate/query' },
  _field_caps: { '*': 'indices:data/read/field_caps' },
  _termvectors: { '*': 'indices:data/read/tv' },
  _mtermvectors: { '*': 'indices:data/read/mtv' },
  _search_shards: { '*': 'indices:admin/shards/search_shards' },
  _source: { '*': 'indices:data/read/get' },
  _bulk: { '*': 'indices:data/write/bulk' },
  _update: { '*': 'indices:data/write/update' },
  _create: { '*': 'indices:data/write/index' },
  _delete_by_query: { '*': 'indices:data/write/delete/byquery' },
  _update_by_query: { '*': 'indices:data/write/update/byquery' },
  _reindex: { '*': 'indices:data/write/reindex' },
  _rethrottle: { '*': 'cluster:admin/reindex/rethrottle' },
  _refresh: { '*': 'indices:admin/refresh' },
  _flush: { '*': 'indices:admin/flush' },
  _forcemerge: { '*': 'indices:admin/forcemerge' },
  _upgrade: { GET: 'indices:monitor/upgrade', '*': 'indices:admin/upgrade' },
  _cache: { '*': 'indices:admin/cache/clear' },
  _shard_stores: { '*': 'indices:monitor/shard_stores' },
  _rollover: { '*': 'indices:admin/rollover' },
  // ES ResizeAction serves both (and ShrinkAction's own name for shrink)
  _shrink: { '*': 'indices:admin/resize' },
  _split: { '*': 'indices:admin/resize' },
  _close: { '*': 'indices:admin/close' },
  _open: { '*': 'indices:admin/open' },
  // x-pack TransportFreezeIndexAction serves both (FreezeIndexAction.NAME)
  _freeze: { '*': 'indices:admin/freeze' },
  _unfreeze: { '*': 'indices:admin/freeze' },
  _analyze: { '*': 'indices:admin/analyze' },
  _stats: { '*': 'indices:monitor/stats' },
  _segments: { '*': 'indices:monitor/segments' },
  _recovery: { '*': 'indices:monitor/recovery' },
  _mapping: {
    GET: 'indices:admin/mappings/get',
    HEAD: 'indices:admin/mappings/get',
    '*': 'indices:admin/mapping/put',
  },
  _settings: {
    GET: 'indices:monitor/settings/get',
    HEAD: 'indices:monitor/settings/get',
    '*': 'indices:admin/settings/update',
  },
  _alias: {
    GET: 'indices:admin/aliases/get',
    HEAD: 'indices:admin/aliases/get',
    '*': 'indices:admin/aliases',
  },
  _template: {
    GET: 'indices:admin/template/get',
    HEAD: 'indices:admin/template/get',
    DELETE: 'indices:admin/template/delete',
    '*': 'indices:admin/template/put',
  },
  _tasks: { GET: 'cluster:monitor/tasks/lists', '*': 'cluster:admin/tasks/cancel' },
  _authenticate: { '*': null },
};

/** Spellings that share an endpoint. */
const SYNONYMS: Record<string, string> = {
  _mappings: '_mapping',
  _setting: '_settings',
  _aliases: '_alias',
};

/** Routes under a fixed prefix, matched before the endpoint table. */
function prefixed(method: Method, s: string[]): string | null | undefined {
  const [a, b, c] = s;
  if (s.length === 0) return 'cluster:monitor/main';
  if (a === '_cluster') {
    if (b === 'health') return 'cluster:monitor/health';
    if (b === 'settings')
      return method === 'GET' ? 'cluster:monitor/state' : 'cluster:admin/settings/update';
    if (b === 'stats') return 'cluster:monitor/stats';
    return 'cluster:monitor/state';
  }
  // Quarry's own read-only view of a node's shard copies: a monitoring read, like index stats
  if (a === '_quarry' && b === 'copies') return 'indices:monitor/stats';
  if (a === '_cat') {
    if (b === undefined) return null;
    if (b === 'health') return 'cluster:monitor/health';
    if (b === 'count') return 'indices:data/read/search';
    // ES: RestIndicesAction, RestShardsAction, RestNodesAction … start with a cluster state read.
    return 'cluster:monitor/state';
  }
  // ES: TransportNodesStatsAction behind every `stats` form, TransportNodesInfoAction otherwise.
  if (a === '_nodes' && s[s.length - 1] === 'reload_secure_settings')
    return 'cluster:admin/nodes/reload_secure_settings';
  if (a === '_nodes')
    return s.includes('stats') ? 'cluster:monitor/nodes/stats' : 'cluster:monitor/nodes/info';
  if (a === '_search' && b === 'scroll')
    return method === 'DELETE' ? 'indices:data/read/scroll/clear' : 'indices:data/read/scroll';
  // What clients ask at connect time (ES: TransportXPackInfoAction, license get).
  if (a === '_xpack' && b === undefined) return 'cluster:monitor/xpack/info';
  if (a === '_xpack' && b === 'usage') return 'cluster:monitor/xpack/usage';
  if (a === '_license' || (a === '_xpack' && b === 'license'))
    return method === 'GET' || method === 'HEAD'
      ? 'cluster:monitor/xpack/license/get'
      : method === 'DELETE'
        ? 'cluster:admin/xpack/license/delete'
        : 'cluster:admin/xpack/license/put';
  if ((a === '_xpack' && b === 'sql') || a === '_sql') {
    const op = a === '_sql' ? b : c;
    if (op === 'translate') return 'indices:data/read/sql/translate';
    if (op === 'close') return 'indices:data/read/sql/close_cursor';
    return 'indices:data/read/sql';
  }
  if (a === '_remote' && b === 'info') return 'cluster:monitor/remote/info';
  // snapshots (ES SnapshotsStatusAction, RestoreSnapshotAction, Create/Get/DeleteSnapshotAction)
  if (a === '_snapshot' && s[s.length - 1] === '_status') return 'cluster:admin/snapshot/status';
  if (a === '_snapshot' && s.length === 4 && s[3] === '_restore')
    return 'cluster:admin/snapshot/restore';
  if (a === '_snapshot' && s.length === 3 && c !== '_verify') {
    if (method === 'GET' || method === 'HEAD') return 'cluster:admin/snapshot/get';
    return method === 'DELETE' ? 'cluster:admin/snapshot/delete' : 'cluster:admin/snapshot/create';
  }
  // snapshot repositories (ES PutRepositoryAction, GetRepositoriesAction, ...)
  if (a === '_snapshot' && s.length <= 2) {
    if (method === 'GET' || method === 'HEAD') return 'cluster:admin/repository/get';
    return method === 'DELETE' ? 'cluster:admin/repository/delete' : 'cluster:admin/repository/put';
  }
  if (a === '_snapshot' && s.length === 3 && c === '_verify')
    return 'cluster:admin/repository/verify';
  // ES MustachePlugin: RenderSearchTemplateAction
  if (a === '_render') return 'cluster:admin/render/template/search';
  // ES IngestPlugin's REST actions
  if (a === '_ingest') {
    if (b === 'processor') return 'cluster:admin/ingest/processor/grok/get';
    if (s[s.length - 1] === '_simulate') return 'cluster:admin/ingest/pipeline/simulate';
    return method === 'GET'
      ? 'cluster:admin/ingest/pipeline/get'
      : method === 'DELETE'
        ? 'cluster:admin/ingest/pipeline/delete'
        : 'cluster:admin/ingest/pipeline/put';
  }
  if (a === '_scripts')
    return method === 'GET'
      ? 'cluster:admin/script/get'
      : method === 'DELETE'
        ? 'cluster:admin/script/delete'
        : 'cluster:admin/script/put';
  if (a === '_tasks' && s.length > 1) {
    if (s[s.length - 1] === '_cancel') return 'cluster:admin/tasks/cancel';
    return s.length === 2 ? 'cluster:monitor/task/get' : undefined;
  }
  return undefined;
}

/** Document and index routes, which have no `_` endpoint segment. */
function plain(method: Method, s: string[]): string | undefined {
  if (s.length === 1 && s[0] === '{}') {
    if (method === 'PUT') return 'indices:admin/create';
    if (method === 'DELETE') return 'indices:admin/delete';
    return 'indices:admin/get';
  }
  if (s.every((x) => x === '{}') && (s.length === 2 || s.length === 3)) {
    if (method === 'GET' || method === 'HEAD') return 'indices:data/read/get';
    if (method === 'DELETE') return 'indices:data/write/delete';
    return 'indices:data/write/index';
  }
  return undefined;
}

/** The ES action a route runs; `null` when authentication alone suffices. */
export function actionFor(method: Method, pattern: string): string | null {
  const segs = pattern
    .split('/')
    .filter((x) => x.length > 0)
    .map((x) => (x.startsWith('{') ? '{}' : x));
  const pre = prefixed(method, segs);
  if (pre !== undefined) return pre;
  // ES MustachePlugin: SearchTemplateAction and MultiSearchTemplateAction
  if (segs[segs.length - 1] === 'template') {
    if (segs[segs.length - 2] === '_search') return 'indices:data/read/search/template';
    if (segs[segs.length - 2] === '_msearch') return 'indices:data/read/msearch/template';
  }
  const p = plain(method, segs);
  if (p !== undefined) return p;
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = SYNONYMS[segs[i]!] ?? segs[i]!;
    const entry = BY_ENDPOINT[seg];
    if (!entry) continue;
    if (seg === '_mapping' && segs[i + 1] === 'field') return 'indices:admin/mappings/fields/get';
    const a = method in entry ? entry[method] : entry['*'];
    if (a !== undefined) return a;
  }
  return `${UNMAPPED_PREFIX}[${method} ${pattern}]`;
}
