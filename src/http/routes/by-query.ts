/**
 * `_delete_by_query`, `_update_by_query` and the `_rethrottle` endpoints (ES reindex module:
 * AbstractBulkByQueryRestHandler, RestRethrottleAction). Parses the request as ES does (the body
 * is a search source plus `conflicts`/`script`, URI `size` caps the documents processed,
 * `scroll_size` sizes the batches), validates it, and runs it as a task: awaited, or with
 * `wait_for_completion=false` stored in `.tasks` when it finishes.
 */
import {
  actionRequestValidation,
  EsError,
  illegalArgument,
  parsingException,
  toEsError,
} from '../../common/errors.js';
import { parseTimeValueParts } from '../../common/units.js';
import type { IndexService } from '../../engine/index-service.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../engine/index-names.js';
import { parseSearch } from '../../dsl/search/execute.js';
import { parseSearchBody, parseSort, type SearchRequest } from '../../dsl/search/request.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, boolParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { applyUriParams } from '../search-uri-params.js';
import { resultJson, resultStatus, restStatusOf, type ByQueryResult } from './by-query-status.js';
import { BulkByScrollTask, FULL_STATUS, startByQuery, type ByQueryStart } from './by-query-task.js';
import type { ActiveShards, ByQueryJob } from './by-query-worker.js';
import { statusFields, type StatusJsonOptions } from './by-query-status.js';
import { parseTaskId, type TaskManager } from './tasks.js';
import { relayToMaster } from '../master-forward.js';

/** Parameters RestSearchAction.parseSearchRequest and the by-query handlers consume. */
const PARAMS = [
  'ignore_unavailable',
  'allow_no_indices',
  'expand_wildcards',
  'q',
  'df',
  'analyzer',
  'analyze_wildcard',
  'default_operator',
  'lenient',
  'conflicts',
  'refresh',
  'wait_for_completion',
  'wait_for_active_shards',
  'routing',
  'preference',
  'scroll',
  'scroll_size',
  'size',
  'from',
  'slices',
  'requests_per_second',
  'timeout',
  'search_type',
  'search_timeout',
  'sort',
  '_source',
  '_source_includes',
  '_source_excludes',
  '_source_include',
  '_source_exclude',
  'stored_fields',
  'docvalue_fields',
  'terminate_after',
  'stats',
  'version',
  'explain',
  'track_scores',
  'track_total_hits',
  'request_cache',
  'batched_reduce_size',
  'max_concurrent_shard_requests',
  'pre_filter_shard_size',
  'allow_partial_search_results',
  'type',
];

const ACTIONS = {
  delete: 'indices:data/write/delete/byquery',
  update: 'indices:data/write/update/byquery',
} as const;

/** ES AbstractBaseReindexRestHandler.parseRequestsPerSecond (Float.parseFloat; -1 = unlimited). */
export function parseRequestsPerSecond(v: string | undefined): number | null {
  if (v === undefined) return null;
  const bad = () =>
    illegalArgument(
      '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.',
    );
  const s = v.trim();
  if (!/^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/.test(s)) throw bad();
  const f = Math.fround(Number(s.replace(/[fFdD]$/, '')));
  if (f === -1) return Infinity;
  if (f <= 0) throw bad();
  return f;
}

/** ES parseSlices: a positive int or "auto". */
export function parseSlices(v: string | undefined): number | 'auto' {
  if (v === undefined) return 1;
  if (v === 'auto') return 'auto';
  const n = /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw illegalArgument(
      `[slices] must be a positive integer or the string "auto", but was [${v}]`,
    );
  }
  return n;
}

/** ES ActiveShardCount.parseString. */
export function parseActiveShards(v: string | undefined): ActiveShards {
  if (v === undefined) return 'default';
  if (v === 'all') return 'all';
  const n = /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
  if (Number.isNaN(n)) throw illegalArgument(`cannot parse ActiveShardCount[${v}]`);
  if (n < 0) throw illegalArgument('shard count cannot be a negative value');
  return n;
}

/** RestRequest.paramAsInt. */
export function intParam(v: string, name: string): number {
  const n = /^[+-]?\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw illegalArgument(`Failed to parse int parameter [${name}] with value [${v}]`);
  }
  return n;
}

/** AbstractBulkByScrollRequest.setConflicts. */
export function abortOnConflict(v: unknown): boolean {
  if (v === 'proceed') return false;
  if (v === 'abort') return true;
  throw illegalArgument(`conflicts may only be "proceed" or "abort" but was [${String(v)}]`);
}

/** RestUpdateByQueryAction.parseScript: lenient about unknown keys, strict about value types. */
export function parseUpdateScript(v: unknown): unknown {
  if (typeof v === 'string') return { source: v, lang: 'painless', params: {} };
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw illegalArgument('Script value should be a String or a Map');
  }
  let source: string | null = null;
  let stored = false;
  let lang: string | null = null;
  let params: Record<string, unknown> = {};
  const mustBeString = (k: string) =>
    new EsError('parse_exception', `Value must be of type String: [${k}]`, 400);
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (k === 'lang') {
      if (val !== null && typeof val !== 'string') throw mustBeString(k);
      lang = val as string | null;
    } else if (k === 'params') {
      if (val !== null && (typeof val !== 'object' || Array.isArray(val))) throw mustBeString(k);
      params = (val ?? {}) as Record<string, unknown>;
    } else if (k === 'source' || k === 'inline' || k === 'id') {
      if (val !== null && typeof val !== 'string') throw mustBeString(k);
      source = val as string | null;
      stored = k === 'id';
    }
  }
  if (source === null) {
    throw new EsError(
      'parse_exception',
      'expected one of [source] or [id] fields, but found none',
      400,
    );
  }
  if (stored) {
    if (lang !== null) throw illegalArgument('lang cannot be specified for stored scripts');
    return { id: source, params };
  }
  return { source, lang: lang ?? 'painless', params };
}

/** The body's manual `slice` ({id, max, field}); only `_id` slicing is supported. */
function parseManualSlice(v: unknown): { id: number; max: number } {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw parsingException('[slice] failed to parse');
  const o = v as Record<string, unknown>;
  const field = o.field ?? '_id';
  if (field !== '_id' && field !== '_uid') {
    throw illegalArgument(`slicing by-query requests on field [${String(field)}] is not supported`);
  }
  const id = Number(o.id);
  const max = Number(o.max);
  if (!Number.isInteger(max) || max <= 1) throw illegalArgument('max must be greater than 1');
  if (!Number.isInteger(id) || id < 0)
    throw illegalArgument('id must be greater than or equal to 0');
  if (id >= max) throw illegalArgument('max must be greater than id');
  return { id, max };
}

/** ES EsError with another HTTP status (ExceptionsHelper.status differs from ours). */
export function withStatus(e: EsError, status: number): EsError {
  if (e.status === status) return e;
  return new EsError(e.type, e.reason, status, {
    meta: e.meta,
    ...(e.causedBy ? { causedBy: e.causedBy } : {}),
    ...(e.rootCauses ? { rootCauses: e.rootCauses } : {}),
  });
}

interface ParsedByQuery {
  job: Omit<ByQueryJob, 'targets'>;
  slices: number | 'auto';
  manualSlice: { id: number; max: number } | null;
  problems: string[];
}

/** AbstractBulkByQueryRestHandler.parseInternalRequest + setCommonOptions + validate(). */
function parseRequest(req: RestRequest, mode: 'delete' | 'update'): ParsedByQuery {
  const get = (n: string) => param(req, n);
  const raw = bodyJson(req);
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
    throw parsingException('request body or source parameter is required');
  }
  const body = { ...((raw ?? {}) as Record<string, unknown>) };
  let abort = true;
  let script: unknown = null;
  let manualSlice: { id: number; max: number } | null = null;
  // Body fields that are not search source (ES bodyConsumers).
  if (body.conflicts != null) abort = abortOnConflict(body.conflicts);
  delete body.conflicts;
  if (mode === 'update') {
    if (body.script != null) script = parseUpdateScript(body.script);
    delete body.script;
  }
  if (body.slice !== undefined) manualSlice = parseManualSlice(body.slice);
  delete body.slice;
  const search: SearchRequest = parseSearchBody(body);
  applyUriParams(search, (n) => (n === 'size' ? undefined : get(n)));
  const parsed = parseSearch(search);
  let size = -1;
  const sizeParam = get('size');
  if (sizeParam !== undefined) {
    size = intParam(sizeParam, 'size');
    if (size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
  }
  const searchType = get('search_type') ?? 'query_then_fetch';
  if (searchType !== 'query_then_fetch' && searchType !== 'dfs_query_then_fetch') {
    throw illegalArgument(`No search type for [${searchType}]`);
  }
  const scroll = get('scroll');
  if (scroll !== undefined) parseTimeValueParts(scroll, 'scroll');
  const scrollSize = get('scroll_size');
  if (scrollSize !== undefined) search.size = intParam(scrollSize, 'scroll_size');
  const conflicts = get('conflicts');
  if (conflicts !== undefined) abort = abortOnConflict(conflicts);
  const searchTimeout = get('search_timeout');
  if (searchTimeout !== undefined) {
    search.timeoutMs = Math.max(0, parseTimeValueParts(searchTimeout, 'search_timeout').duration);
  }
  const refresh = boolParam(req, 'refresh', false);
  const timeout = parseTimeValueParts(get('timeout') ?? '1m', 'timeout');
  const slices = parseSlices(get('slices'));
  const waitForActiveShards = parseActiveShards(get('wait_for_active_shards'));
  const rps = parseRequestsPerSecond(get('requests_per_second')) ?? Infinity;

  // ES AbstractBulkByScrollRequest.validate (after SearchRequest.validate of the scroll search).
  const problems: string[] = scrollSearchProblems(search);
  if (!(size === -1 || size > 0)) {
    problems.push(
      `size should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [${size}]`,
    );
  }
  if (manualSlice && slices !== 1) {
    problems.push("can't specify both manual and automatic slicing at the same time");
  }
  if (mode === 'delete' && search.query === null && get('q') === undefined) {
    problems.push('query is missing');
  }

  // The scroll reads versions and sequence numbers, in `_doc` order unless sorted.
  if (!search.sort || search.sort.length === 0) search.sort = parseSort('_doc');
  search.version = true;
  search.seqNoPrimaryTerm = true;
  const batch = search.size < 0 ? 1000 : search.size;
  return {
    job: {
      mode,
      search,
      parsed,
      routing: get('routing') ?? null,
      size,
      scrollSize: Math.max(1, batch),
      abortOnVersionConflict: abort,
      refresh,
      timeout,
      waitForActiveShards,
      requestsPerSecond: rps,
      script,
      pipeline: get('pipeline') ?? null,
    },
    slices,
    manualSlice,
    problems,
  };
}

/** ES AbstractBulkByScrollRequest.searchToString: `[idx1, idx2]` then the types if any. */
function describe(mode: 'delete' | 'update', req: RestRequest): string {
  const indices = (req.params.index ?? '').split(',').filter((s) => s);
  const types = (req.params.type ?? '').split(',').filter((s) => s);
  let d = `${mode}-by-query ${indices.length ? `[${indices.join(', ')}]` : '[all indices]'}`;
  if (types.length) d += `[${types.join(', ')}]`;
  return d;
}

/**
 * Runs a bulk-by-scroll task for a REST request: awaited (the response, with the status of its
 * worst failure), or detached (`wait_for_completion=false`: the task id now, the result stored in
 * `.tasks` when it finishes).
 */
export async function serveByScroll(
  node: NodeContext,
  tasks: TaskManager,
  wait: boolean,
  run: { start: ByQueryStart; json: StatusJsonOptions },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const started = startByQuery(node, tasks, run.start);
  if (!wait) {
    void started.done
      .then(
        (r) => tasks.storeResult(started.task, { response: resultJson(r, FULL_STATUS) }),
        (e) => tasks.storeResult(started.task, { error: toEsError(e) }),
      )
      .catch(() => undefined)
      .finally(() => tasks.unregister(started.task));
    return { status: 200, body: { task: tasks.taskId(started.task) } };
  }
  let r: ByQueryResult;
  try {
    r = await started.done;
  } catch (e) {
    const err = toEsError(e);
    throw withStatus(err, restStatusOf(err));
  } finally {
    tasks.unregister(started.task);
  }
  return { status: resultStatus(r), body: resultJson(r, run.json) };
}

export function registerByQueryRoutes(
  router: Router<Handler>,
  node: NodeContext,
  tasks: TaskManager,
): void {
  const resolveTargets = (req: RestRequest): IndexService[] => {
    const found = node.indices.resolve(
      req.params.index!,
      indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED, (n) => param(req, n)),
    );
    const type = req.params.type;
    if (!type || type === '_all') return found;
    const types = type.split(',');
    return found.filter((i) => i.typeName === null || types.includes(i.typeName));
  };

  const run =
    (mode: 'delete' | 'update'): Handler =>
    async (req) => {
      checkParams(req, mode === 'update' ? [...PARAMS, 'pipeline'] : PARAMS);
      const { job, slices, manualSlice, problems } = parseRequest(req, mode);
      if (problems.length) throw actionRequestValidation(problems);
      const wait = boolParam(req, 'wait_for_completion', true);
      const action = ACTIONS[mode];
      const description = describe(mode, req);
      let targets: IndexService[] = [];
      let failure: EsError | null = null;
      try {
        targets = resolveTargets(req);
      } catch (e) {
        // The scroll resolves indices inside the task: a detached task fails, an awaited one errors.
        if (wait) throw e;
        failure = toEsError(e);
      }
      const full: ByQueryJob = {
        ...job,
        targets,
        // TransportSearchAction of the scroll: alias filters and search routing of the expression
        aliasFilters: node.indices.aliasFilters(req.params.index, targets),
        routings: node.indices.searchRouting(req.params.index, job.routing ?? undefined),
      };
      return serveByScroll(node, tasks, wait, {
        start: { action, description, job: full, slices, manualSlice, failure },
        json: { includeCreated: false, includeUpdated: mode === 'update' },
      });
    };

  router.add('POST', '/{index}/_delete_by_query', run('delete'));
  router.add('POST', '/{index}/{type}/_delete_by_query', run('delete'));
  router.add('POST', '/{index}/_update_by_query', run('update'));
  router.add('POST', '/{index}/{type}/_update_by_query', run('update'));

  // ---- rethrottle (ES RestRethrottleAction / TransportRethrottleAction)
  const rethrottle: Handler = async (req) => {
    checkParams(req, ['requests_per_second', 'group_by']);
    const raw = req.params.task_id!;
    const taskId = parseTaskId(raw);
    // ES TransportRethrottleAction runs on the task's node
    const owner = node.routing.peerUrl(taskId.node);
    if (owner) return relayToMaster(owner, req.method, req.uri, req.headers, req.body);
    const rps = parseRequestsPerSecond(param(req, 'requests_per_second'));
    if (rps === null) throw illegalArgument('requests_per_second is a required parameter');
    const groupBy = param(req, 'group_by') ?? 'nodes';
    if (groupBy !== 'nodes' && groupBy !== 'parents' && groupBy !== 'none') {
      throw illegalArgument(
        `[group_by] must be one of [nodes], [parents] or [none] but was [${groupBy}]`,
      );
    }
    const nodeFailure = (nodeId: string, cause: EsError) =>
      new EsError('failed_node_exception', `Failed node [${nodeId}]`, 500, {
        meta: { node_id: nodeId },
        causedBy: cause,
      });
    let failure: EsError | null = null;
    let info: Record<string, unknown> | null = null;
    if (taskId.node !== node.nodeId) {
      failure = nodeFailure(
        taskId.node,
        new EsError('no_such_node_exception', `No such node [${taskId.node}]`, 404, {
          meta: { node_id: taskId.node },
        }),
      );
    } else {
      const t = tasks.get(taskId.id);
      const bbs = t?.payload;
      if (!t) {
        failure = nodeFailure(
          taskId.node,
          new EsError('resource_not_found_exception', `task [${raw}] is missing`, 404),
        );
      } else if (!(bbs instanceof BulkByScrollTask)) {
        failure = nodeFailure(
          taskId.node,
          new EsError(
            'resource_not_found_exception',
            `task [${raw}] doesn't support this operation`,
            404,
          ),
        );
      } else {
        bbs.rethrottle(rps);
        info = { ...tasks.info(t), status: statusFields(bbs.statusAfterRethrottle(), FULL_STATUS) };
      }
    }
    const body: Record<string, unknown> = {};
    if (failure) body.node_failures = [failure.toInner()];
    if (groupBy === 'nodes') {
      body.nodes = info ? { [node.nodeId]: { ...tasks.nodeJson(), tasks: { [raw]: info } } } : {};
    } else if (groupBy === 'parents') {
      body.tasks = info ? { [raw]: info } : {};
    } else {
      body.tasks = info ? [info] : [];
    }
    return { status: 200, body };
  };
  router.add('POST', '/_update_by_query/{task_id}/_rethrottle', rethrottle);
  router.add('POST', '/_delete_by_query/{task_id}/_rethrottle', rethrottle);
  router.add('POST', '/_reindex/{task_id}/_rethrottle', rethrottle);
}

/**
 * ES SearchRequest.validate of a scroll search, then AbstractBulkByScrollRequest.validate's own
 * search checks: what every bulk-by-scroll request (by-query, reindex) refuses in its search.
 */
export function scrollSearchProblems(search: SearchRequest): string[] {
  const problems: string[] = [];
  if (!search.trackTotalHits) {
    problems.push('disabling [track_total_hits] is not allowed in a scroll context');
  }
  if (search.from > 0) problems.push('using [from] is not allowed in a scroll context');
  if (search.size === 0) problems.push('[size] cannot be [0] in a scroll context');
  if (search.from !== -1) problems.push('from is not supported in this context');
  if (search.storedFields !== null) problems.push('stored_fields is not supported in this context');
  return problems;
}
