/**
 * `_delete_by_query` and `_update_by_query` (ES reindex module): scan the refreshed matches of a
 * query, then delete or re-index each hit with compare-and-write on its sequence number, counting
 * version conflicts (abort or proceed). `wait_for_completion=false` runs them as a task.
 */
import { EsError, illegalArgument, toEsError } from '../../common/errors.js';
import { acknowledge } from '../../engine/write-ack.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../engine/index-names.js';
import { MATCH_ANY } from '../../engine/versioning.js';
import { executeSearch, parseSearch } from '../../dsl/search/execute.js';
import { parseSearchBody } from '../../dsl/search/request.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams, refreshPolicy } from '../params.js';
import { bodyJson, boolParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import { applyUriParams, searchLimits } from './search.js';
import type { TaskService } from './tasks.js';

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
  'scroll',
  'scroll_size',
  'size',
  'max_docs',
  'slices',
  'requests_per_second',
  'timeout',
  'search_type',
  'search_timeout',
  'sort',
  '_source',
  '_source_includes',
  '_source_excludes',
  'terminate_after',
  'stats',
  'version',
  'version_type',
  'request_cache',
  'preference',
  'from',
  'pipeline',
  'type',
];

export function registerByQueryRoutes(
  router: Router<Handler>,
  node: NodeContext,
  tasks: TaskService,
): void {
  const run =
    (mode: 'delete' | 'update'): Handler =>
    async (req) => {
      checkParams(req, PARAMS);
      const get = (n: string) => param(req, n);
      const conflicts = get('conflicts') ?? 'abort';
      if (conflicts !== 'abort' && conflicts !== 'proceed') {
        throw new EsError(
          'action_request_validation_exception',
          `Validation Failed: 1: conflicts may only be "proceed" or "abort" but was [${conflicts}];`,
          400,
        );
      }
      const rps = get('requests_per_second');
      if (rps !== undefined && rps !== '-1' && !(Number(rps) > 0)) {
        throw illegalArgument(
          '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.',
        );
      }
      const slices = get('slices');
      if (
        slices !== undefined &&
        slices !== 'auto' &&
        !(Number.isInteger(Number(slices)) && Number(slices) > 0)
      ) {
        throw illegalArgument('[slices] must be a positive integer or the string "auto"');
      }
      const scrollSize = get('scroll_size');
      if (scrollSize !== undefined && !Number.isInteger(Number(scrollSize))) {
        throw illegalArgument(
          `Failed to parse int parameter [scroll_size] with value [${scrollSize}]`,
        );
      }
      const body = (bodyJson(req) ?? {}) as Record<string, unknown>;
      if (mode === 'delete' && body.query === undefined && get('q') === undefined) {
        throw new EsError(
          'action_request_validation_exception',
          'Validation Failed: 1: query is missing;',
          400,
        );
      }
      if (body.stored_fields !== undefined || get('stored_fields') !== undefined) {
        throw new EsError(
          'action_request_validation_exception',
          'Validation Failed: 1: stored_fields is not supported in this context;',
          400,
        );
      }
      const maxDocsRaw = body.max_docs ?? body.size ?? get('max_docs') ?? get('size');
      const maxDocs = maxDocsRaw === undefined ? -1 : Number(maxDocsRaw);
      if (maxDocsRaw !== undefined && maxDocs < 0) {
        throw new EsError(
          'action_request_validation_exception',
          `Validation Failed: 1: [size] parameter cannot be negative, found [${maxDocs}];`,
          400,
        );
      }
      const version = get('version');
      if (version !== undefined && Number(version) === 0) {
        throw new EsError(
          'action_request_validation_exception',
          'Validation Failed: 1: illegal version value [0] for version type [INTERNAL].;',
          400,
        );
      }
      const searchBody: Record<string, unknown> = {};
      if (body.query !== undefined) searchBody.query = body.query;
      const script = body.script;
      const work = () =>
        execute(
          req,
          mode,
          searchBody,
          get,
          conflicts === 'proceed',
          maxDocs,
          Number(scrollSize ?? 1000),
          script,
        );
      if (!boolParam(req, 'wait_for_completion', true)) {
        const id = tasks.start(
          mode === 'delete'
            ? 'indices:data/write/delete/byquery'
            : 'indices:data/write/update/byquery',
          work,
        );
        return { status: 200, body: { task: id } };
      }
      const r = await work();
      return { status: r.status, body: r.body };
    };

  const execute = async (
    req: RestRequest,
    mode: 'delete' | 'update',
    searchBody: Record<string, unknown>,
    get: (n: string) => string | undefined,
    proceed: boolean,
    maxDocs: number,
    batchSize: number,
    script: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const t0 = Date.now();
    const sreq = parseSearchBody(searchBody);
    applyUriParams(sreq, get);
    sreq.version = true;
    sreq.seqNoPrimaryTerm = true;
    const targets = node.indices.resolve(
      req.params.index!,
      indicesOptionsFrom(STRICT_EXPAND_OPEN_FORBID_CLOSED, get),
    );
    const out = executeSearch(targets, sreq, parseSearch(sreq), {
      searchType: 'query_then_fetch',
      typedKeys: false,
      now: Date.now(),
      limits: searchLimits(node),
      nodeId: node.nodeId,
      keepAllHits: true,
      ...(node.scriptMethods ? { scriptMethods: node.scriptMethods } : {}),
    });
    let hits = out.allHits ?? [];
    if (maxDocs >= 0) hits = hits.slice(0, maxDocs);
    let deleted = 0;
    let updated = 0;
    let noops = 0;
    let conflictsCount = 0;
    const failures: unknown[] = [];
    const touched: Array<{
      index: import('../../engine/index-service.js').IndexService | null;
      shard: import('../../engine/shard.js').Shard | null;
    }> = [];
    for (const h of hits) {
      const seg = h.segment.segment;
      const id = seg.ids[h.doc]!;
      const idx = h.target.idx;
      const type = idx.typeName ?? '_doc';
      const base = {
        index: idx.name,
        type,
        id,
        routing: seg.routing.get(h.doc) ?? null,
        version: MATCH_ANY,
        versionType: 'internal' as const,
        ifSeqNo: seg.seqNos[h.doc]!,
        ifPrimaryTerm: h.target.shard.primaryTerm,
      };
      try {
        if (mode === 'delete') {
          const o = node.documents.delete({ kind: 'delete', ...base });
          touched.push(o);
          deleted++;
        } else {
          const rec = h.target.shard.read(id);
          if (!rec)
            throw new EsError(
              'version_conflict_engine_exception',
              `[${type}][${id}]: version conflict, required seqNo [${base.ifSeqNo}], primary term [${base.ifPrimaryTerm}]. but no document was found`,
              409,
            );
          let source: unknown = JSON.parse(rec.source.toString('utf8'));
          let op = 'index';
          if (script !== undefined && node.runUpdateScript) {
            const r = node.runUpdateScript(script, {
              _source: source,
              _index: idx.name,
              _type: type,
              _id: id,
              op: 'index',
            });
            source = r._source;
            op = String(r.op ?? 'index');
          }
          if (op === 'noop' || op === 'none') {
            noops++;
            continue;
          }
          if (op === 'delete') {
            touched.push(node.documents.delete({ kind: 'delete', ...base }));
            deleted++;
            continue;
          }
          const o = node.documents.index({
            kind: 'index',
            opType: 'index',
            ...base,
            source: Buffer.from(JSON.stringify(source)),
          });
          touched.push(o);
          updated++;
        }
      } catch (e) {
        const err = toEsError(e);
        if (err.type === 'version_conflict_engine_exception') {
          conflictsCount++;
          if (proceed) continue;
        }
        failures.push({ index: idx.name, type, id, cause: err.toInner(), status: err.status });
        if (!proceed || err.type !== 'version_conflict_engine_exception') break;
      }
    }
    await acknowledge(node.store, touched, refreshPolicy(req) === 'false' ? 'false' : 'true');
    const total = out.allHits?.length ?? 0;
    const body: Record<string, unknown> = {
      took: Date.now() - t0,
      timed_out: false,
      total: maxDocs >= 0 ? Math.min(total, maxDocs) : total,
      ...(mode === 'update' ? { updated } : {}),
      deleted,
      batches: Math.max(1, Math.ceil(hits.length / Math.max(1, batchSize))),
      version_conflicts: conflictsCount,
      noops,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1.0,
      throttled_until_millis: 0,
      failures,
    };
    const status = failures.length
      ? Math.max(...failures.map((f) => (f as { status: number }).status))
      : 200;
    return { status, body };
  };

  router.add('POST', '/{index}/_delete_by_query', run('delete'));
  router.add('POST', '/{index}/{type}/_delete_by_query', run('delete'));
  router.add('POST', '/{index}/_update_by_query', run('update'));
  router.add('POST', '/{index}/{type}/_update_by_query', run('update'));
  void toEsError;
}
