/**
 * Runs the ingest pipeline of an index request before the engine writes it (ES
 * TransportBulkAction → IngestService): the request's `pipeline`, else the target index's
 * `index.default_pipeline`; `_none` runs none. The pipeline may change the metadata (index, id,
 * routing, version) and the source, or drop the document.
 */
import { EsError } from '../common/errors.js';
import type { WriteOutcome } from '../engine/documents.js';
import type { IndicesService } from '../engine/indices-service.js';
import { resolveDateMathExpression } from '../engine/date-math-index.js';
import { getStr } from '../engine/index-settings.js';
import { parseVersionType } from '../engine/versioning.js';
import type { IndexRequest, UpdateRequest, WriteRequest } from '../engine/write-request.js';
import type { IngestService } from '../ingest/service.js';

/** The target index's `index.default_pipeline`, or its templates' when it does not exist yet. */
function defaultPipeline(index: string, indices: IndicesService): string | null {
  const idx = indices.get(index) ?? indices.resolveWriteAlias(index);
  let dflt = '';
  if (idx) dflt = getStr(idx.meta.settings, 'index.default_pipeline', '');
  else {
    for (const t of indices.templates.matching(index))
      dflt = getStr(t.settings, 'index.default_pipeline', dflt);
  }
  return dflt === '' ? null : dflt;
}

function pipelineOf(ir: IndexRequest, indices: IndicesService): string | null {
  if (ir.pipeline !== undefined) return ir.pipeline === '' ? null : ir.pipeline;
  return defaultPipeline(ir.index, indices);
}

/** ES BulkRequestModifier.markCurrentItemAsDropped: a noop answer for a dropped document. */
function droppedOutcome(ir: IndexRequest): WriteOutcome {
  return {
    status: 200,
    body: {
      _index: ir.index,
      _type: ir.type,
      _id: ir.id,
      _version: ir.version,
      result: 'noop',
      _shards: { total: 0, successful: 0, failed: 0 },
    },
    index: null,
    shard: null,
  };
}

export function runIngest(
  ingest: IngestService | undefined,
  indices: IndicesService,
  req: WriteRequest,
): WriteRequest | WriteOutcome {
  if (!ingest) return req;
  if (req.kind === 'update') return prepareBulkUpsert(ingest, indices, req);
  if (req.kind !== 'index') return req;
  const id = pipelineOf(req, indices);
  if (id === null || id === '_none') return req;
  let source: Record<string, unknown>;
  try {
    source = JSON.parse(req.source.toString('utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new EsError('parse_exception', `Failed to parse content to map`, 400);
  }
  const r = ingest.run(
    id,
    {
      _index: req.index,
      _type: req.type,
      _id: req.id,
      _routing: req.routing,
      _version: req.version,
      _version_type: req.versionType,
    },
    source,
  );
  if (r.kind === 'dropped') return droppedOutcome(req);
  const m = r.meta;
  const out: IndexRequest = {
    ...req,
    // a date_index_name processor leaves date math in the name
    index: resolveDateMathExpression(m._index, Date.now()),
    type: m._type,
    id: m._id,
    routing: m._routing ?? null,
    source: Buffer.from(JSON.stringify(r.source)),
  };
  if (m._version !== undefined && m._version !== null) out.version = m._version;
  if (m._version_type !== undefined && m._version_type !== null)
    out.versionType = parseVersionType(m._version_type);
  delete out.pipeline;
  return out;
}

/**
 * The update API: the index request an upsert becomes goes through the default pipeline (after a
 * scripted upsert's script, as ES's TransportUpdateAction sends it through the bulk action).
 */
export function withUpsertPipeline(
  ingest: IngestService | undefined,
  indices: IndicesService,
  req: UpdateRequest,
): UpdateRequest {
  // an upsert only goes through a pipeline when the index names a default one
  if (!ingest || defaultPipeline(req.index, indices) === null) return req;
  return {
    ...req,
    prepareUpsert: (ir) => {
      const r = runIngest(ingest, indices, ir);
      return 'kind' in r ? (r as IndexRequest) : { status: r.status, body: r.body };
    },
  };
}

/**
 * A bulk update item: ES runs the default pipeline on the upsert document before the update
 * (so a scripted upsert's script sees the pipeline's result).
 */
function prepareBulkUpsert(
  ingest: IngestService,
  indices: IndicesService,
  req: UpdateRequest,
): UpdateRequest {
  const body = req.body;
  const key = body.upsert !== undefined ? 'upsert' : body.doc_as_upsert === true ? 'doc' : null;
  if (key === null) return req;
  const upsert = body[key];
  if (upsert === null || typeof upsert !== 'object' || Array.isArray(upsert)) return req;
  const id = defaultPipeline(req.index, indices);
  if (id === null) return req;
  const r = ingest.run(
    id,
    { _index: req.index, _type: req.type, _id: req.id, _routing: req.routing },
    structuredClone(upsert as Record<string, unknown>),
  );
  if (r.kind === 'dropped') return req;
  return { ...req, body: { ...body, [key]: r.source } };
}
