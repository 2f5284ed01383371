/**
 * Templates in processor settings (ES ValueSource + TemplateScript over mustache with
 * `text/plain`, so no HTML escaping): `{{a.b}}` and `{{{a.b}}}` read a field of the document
 * model (source, metadata, `_ingest`); a string without `{{` is a constant.
 */
import type { IngestDocument, JsonMap } from './document.js';
import { templateModel } from './document.js';

export type Template = (doc: IngestDocument) => string;

type Part = string | { path: string[] };

export function compileTemplate(text: string): Template {
  if (!text.includes('{{')) return () => text;
  const parts: Part[] = [];
  const re = /\{\{\{\s*([^}]*?)\s*\}\}\}|\{\{\s*&?\s*([^}]*?)\s*\}\}/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const name = (m[1] ?? m[2] ?? '').trim();
    // sections and comments are outside the subset: they render nothing
    if (!/^[#^/!>]/.test(name)) parts.push({ path: name === '.' ? [] : name.split('.') });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (doc) => {
    const model = templateModel(doc);
    let out = '';
    for (const p of parts) out += typeof p === 'string' ? p : renderValue(lookup(model, p.path));
    return out;
  };
}

function lookup(model: JsonMap, path: string[]): unknown {
  let ctx: unknown = model;
  for (const el of path) {
    if (Array.isArray(ctx)) {
      const i = Number(el);
      ctx = Number.isInteger(i) ? ctx[i] : undefined;
    } else if (ctx !== null && typeof ctx === 'object') ctx = (ctx as JsonMap)[el];
    else return undefined;
  }
  return ctx;
}

/** Java's toString of a value as mustache prints it. */
export function renderValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(renderValue).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as JsonMap)
      .map(([k, x]) => `${k}=${renderValue(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** ES ValueSource: strings are templates, lists and maps hold value sources, others constants. */
export type ValueSource = (doc: IngestDocument) => unknown;

export function valueSource(v: unknown): ValueSource {
  if (typeof v === 'string') return compileTemplate(v);
  if (Array.isArray(v)) {
    const items = v.map(valueSource);
    return (doc) => items.map((f) => f(doc));
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as JsonMap).map(([k, x]) => [compileTemplate(k), valueSource(x)] as const); // prettier-ignore
    return (doc) => {
      const out: JsonMap = {};
      for (const [k, f] of entries) out[k(doc)] = f(doc);
      return out;
    };
  }
  return () => v;
}
