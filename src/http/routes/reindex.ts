/**
 * `POST /_reindex` (ES RestReindexAction, ReindexRequest.validate, TransportReindexAction): the
 * body names the `source` (indices, types, a search whose `size` is the scroll batch, a `remote`
 * cluster) and the `dest` (index, type, routing, op_type, version_type, pipeline). It runs as a
 * bulk-by-scroll task through the by-query worker, which scans the source on each shard's node
 * and writes through the node's write path (primaries in a cluster, the destination created on
 * the way as any write creates it).
 */
import {
  actionRequestValidation,
  EsError,
  illegalArgument,
  parsingException,
  toEsError,
  xContentParse,
} from '../../common/errors.js';
import { parseTimeValueParts, timeValueMillis } from '../../common/units.js';
import type { IndexService } from '../../engine/index-service.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../engine/index-names.js';
import type { VersionType } from '../../engine/versioning.js';
import { checkAutoCreate } from '../../engine/auto-create-index.js';
import { parseSearch } from '../../dsl/search/execute.js';
import { parseSearchBody, parseSort } from '../../dsl/search/request.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import {
  abortOnConflict,
  parseActiveShards,
  parseRequestsPerSecond,
  parseSlices,
  parseUpdateScript,
  scrollSearchProblems,
  serveByScroll,
} from './by-query.js';
import type { ByQueryJob, ReindexDest } from './by-query-worker.js';
import type { TaskManager } from './tasks.js';
import { scanRemote, type RemoteSource } from './reindex-remote.js';

const ACTION = 'indices:data/write/reindex';

const PARAMS = [
  'refresh',
  'timeout',
  'wait_for_active_shards',
  'wait_for_completion',
  'requests_per_second',
  'slices',
  'scroll',
];

/** ES RestReindexAction's extractStringArray: a string or a list of strings. */
function stringArray(source: Record<string, unknown>, name: string): string[] | null {
  const v = source[name];
  delete source[name];
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') return [v];
  throw illegalArgument(`Expected [${name}] to be a list of a string but was [${String(v)}]`);
}

function remoteSource(source: Record<string, unknown>): RemoteSource | null {
  const raw = source.remote;
  delete source.remote;
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw parsingException('[remote] must be an object');
  }
  const remote = { ...(raw as Record<string, unknown>) };
  const str = (k: string): string | null => {
    const v = remote[k];
    delete remote[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw illegalArgument(`Expected [${k}] to be a string but was [${String(v)}]`); // prettier-ignore
    return v;
  };
  const username = str('username');
  const password = str('password');
  const hostInRequest = str('host');
  if (hostInRequest === null) {
    throw new EsError(
      'null_pointer_exception',
      '[host] must be specified to reindex from a remote cluster',
      500,
    );
  }
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/:?#]+)(?::(\d+))?(\/[^?#]*)?$/.exec(hostInRequest);
  if (!m) {
    throw illegalArgument(
      `[host] must be of the form [scheme]://[host]:[port](/[pathPrefix])? but was [${hostInRequest}]`,
    );
  }
  const scheme = m[1]!;
  const port = m[3] !== undefined ? Number(m[3]) : scheme === 'https' ? 443 : 80;
  const pathPrefix = m[4] && m[4] !== '/' ? m[4] : null;
  const headersRaw = remote.headers;
  delete remote.headers;
  const headers: Record<string, string> = {};
  if (headersRaw && typeof headersRaw === 'object') {
    for (const [k, v] of Object.entries(headersRaw)) headers[k] = String(v);
  }
  const time = (k: string, dflt: number): number => {
    const v = remote[k];
    delete remote[k];
    if (v === undefined || v === null) return dflt;
    return Math.max(0, timeValueMillis(parseTimeValueParts(String(v), k)));
  };
  const socketTimeoutMs = time('socket_timeout', 30_000);
  const connectTimeoutMs = time('connect_timeout', 1_000);
  const left = Object.keys(remote);
  if (left.length) throw illegalArgument(`Unsupported fields in [remote]: [${left.join(',')}]`);
  const query = source.query ?? { match_all: {} };
  delete source.query;
  return {
    scheme,
    host: m[2]!,
    port,
    pathPrefix,
    username,
    password,
    headers,
    query,
    socketTimeoutMs,
    connectTimeoutMs,
  };
}

const VERSION_TYPES: readonly VersionType[] = ['internal', 'external', 'external_gte', 'force'];

/** ES ReindexRequest's `dest` ObjectParser (an IndexRequest). */
function parseDest(v: unknown): {
  dest: Partial<ReindexDest> & { pipeline?: string | null };
  routing: string | null;
} {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw parsingException('[dest] failed to parse');
  }
  const dest: Partial<ReindexDest> & { pipeline?: string | null } = {};
  let routing: string | null = null;
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const s = val === null ? null : String(val);
    switch (k) {
      case 'index':
        if (s !== null) dest.index = s;
        break;
      case 'type':
        dest.type = s;
        break;
      case 'routing':
        routing = s;
        break;
      case 'op_type':
        if (s !== 'create' && s !== 'index') {
          throw illegalArgument(`opType must be 'create' or 'index', found: [${s}]`);
        }
        dest.opType = s;
        break;
      case 'pipeline':
        dest.pipeline = s;
        break;
      case 'version_type':
        if (!VERSION_TYPES.includes(s as VersionType)) {
          throw illegalArgument(`No version type match [${s}]`);
        }
        dest.versionType = s as VersionType;
        break;
      default:
        throw xContentParse(`[dest] unknown field [${k}], parser not found`);
    }
  }
  return { dest, routing };
}

interface ParsedReindex {
  job: Omit<ByQueryJob, 'targets'>;
  indices: string[] | null;
  types: string[] | null;
  destIndex: string | null;
  remote: RemoteSource | null;
  /** A remote source's sort, as written. */
  sort: unknown;
  slices: number | 'auto';
  problems: string[];
}

/** RestReindexAction.buildRequest + ReindexRequest.validate. */
function parseReindex(
  body: Record<string, unknown>,
  get: (n: string) => string | undefined,
): ParsedReindex {
  let sourceBody: Record<string, unknown> = {};
  let destRaw: unknown = {};
  let size = -1;
  let script: unknown = null;
  let abort = true;
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'source':
        if (!v || typeof v !== 'object' || Array.isArray(v)) {
          throw parsingException('[source] failed to parse');
        }
        sourceBody = { ...(v as Record<string, unknown>) };
        break;
      case 'dest':
        destRaw = v;
        break;
      case 'size': {
        const n = typeof v === 'number' ? v : Number(String(v));
        if (!Number.isInteger(n)) throw xContentParse(`[reindex] failed to parse field [size]`);
        if (n < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${n}]`);
        size = n;
        break;
      }
      case 'script':
        script = parseUpdateScript(v);
        break;
      case 'conflicts':
        abort = abortOnConflict(v);
        break;
      default:
        throw xContentParse(`[reindex] unknown field [${k}], parser not found`);
    }
  }
  const indices = stringArray(sourceBody, 'index');
  const types = stringArray(sourceBody, 'type');
  const remote = remoteSource(sourceBody);
  const sort = remote ? (sourceBody.sort ?? null) : null;
  const search = parseSearchBody(sourceBody);
  const { dest, routing } = parseDest(destRaw);
  const parsed = parseSearch(search);
  const scroll = get('scroll');
  if (scroll !== undefined) parseTimeValueParts(scroll, 'scroll');
  const refresh = get('refresh') !== undefined && get('refresh') !== 'false';
  const timeout = parseTimeValueParts(get('timeout') ?? '1m', 'timeout');
  const slices = parseSlices(get('slices'));
  const waitForActiveShards = parseActiveShards(get('wait_for_active_shards'));
  const rps = parseRequestsPerSecond(get('requests_per_second')) ?? Infinity;

  // AbstractBulkByScrollRequest.validate, then ReindexRequest's own checks
  const problems: string[] = scrollSearchProblems(search);
  if (!indices || indices.length === 0) {
    problems.push('use _all if you really want to copy from all existing indexes');
  }
  if (search.sourceGiven && search.source === null) {
    problems.push('_source:false is not supported in this context');
  }
  const routingValid =
    routing === null || routing === 'keep' || routing === 'discard' || routing.startsWith('=');
  if (dest.index === undefined) {
    problems.push('index must be specified');
  } else {
    if (!routingValid) {
      problems.push('routing must be unset, [keep], [discard] or [=<some new value>]');
    }
    if (remote) {
      if (search.query !== null) {
        problems.push(
          "reindex from remote sources should use RemoteInfo's query instead of source's query",
        );
      }
      if (slices === 'auto' || slices > 1) {
        problems.push(`reindex from remote sources doesn't support slices > 1 but was [${slices}]`);
      }
    }
  }

  if (!search.sort || search.sort.length === 0) search.sort = parseSort('_doc');
  search.version = true;
  search.seqNoPrimaryTerm = true;
  const batch = search.size < 0 ? 1000 : search.size;
  const destRouting: ReindexDest['routing'] =
    routing === null || routing === 'keep' || !routingValid
      ? 'keep'
      : routing === 'discard'
        ? 'discard'
        : { value: routing.slice(1) };
  return {
    job: {
      mode: 'reindex',
      dest: {
        index: dest.index ?? '',
        type: dest.type ?? null,
        routing: destRouting,
        opType: dest.opType ?? 'index',
        versionType: dest.versionType ?? 'internal',
      },
      search,
      parsed,
      routing: null,
      size,
      scrollSize: Math.max(1, batch),
      abortOnVersionConflict: abort,
      refresh,
      timeout,
      waitForActiveShards,
      requestsPerSecond: rps,
      script,
      pipeline: dest.pipeline ?? null,
    },
    indices,
    types,
    destIndex: dest.index ?? null,
    remote,
    sort,
    slices,
    problems,
  };
}

/** ES ReindexRequest.toString. */
function describe(p: ParsedReindex): string {
  let d = 'reindex from ';
  if (p.remote) {
    d += `[scheme=${p.remote.scheme} host=${p.remote.host} port=${p.remote.port}`;
    d += `${p.remote.pathPrefix ? ` pathPrefix=${p.remote.pathPrefix}` : ''} query=${JSON.stringify(p.remote.query)}`;
    d += `${p.remote.username ? ` username=${p.remote.username}` : ''}${p.remote.password ? ' password=<<>>' : ''}]`;
  }
  d += `[${(p.indices ?? []).join(', ')}]`;
  if (p.types && p.types.length) d += `[${p.types.join(', ')}]`;
  d += ` to [${p.destIndex}]`;
  if (p.job.dest!.type !== null) d += `[${p.job.dest!.type}]`;
  return d;
}

/** ES reindex.remote.whitelist: `host:port` patterns with `*` wildcards. */
function whitelisted(node: NodeContext, hostPort: string): boolean {
  const raw = node.settings.raw['reindex.remote.whitelist'] ?? '';
  const patterns = raw
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s);
  return patterns.some((p) =>
    new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(
      hostPort,
    ),
  );
}

export function registerReindexRoutes(
  router: Router<Handler>,
  node: NodeContext,
  tasks: TaskManager,
): void {
  router.add('POST', '/_reindex', async (req) => {
    checkParams(req, PARAMS);
    const raw = bodyJson(req);
    if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw parsingException('request body is required');
    }
    const p = parseReindex(raw as Record<string, unknown>, (n) => param(req, n));
    if (p.problems.length) throw actionRequestValidation(p.problems);
    const wait = boolParam(req, 'wait_for_completion', true);
    if (p.remote) {
      const hostPort = `${p.remote.host}:${p.remote.port}`;
      if (!whitelisted(node, hostPort)) {
        throw illegalArgument(`[${hostPort}] not whitelisted in reindex.remote.whitelist`);
      }
    }
    if (p.remote) {
      const remote = p.remote;
      const job: ByQueryJob = {
        ...p.job,
        targets: [],
        remoteScan: () =>
          scanRemote({
            remote,
            indices: p.indices!,
            types: p.types ?? [],
            batchSize: p.job.scrollSize,
            sourceFilter: p.job.search.sourceGiven ? p.job.search.source : null,
            sort: p.sort,
          }),
      };
      return serveByScroll(node, tasks, wait, {
        start: { action: ACTION, description: describe(p), job, slices: 1, manualSlice: null, failure: null }, // prettier-ignore
        json: { includeCreated: true, includeUpdated: true },
      });
    }
    const expression = p.indices!.join(',');
    let targets: IndexService[] = [];
    let failure: EsError | null = null;
    try {
      targets = node.indices.resolve(
        expression,
        indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED, () => undefined),
      );
      if (p.types && !p.types.includes('_all')) {
        targets = targets.filter((i) => i.typeName === null || p.types!.includes(i.typeName));
      }
    } catch (e) {
      if (wait) throw e;
      failure = toEsError(e);
    }
    // TransportReindexAction.validateAgainstAliases: the destination may be auto-created, and is
    // never what is read
    try {
      const dest = p.destIndex!;
      const destIdx = node.indices.get(dest) ?? node.indices.resolveWriteAlias(dest);
      const exists = !!destIdx || node.indices.all().some((i) => dest in i.meta.aliases);
      if (!exists) {
        const setting =
          node.clusterSettings?.()['action.auto_create_index'] ??
          node.settings.raw['action.auto_create_index'];
        checkAutoCreate(dest, setting);
      }
      if (destIdx && targets.includes(destIdx)) {
        throw actionRequestValidation([
          `reindex cannot write into an index its reading from [${destIdx.name}]`,
        ]);
      }
    } catch (e) {
      if (wait) throw e;
      failure ??= toEsError(e);
    }
    const job: ByQueryJob = {
      ...p.job,
      targets,
      aliasFilters: node.indices.aliasFilters(expression, targets),
      routings: node.indices.searchRouting(expression, undefined),
    };
    return serveByScroll(node, tasks, wait, {
      start: {
        action: ACTION,
        description: describe(p),
        job,
        slices: p.slices,
        manualSlice: null,
        failure,
      },
      json: { includeCreated: true, includeUpdated: true },
    });
  });
}
