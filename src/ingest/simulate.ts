/**
 * `_ingest/pipeline/_simulate` (ES SimulatePipelineRequest, SimulateExecutionService): runs a
 * given or stored pipeline on sample documents and renders each result, or with `verbose` each
 * processor's result.
 */
import { illegalArgument } from '../common/errors.js';
import {
  configError,
  readList,
  readMap,
  readOptionalMap,
  readOptionalString,
  readStringOrInt,
  type ConfigCtx,
} from './config.js';
import {
  METADATA_FIELDS,
  newIngestDocument,
  sourceOf,
  type IngestDocument,
  type JsonMap,
} from './document.js';
import { parsePipeline } from './parse.js';
import { asEsError, executePipeline, type Pipeline, type ProcessorResult } from './processor.js';
import type { IngestService } from './service.js';

export const SIMULATED_PIPELINE_ID = '_simulate_pipeline';

/** WriteableIngestDocument: metadata fields present, then `_source` and `_ingest`. */
export function renderDocument(doc: IngestDocument): JsonMap {
  const out: JsonMap = {};
  for (const k of METADATA_FIELDS) {
    const v = doc.sourceAndMetadata[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  out._source = sourceOf(doc);
  out._ingest = doc.ingestMetadata;
  return out;
}

function renderResult(r: ProcessorResult): JsonMap {
  const out: JsonMap = {};
  if (r.tag !== null) out.tag = r.tag;
  if (r.error) {
    out.error = r.error.toErrorObject();
    return out;
  }
  if (r.ignoredError) out.ignored_error = { error: r.ignoredError.toErrorObject() };
  out.doc = r.doc === null ? null : renderDocument(r.doc);
  return out;
}

function parseDocs(body: JsonMap): IngestDocument[] {
  const c: ConfigCtx = { type: null, tag: null, config: body };
  const docs = readList(c, 'docs');
  return docs.map((d) => {
    if (d === null || typeof d !== 'object' || Array.isArray(d))
      throw configError(null, null, 'docs', "property isn't a map");
    const dc: ConfigCtx = { type: null, tag: null, config: { ...(d as JsonMap) } };
    const source = readMap(dc, '_source');
    const index = readStringOrInt(dc, '_index', '_index')!;
    const type = readStringOrInt(dc, '_type', '_type')!;
    const id = readStringOrInt(dc, '_id', '_id')!;
    const routing = readStringOrInt(dc, '_routing', null);
    const version = dc.config._version;
    const versionType = readOptionalString(dc, '_version_type');
    return newIngestDocument(
      {
        _index: index,
        _type: type,
        _id: id,
        ...(routing !== null ? { _routing: routing } : {}),
        ...(typeof version === 'number' ? { _version: version } : {}),
        ...(versionType !== null ? { _version_type: versionType } : {}),
      },
      structuredClone(source),
    );
  });
}

/** The simulate response body. */
export function simulate(
  service: IngestService,
  id: string | null,
  body: JsonMap,
  verbose: boolean,
): JsonMap {
  const config = { ...body };
  let pipeline: Pipeline;
  if (id !== null) {
    const p = service.pipeline(id);
    if (!p) throw illegalArgument(`pipeline [${id}] does not exist`);
    pipeline = p;
  } else {
    const c: ConfigCtx = { type: null, tag: null, config };
    const def = readOptionalMap(c, 'pipeline');
    if (def === null) throw configError(null, null, 'pipeline', 'required property is missing');
    pipeline = parsePipeline(SIMULATED_PIPELINE_ID, structuredClone(def));
  }
  const docs = parseDocs(config);
  return {
    docs: docs.map((doc) => {
      if (verbose) {
        const trace: ProcessorResult[] = [];
        try {
          executePipeline(pipeline, doc, service.execContext(trace));
        } catch {
          // the failure is in the trace
        }
        return { processor_results: trace.map(renderResult) };
      }
      try {
        const r = executePipeline(pipeline, doc, service.execContext());
        return { doc: r === null ? null : renderDocument(r) };
      } catch (e) {
        return { error: asEsError(e).toErrorObject() };
      }
    }),
  };
}
