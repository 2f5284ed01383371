/**
 * The script processor (ES ScriptProcessor): a Painless script over `ctx` (source and metadata
 * fields), with the `Processors.*` helpers ES's ingest-common whitelist gives ingest scripts.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { compileScript, parseScriptSpec, type ScriptMethods } from '../../dsl/script/index.js';
import { configErrorFor } from '../config.js';
import type { JsonMap } from '../document.js';
import { applyJson, javaString, parseJsonValue } from './fields.js';
import { leaf, type ProcessorFactory } from './common.js';
import { parseBytes, urlDecode } from './strings.js';

/** The value scripts see as `ctx` (the document's own map, so writes land in the document). */
export const scriptCtx = (m: JsonMap): JsonMap => m;

const str = (v: unknown): string => {
  if (typeof v !== 'string') throw illegalArgument(`Cannot cast ${typeof v} to java.lang.String`);
  return v;
};

/** ES Processors (ingest-common's painless extension). */
export const INGEST_SCRIPT_METHODS: ScriptMethods = {
  'Processors.bytes': (v) => parseBytes(str(v), 'bytes'),
  'Processors.lowercase': (v) => str(v).toLowerCase(),
  'Processors.uppercase': (v) => str(v).toUpperCase(),
  'Processors.urlDecode': (v) => urlDecode(str(v)),
  'Processors.json': (a, b) => {
    if (b === undefined) return parseJsonValue(javaString(a));
    applyJson({ sourceAndMetadata: a as JsonMap }, str(b), str(b), true);
    return null;
  },
};

const KEYS = new Set(['lang', 'source', 'inline', 'id', 'params', 'options']);

export const script: ProcessorFactory = (c) => {
  const spec: JsonMap = {};
  for (const k of Object.keys(c.config)) {
    if (KEYS.has(k)) {
      spec[k] = c.config[k];
      delete c.config[k];
    }
  }
  const hasSource = spec.source !== undefined || spec.inline !== undefined;
  if (hasSource && spec.id !== undefined)
    throw configErrorFor(c, null, 'Only one of [id] or [source] may be configured');
  if (!hasSource && spec.id === undefined)
    throw configErrorFor(c, null, 'Need [id] or [source] parameter to refer to scripts');
  const parsed = parseScriptSpec(spec);
  const cs = compileScript(parsed.source, {
    lang: parsed.lang,
    params: parsed.params,
    methods: INGEST_SCRIPT_METHODS,
    variables: ['ctx'],
  });
  return leaf(c, (doc) => {
    try {
      cs.evaluate({ ctx: scriptCtx(doc.sourceAndMetadata) });
    } catch (e) {
      if (e instanceof EsError) throw e;
      throw illegalArgument(e instanceof Error ? e.message : String(e));
    }
  });
};
