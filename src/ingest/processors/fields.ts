/**
 * Processors that move and reshape fields: set, append, remove, rename, dot_expander, convert,
 * sort, join, split, json.
 */
import { illegalArgument } from '../../common/errors.js';
import { javaDoubleToString } from '../../common/units.js';
import {
  configErrorFor,
  readBoolean,
  readObject,
  readOptionalString,
  readString,
  type ConfigCtx,
} from '../config.js';
import {
  getField,
  hasField,
  javaType,
  removeField,
  setField,
  type IngestDocument,
  type JsonMap,
} from '../document.js';
import { compileTemplate, valueSource } from '../template.js';
import { castString, fieldValue, leaf, type ProcessorFactory } from './common.js';

const set: ProcessorFactory = (c) => {
  const field = compileTemplate(readString(c, 'field'));
  const value = valueSource(readObject(c, 'value'));
  const override = readBoolean(c, 'override', true);
  return leaf(c, (doc) => {
    const path = field(doc);
    if (override || !hasField(doc, path) || getField(doc, path) === null)
      setField(doc, path, value(doc));
  });
};

const append: ProcessorFactory = (c) => {
  const field = compileTemplate(readString(c, 'field'));
  const value = valueSource(readObject(c, 'value'));
  return leaf(c, (doc) => setField(doc, field(doc), value(doc), true));
};

const remove: ProcessorFactory = (c) => {
  const raw = readObject(c, 'field');
  const fields = (Array.isArray(raw) ? raw.map(String) : [String(raw)]).map(compileTemplate);
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  return leaf(c, (doc) => {
    for (const f of fields) {
      const path = f(doc);
      if (ignoreMissing && !hasField(doc, path)) continue;
      removeField(doc, path);
    }
  });
};

const rename: ProcessorFactory = (c) => {
  const field = compileTemplate(readString(c, 'field'));
  const target = compileTemplate(readString(c, 'target_field'));
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  return leaf(c, (doc) => {
    const path = field(doc);
    if (!hasField(doc, path, true)) {
      if (ignoreMissing) return;
      throw illegalArgument(`field [${path}] doesn't exist`);
    }
    const to = target(doc);
    if (hasField(doc, to)) throw illegalArgument(`field [${to}] already exists`);
    const value = getField(doc, path);
    removeField(doc, path);
    try {
      setField(doc, to, value);
    } catch (e) {
      // put the field back where it was, as ES does
      setField(doc, path, value);
      throw e;
    }
  });
};

const dotExpander: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  if (!field.includes('.')) throw configErrorFor(c, 'field', 'field does not contain a dot');
  if (field.startsWith('.') || field.endsWith('.') || field.includes('..'))
    throw configErrorFor(c, 'field', 'Field can\'t start or end with a dot and can\'t contain empty path elements'); // prettier-ignore
  const path = readOptionalString(c, 'path');
  return leaf(c, (doc) => {
    const full = path !== null ? `${path}.${field}` : field;
    const map = (path !== null ? getField(doc, path) : doc.sourceAndMetadata) as JsonMap;
    if (map === null || typeof map !== 'object' || Array.isArray(map))
      throw illegalArgument(`field [${path}] of type [${javaType(map)}] cannot be cast to [java.util.Map]`); // prettier-ignore
    if (!(field in map)) return;
    if (hasField(doc, full)) {
      const v = map[field];
      delete map[field];
      setField(doc, full, v, true);
      return;
    }
    for (let i = full.indexOf('.'); i !== -1; i = full.indexOf('.', i + 1)) {
      const partial = full.slice(0, i);
      if (!hasField(doc, partial)) break;
      const v = getField(doc, partial);
      if (v === null || typeof v !== 'object' || Array.isArray(v))
        throw illegalArgument(`cannot expend [${full}], because [${partial}] is not an object field, but a value field`); // prettier-ignore
    }
    const v = map[field];
    delete map[field];
    setField(doc, full, v);
  });
};

// --- convert -----------------------------------------------------------------------------------

/** Java's toString of a JSON value. */
export function javaString(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : javaDoubleToString(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(javaString).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as JsonMap).map(([k, x]) => `${k}=${javaString(x)}`).join(', ')}}`; // prettier-ignore
  return String(v);
}

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

function toInteger(v: unknown, bits: 32 | 64): number {
  const s = javaString(v);
  const name = bits === 32 ? 'integer' : 'long';
  if (!INT_RE.test(s)) throw illegalArgument(`unable to convert [${s}] to ${name}`);
  const n = BigInt(s);
  const max = bits === 32 ? 2147483647n : 9223372036854775807n;
  if (n > max || n < -max - 1n) throw illegalArgument(`unable to convert [${s}] to ${name}`);
  return Number(n);
}

function toFloat(v: unknown, name: 'float' | 'double'): number {
  const s = javaString(v).trim();
  if (!FLOAT_RE.test(s)) throw illegalArgument(`unable to convert [${s}] to ${name}`);
  const n = Number(s.replace(/[fFdD]$/, ''));
  // JSON renders the double; Java prints a float's shortest form, which the double matches
  return n;
}

function toBoolean(v: unknown): boolean {
  const s = javaString(v);
  if (s.toLowerCase() === 'true') return true;
  if (s.toLowerCase() === 'false') return false;
  throw illegalArgument(`[${s}] is not a boolean value, cannot convert to boolean`);
}

const CONVERSIONS: Record<string, (v: unknown) => unknown> = {
  integer: (v) => toInteger(v, 32),
  long: (v) => toInteger(v, 64),
  float: (v) => toFloat(v, 'float'),
  double: (v) => toFloat(v, 'double'),
  boolean: toBoolean,
  string: javaString,
  auto: (v) => {
    if (typeof v !== 'string') return v;
    for (const f of [
      toBoolean,
      (x: unknown) => toInteger(x, 32),
      (x: unknown) => toInteger(x, 64),
      (x: unknown) => toFloat(x, 'float'),
      (x: unknown) => toFloat(x, 'double'),
    ]) {
      // prettier-ignore
      try {
        return f(v);
      } catch {
        // the next type is tried
      }
    }
    return v;
  },
};

const convert: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const typeName = readString(c, 'type');
  const conv = CONVERSIONS[typeName.toLowerCase()];
  if (!conv) throw configErrorFor(c, 'type', `type [${typeName}] not supported, cannot convert field.`); // prettier-ignore
  const target = readString(c, 'target_field', field);
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  return leaf(c, (doc) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined)
      throw illegalArgument(`Field [${field}] is null, cannot be converted to type [${typeName.toLowerCase()}]`); // prettier-ignore
    setField(doc, target, Array.isArray(v) ? v.map(conv) : conv(v));
  });
};

// --- lists -------------------------------------------------------------------------------------

function listField(doc: IngestDocument, field: string, what: string): unknown[] {
  const v = getField(doc, field);
  if (v === null) throw illegalArgument(`field [${field}] is null, cannot ${what}.`);
  if (!Array.isArray(v))
    throw illegalArgument(`field [${field}] of type [${javaType(v)}] cannot be cast to [java.util.List]`); // prettier-ignore
  return v;
}

function javaCompare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') {
    // String.compareTo compares UTF-16 code units
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw illegalArgument(`class ${javaType(a)} cannot be cast to class ${javaType(b)}`);
}

const sort: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const order = readString(c, 'order', 'asc');
  if (order !== 'asc' && order !== 'desc')
    throw configErrorFor(c, 'order', `Sort direction [${order}] not recognized. Valid values are: [asc, desc]`); // prettier-ignore
  const target = readString(c, 'target_field', field);
  return leaf(c, (doc) => {
    const list = [...listField(doc, field, 'sort')];
    list.sort(javaCompare);
    if (order === 'desc') list.reverse();
    setField(doc, target, list);
  });
};

const join: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const separator = readString(c, 'separator');
  const target = readString(c, 'target_field', field);
  return leaf(c, (doc) => {
    setField(doc, target, listField(doc, field, 'join').map(javaString).join(separator));
  });
};

/** Java String.split(regex): trailing empty strings are removed. */
export function javaSplit(s: string, regex: RegExp): string[] {
  const parts = s.split(regex);
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 1 && parts[0] === '' && s.length > 0) return [];
  return parts;
}

const split: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const separator = readString(c, 'separator');
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  const target = readString(c, 'target_field', field);
  const re = new RegExp(separator, 'u');
  return leaf(c, (doc) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined) throw illegalArgument(`field [${field}] is null, cannot split.`); // prettier-ignore
    setField(doc, target, javaSplit(castString(v, field), re));
  });
};

/** Parses a JSON value the way the json processor does (any JSON token). */
export function parseJsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw illegalArgument(`com.fasterxml.jackson.core.JsonParseException: ${(e as Error).message}`);
  }
}

/** The json processor's work; also `Processors.json` in scripts. */
export function applyJson(
  doc: { sourceAndMetadata: JsonMap } & Partial<IngestDocument>,
  field: string,
  target: string,
  addToRoot: boolean,
): void {
  const d = doc as IngestDocument;
  const fv = getField({ sourceAndMetadata: d.sourceAndMetadata, ingestMetadata: d.ingestMetadata ?? {} }, field); // prettier-ignore
  const value = parseJsonValue(fv === null ? 'null' : javaString(fv));
  const full: IngestDocument = { sourceAndMetadata: d.sourceAndMetadata, ingestMetadata: d.ingestMetadata ?? {} }; // prettier-ignore
  if (addToRoot) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw illegalArgument('cannot add non-map fields to root of document');
    for (const [k, v] of Object.entries(value as JsonMap)) setField(full, k, v);
  } else setField(full, target, value);
}

const json: ProcessorFactory = (c: ConfigCtx) => {
  const field = readString(c, 'field');
  const targetGiven = readOptionalString(c, 'target_field');
  const addToRoot = readBoolean(c, 'add_to_root', false);
  if (addToRoot && targetGiven !== null)
    throw configErrorFor(c, 'target_field', 'Cannot set a target field while also setting `add_to_root` to true'); // prettier-ignore
  const target = targetGiven ?? field;
  return leaf(c, (doc) => applyJson(doc, field, target, addToRoot));
};

export const FIELD_PROCESSORS: Record<string, ProcessorFactory> = {
  append,
  convert,
  dot_expander: dotExpander,
  join,
  json,
  remove,
  rename,
  set,
  sort,
  split,
};
