/**
 * Search APIs: `_search` (body and URI search), `_count`, `_msearch`, scroll and clear-scroll,
 * `_explain` and `_validate/query`. Every one goes through the single DSL executor.
 */
import { EsError, illegalArgument, toEsError } from '../../common/errors.js';
import { sourceFilterFromParams } from '../../common/source-filter.js';
import { shardForRouting } from '../../common/murmur3.js';
import {
  indicesOptionsFrom,
  isPlainIndexName,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
  STRICT_EXPAND_OPEN_FORBID_CLOSED_IGNORE_THROTTLED,
  type IndicesOptions,
} from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import {
  locateInJson,
  parseQuery,
  resolveErrorLocations,
  toSearchQuery,
} from '../../dsl/query/index.js';
import { parseSearch, type ParsedSearch, type ExecuteOptions } from '../../dsl/search/execute.js';
import {
  lowerAliasFilter,
  parseAliasFilters,
  routingShardFilter,
  withFilters,
} from '../../dsl/search/alias-filter.js';
import {
  cachedShardRunner,
  nodeRequestCache,
  requestCacheKey,
  requestMayCache,
} from '../../dsl/search/shard-request-cache.js';
import {
  termsLookupOnce,
  termsLookupsIn,
  type TermsLookupOnce,
} from '../../dsl/query/terms-lookup-once.js';
import { DEFAULT_MAX_AGG_DEPTH, MAX_AGG_DEPTH_SETTING } from '../../dsl/aggs/parse/parse-aggs.js';
import { indexQueryContext } from '../../dsl/search/index-context.js';
import {
  parseSearchBody,
  validateSearchRequest,
  type SearchRequest,
} from '../../dsl/search/request.js';
import { applyUriParams, intParam } from '../search-uri-params.js';
import { searchTimeoutOptions, validateNodeSearchSettings } from '../search-settings.js';
import type { NodeContext } from '../../node-context.js';
import { lookupValues, readLookupSpecs } from '../terms-lookups.js';
import { checkParams, preferenceWarning } from '../params.js';
import {
  bodyJson,
  boolParam,
  hasBody,
  param,
  requireBodyOrSource,
  type Handler,
  type RestRequest,
} from '../rest.js';
import type { Router } from '../router.js';
import { msearchItems } from '../msearch-lines.js';
import { countBodyMemo, parseCountBody } from '../../dsl/search/count-body.js';
import { decodeJson } from '../../common/json-bytes.js';
import type { QueryNode } from '../../dsl/query/index.js';
import { sqlScriptMethods } from '../../sql/execute/script-bridge.js';

const INDICES_OPTS = [
  'ignore_unavailable',
  'allow_no_indices',
  'expand_wildcards',
  'ignore_throttled',
];
const SEARCH_PARAMS = [
  ...INDICES_OPTS,
  'q',
  'df',
  'analyzer',
  'analyze_wildcard',
  'default_operator',
  'lenient',
  'explain',
  '_source',
  '_source_includes',
  '_source_include',
  '_source_excludes',
  '_source_exclude',
  'stored_fields',
  'docvalue_fields',
  'from',
  'size',
  'sort',
  'track_scores',
  'track_total_hits',
  'timeout',
  'terminate_after',
  'search_type',
  'scroll',
  'request_cache',
  'routing',
  'preference',
  'version',
  'seq_no_primary_term',
  'typed_keys',
  'allow_partial_search_results',
  'batched_reduce_size',
  'pre_filter_shard_size',
  'max_concurrent_shard_requests',
  'suggest_field',
  'suggest_mode',
  'suggest_size',
  'suggest_text',
  'stats',
  'rest_total_hits_as_int',
  'ccs_minimize_roundtrips',
  'type',
];

const COUNT_PARAMS = [
  ...INDICES_OPTS,
  'q',
  'df',
  'analyzer',
  'analyze_wildcard',
  'default_operator',
  'lenient',
  'min_score',
  'terminate_after',
  'routing',
  'preference',
  'type',
];

/**
 * A node's search limits while its cluster settings object stays the same (a change replaces
 * it) and its breakers too (the HTTP server sets them up).
 */
const limitsByNode = new WeakMap<
  NodeContext,
  { cs: object; overload: NodeContext['overload']; limits: SearchLimits }
>();

type SearchLimits = Readonly<ReturnType<typeof computeSearchLimits>>;

/**
 * The node's search limits. A search asks three times and a count once: they are read from the
 * settings again only when the cluster settings changed.
 */
export function searchLimits(node: NodeContext): SearchLimits {
  const cs = node.clusterSettings?.();
  const kept = limitsByNode.get(node);
  if (cs !== undefined && kept?.cs === cs && kept.overload === node.overload) return kept.limits;
  const limits = Object.freeze(computeSearchLimits(node, cs ?? {}));
  if (cs !== undefined) limitsByNode.set(node, { cs, overload: node.overload, limits });
  return limits;
}

function computeSearchLimits(node: NodeContext, cs: Readonly<Record<string, string>>) {
  return {
    // ES 6.8: no bucket limit by default (a deprecation warning past 10000).
    maxBuckets: cs['search.max_buckets'] !== undefined ? Number(cs['search.max_buckets']) : -1,
    // A static node setting in ES 6.8 (`-E indices.query.bool.max_clause_count=…`).
    maxClauseCount: Number(
      cs['indices.query.bool.max_clause_count'] ??
        node.settings.raw['indices.query.bool.max_clause_count'] ??
        1024,
    ),
    ...(node.overload ? { breaker: node.overload.breakers.bucketChecker() } : {}),
    maxAggDepth: Number(cs[MAX_AGG_DEPTH_SETTING] ?? DEFAULT_MAX_AGG_DEPTH),
  };
}

/** A search request parsed, before it runs. */
export interface PreparedSearch {
  sreq: SearchRequest;
  parsed: ParsedSearch;
}

/** The search route logic other APIs run searches through (search templates). */
export interface SearchRunner {
  /** Parses a search body with the URI parameters `get` (RestSearchAction.parseSearchRequest). */
  prepare(
    body: unknown,
    get: (n: string) => string | undefined,
    warnings: string[],
  ): PreparedSearch;
  /** Runs a prepared search on the index expression `expr` and `type`, as `_msearch` items run. */
  run(
    prepared: PreparedSearch,
    get: (n: string) => string | undefined,
    expr: string | undefined,
    type: string | undefined,
    warnings: string[],
  ): Promise<{ body: Record<string, unknown>; warnings: string[] }>;
}

export function registerSearchRoutes(router: Router<Handler>, node: NodeContext): SearchRunner {
  const { indices } = node;
  validateNodeSearchSettings(node.settings.raw);

  const resolve = (
    req: RestRequest,
    expr?: string,
    base: IndicesOptions = STRICT_EXPAND_OPEN_FORBID_CLOSED,
  ): IndexService[] => {
    const e = expr ?? req.params.index ?? '_all';
    // One open index named as it is, no index options: every resolution rule gives just it.
    if (req.query.size === 0 && isPlainIndexName(e)) {
      const idx = indices.get(e);
      if (idx && !idx.closed && !idx.searchThrottled) return [idx];
    }
    return indices.resolve(
      e,
      indicesOptionsFrom(base, (n) => param(req, n)),
    );
  };
  /** Search and count requests skip frozen indices by default (SearchRequest defaults). */
  const resolveSearch = (req: RestRequest): IndexService[] =>
    resolve(req, undefined, STRICT_EXPAND_OPEN_FORBID_CLOSED_IGNORE_THROTTLED);

  const typeFilter = (list: IndexService[], type: string | undefined) => {
    if (!type || type === '_all') return list;
    const types = type.split(',');
    return list.filter(
      (i) => i.typeName === null || types.includes(i.typeName) || types.includes('_doc'),
    );
  };

  /** The `routing` parameter and the search routing of the aliases `expr` names, per index. */
  const routingFilter = (
    expr: string | undefined,
    routing: string | undefined,
  ): ExecuteOptions['shardFilter'] =>
    routingShardFilter(indices.searchRouting(expr, routing || undefined));

  /** Reads the lookup document of a `terms` query (a GET on the lookup index). */
  const fetchLookup: NonNullable<ExecuteOptions['termsLookup']> = (
    index,
    type,
    id,
    path,
    routing,
  ) => {
    const idx = indices.resolve(index, STRICT_EXPAND_OPEN_FORBID_CLOSED)[0];
    if (!idx) return null;
    const r = node.documents.get(idx, type, id, routing, {
      source: { includes: [], excludes: [] },
    });
    if (!r.found) return null;
    return lookupValues(r.body._source, path);
  };
  /**
   * The lookup documents are read before the search (wherever their shards are, through
   * node.reads), as ES rewrites lookups on the coordinating node; the memo then answers the
   * query's lowering here, and in a cluster the lookups travel to the other nodes' shards.
   */
  const readLookups = (
    parsed: PreparedSearch['parsed'],
    once: TermsLookupOnce,
    targets: readonly IndexService[],
  ): ReturnType<TermsLookupOnce['outcomes']> | Promise<ReturnType<TermsLookupOnce['outcomes']>> => {
    const roots = [parsed.query, parsed.postFilter, parsed.aggs, parsed.rescoreQueries];
    const specs = termsLookupsIn(
      roots,
      targets.map((t) => t.name),
    );
    // most searches have none: no read, and no wait for one
    if (specs.length === 0) return once.outcomes();
    return readLookupSpecs(node, specs).then((read) => {
      for (const [key, outcome] of read) once.prime(key, outcome);
      return once.outcomes();
    });
  };
  /** Lookups run once per search request, keyed by its parameter reader (one per request and
   *  msearch item; ES rewrites lookups on the coordinating node). */
  const lookups = new WeakMap<object, TermsLookupOnce>();
  const lookupOnce = (key: object): TermsLookupOnce => {
    let l = lookups.get(key);
    if (!l) lookups.set(key, (l = termsLookupOnce(fetchLookup)));
    return l;
  };

  const options = (get: (n: string) => string | undefined): ExecuteOptions => {
    const timeouts = searchTimeoutOptions(node, get('allow_partial_search_results'));
    const st = get('search_type') ?? 'query_then_fetch';
    if (st !== 'query_then_fetch' && st !== 'dfs_query_then_fetch') {
      throw illegalArgument(`No search type for [${st}]`);
    }
    return {
      searchType: st,
      typedKeys: get('typed_keys') === 'true' || get('typed_keys') === '',
      now: Date.now(),
      limits: searchLimits(node),
      nodeId: node.nodeId,
      // ES SQL's InternalQlScriptUtils read doc values the same in any search (its translations are
      // valid DSL): the adapted table, as for `_sql`
      ...(node.scriptMethods ? { scriptMethods: sqlScriptMethods(node.scriptMethods) } : {}),
      termsLookup: lookupOnce(get).lookup,
      ...timeouts,
    };
  };

  /**
   * Runs one search request (shared by _search and _msearch items), in ES's order: body and URI
   * parameters (RestSearchAction), request validation (SearchRequest.validate), index resolution,
   * alias filters, search routing and indices_boost resolution (TransportSearchAction), then the
   * search or the scroll's first page. `expr` is the request's index expression.
   */
  /**
   * The parse half of a search (RestSearchAction.parseSearchRequest: SearchSourceBuilder with its
   * queries, aggregations and suggestions, then the URI parameters). For _msearch this runs for
   * every item before any executes: a body that does not parse fails the whole request.
   */
  const prepareSearch = (
    body: unknown,
    get: (n: string) => string | undefined,
    warnings: string[],
  ): PreparedSearch => {
    const sreq = parseSearchBody(body);
    warnings.push(...sreq.deprecations);
    applyUriParams(sreq, get);
    if (sreq.from < -1 || (sreq.from < 0 && sreq.from !== -1))
      throw illegalArgument('[from] parameter cannot be negative');
    if (sreq.size < -1)
      throw illegalArgument(`[size] parameter cannot be negative, found [${sreq.size}]`);
    const parsed = parseSearch(sreq, warnings, { maxAggDepth: searchLimits(node).maxAggDepth });
    return { sreq, parsed };
  };

  /** Everything a search needs before it runs: its targets and execution options. */
  const prepareRun = (
    { sreq, parsed }: PreparedSearch,
    get: (n: string) => string | undefined,
    expr: string | undefined,
    resolveTargets: () => IndexService[],
    warnings: string[],
  ) => {
    const intParamOf = (n: string) => intParam(get, n);
    const batchedReduceSize = intParamOf('batched_reduce_size');
    if (batchedReduceSize !== undefined && batchedReduceSize <= 1)
      throw illegalArgument('batchedReduceSize must be >= 2');
    const preFilterShardSize = intParamOf('pre_filter_shard_size');
    if (preFilterShardSize !== undefined && preFilterShardSize < 1)
      throw illegalArgument('preFilterShardSize must be >= 1');
    const opts = options(get);
    const scroll = get('scroll');
    const keepAlive = scroll !== undefined ? parseTimeValueMs(scroll, 'scroll') : undefined;
    validateSearchRequest(sreq, scroll !== undefined, get('request_cache'), warnings);
    const targets = resolveTargets();
    const aliasFilters = indices.aliasFilters(expr, targets);
    const shardFilter = routingFilter(expr, get('routing'));
    const boosts = resolveIndexBoosts(sreq, get);
    const execOpts: ExecuteOptions = {
      ...opts,
      ...(aliasFilters.size > 0 ? { aliasFilters } : {}),
      ...(shardFilter ? { shardFilter } : {}),
      ...(boosts ? { indexBoosts: boosts } : {}),
      ...(batchedReduceSize !== undefined ? { batchedReduceSize } : {}),
      ...(preFilterShardSize !== undefined ? { preFilterShardSize } : {}),
    };
    const cachePolicy = requestMayCache(sreq, opts.searchType, keepAlive !== undefined, get('request_cache')); // prettier-ignore
    const runner = cachedShardRunner(
      nodeRequestCache(indices, node.settings.raw['indices.requests.cache.size']),
      cachePolicy,
      // the key serialises the whole request: only when the cache may be asked
      cachePolicy === false ? '' : requestCacheKey(sreq, opts.typedKeys),
      () => lookupOnce(get).resolved(),
      (l) =>
        lookupOnce(get).lookup(
          ...(JSON.parse(l.key) as [string, string, string, string, string | null]),
        ),
    );
    if (runner) {
      execOpts.shardRunner = runner;
      if (cachePolicy !== false) execOpts.requestCachePolicy = cachePolicy;
    }
    const runOpts: ExecuteOptions =
      keepAlive === undefined
        ? execOpts
        : {
            ...execOpts,
            keepAllHits: true,
            scroll: true,
            scrollKeepAliveMs: keepAlive,
            maxKeepAliveMs: maxKeepAlive(),
          };
    return { sreq, parsed, targets, runOpts, keepAlive };
  };

  /**
   * Runs a search where its shards are (node.searches): this node's, or one copy of each on the
   * node holding it. The terms lookups are read first, wherever their documents are.
   */
  const runSearch = async (
    prepared: PreparedSearch,
    get: (n: string) => string | undefined,
    expr: string | undefined,
    resolveTargets: () => IndexService[],
    warnings: string[],
  ): Promise<{ body: Record<string, unknown>; warnings: string[] }> => {
    const p = prepareRun(prepared, get, expr, resolveTargets, warnings);
    const pref = get('preference');
    const read = readLookups(p.parsed, lookupOnce(get), p.targets);
    const termsLookups = Array.isArray(read) ? read : await read;
    return node.searches.search({
      termsLookups,
      indices: p.targets,
      req: p.sreq,
      parsed: p.parsed,
      opts: p.runOpts,
      ...(pref !== undefined ? { preference: pref } : {}),
      maxAggDepth: searchLimits(node).maxAggDepth,
    });
  };

  /** The alias filters `expr` puts on each of `targets`, parsed (alias-filter.ts). */
  const aliasFilterNodes = (expr: string | undefined, targets: IndexService[]) =>
    parseAliasFilters(indices.aliasFilters(expr, targets));

  /** `search.max_keep_alive` (default 24h). */
  const maxKeepAlive = (): number => {
    const v = node.clusterSettings?.()['search.max_keep_alive'];
    return v === undefined ? 24 * 3_600_000 : parseTimeValueMs(v, 'search.max_keep_alive');
  };

  /** TransportSearchAction.resolveIndexBoosts: first matching entry wins per concrete index. */
  const resolveIndexBoosts = (
    sreq: SearchRequest,
    get: (n: string) => string | undefined,
  ): Map<IndexService, number> | null => {
    if (sreq.indicesBoost.length === 0) return null;
    const out = new Map<IndexService, number>();
    const io = indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED, get);
    for (const ib of sreq.indicesBoost) {
      for (const idx of indices.resolve(ib.index, io)) if (!out.has(idx)) out.set(idx, ib.boost);
    }
    return out;
  };

  const search: Handler = (req) => {
    checkParams(req, SEARCH_PARAMS);
    preferenceWarning(req);
    const get = (n: string) => param(req, n);
    const args = [
      prepareSearch(bodyJson(req), get, req.warnings),
      get,
      req.params.index,
      () => typeFilter(resolveSearch(req), req.params.type),
      req.warnings,
    ] as const;
    const respond = (out: { body: Record<string, unknown>; warnings: string[] }) => {
      req.warnings.push(...out.warnings);
      return { status: 200, body: out.body };
    };
    return runSearch(...args).then(respond);
  };
  router.add(['GET', 'POST'], '/_search', search);
  router.add(['GET', 'POST'], '/{index}/_search', search);
  router.add(['GET', 'POST'], '/{index}/{type}/_search', search);

  // ---- scroll
  const scroll: Handler = (req) => {
    checkParams(req, ['scroll', 'scroll_id', 'rest_total_hits_as_int']);
    // RestSearchScrollAction: values in the body take precedence over the URL
    const body = (bodyJson(req) ?? {}) as Record<string, unknown>;
    const id = String(body.scroll_id ?? req.params.scroll_id ?? param(req, 'scroll_id') ?? '');
    if (!id)
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: scrollId is missing;',
        400,
      );
    const ka = body.scroll ?? param(req, 'scroll');
    const keepAlive = ka === undefined ? null : parseTimeValueMs(String(ka), 'scroll');
    return node.searches
      .scroll({ scrollId: id, keepAliveMs: keepAlive, maxKeepAliveMs: maxKeepAlive() })
      .then((out) => {
        req.warnings.push(...out.warnings);
        return { status: 200, body: out.body };
      });
  };
  router.add(['GET', 'POST'], '/_search/scroll', scroll);
  router.add(['GET', 'POST'], '/_search/scroll/{scroll_id}', scroll);

  const clearScroll: Handler = (req) => {
    checkParams(req, ['scroll_id']);
    const p = req.params.scroll_id ?? param(req, 'scroll_id');
    let ids: string[] = p ? p.split(',').filter((x) => x) : [];
    // RestClearScrollAction: ids in the body replace the ones in the URL
    const body = bodyJson(req);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const v = (body as Record<string, unknown>).scroll_id;
      if (v !== undefined) ids = Array.isArray(v) ? v.map(String) : [String(v)];
    }
    if (ids.length === 0)
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: no scroll ids specified;',
        400,
      );
    return node.searches.clearScroll(ids.includes('_all') ? 'all' : ids).then((r) => ({
      status: r.missing === 0 ? 200 : 404,
      body: { succeeded: r.missing === 0, num_freed: r.freed },
    }));
  };
  router.add('DELETE', '/_search/scroll', clearScroll);
  router.add('DELETE', '/_search/scroll/{scroll_id}', clearScroll);

  // ---- count
  const parseCountText = countBodyMemo();
  const count: Handler = (req) => {
    checkParams(req, COUNT_PARAMS);
    preferenceWarning(req);
    const get = (n: string) => param(req, n);
    let sreq: SearchRequest;
    let query: QueryNode;
    if (req.query.size === 0 && hasBody(req)) {
      // without URI parameters the parse is the body's alone: shared between equal bodies
      ({ sreq, query } = parseCountText(decodeJson(req.body!)));
    } else {
      ({ sreq } = parseCountBody(bodyJson(req)));
      if (req.query.size > 0) applyUriParams(sreq, get);
      query = parseSearch(sreq).query;
    }
    const now = Date.now();
    const found = typeFilter(resolveSearch(req), req.params.type);
    const aliasFilters = indices.aliasFilters(req.params.index, found);
    const shardFilter = routingFilter(req.params.index, get('routing'));
    const pref = get('preference');
    return node.searches
      .count({
        indices: found,
        sreq,
        query,
        opts: {
          now,
          limits: searchLimits(node),
          nodeId: node.nodeId,
          ...searchTimeoutOptions(node),
          ...(aliasFilters.size > 0 ? { aliasFilters } : {}),
          ...(shardFilter ? { shardFilter } : {}),
        },
        ...(pref !== undefined ? { preference: pref } : {}),
      })
      .then((body) => ({ status: 200, body }));
  };
  router.add(['GET', 'POST'], '/_count', count);
  router.add(['GET', 'POST'], '/{index}/_count', count);
  router.add(['GET', 'POST'], '/{index}/{type}/_count', count);

  /** The indices of an _msearch item: `expr` and `type` with the index options of `get`. */
  const itemTargets = (
    get: (n: string) => string | undefined,
    expr: string | undefined,
    type: string | undefined,
  ) =>
    typeFilter(
      indices.resolve(
        expr ?? '_all',
        indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED_IGNORE_THROTTLED, get),
      ),
      type,
    );
  /** One search on `expr` and `type` with the index options of `get` (an _msearch item). */
  const runItem = (
    prepared: PreparedSearch,
    get: (n: string) => string | undefined,
    expr: string | undefined,
    type: string | undefined,
    warnings: string[],
  ) => runSearch(prepared, get, expr, () => itemTargets(get, expr, type), warnings);

  // ---- msearch
  const msearch: Handler = (req) => {
    checkParams(req, [
      'search_type',
      'max_concurrent_searches',
      'typed_keys',
      'pre_filter_shard_size',
      'max_concurrent_shard_requests',
      'rest_total_hits_as_int',
      'ccs_minimize_roundtrips',
    ]);
    requireBodyOrSource(req); // ES RestMultiSearchAction: request.contentOrSourceParam()
    const t0 = Date.now();
    const data = req.body ?? Buffer.alloc(0);
    const located = (e: unknown, line: string) =>
      resolveErrorLocations(toEsError(e), (loc) => locateInJson(line, loc));
    // every item parses before any runs: one that does not fails the whole request
    const items = [];
    for (const item of msearchItems(data, req.warnings)) {
      const h = item.header;
      const hget = (n: string): string | undefined => {
        const v = h.get(n);
        if (v !== undefined) return Array.isArray(v) ? v.join(',') : String(v);
        if (n === 'search_type' || n === 'typed_keys') return param(req, n);
        return undefined;
      };
      try {
        items.push({ item, hget, prepared: prepareSearch(item.body, hget, req.warnings) });
      } catch (e) {
        throw located(e, item.bodyLine);
      }
    }
    const responses: unknown[] = [];
    const answered = (out: { body: Record<string, unknown>; warnings: string[] }) => {
      req.warnings.push(...out.warnings);
      responses.push({ ...out.body, status: 200 });
    };
    const failed = (e: unknown, line: string) => {
      const err = located(e, line);
      responses.push({ error: err.toErrorObject(), status: err.status });
    };
    const done = () => ({ status: 200, body: { took: Date.now() - t0, responses } });
    return (async () => {
      for (const { item, hget, prepared } of items) {
        try {
          const expr = hget('index') ?? req.params.index;
          const type = hget('type') ?? req.params.type;
          answered(await runItem(prepared, hget, expr, type, req.warnings));
        } catch (e) {
          failed(e, item.bodyLine);
        }
      }
      return done();
    })();
  };
  router.add(['GET', 'POST'], '/_msearch', msearch);
  router.add(['GET', 'POST'], '/{index}/_msearch', msearch);
  router.add(['GET', 'POST'], '/{index}/{type}/_msearch', msearch);

  // ---- explain
  router.add(['GET', 'POST'], '/{index}/{type}/{id}/_explain', async (req) => {
    checkParams(req, [
      'q',
      'df',
      'analyzer',
      'analyze_wildcard',
      'default_operator',
      'lenient',
      'routing',
      'parent',
      'preference',
      'stored_fields',
      '_source',
      '_source_includes',
      '_source_excludes',
      '_source_include',
      '_source_exclude',
    ]);
    preferenceWarning(req);
    const get = (n: string) => param(req, n);
    const idx = resolve(req, req.params.index)[0];
    if (!idx) throw illegalArgument('no index');
    const body = (bodyJson(req) ?? {}) as Record<string, unknown>;
    const sreq = parseSearchBody(body.query ? { query: body.query } : {});
    applyUriParams(sreq, get);
    if (!sreq.query && get('q') === undefined) {
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: query is missing;',
        400,
      );
    }
    // parsed here so a bad query fails on the node asked, as ES parses it on the coordinating node
    parseSearch(sreq);
    const routing = get('routing') ?? get('parent') ?? req.params.id!;
    const shard = shardForRouting(routing, idx.numberOfShards, idx.routingNumShards);
    const base = { _index: idx.name, _type: idx.typeName ?? req.params.type!, _id: req.params.id! };
    // TransportExplainAction.resolveRequest: the alias filter of the index named
    const filters = indices.aliasFilters(req.params.index, [idx]);
    parseAliasFilters(filters);
    const aliasFilter = filters.get(idx)?.filter ?? null;
    const pref = get('preference');
    const r = await node.explainer.explain(idx, shard, req.params.id!, {
      query: sreq.query ?? null,
      aliasFilter,
      ...(pref !== undefined ? { preference: pref } : {}),
    });
    if (!r.found) return { status: 404, body: { ...base, matched: false } };
    const out: Record<string, unknown> = { ...base, matched: r.matched, explanation: r.explanation }; // prettier-ignore
    // ES TransportExplainAction: the document too when stored fields or its source are asked for
    const stored = get('stored_fields');
    const sourceParams = ['_source', '_source_includes', '_source_include', '_source_excludes', '_source_exclude']; // prettier-ignore
    const fetchSource = sourceParams.some((n) => get(n) !== undefined) && get('_source') !== 'false'; // prettier-ignore
    if (stored !== undefined || fetchSource) {
      const g = await node.reads.get(
        idx,
        base._type,
        base._id,
        get('routing') ?? get('parent') ?? null,
        {
          source: fetchSource ? sourceFilterFromParams(get) : null,
          storedFields: stored === undefined ? null : stored.split(','),
          realtime: false,
          ...(pref !== undefined ? { preference: pref } : {}),
        },
      );
      const { _index: _i, _type: _t, _id: _d, _version: _v, ...embedded } = g.body;
      out.get = embedded;
    }
    return { status: 200, body: out };
  });

  // ---- validate
  const validate: Handler = (req) => {
    checkParams(req, [
      ...INDICES_OPTS,
      'explain',
      'rewrite',
      'all_shards',
      'q',
      'df',
      'analyzer',
      'analyze_wildcard',
      'default_operator',
      'lenient',
      'type',
    ]);
    const get = (n: string) => param(req, n);
    const targets = resolve(req);
    const explain = boolParam(req, 'explain', false);
    const total = targets.reduce((a, i) => a + i.numberOfShards, 0);
    let body: Record<string, unknown> = {};
    // ES RestValidateQueryAction: a request that fails to parse answers valid: false and, with
    // explain, the exception as Java prints it (class name, then message)
    const invalid = (e: unknown) => ({
      status: 200,
      body: { valid: false, ...(explain ? { error: javaExceptionText(toEsError(e)) } : {}) },
    });
    try {
      const b = bodyJson(req);
      body = (b ?? {}) as Record<string, unknown>;
      // RestActions.getQueryContent: `query` is the one key a body may hold
      for (const k of Object.keys(body))
        if (k !== 'query')
          throw new EsError('parsing_exception', `request does not support [${k}]`, 400);
    } catch (e) {
      return invalid(e);
    }
    const sreq = parseSearchBody({});
    if (body.query !== undefined) sreq.query = body.query;
    applyUriParams(sreq, get);
    if (body.query !== undefined) {
      try {
        parseQuery(sreq.query);
      } catch (e) {
        return invalid(e);
      }
    }
    const explanations: unknown[] = [];
    let valid = true;
    let error: string | undefined;
    try {
      const node0 = parseQuery(sreq.query ?? { match_all: {} });
      // TransportValidateQueryAction.newShardRequest: each shard's alias filter
      const aliasFilters = aliasFilterNodes(req.params.index, targets);
      for (const idx of targets) {
        const qctx = indexQueryContext(idx, Date.now(), searchLimits(node));
        try {
          const alias = lowerAliasFilter(aliasFilters.get(idx) ?? null, qctx);
          const q = withFilters(toSearchQuery(node0, qctx), alias ? [alias] : []);
          explanations.push({ index: idx.name, valid: true, explanation: describe(q) });
        } catch (e) {
          valid = false;
          explanations.push({
            index: idx.name,
            valid: false,
            error: `[${idx.name}/${idx.uuid}] ${toEsError(e).type}: ${toEsError(e).reason}`,
          });
        }
      }
    } catch (e) {
      valid = false;
      const err = toEsError(e);
      error = `${err.type}: ${err.reason}`;
    }
    const out: Record<string, unknown> = {
      _shards: { total: error ? total : total, successful: total, failed: 0 },
      valid,
    };
    if (explain) {
      if (error) out.error = error;
      else out.explanations = explanations;
    }
    if (error && !explain) delete out._shards;
    return { status: 200, body: out };
  };
  router.add(['GET', 'POST'], '/_validate/query', validate);
  router.add(['GET', 'POST'], '/{index}/_validate/query', validate);
  router.add(['GET', 'POST'], '/{index}/{type}/_validate/query', validate);
  return {
    prepare: prepareSearch,
    run: runItem,
  };
}

import { describeQuery } from '../../dsl/query/index.js';
/** A concrete name: no list, wildcard, exclusion, `_`-prefixed name or date math. */
function describe(q: Parameters<typeof describeQuery>[0]): string {
  return describeQuery(q);
}

/** ES exception types to the Java classes whose toString() ES prints in validate errors. */
const JAVA_EXCEPTIONS: Record<string, string> = {
  parsing_exception: 'org.elasticsearch.common.ParsingException',
  illegal_argument_exception: 'java.lang.IllegalArgumentException',
  x_content_parse_exception: 'org.elasticsearch.common.xcontent.XContentParseException',
  json_parse_exception: 'com.fasterxml.jackson.core.JsonParseException',
  query_shard_exception: 'org.elasticsearch.index.query.QueryShardException',
};

function javaExceptionText(e: { type: string; reason: string | null }): string {
  return `${JAVA_EXCEPTIONS[e.type] ?? e.type}: ${e.reason ?? ''}`;
}
