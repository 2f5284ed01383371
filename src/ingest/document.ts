/**
 * The document a pipeline works on (ES IngestDocument): one map with `_source` fields and the
 * metadata fields (`_index`, `_type`, `_id`, `_routing`, `_version`, `_version_type`), plus the
 * `_ingest` map. Field paths follow ES's FieldPath: dot-separated, list elements by index,
 * `_ingest.` and `_source.` prefixes select a map.
 */
import { illegalArgument } from '../common/errors.js';

export type Json = unknown;
export type JsonMap = Record<string, unknown>;

export interface IngestDocument {
  /** Source fields and metadata fields side by side, as ES keeps them. */
  readonly sourceAndMetadata: JsonMap;
  readonly ingestMetadata: JsonMap;
}

export const METADATA_FIELDS = [
  '_index',
  '_type',
  '_id',
  '_routing',
  '_version',
  '_version_type',
] as const;

const METADATA_SET: ReadonlySet<string> = new Set(METADATA_FIELDS);

export interface DocumentMeta {
  _index: string;
  _type: string;
  _id: string | null;
  _routing?: string | null;
  _version?: number | null;
  _version_type?: string | null;
}

/** A fresh document; `_ingest.timestamp` is the time the pipeline run starts (ES ZonedDateTime). */
export function newIngestDocument(
  meta: DocumentMeta,
  source: JsonMap,
  now = new Date(),
): IngestDocument {
  const sm: JsonMap = {};
  for (const k of METADATA_FIELDS) {
    const v = meta[k];
    if (v !== undefined && v !== null) sm[k] = v;
  }
  for (const [k, v] of Object.entries(source)) sm[k] = v;
  return { sourceAndMetadata: sm, ingestMetadata: { timestamp: zonedTimestamp(now) } };
}

/** ES renders ZonedDateTime.now(UTC) as ISO text with `Z`. */
export function zonedTimestamp(d: Date): string {
  return d.toISOString();
}

/** The `_source` part (every non-metadata field). */
export function sourceOf(doc: IngestDocument): JsonMap {
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(doc.sourceAndMetadata)) {
    if (!METADATA_SET.has(k)) out[k] = v;
  }
  return out;
}

/** Metadata values (null when absent). */
export function metadataOf(doc: IngestDocument): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of METADATA_FIELDS) {
    const v = doc.sourceAndMetadata[k];
    out[k] = v === undefined ? null : v;
  }
  return out;
}

export function deepCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopy) as T;
  if (v !== null && typeof v === 'object') {
    const out: JsonMap = {};
    for (const [k, x] of Object.entries(v as JsonMap)) out[k] = deepCopy(x);
    return out as T;
  }
  return v;
}

export function copyDocument(doc: IngestDocument): IngestDocument {
  return {
    sourceAndMetadata: deepCopy(doc.sourceAndMetadata),
    ingestMetadata: deepCopy(doc.ingestMetadata),
  };
}

// --- Java type names, as ES's messages print them ---------------------------------------------

export function javaType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) <= 2147483647) return 'java.lang.Integer';
    if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return 'java.lang.Long';
    return 'java.lang.Double';
  }
  if (typeof v === 'bigint') return 'java.lang.Long';
  if (Array.isArray(v)) return 'java.util.ArrayList';
  return 'java.util.HashMap';
}

const isMap = (v: unknown): v is JsonMap =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

// --- field paths ------------------------------------------------------------------------------

interface FieldPath {
  readonly root: JsonMap;
  readonly elements: readonly string[];
}

/** Parsed paths: processors name the same few paths for every document. */
const parsedPaths = new Map<
  string,
  { readonly ingest: boolean; readonly elements: readonly string[] }
>();

function fieldPath(doc: IngestDocument, path: string | null | undefined): FieldPath {
  if (path === null || path === undefined || path.length === 0)
    throw illegalArgument('path cannot be null nor empty');
  let parsed = parsedPaths.get(path);
  if (parsed === undefined) {
    const ingest = path.startsWith('_ingest.');
    const rest = ingest
      ? path.slice('_ingest.'.length)
      : path.startsWith('_source.')
        ? path.slice('_source.'.length)
        : path;
    const elements = rest.split('.');
    if (rest.length === 0 || elements.some((e) => e.length === 0))
      throw illegalArgument(`path [${path}] is not valid`);
    if (parsedPaths.size >= 4096) parsedPaths.clear();
    parsed = { ingest, elements };
    parsedPaths.set(path, parsed);
  }
  // callers only read the elements, never change them
  return {
    root: parsed.ingest ? doc.ingestMetadata : doc.sourceAndMetadata,
    elements: parsed.elements,
  };
}

function listIndex(el: string, list: unknown[], path: string): number {
  if (!/^-?\d+$/.test(el))
    throw illegalArgument(`[${el}] is not an integer, cannot be used as an index as part of path [${path}]`); // prettier-ignore
  const i = Number(el);
  if (i < 0 || i >= list.length)
    throw illegalArgument(`[${i}] is out of bounds for array with length [${list.length}] as part of path [${path}]`); // prettier-ignore
  return i;
}

function resolve(ctx: unknown, el: string, path: string): unknown {
  if (ctx === null || ctx === undefined)
    throw illegalArgument(`cannot resolve [${el}] from null as part of path [${path}]`);
  if (isMap(ctx)) {
    if (!(el in ctx)) throw illegalArgument(`field [${el}] not present as part of path [${path}]`);
    return ctx[el];
  }
  if (Array.isArray(ctx)) return ctx[listIndex(el, ctx, path)];
  throw illegalArgument(`cannot resolve [${el}] from object of type [${javaType(ctx)}] as part of path [${path}]`); // prettier-ignore
}

/** IngestDocument.getFieldValue: the value, or ES's errors for a missing path. */
export function getField(doc: IngestDocument, path: string): unknown {
  const fp = fieldPath(doc, path);
  let ctx: unknown = fp.root;
  for (const el of fp.elements) ctx = resolve(ctx, el, path);
  return ctx;
}

/** getFieldValue with ignoreMissing: undefined when the path does not resolve. */
export function getFieldOrUndefined(doc: IngestDocument, path: string): unknown {
  return hasField(doc, path) ? getField(doc, path) : undefined;
}

/** IngestDocument.hasField. */
export function hasField(doc: IngestDocument, path: string, failOutOfRange = false): boolean {
  const fp = fieldPath(doc, path);
  let ctx: unknown = fp.root;
  for (let i = 0; i < fp.elements.length; i++) {
    const el = fp.elements[i]!;
    if (isMap(ctx)) {
      if (!(el in ctx)) return false;
      ctx = ctx[el];
    } else if (Array.isArray(ctx)) {
      if (!/^-?\d+$/.test(el)) return false;
      const idx = Number(el);
      if (idx < 0 || idx >= ctx.length) {
        if (failOutOfRange) listIndex(el, ctx, path);
        return false;
      }
      ctx = ctx[idx];
    } else return false;
  }
  return true;
}

function appendValues(existing: unknown, value: unknown): unknown[] {
  const list = Array.isArray(existing) ? existing : [existing];
  if (Array.isArray(value)) list.push(...value);
  else list.push(value);
  return list;
}

/** IngestDocument.setFieldValue / appendFieldValue. */
export function setField(doc: IngestDocument, path: string, value: unknown, append = false): void {
  const fp = fieldPath(doc, path);
  let ctx: unknown = fp.root;
  const els = fp.elements;
  for (let i = 0; i < els.length - 1; i++) {
    const el = els[i]!;
    if (isMap(ctx)) {
      if (el in ctx) ctx = ctx[el];
      else {
        const m: JsonMap = {};
        ctx[el] = m;
        ctx = m;
      }
    } else if (Array.isArray(ctx)) {
      ctx = ctx[listIndex(el, ctx, path)];
    } else if (ctx === null || ctx === undefined) {
      throw illegalArgument(`cannot set [${el}] with null parent as part of path [${path}]`);
    } else {
      throw illegalArgument(`cannot set [${el}] with parent object of type [${javaType(ctx)}] as part of path [${path}]`); // prettier-ignore
    }
  }
  const leaf = els[els.length - 1]!;
  if (isMap(ctx)) {
    if (append) ctx[leaf] = leaf in ctx ? appendValues(ctx[leaf], value) : appendValues([], value);
    else ctx[leaf] = value;
  } else if (Array.isArray(ctx)) {
    const i = listIndex(leaf, ctx, path);
    ctx[i] = append ? appendValues(ctx[i], value) : value;
  } else if (ctx === null || ctx === undefined) {
    throw illegalArgument(`cannot set [${leaf}] with null parent as part of path [${path}]`);
  } else {
    throw illegalArgument(`cannot set [${leaf}] with parent object of type [${javaType(ctx)}] as part of path [${path}]`); // prettier-ignore
  }
}

/** IngestDocument.removeField. */
export function removeField(doc: IngestDocument, path: string): void {
  const fp = fieldPath(doc, path);
  let ctx: unknown = fp.root;
  const els = fp.elements;
  for (let i = 0; i < els.length - 1; i++) ctx = resolve(ctx, els[i]!, path);
  const leaf = els[els.length - 1]!;
  if (isMap(ctx)) {
    if (!(leaf in ctx))
      throw illegalArgument(`field [${leaf}] not present as part of path [${path}]`);
    delete ctx[leaf];
  } else if (Array.isArray(ctx)) {
    ctx.splice(listIndex(leaf, ctx, path), 1);
  } else if (ctx === null || ctx === undefined) {
    throw illegalArgument(`cannot remove [${leaf}] from null as part of path [${path}]`);
  } else {
    throw illegalArgument(`cannot remove [${leaf}] from object of type [${javaType(ctx)}] as part of path [${path}]`); // prettier-ignore
  }
}

/** getFieldValue(path, String.class): ES's cast error for another type. */
export function getString(doc: IngestDocument, path: string): string {
  const v = getField(doc, path);
  if (typeof v !== 'string' && v !== null)
    throw illegalArgument(`field [${path}] of type [${javaType(v)}] cannot be cast to [java.lang.String]`); // prettier-ignore
  return v as string;
}

/** The map mustache templates and scripts see: source, metadata and `_ingest`. */
export function templateModel(doc: IngestDocument): JsonMap {
  return { ...doc.sourceAndMetadata, _ingest: doc.ingestMetadata };
}
