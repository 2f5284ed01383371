/**
 * CSV for the importer (RFC 4180): a record's fields (quoted fields may hold commas, doubled
 * quotes and newlines), whether a record is still open at a line's end, and the values: typed by
 * a mapping file's field types where given, else inferred (integers, decimals, true/false; an
 * empty field is left out of the document).
 */

/** Whether `text` ends inside a quoted field (the record goes on on the next line). */
export function csvOpen(text: string): boolean {
  let open = false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 34) open = !open;
  return open;
}

export function parseCsvRecord(text: string, sep = ','): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

export function inferValue(v: string): unknown {
  if (v === '') return undefined;
  if (/^-?(0|[1-9]\d{0,15})$/.test(v)) return Number(v);
  if (/^-?(0|[1-9]\d*)?\.\d+([eE][+-]?\d+)?$|^-?(0|[1-9]\d*)[eE][+-]?\d+$/.test(v))
    return Number(v);
  if (v === 'true') return true;
  if (v === 'false') return false;
  return v;
}

const INTEGER = new Set(['long', 'integer', 'short', 'byte']);
const DECIMAL = new Set(['double', 'float', 'half_float', 'scaled_float']);

/** A value as the mapping's type wants it; throws on a value that type cannot take. */
export function convertValue(v: string, type: string): unknown {
  if (v === '') return undefined;
  if (INTEGER.has(type)) {
    if (!/^\s*[+-]?\d+\s*$/.test(v)) throw new Error(`[${v}] is not a ${type}`);
    return Number(v);
  }
  if (DECIMAL.has(type)) {
    const n = Number(v);
    if (v.trim() === '' || Number.isNaN(n)) throw new Error(`[${v}] is not a ${type}`);
    return n;
  }
  if (type === 'boolean') {
    if (v !== 'true' && v !== 'false') throw new Error(`[${v}] is not a boolean`);
    return v === 'true';
  }
  return v;
}

/**
 * Field types out of a mapping file: `{"properties": {...}}`, an index body `{"mappings":
 * {"_doc": {"properties": ...}}}`, or a plain `{"field": "type"}` object. Dotted names for
 * object fields.
 */
export function mappingTypes(json: unknown): {
  types: Map<string, string>;
  properties: Record<string, unknown>;
} {
  let props: unknown = json;
  const o = json as Record<string, any>;
  if (o && typeof o === 'object') {
    if (o.mappings) {
      const m = o.mappings as Record<string, any>;
      props = m.properties ?? Object.values(m).find((t: any) => t && t.properties)?.properties;
    } else if (o.properties) props = o.properties;
  }
  const types = new Map<string, string>();
  const properties: Record<string, unknown> = {};
  const walk = (p: Record<string, any>, prefix: string) => {
    for (const [k, v] of Object.entries(p)) {
      const name = prefix + k;
      if (typeof v === 'string') types.set(name, v);
      else if (v && typeof v === 'object') {
        if (v.properties) walk(v.properties, name + '.');
        else types.set(name, String(v.type ?? 'object'));
      }
    }
  };
  if (props && typeof props === 'object') walk(props as Record<string, any>, '');
  for (const [k, t] of types) setPath(properties, k.split('.').join('.properties.'), { type: t });
  return { types, properties };
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    o = (o[parts[i]!] ??= {}) as Record<string, unknown>;
  }
  o[parts[parts.length - 1]!] = value;
}

/** The document of one record under `header`; dotted header names make objects. */
export function csvDocument(
  header: readonly string[],
  fields: readonly string[],
  types: ReadonlyMap<string, string>,
): Record<string, unknown> {
  if (fields.length !== header.length)
    throw new Error(`${fields.length} fields where the header has ${header.length}`);
  const doc: Record<string, unknown> = {};
  for (let i = 0; i < header.length; i++) {
    const name = header[i]!;
    const t = types.get(name);
    const v = t ? convertValue(fields[i]!, t) : inferValue(fields[i]!);
    if (v !== undefined) {
      if (name.includes('.')) setPath(doc, name, v);
      else doc[name] = v;
    }
  }
  return doc;
}

/** One CSV field as written by the exporter: quoted when it holds a comma, quote or newline. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
