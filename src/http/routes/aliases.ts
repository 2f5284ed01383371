/**
 * Alias APIs (ES RestIndexPutAliasAction, RestIndexDeleteAliasesAction, RestGetAliasesAction,
 * RestIndicesAliasesAction): add/remove aliases with filters and routing, get and check them.
 */
import { EsError, illegalArgument, toEsError } from '../../common/errors.js';
import { parseQuery, toSearchQuery } from '../../dsl/query/index.js';
import { indexQueryContext } from '../../dsl/search/index-context.js';
import type { AliasMeta } from '../../engine/index-meta.js';
import { getAliasesResponse } from '../../engine/alias-listing.js';
import {
  indicesOptionsFrom,
  simpleMatch,
  STRICT_EXPAND_OPEN,
  STRICT_EXPAND_OPEN_CLOSED,
  validateIndexName,
} from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyObject, param, requireBody, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import { searchLimits } from './search.js';

function aliasFrom(def: Record<string, unknown>): AliasMeta {
  const a: AliasMeta = {};
  if (def.filter !== undefined) a.filter = def.filter;
  if (def.routing !== undefined) a.index_routing = a.search_routing = String(def.routing);
  if (def.index_routing !== undefined) a.index_routing = String(def.index_routing);
  if (def.search_routing !== undefined) a.search_routing = String(def.search_routing);
  if (typeof def.is_write_index === 'boolean') a.is_write_index = def.is_write_index;
  return a;
}

/**
 * ES AliasValidator.validateAliasFilter: the filter must parse and build as a query on every
 * index the alias points to.
 */
export function validateAliasFilter(
  node: NodeContext,
  alias: string,
  def: AliasMeta,
  targets: IndexService[],
) {
  if (def.filter === undefined) return;
  try {
    const q = parseQuery(def.filter);
    for (const idx of targets)
      toSearchQuery(q, indexQueryContext(idx, Date.now(), searchLimits(node)));
  } catch (e) {
    throw illegalArgument(`failed to parse filter for alias [${alias}]`, toEsError(e));
  }
}

export function registerAliasRoutes(router: Router<Handler>, node: NodeContext): void {
  const { indices } = node;
  const save = async (list: IndexService[]) => {
    await node.metadata.indicesChanged(list);
    await node.store.durable();
  };

  const put: Handler = async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    const name = req.params.name!;
    validateIndexName(name);
    const targets = indices.resolve(req.params.index!, STRICT_EXPAND_OPEN_CLOSED);
    if (indices.get(name))
      throw new EsError(
        'invalid_alias_name_exception',
        `Invalid alias name [${name}], an index exists with the same name as the alias`,
        400,
        { meta: { index_uuid: '_na_', index: name } },
      );
    const body = bodyObject(req) ?? {};
    const def = aliasFrom(body);
    validateAliasFilter(node, name, def, targets);
    for (const i of targets) i.meta.aliases[name] = def;
    await save(targets);
    return { status: 200, body: { acknowledged: true } };
  };
  for (const p of ['/{index}/_alias/{name}', '/{index}/_aliases/{name}'])
    router.add(['PUT', 'POST'], p, put);

  const del: Handler = async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    const targets = indices.resolve(req.params.index!, STRICT_EXPAND_OPEN_CLOSED);
    const names = req.params.name!.split(',');
    let removed = 0;
    for (const i of targets) {
      for (const a of Object.keys(i.meta.aliases)) {
        if (names.some((n) => n === '_all' || simpleMatch(n, a))) {
          delete i.meta.aliases[a];
          removed++;
        }
      }
    }
    if (removed === 0)
      throw new EsError(
        'aliases_not_found_exception',
        `aliases [${names.join(',')}] missing`,
        404,
        { meta: { 'resource.type': 'aliases', 'resource.id': names.join(',') } },
      );
    await save(targets);
    return { status: 200, body: { acknowledged: true } };
  };
  for (const p of ['/{index}/_alias/{name}', '/{index}/_aliases/{name}'])
    router.add('DELETE', p, del);

  const view = (i: IndexService) => ({ name: i.name, aliases: i.meta.aliases });
  // ES RestGetAliasesAction: /{index}/_alias[/{name}] and /_alias/{name}, open and closed indices
  const get: Handler = (req) => {
    checkParams(req, ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'local']);
    const names = req.params.name !== undefined ? req.params.name.split(',') : undefined;
    const targets = indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(STRICT_EXPAND_OPEN_CLOSED, (n) => param(req, n)),
    );
    return getAliasesResponse(targets.map(view), names);
  };
  for (const p of [
    '/_alias/{name}',
    '/{index}/_alias/{name}',
    '/{index}/_alias',
    '/{index}/_aliases',
    '/{index}/_aliases/{name}',
  ])
    router.add('GET', p, get);
  // ES RestGetAllAliasesAction: every open index with its aliases (a get-index request)
  const getAll: Handler = (req) => {
    checkParams(req, [
      'ignore_unavailable',
      'allow_no_indices',
      'expand_wildcards',
      'local',
      'human',
    ]);
    const targets = indices.resolve(
      '_all',
      indicesOptionsFrom(STRICT_EXPAND_OPEN, (n) => param(req, n)),
    );
    return getAliasesResponse(targets.map(view), undefined);
  };
  router.add('GET', '/_alias', getAll);
  router.add('GET', '/_aliases', getAll);
  // ES answers HEAD with the same handler: 404 only when a plainly named alias is missing
  const head: Handler = async (req) => ({ status: (await get(req)).status });
  for (const p of ['/_alias/{name}', '/{index}/_alias/{name}', '/{index}/_alias'])
    router.add('HEAD', p, head);

  router.add('POST', '/_aliases', async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    requireBody(req); // ES RestIndicesAliasesAction: request.contentParser()
    const body = bodyObject(req);
    const actions = body?.actions;
    if (!Array.isArray(actions) || actions.length === 0) {
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: Must specify at least one alias action;',
        400,
      );
    }
    // ES applies the actions as one cluster state update: all are checked before any applies
    const changes: (() => void)[] = [];
    const touched = new Set<IndexService>();
    const toDelete: IndexService[] = [];
    for (const a of actions) {
      const [[kind, spec]] = Object.entries(a as Record<string, Record<string, unknown>>) as [
        [string, Record<string, unknown>],
      ];
      const idxExpr = spec.index ?? spec.indices;
      const idxList = Array.isArray(idxExpr)
        ? idxExpr.map(String)
        : idxExpr !== undefined
          ? [String(idxExpr)]
          : [];
      if (!idxList.length) throw illegalArgument('One of [index] or [indices] is required');
      const targets = indices.resolve(idxList, STRICT_EXPAND_OPEN_CLOSED);
      const aliasExpr = spec.alias ?? spec.aliases;
      const aliases = Array.isArray(aliasExpr)
        ? aliasExpr.map(String)
        : aliasExpr !== undefined
          ? [String(aliasExpr)]
          : [];
      if (kind === 'add') {
        if (!aliases.length) throw illegalArgument('One of [alias] or [aliases] is required');
        for (const al of aliases) validateAliasFilter(node, al, aliasFrom(spec), targets);
        changes.push(() => {
          for (const i of targets)
            for (const al of aliases) {
              i.meta.aliases[al] = aliasFrom(spec);
              touched.add(i);
            }
        });
      } else if (kind === 'remove') {
        changes.push(() => {
          for (const i of targets)
            for (const al of aliases) {
              for (const ex of Object.keys(i.meta.aliases))
                if (simpleMatch(al, ex)) delete i.meta.aliases[ex];
              touched.add(i);
            }
        });
      } else if (kind === 'remove_index') {
        toDelete.push(...targets);
      } else {
        throw new EsError('parsing_exception', `Unknown action [${kind}]`, 400);
      }
    }
    for (const apply of changes) apply();
    await save([...touched]);
    if (toDelete.length) await node.metadata.deleteIndices(toDelete);
    return { status: 200, body: { acknowledged: true } };
  });
}
