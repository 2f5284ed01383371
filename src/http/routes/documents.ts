/**
 * Document APIs: index, create, get, exists, get_source, delete, update, mget, bulk
 * (ES 6.8 RestIndexAction, RestGetAction, RestDeleteAction, RestUpdateAction, RestMultiGetAction,
 * RestBulkAction). Handlers parse parameters and delegate to the engine.
 */
import { EsError, actionRequestValidation } from '../../common/errors.js';
import { RenderedJson } from '../../common/json.js';
import { sourceFilterFromParams, type SourceFilter } from '../../common/source-filter.js';
import { bulkItemBody, parseBulk, validateBulk } from '../../engine/bulk.js';
import { singleOutcome, type WriteOptions } from '../../engine/write-executor.js';
import { indexNotFoundFor } from '../../engine/documents.js';
import { STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import { parseVersionType } from '../../engine/versioning.js';
import { parseTimeValueMs } from '../../engine/time-value.js';
import type { IndexRequest, UpdateRequest } from '../../engine/write-request.js';
import type { NodeContext } from '../../node-context.js';
import {
  checkParams,
  preferenceWarning,
  refreshPolicy,
  writeBase,
  WRITE_PARAMS,
} from '../params.js';
import { bodyObject, boolParam, hasBody, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { transportAddress } from './nodes.js';
import { runIngest, withUpsertPipeline } from '../ingest-writes.js';

const GET_PARAMS = [
  'routing',
  'parent',
  'preference',
  'realtime',
  'refresh',
  'stored_fields',
  '_source',
  '_source_includes',
  '_source_include',
  '_source_excludes',
  '_source_exclude',
  'version',
  'version_type',
];

export function registerDocumentRoutes(router: Router<Handler>, node: NodeContext): void {
  const { documents, store, indices } = node;

  const requireBody = (req: RestRequest): Buffer => {
    if (!hasBody(req)) throw new EsError('parse_exception', 'request body is required', 400);
    return req.body!;
  };

  const indexHandler =
    (create: boolean): Handler =>
    async (req) => {
      checkParams(req, WRITE_PARAMS);
      const p = req.params;
      const opType = param(req, 'op_type');
      if (opType !== undefined && opType !== 'index' && opType !== 'create') {
        throw new EsError(
          'illegal_argument_exception',
          `opType must be 'create' or 'index', found: [${opType}]`,
          400,
        );
      }
      const ir: IndexRequest = {
        kind: 'index',
        ...writeBase(req, p.index!, p.type!, p.id ?? null),
        opType: create || opType === 'create' ? 'create' : 'index',
        source: requireBody(req),
      };
      const pipeline = param(req, 'pipeline');
      if (pipeline !== undefined) ir.pipeline = pipeline;
      const policy = refreshPolicy(req);
      const w = internalVersionWarning(ir);
      if (w) req.warnings.push(w);
      const prepared = runIngest(node.ingest, indices, ir);
      if (!('kind' in prepared)) return { status: prepared.status, body: prepared.body };
      const out = singleOutcome(
        await node.writes.run([prepared as IndexRequest], { ...writeOpts(req), policy }),
      );
      return { status: out.status, body: out.body };
    };

  router.add(['PUT', 'POST'], '/{index}/{type}/{id}', indexHandler(false));
  router.add('POST', '/{index}/{type}', indexHandler(false));
  router.add(['PUT', 'POST'], '/{index}/{type}/{id}/_create', indexHandler(true));

  /** ES IndexNameExpressionResolver.concreteSingleIndex: the one index of a get. */
  const singleIndex = (index: string): IndexService => {
    const resolved = indices.resolve(index, STRICT_EXPAND_OPEN);
    if (resolved.length > 1) {
      throw new EsError(
        'illegal_argument_exception',
        `Alias [${index}] has more than one indices associated with it [[${resolved.map((i) => i.name).join(', ')}]], can't execute a single index op`,
        400,
      );
    }
    if (!resolved[0]) throw indexNotFoundFor(index);
    return resolved[0];
  };

  const getDoc = async (req: RestRequest, sourceOnly: boolean) => {
    checkParams(req, GET_PARAMS);
    preferenceWarning(req);
    const p = req.params;
    const idx = singleIndex(p.index!);
    const storedFields = param(req, 'stored_fields');
    let filter: SourceFilter | null = sourceFilterFromParams((n) => param(req, n));
    if (
      storedFields !== undefined &&
      param(req, '_source') === undefined &&
      !storedFields.split(',').includes('_source')
    ) {
      filter = null;
    }
    const refresh = boolParam(req, 'refresh', false);
    const version = param(req, 'version');
    const r = await node.reads.get(
      idx,
      p.type!,
      p.id!,
      // ES TransportGetAction: an alias's index routing (MetaData.resolveIndexRouting)
      indices.resolveIndexRouting(p.index!, param(req, 'routing') ?? null) ??
        param(req, 'parent') ??
        null,
      {
        ...(version !== undefined ? { version: Number(version) } : {}),
        versionType: parseVersionType(param(req, 'version_type')),
        source: sourceOnly ? (filter ?? { includes: [], excludes: [] }) : filter,
        storedFields: storedFields === undefined ? null : storedFields.split(','),
        realtime: boolParam(req, 'realtime', true),
        ...(refresh ? { refresh } : {}),
        ...(param(req, 'preference') !== undefined
          ? { preference: param(req, 'preference')! }
          : {}),
      },
    );
    deprecatedSourceParams(req);
    return r;
  };

  router.add('GET', '/{index}/{type}/{id}', async (req) => {
    const r = await getDoc(req, false);
    return { status: r.found ? 200 : 404, body: r.body };
  });
  router.add('HEAD', '/{index}/{type}/{id}', async (req) => {
    const r = await getDoc(req, false);
    return { status: r.found ? 200 : 404 };
  });
  router.add('GET', '/{index}/{type}/{id}/_source', async (req) => {
    const r = await getDoc(req, true);
    const where = `[${req.params.index}]/[${req.params.type}]/[${req.params.id}]`;
    if (!r.found)
      throw new EsError('resource_not_found_exception', `Document not found ${where}`, 404);
    if (r.sourceDisabled)
      throw new EsError('resource_not_found_exception', `Source not found ${where}`, 404);
    return { status: 200, body: r.body._source };
  });
  router.add('HEAD', '/{index}/{type}/{id}/_source', async (req) => {
    const r = await getDoc(req, true);
    return { status: r.found && !r.sourceDisabled ? 200 : 404 };
  });

  router.add('DELETE', '/{index}/{type}/{id}', async (req) => {
    checkParams(req, WRITE_PARAMS);
    const p = req.params;
    const policy = refreshPolicy(req);
    const dr = { kind: 'delete' as const, ...writeBase(req, p.index!, p.type!, p.id!) };
    const w = internalVersionWarning(dr);
    if (w) req.warnings.push(w);
    const out = singleOutcome(await node.writes.run([dr], { ...writeOpts(req), policy }));
    return { status: out.status, body: out.body };
  });

  router.add('POST', '/{index}/{type}/{id}/_update', async (req) => {
    checkParams(req, [
      ...WRITE_PARAMS,
      'retry_on_conflict',
      'fields',
      'lang',
      '_source',
      '_source_includes',
      '_source_excludes',
      '_source_include',
      '_source_exclude',
    ]);
    const p = req.params;
    const body = bodyObject(req);
    if (!body) throw actionRequestValidation(['script or doc is missing']);
    let fetch: SourceFilter | null = null;
    if (
      param(req, '_source') !== undefined ||
      param(req, '_source_includes') !== undefined ||
      param(req, '_source_excludes') !== undefined
    ) {
      fetch = sourceFilterFromParams((n) => param(req, n));
    }
    if (body._source !== undefined) fetch = bodySourceFilter(body._source);
    const ur: UpdateRequest = {
      kind: 'update',
      ...writeBase(req, p.index!, p.type!, p.id!),
      body,
      retryOnConflict: Number(param(req, 'retry_on_conflict') ?? 0),
      fetchSource: fetch,
    };
    const policy = refreshPolicy(req);
    const w = internalVersionWarning(ur);
    if (w) req.warnings.push(w);
    const r = await node.writes.run([withUpsertPipeline(node.ingest, indices, ur)], {
      ...writeOpts(req),
      policy,
    });
    const out = onLocalShard(node, 'indices:data/write/update[s]', () => singleOutcome(r));
    return { status: out.status, body: out.body };
  });

  const bulk: Handler = async (req) => {
    checkParams(req, [
      'routing',
      'refresh',
      'timeout',
      'wait_for_active_shards',
      'pipeline',
      'fields',
      '_source',
      '_source_includes',
      '_source_excludes',
      '_source_include',
      '_source_exclude',
      'type',
    ]);
    const t0 = Date.now();
    const body = requireBody(req);
    const policy = refreshPolicy(req);
    const fs = sourceFilterFromParams((n) => param(req, n));
    const reqs = parseBulk(
      body,
      {
        ...(req.params.index ? { index: req.params.index } : {}),
        ...(req.params.type ? { type: req.params.type } : {}),
        ...(param(req, 'routing') ? { routing: param(req, 'routing')! } : {}),
        ...(param(req, 'pipeline') ? { pipeline: param(req, 'pipeline')! } : {}),
        fetchSource:
          fs && (fs.includes.length || fs.excludes.length || param(req, '_source') === 'true')
            ? fs
            : null,
      },
      req.warnings,
    );
    validateBulk(reqs);
    for (const r of reqs) {
      const w = internalVersionWarning(r);
      if (w) req.warnings.push(w);
    }
    let ingestMs: number | null = null;
    let rendered: RenderedJson | null = null;
    const { items } = await node.writes.run(reqs, {
      ...writeOpts(req),
      policy,
      // the items' JSON is written while their commit is flushed
      whileDurable: (done) => (rendered = RenderedJson.of(done.map(bulkItemBody))),
      prepare: (r) => {
        const t = Date.now();
        const out = runIngest(node.ingest, indices, r);
        // ES reports `ingest_took` when some item went through a pipeline
        if (out !== r) ingestMs = (ingestMs ?? 0) + (Date.now() - t);
        return out;
      },
    });
    return {
      status: 200,
      body: {
        took: Date.now() - t0,
        ...(ingestMs !== null ? { ingest_took: ingestMs } : {}),
        errors: items.some((i) => i.error !== null),
        items: rendered ?? items.map(bulkItemBody),
      },
    };
  };
  router.add(['POST', 'PUT'], '/_bulk', bulk);
  router.add(['POST', 'PUT'], '/{index}/_bulk', bulk);
  router.add(['POST', 'PUT'], '/{index}/{type}/_bulk', bulk);

  const mget: Handler = async (req) => {
    checkParams(
      req,
      GET_PARAMS.filter((p) => p !== 'version' && p !== 'version_type'),
    );
    preferenceWarning(req);
    const body = bodyObject(req);
    if (!body) throw actionRequestValidation(['no documents to get']);
    const defIndex = req.params.index;
    const defType = req.params.type ?? '_all';
    const defFilter = sourceFilterFromParams((n) => param(req, n));
    const defStored = param(req, 'stored_fields');
    const refresh = boolParam(req, 'refresh', false);
    const refreshed = new Set<object>();
    const specs: Array<Record<string, unknown>> = [];
    if (Array.isArray(body.docs)) {
      for (const d of body.docs) specs.push((d ?? {}) as Record<string, unknown>);
    } else if (Array.isArray(body.ids)) {
      for (const id of body.ids) specs.push({ _id: id });
    } else if (body.docs !== undefined || body.ids !== undefined) {
      throw new EsError('parse_exception', 'docs array element should include an object', 400);
    }
    if (specs.length === 0) throw actionRequestValidation(['no documents to get']);
    for (const d of specs) {
      for (const k of ['_routing', '_version', '_version_type', '_parent']) {
        if (k in d)
          req.warnings.push(`Deprecated field [${k}] used, expected [${k.slice(1)}] instead`);
      }
    }
    const problems: string[] = [];
    specs.forEach((s, i) => {
      if ((s._index ?? defIndex) === undefined) problems.push(`index is missing for doc ${i}`);
      if (s._id === undefined || s._id === null) problems.push(`id is missing for doc ${i}`);
    });
    if (problems.length) throw actionRequestValidation(problems);
    const docs = specs.map(async (s) => {
      const index = String(s._index ?? defIndex);
      const type = String(s._type ?? defType);
      const id = String(s._id);
      try {
        const idx = singleIndex(index);
        // ES TransportShardMultiGetAction: `refresh` refreshes each shard read, once per request
        const refreshNow = refresh && !refreshed.has(idx);
        refreshed.add(idx);
        let filter: SourceFilter | null = defFilter;
        const sf = s.stored_fields ?? defStored;
        const stored =
          sf === undefined ? null : Array.isArray(sf) ? sf.map(String) : String(sf).split(',');
        if (s._source !== undefined) filter = bodySourceFilter(s._source);
        else if (stored !== null && !stored.includes('_source')) filter = null;
        const given = s.routing ?? s._routing ?? param(req, 'routing') ?? null;
        // ES TransportMultiGetAction: an alias's index routing
        const routing = indices.resolveIndexRouting(index, given === null ? null : String(given));
        const ver = s.version ?? s._version;
        const got = await node.reads.get(idx, type, id, routing === null ? null : String(routing), {
          ...(ver !== undefined ? { version: Number(ver) } : {}),
          versionType: parseVersionType((s.version_type ?? s._version_type) as string | undefined),
          source: filter,
          storedFields: stored,
          realtime: boolParam(req, 'realtime', true),
          ...(refreshNow ? { refresh: true } : {}),
        });
        return got.body;
      } catch (e) {
        const err = e instanceof EsError ? e : new EsError('exception', String(e), 500);
        return { _index: index, _type: type, _id: id, error: err.toErrorObject() };
      }
    });
    return { status: 200, body: { docs: await Promise.all(docs) } };
  };
  router.add(['GET', 'POST'], '/_mget', mget);
  router.add(['GET', 'POST'], '/{index}/_mget', mget);
  router.add(['GET', 'POST'], '/{index}/{type}/_mget', mget);
}

/** The refresh policy and primary wait (`timeout`, ES default 1m) of a write request. */
function writeOpts(req: RestRequest): WriteOptions {
  const t = param(req, 'timeout');
  const w = param(req, 'wait_for_active_shards');
  return {
    policy: refreshPolicy(req),
    ...(t !== undefined ? { timeoutMs: parseTimeValueMs(t, 'timeout') } : {}),
    ...(w !== undefined ? { waitForActiveShards: w } : {}),
  };
}

/** ES 6.8 deprecation warnings for the old source filtering parameter names. */
function deprecatedSourceParams(req: RestRequest): void {
  if (req.query.has('_source_include')) {
    req.warnings.push(
      'Deprecated parameter [_source_include] used, expected [_source_includes] instead',
    );
  }
  if (req.query.has('_source_exclude')) {
    req.warnings.push(
      'Deprecated parameter [_source_exclude] used, expected [_source_excludes] instead',
    );
  }
}

/** ES 6.8: optimistic concurrency with internal versions is deprecated. */
export function internalVersionWarning(r: {
  version: number;
  versionType: string;
  index: string;
  type: string;
}): string | null {
  if (r.versionType !== 'internal' || r.version === -3 || r.version === -4) return null;
  return `Usage of internal versioning for optimistic concurrency control is deprecated and will be removed. Please use the \`if_seq_no\` and \`if_primary_term\` parameters instead. (request for index [${r.index}], type [${r.type}])`;
}

function bodySourceFilter(v: unknown): SourceFilter | null {
  if (v === false) return null;
  if (v === true) return { includes: [], excludes: [] };
  const list = (x: unknown) =>
    x === undefined || x === null ? [] : Array.isArray(x) ? x.map(String) : [String(x)];
  if (typeof v === 'string' || Array.isArray(v)) return { includes: list(v), excludes: [] };
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return { includes: list(o.includes ?? o.include), excludes: list(o.excludes ?? o.exclude) };
  }
  return { includes: [], excludes: [] };
}

/** Java exceptions that are not ElasticsearchExceptions (they have no status of their own). */
const JAVA_EXCEPTIONS = new Set(['illegal_argument_exception', 'illegal_state_exception']);

/**
 * Runs an operation ES sends to the shard's node through its transport service, which wraps a
 * failure in a RemoteTransportException even on the local node. ES renders the wrapped exception,
 * but for a plain Java exception the root cause is the wrapper: `remote_transport_exception`
 * `[node][address][action]` (ES ElasticsearchException.guessRootCauses).
 */
function onLocalShard<T>(node: NodeContext, action: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof EsError) || !JAVA_EXCEPTIONS.has(e.type) || e.rootCauses) throw e;
    const reason = `[${node.nodeName}][${transportAddress(node)}][${action}]`;
    throw new EsError(e.type, e.reason, e.status, {
      meta: e.meta,
      ...(e.causedBy ? { causedBy: e.causedBy } : {}),
      ...(e.headers ? { headers: e.headers } : {}),
      rootCauses: [new EsError('remote_transport_exception', reason, e.status)],
    });
  }
}
