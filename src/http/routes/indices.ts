/**
 * Index management APIs: create, delete, exists, get, mappings, settings, refresh, open/close
 * (ES 6.8 RestCreateIndexAction, RestDeleteIndexAction, RestGetIndicesAction, RestGetMappingAction,
 * RestPutMappingAction, RestGetSettingsAction, RestUpdateSettingsAction, RestRefreshAction).
 */
import { aliasJson } from '../../engine/alias-listing.js';
import { checkBlock } from '../../engine/index-blocks.js';
import { EsError, illegalArgument } from '../../common/errors.js';
import { mappingToJson } from '../../mapping/index.js';
import {
  indicesOptionsFrom,
  simpleMatch,
  STRICT_EXPAND_OPEN,
  STRICT_EXPAND_OPEN_CLOSED,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
  type IndicesOptions,
} from '../../engine/index-names.js';
import {
  flattenSettings,
  INDEX_DEFAULTS,
  nestSettings,
  sortedSettings,
  validateSettings,
  type FlatSettings,
} from '../../engine/index-settings.js';
import type { IndexService } from '../../engine/index-service.js';
import type { NodeContext } from '../../node-context.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import { checkParams } from '../params.js';
import {
  bodyObject,
  boolParam,
  param,
  requireBody,
  type Handler,
  type RestRequest,
} from '../rest.js';
import type { Router } from '../router.js';
import { validateAliasFilter } from './aliases.js';

const OPTS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const MASTER = ['master_timeout', 'timeout', 'local'];

const TYPES_WARNING_CREATE =
  "[types removal] The parameter include_type_name should be explicitly specified in create index requests to prepare for 7.0. In 7.0 include_type_name will default to 'false', and requests are expected to omit the type name in mapping definitions.";

export function registerIndexRoutes(router: Router<Handler>, node: NodeContext): void {
  const { indices } = node;
  const resolve = (req: RestRequest, base: IndicesOptions): IndexService[] =>
    indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(base, (n) => param(req, n)),
    );
  const includeTypeName = (req: RestRequest) => boolParam(req, 'include_type_name', true);

  router.add('PUT', '/{index}', async (req) => {
    checkParams(req, [
      'include_type_name',
      'wait_for_active_shards',
      'update_all_types',
      ...MASTER,
    ]);
    if (!req.query.has('include_type_name')) req.warnings.push(TYPES_WARNING_CREATE);
    const body = bodyObject(req);
    const m = body?.mappings;
    if (
      !includeTypeName(req) &&
      m &&
      typeof m === 'object' &&
      Object.keys(m).length === 1 &&
      Object.keys(m)[0] === '_doc'
    ) {
      throw illegalArgument(
        'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.',
      );
    }
    const idx = await indices.create(req.params.index!, body, {
      includeTypeName: includeTypeName(req),
      checkAlias: (index, alias, def) => validateAliasFilter(node, alias, def, [index]),
    });
    // in a cluster this runs on the master, which now publishes the index and waits for its
    // primaries as wait_for_active_shards and timeout say
    const w = param(req, 'wait_for_active_shards');
    const t = param(req, 'timeout');
    const waitMs = w === '0' ? 0 : t !== undefined ? parseTimeValueMs(t, 'timeout') : 30_000;
    const r = await node.metadata.indexCreated(idx, waitMs);
    return {
      status: 200,
      body: { acknowledged: true, shards_acknowledged: r.shardsAcknowledged, index: idx.name },
    };
  });
  router.add('POST', '/{index}', async (req) => {
    // ES 6.8 registers create index for PUT only; POST /{index} is index-a-document without type.
    throw new EsError(
      'illegal_argument_exception',
      `no handler found for uri [${req.uri}] and method [POST]`,
      400,
    );
  });

  router.add('DELETE', '/{index}', async (req) => {
    checkParams(req, [...OPTS, ...MASTER]);
    const targets = resolve(req, { ...STRICT_EXPAND_OPEN_CLOSED, forbidAliases: true });
    // through the master in a cluster (every node holds every index's metadata to resolve on)
    await node.metadata.deleteIndices(targets);
    return { status: 200, body: { acknowledged: true } };
  });

  router.add('HEAD', '/{index}', (req) => {
    checkParams(req, [
      ...OPTS,
      'local',
      'flat_settings',
      'include_defaults',
      'human',
      'include_type_name',
    ]);
    try {
      const found = resolve(req, STRICT_EXPAND_OPEN);
      return { status: found.length > 0 ? 200 : 404 };
    } catch (e) {
      if (e instanceof EsError && e.status === 404) return { status: 404 };
      throw e;
    }
  });

  router.add('GET', '/{index}', (req) => {
    checkParams(req, [
      ...OPTS,
      'local',
      'flat_settings',
      'include_defaults',
      'include_type_name',
      'master_timeout',
    ]);
    const flat = boolParam(req, 'flat_settings', false);
    const defaults = boolParam(req, 'include_defaults', false);
    const withType = includeTypeName(req);
    const out: Record<string, unknown> = {};
    for (const idx of resolve(req, STRICT_EXPAND_OPEN)) {
      const entry: Record<string, unknown> = {
        aliases: aliasesJson(idx),
        mappings: mappingsJson(idx, withType),
        settings: settingsJson(idx.meta.settings, flat, boolParam(req, 'human', false)),
      };
      if (defaults) entry.defaults = settingsJson(INDEX_DEFAULTS, flat);
      out[idx.name] = entry;
    }
    return { status: 200, body: out };
  });

  // ---- mappings
  const getMapping: Handler = (req) => {
    checkParams(req, [...OPTS, 'local', 'include_type_name', 'master_timeout']);
    const withType = includeTypeName(req);
    const typeParam = req.params.type;
    const types =
      typeParam && typeParam !== '_all' && typeParam !== '*' ? typeParam.split(',') : [];
    if (!withType && types.length > 0) {
      throw illegalArgument(
        'Types cannot be provided in get mapping requests, unless include_type_name is set to true.',
      );
    }
    const out: Record<string, unknown> = {};
    const seenTypes = new Set<string>();
    for (const idx of resolve(req, STRICT_EXPAND_OPEN)) {
      const t = idx.typeName;
      if (types.length > 0) {
        if (!t || !types.some((p) => simpleMatch(p, t) || (p === '_doc' && t !== null))) continue;
      }
      if (t) seenTypes.add(t);
      out[idx.name] = { mappings: mappingsJson(idx, withType) };
    }
    const missing = types.filter(
      (p) => ![...seenTypes].some((t) => simpleMatch(p, t)) && p !== '_doc',
    );
    if (types.length > 0 && Object.keys(out).length === 0) {
      throw new EsError('type_missing_exception', `type[[${types.join(',')}]] missing`, 404, {
        meta: { index_uuid: '_na_', index: '_all' },
      });
    }
    if (missing.length) {
      return {
        status: 404,
        body: {
          error: `type${missing.length === 1 ? '' : 's'} [${missing.sort().join(',')}] missing`,
          status: 404,
          ...out,
        },
      };
    }
    return { status: 200, body: out };
  };
  for (const p of [
    '/_mapping',
    '/_mappings',
    '/{index}/_mapping',
    '/{index}/_mappings',
    '/{index}/{type}/_mapping',
    '/{index}/_mapping/{type}',
    '/{index}/_mappings/{type}',
    '/_mapping/{type}',
    '/_mappings/{type}',
  ]) {
    router.add('GET', p, getMapping);
  }
  router.add('HEAD', '/{index}/_mapping/{type}', (req) => {
    try {
      const idxs = resolve(req, STRICT_EXPAND_OPEN);
      const types = req.params.type!.split(',');
      const ok = idxs.some((i) => i.typeName && types.some((t) => simpleMatch(t, i.typeName!)));
      return { status: ok ? 200 : 404 };
    } catch (e) {
      if (e instanceof EsError && e.status === 404) return { status: 404 };
      throw e;
    }
  });

  const putMapping: Handler = async (req) => {
    checkParams(req, [...OPTS, 'include_type_name', 'update_all_types', ...MASTER]);
    requireBody(req); // ES RestPutMappingAction: request.requiredContent()
    const withType = includeTypeName(req);
    let type = req.params.type;
    const raw = bodyObject(req);
    const typedBody =
      raw !== undefined && Object.keys(raw).length === 1 && Object.keys(raw)[0] === '_doc';
    if (!withType) {
      if (type || typedBody)
        throw illegalArgument(
          'Types cannot be provided in put mapping requests, unless the include_type_name parameter is set to true.',
        );
      type = '_doc';
    }
    if (!type)
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: mapping type is missing;',
        400,
      );
    const body = bodyObject(req);
    if (!body)
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: mapping source is missing;',
        400,
      );
    let mapping: unknown = body;
    // ES MapperService.getTypeForUpdate: `_doc` stands for the existing type only when the
    // source is not wrapped in it ({"_doc": {...}} names a type of its own)
    const sourceTyped = withType && Object.keys(body).length === 1 && Object.keys(body)[0] === type;
    if (sourceTyped) mapping = body[type];
    const typeFor = (idx: (typeof targets)[number]) => (sourceTyped ? type : idx.resolveType(type));
    const targets = req.params.index
      ? resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED)
      : indices.resolve('_all', STRICT_EXPAND_OPEN);
    for (const idx of targets) checkBlock(idx.meta.settings, 'metadata_write');
    for (const idx of targets) idx.typeForWrite(typeFor(idx), !sourceTyped);
    for (const idx of targets) await node.metadata.putMapping(idx, typeFor(idx), mapping);
    await node.store.durable();
    return { status: 200, body: { acknowledged: true } };
  };
  for (const p of [
    '/{index}/_mapping/{type}',
    '/{index}/_mappings/{type}',
    '/{index}/{type}/_mapping',
    '/{index}/{type}/_mappings',
    '/_mapping/{type}',
    '/_mappings/{type}',
    '/{index}/_mapping',
    '/{index}/_mappings',
  ]) {
    router.add(['PUT', 'POST'], p, putMapping);
  }

  // ---- settings
  const getSettings: Handler = (req) => {
    checkParams(req, [...OPTS, 'local', 'flat_settings', 'include_defaults', 'master_timeout']);
    const flat = boolParam(req, 'flat_settings', false);
    const defaults = boolParam(req, 'include_defaults', false);
    const names = req.params.name && req.params.name !== '_all' ? req.params.name.split(',') : null;
    const pick = (s: FlatSettings): FlatSettings => {
      if (!names) return s;
      const out: FlatSettings = {};
      for (const [k, v] of Object.entries(s)) {
        if (
          names.some(
            (n) => simpleMatch(n, k) || simpleMatch(n.startsWith('index.') ? n : `index.${n}`, k),
          )
        )
          out[k] = v;
      }
      return out;
    };
    const out: Record<string, unknown> = {};
    for (const idx of resolve(req, STRICT_EXPAND_OPEN)) {
      const entry: Record<string, unknown> = {
        settings: settingsJson(pick(idx.meta.settings), flat),
      };
      if (defaults) {
        const d: FlatSettings = {};
        for (const [k, v] of Object.entries(INDEX_DEFAULTS))
          if (!(k in idx.meta.settings)) d[k] = v;
        entry.defaults = settingsJson(pick(d), flat);
      }
      if (names && Object.keys(pick(idx.meta.settings)).length === 0 && !defaults) {
        out[idx.name] = { settings: {} };
        continue;
      }
      out[idx.name] = entry;
    }
    return { status: 200, body: out };
  };
  for (const p of [
    '/_settings',
    '/{index}/_settings',
    '/{index}/_settings/{name}',
    '/_settings/{name}',
    '/{index}/_setting/{name}',
  ]) {
    router.add('GET', p, getSettings);
  }

  const DYNAMIC = [
    'index.number_of_replicas',
    'index.refresh_interval',
    'index.max_result_window',
    'index.max_inner_result_window',
    'index.max_terms_count',
    'index.analyze.max_token_count',
    'index.max_regex_length',
    'index.max_docvalue_fields_search',
    'index.max_script_fields',
    'index.max_ngram_diff',
    'index.max_shingle_diff',
    'index.max_rescore_window',
    'index.highlight.max_analyzed_offset',
    'index.max_adjacency_matrix_filters',
    'index.max_slices_per_scroll',
    'index.max_refresh_listeners',
    'index.translog.durability',
    'index.translog.sync_interval',
    'index.translog.flush_threshold_size',
    'index.translog.generation_threshold_size',
    'index.translog.retention.age',
    'index.translog.retention.size',
    'index.gc_deletes',
    'index.mapping.total_fields.limit',
    'index.mapping.depth.limit',
    'index.mapping.nested_fields.limit',
    'index.auto_expand_replicas',
    'index.priority',
    'index.query.default_field',
    'index.search.throttled',
    'index.default_pipeline',
    'index.write.wait_for_active_shards',
  ];
  const isDynamic = (k: string) =>
    DYNAMIC.includes(k) ||
    [
      'index.blocks.',
      'index.routing.allocation.',
      'index.search.slowlog.',
      'index.indexing.slowlog.',
      'index.merge.',
      'index.unassigned.',
      'index.lifecycle.',
    ].some((p) => k.startsWith(p));

  const putSettings: Handler = async (req) => {
    checkParams(req, [...OPTS, 'preserve_existing', 'flat_settings', ...MASTER]);
    requireBody(req); // ES RestUpdateSettingsAction: request.contentParser()
    const body = bodyObject(req);
    if (!body)
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: no settings to update;',
        400,
      );
    const raw =
      body.settings !== undefined && Object.keys(body).length === 1 ? body.settings : body;
    const upd = flattenSettings(raw);
    if (Object.keys(upd).length === 0)
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: no settings to update;',
        400,
      );
    validateSettings(upd, false);
    const preserve = boolParam(req, 'preserve_existing', false);
    const targets = resolve(req, STRICT_EXPAND_OPEN_CLOSED);
    // ES TransportUpdateSettingsAction.checkBlock, so a blocked index can be unblocked: a request
    // of index.blocks.metadata alone passes, and so does any request that names read_only or
    // read_only_allow_delete (its `&&` binds before the `||`s)
    const keys = Object.keys(upd);
    const unblocking =
      (keys.length === 1 && keys[0] === 'index.blocks.metadata') ||
      keys.includes('index.blocks.read_only') ||
      keys.includes('index.blocks.read_only_allow_delete');
    if (!unblocking) for (const idx of targets) checkBlock(idx.meta.settings, 'metadata_write');
    const nonDynamic = Object.keys(upd).filter(
      (k) => !isDynamic(k) && !k.startsWith('index.analysis.'),
    );
    for (const idx of targets) {
      const bad = nonDynamic.filter((k) => !idx.closed || k === 'index.number_of_shards');
      if (bad.length) {
        throw illegalArgument(
          `Can't update non dynamic settings [[${bad.sort().join(', ')}]] for open indices [[${idx.name}/${idx.uuid}]]`,
        );
      }
    }
    await node.metadata.putSettings(targets, upd, preserve);
    await node.store.durable();
    return { status: 200, body: { acknowledged: true } };
  };
  router.add('PUT', '/_settings', putSettings);
  router.add('PUT', '/{index}/_settings', putSettings);

  // ---- refresh
  const refresh: Handler = async (req) => {
    checkParams(req, OPTS);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    return { status: 200, body: { _shards: await node.broadcast.run('refresh', targets) } };
  };
  router.add(['POST', 'GET'], '/_refresh', refresh);
  router.add(['POST', 'GET'], '/{index}/_refresh', refresh);

  // ---- flush: write the search index's commit points
  const flush: Handler = async (req) => {
    checkParams(req, [...OPTS, 'force', 'wait_if_ongoing']);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    return { status: 200, body: { _shards: await node.broadcast.run('flush', targets) } };
  };
  router.add(['POST', 'GET'], '/_flush', flush);
  router.add(['POST', 'GET'], '/{index}/_flush', flush);

  // ---- open / close
  const openClose =
    (close: boolean): Handler =>
    async (req) => {
      checkParams(req, [...OPTS, ...MASTER, 'wait_for_active_shards']);
      const targets = resolve(
        req,
        close ? STRICT_EXPAND_OPEN : { ...STRICT_EXPAND_OPEN_CLOSED, expandOpen: false },
      );
      for (const idx of targets) idx.meta.state = close ? 'close' : 'open';
      await node.metadata.indicesChanged(targets);
      await node.store.durable();
      return {
        status: 200,
        // ES: a red index's primaries never start, so the wait for active shards fails
        // (answered at once here rather than after ES's timeout).
        body: close
          ? { acknowledged: true }
          : { acknowledged: true, shards_acknowledged: targets.every((i) => !i.failed) },
      };
    };
  router.add('POST', '/{index}/_close', openClose(true));
  router.add('POST', '/{index}/_open', openClose(false));
}

export function settingsJson(
  s: FlatSettings,
  flat: boolean,
  human = false,
): Record<string, unknown> {
  let out = s;
  if (human) {
    out = { ...s };
    const cd = s['index.creation_date'];
    if (typeof cd === 'string')
      out['index.creation_date_string'] = new Date(Number(cd)).toISOString();
    const vc = s['index.version.created'];
    if (typeof vc === 'string') out['index.version.created_string'] = '6.8.13';
  }
  return flat ? sortedSettings(out) : nestSettings(out);
}

export function aliasesJson(idx: IndexService): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(idx.meta.aliases).sort()) {
    out[name] = aliasJson(idx.meta.aliases[name]!);
  }
  return out;
}

export function mappingsJson(idx: IndexService, withType: boolean): Record<string, unknown> {
  if (!idx.mapping) return {};
  const m = mappingToJson(idx.mapping);
  return withType ? { [idx.mapping.typeName]: m } : m;
}
