/**
 * Reading processor settings (ES ConfigurationUtils): each read removes the key, so leftovers can
 * be reported; errors are `parse_exception` with `processor_type`, `processor_tag` and
 * `property_name` headers.
 */
import { EsError } from '../common/errors.js';
import { javaType, type JsonMap } from './document.js';

export interface ConfigCtx {
  readonly type: string | null;
  readonly tag: string | null;
  readonly config: JsonMap;
}

/** ES ConfigurationUtils.newConfigurationException. */
export function configError(
  type: string | null,
  tag: string | null,
  property: string | null,
  reason: string,
): EsError {
  const header: Record<string, string> = {};
  if (type !== null) header.processor_type = type;
  if (tag !== null) header.processor_tag = tag;
  if (property !== null) header.property_name = property;
  const msg = property === null ? reason : `[${property}] ${reason}`;
  return new EsError('parse_exception', msg, 400, {
    meta: Object.keys(header).length ? { header } : {},
  });
}

/** Adds the processor headers to an error raised while building a processor (if it has none). */
export function withProcessorHeaders(e: EsError, type: string, tag: string | null): EsError {
  const header = (e.meta.header ?? {}) as Record<string, string>;
  if (header.processor_type !== undefined) return e;
  const h: Record<string, string> = { ...header, processor_type: type };
  if (tag !== null) h.processor_tag = tag;
  return new EsError(e.type, e.reason, e.status, {
    meta: { ...e.meta, header: h },
    ...(e.causedBy ? { causedBy: e.causedBy } : {}),
  });
}

function take(c: ConfigCtx, name: string): unknown {
  const v = c.config[name];
  delete c.config[name];
  return v;
}

const err = (c: ConfigCtx, name: string, reason: string) =>
  configError(c.type, c.tag, name, reason);

export function readOptionalString(c: ConfigCtx, name: string): string | null {
  const v = take(c, name);
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw err(c, name, `property isn't a string, but of type [${javaType(v)}]`); // prettier-ignore
  return v;
}

export function readString(c: ConfigCtx, name: string, def?: string): string {
  const v = readOptionalString(c, name);
  if (v === null) {
    if (def !== undefined) return def;
    throw err(c, name, 'required property is missing');
  }
  return v;
}

/** readStringOrIntProperty. */
export function readStringOrInt(c: ConfigCtx, name: string, def: string | null): string | null {
  const v = take(c, name);
  if (v === undefined || v === null) return def;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  throw err(c, name, `property isn't a string or int, but of type [${javaType(v)}]`);
}

export function readBoolean(c: ConfigCtx, name: string, def: boolean): boolean {
  const v = take(c, name);
  if (v === undefined || v === null) return def;
  if (typeof v === 'boolean') return v;
  throw err(c, name, `property isn't a boolean, but of type [${javaType(v)}]`);
}

export function readOptionalList(c: ConfigCtx, name: string): unknown[] | null {
  const v = take(c, name);
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) throw err(c, name, `property isn't a list, but of type [${javaType(v)}]`);
  return v;
}

export function readList(c: ConfigCtx, name: string): unknown[] {
  const v = readOptionalList(c, name);
  if (v === null) throw err(c, name, 'required property is missing');
  return v;
}

export function readOptionalMap(c: ConfigCtx, name: string): JsonMap | null {
  const v = take(c, name);
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v))
    throw err(c, name, `property isn't a map, but of type [${javaType(v)}]`);
  return v as JsonMap;
}

export function readMap(c: ConfigCtx, name: string): JsonMap {
  const v = readOptionalMap(c, name);
  if (v === null) throw err(c, name, 'required property is missing');
  return v;
}

/** readObject: any value, required. */
export function readObject(c: ConfigCtx, name: string): unknown {
  const v = take(c, name);
  if (v === undefined || v === null) throw err(c, name, 'required property is missing');
  return v;
}

export function readOptionalObject(c: ConfigCtx, name: string): unknown {
  return take(c, name);
}

/** A string or a list of strings (remove's `field`, grok's `patterns` are lists). */
export function readStringList(c: ConfigCtx, name: string): string[] {
  const v = take(c, name);
  if (v === undefined || v === null) throw err(c, name, 'required property is missing');
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.map(String);
  throw err(c, name, `property isn't a list or string, but of type [${javaType(v)}]`);
}

export const configErrorFor = (c: ConfigCtx, name: string | null, reason: string) =>
  configError(c.type, c.tag, name, reason);
