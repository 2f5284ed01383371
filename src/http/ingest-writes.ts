/**
 * Runs the ingest pipeline of an index request before the engine writes it (ES
 * TransportBulkAction → IngestService): the request's `pipeline`, else the target index's
 * `index.default_pipeline`; `_none` runs none. The pipeline may change the metadata (index, id,
 * routing, version) and the source, or drop the document.
 */
import { EsError } from '../common/errors.js';
import type { WriteOutcome } from '../engine/documents.js';
import type { IndicesService } from '../engine/indices-service.js';
import { getStr } from '../engine/index-settings.js';
import { parseVersionType } from '../engine/versioning.js';
import type { IndexRequest, WriteRequest } from '../engine/write-request.js';
import type { IngestService } from '../ingest/service.js';

function pipelineOf(ir: IndexRequest, indices: IndicesService): string | null {
  if (ir.pipeline !== undefined) return ir.pipeline === '' ? null : ir.pipeline;
  const idx = indices.get(ir.index) ?? indices.resolveWriteAlias(ir.index);
  const dflt = idx ? getStr(idx.meta.settings, 'index.default_pipeline', '') : '';
  return dflt === '' ? null : dflt;
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
  if (!ingest || req.kind !== 'index') return req;
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
    index: m._index,
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
