/**
 * Building pipelines from their JSON (ES Pipeline.create, ConfigurationUtils.readProcessor):
 * `tag`, `if`, `ignore_failure` and `on_failure` around each processor; settings a processor does
 * not read are an error.
 */
import { EsError } from '../common/errors.js';
import { compileScript, parseScriptSpec } from '../dsl/script/index.js';
import {
  configError,
  readBoolean,
  readList,
  readOptionalList,
  readOptionalString,
  withProcessorHeaders,
  type ConfigCtx,
} from './config.js';
import { deepCopy, javaType, type IngestDocument, type JsonMap } from './document.js';
import type { CompoundProcessor, Pipeline, Processor } from './processor.js';
import { PROCESSOR_FACTORIES } from './processors/index.js';
import { scriptCtx } from './processors/script.js';

/** Reads a processor list (readProcessorConfigs). */
export function readProcessors(list: unknown[] | null): Processor[] {
  const out: Processor[] = [];
  for (const item of list ?? []) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    for (const [type, cfg] of Object.entries(item as JsonMap)) out.push(readProcessor(type, cfg));
  }
  return out;
}

/** ConfigurationUtils.readProcessor. */
export function readProcessor(type: string, cfg: unknown): Processor {
  let config: JsonMap;
  if (cfg !== null && typeof cfg === 'object' && !Array.isArray(cfg))
    config = { ...(cfg as JsonMap) }; // prettier-ignore
  else if (type === 'script' && typeof cfg === 'string') config = { source: cfg };
  else throw configError(type, null, null, `property isn't a map, but of type [${javaType(cfg)}]`);
  const tag = readOptionalString({ type: null, tag: null, config }, 'tag');
  const condition = readCondition(config);
  const factory = PROCESSOR_FACTORIES[type];
  if (!factory) throw configError(type, tag, null, `No processor type exists with name [${type}]`);
  const c: ConfigCtx = { type, tag, config };
  const ignoreFailure = readBoolean({ type: null, tag: null, config }, 'ignore_failure', false);
  const onFailureConfigs = readOptionalList({ type: null, tag: null, config }, 'on_failure');
  const onFailure = readProcessors(onFailureConfigs);
  if (onFailureConfigs !== null && onFailure.length === 0)
    throw configError(type, tag, 'on_failure', 'processors list cannot be empty');
  let p: Processor;
  try {
    p = factory(c, readProcessor);
    const left = Object.keys(config);
    if (left.length > 0)
      throw new EsError('parse_exception', `processor [${type}] doesn't support one or more provided configuration parameters [${left.join(', ')}]`, 400); // prettier-ignore
  } catch (e) {
    if (e instanceof EsError) throw withProcessorHeaders(e, type, tag);
    throw e;
  }
  if (onFailure.length > 0 || ignoreFailure) {
    p = { kind: 'compound', ignoreFailure, processors: [p], onFailure } satisfies CompoundProcessor;
  }
  if (condition) p = { kind: 'conditional', tag, condition, inner: p };
  return p;
}

/** The `if` script: a Painless condition over `ctx` (source and metadata, read-only in ES). */
function readCondition(config: JsonMap): ((doc: IngestDocument) => boolean) | null {
  const json = config.if;
  delete config.if;
  if (json === undefined || json === null) return null;
  const spec = parseScriptSpec(json);
  // ES parses the script when the pipeline is built but compiles it when it first runs
  let cs: ReturnType<typeof compileScript> | null = null;
  return (doc) => {
    cs ??= compileScript(spec.source, { lang: spec.lang, params: spec.params, variables: ['ctx'] });
    const r = cs.evaluate({ ctx: scriptCtx(deepCopy(doc.sourceAndMetadata)) });
    if (typeof r !== 'boolean')
      throw new EsError('illegal_argument_exception', `condition [${spec.source}] did not return a boolean`, 400); // prettier-ignore
    return r;
  };
}

/** ES Pipeline.create. */
export function parsePipeline(id: string, body: unknown): Pipeline {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new EsError('parse_exception', 'request body is required', 400);
  const config = { ...(body as JsonMap) };
  const c: ConfigCtx = { type: null, tag: null, config };
  const description = readOptionalString(c, 'description');
  const version = readVersion(config);
  const processors = readProcessors(readList(c, 'processors'));
  const onFailureConfigs = readOptionalList(c, 'on_failure');
  const onFailure = readProcessors(onFailureConfigs);
  const left = Object.keys(config);
  if (left.length > 0)
    throw new EsError('parse_exception', `pipeline [${id}] doesn't support one or more provided configuration parameters [${left.join(', ')}]`, 400); // prettier-ignore
  if (onFailureConfigs !== null && onFailure.length === 0)
    throw new EsError('parse_exception', `pipeline [${id}] cannot have an empty on_failure option defined`, 400); // prettier-ignore
  return {
    id,
    description,
    version,
    compound: { kind: 'compound', ignoreFailure: false, processors, onFailure },
  };
}

function readVersion(config: JsonMap): number | null {
  const v = config.version;
  delete config.version;
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n))
    throw configError(null, null, 'version', `property isn't an integer, but of type [${javaType(v)}]`); // prettier-ignore
  return n;
}
