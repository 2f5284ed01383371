/**
 * Renders parsed mustache templates with mustache.java's semantics as ES 6.8 configures them:
 * values are written as Java's toString would, escaped for JSON strings (ES's default content
 * type), never for HTML; names resolve up the scope stack, dots descend into objects and lists.
 */
import type { TemplateNode } from './parse.js';

/** How `{{name}}` values are written: JSON-string escaped (ES's default) or as they are. */
export type TemplateEncoding = 'json' | 'plain';

/** Renders `nodes` against `params`. */
export function renderTemplate(
  nodes: readonly TemplateNode[],
  params: unknown,
  encoding: TemplateEncoding = 'json',
): string {
  const out: string[] = [];
  renderInto(nodes, [params], encoding, out);
  return out.join('');
}

function renderInto(
  nodes: readonly TemplateNode[],
  scopes: unknown[],
  encoding: TemplateEncoding,
  out: string[],
): void {
  for (const n of nodes) {
    switch (n.kind) {
      case 'text':
        out.push(n.text);
        break;
      case 'value': {
        const v = lookup(scopes, n.name);
        if (v === undefined || v === null) break;
        const s = javaString(v);
        out.push(n.escape && encoding === 'json' ? escapeJsonString(s) : s);
        break;
      }
      case 'section': {
        const v = lookup(scopes, n.name);
        if (n.inverted) {
          if (falsy(v)) renderInto(n.children, scopes, encoding, out);
        } else if (!falsy(v)) {
          if (Array.isArray(v))
            for (const item of v) renderInto(n.children, [...scopes, item], encoding, out); // prettier-ignore
          else if (v === true) renderInto(n.children, scopes, encoding, out);
          else renderInto(n.children, [...scopes, v], encoding, out);
        }
        break;
      }
      case 'toJson': {
        const v = lookup(scopes, n.name);
        if (v !== undefined) out.push(JSON.stringify(v));
        break;
      }
      case 'join': {
        const v = lookup(scopes, n.name);
        if (v === undefined || v === null) break;
        out.push(Array.isArray(v) ? v.map(javaString).join(n.delimiter) : javaString(v));
        break;
      }
      case 'url': {
        const inner: string[] = [];
        renderInto(n.children, scopes, encoding, inner);
        out.push(urlEncode(inner.join('')));
        break;
      }
    }
  }
}

/** mustache.java's falsey values: null, false, an empty string and an empty list. */
function falsy(v: unknown): boolean {
  return v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0); // prettier-ignore
}

/**
 * The value `name` names: `.` is the innermost scope; otherwise the first dotted part is looked up
 * from the innermost scope out and the rest descend from there (a number indexes a list).
 */
export function lookup(scopes: readonly unknown[], name: string): unknown {
  if (name === '.') return scopes[scopes.length - 1];
  const parts = name.split('.');
  for (let i = scopes.length - 1; i >= 0; i--) {
    const head = member(scopes[i], parts[0]!);
    if (head === undefined) continue;
    let v: unknown = head;
    for (const p of parts.slice(1)) {
      v = member(v, p);
      if (v === undefined) return undefined;
    }
    return v;
  }
  return undefined;
}

function member(scope: unknown, key: string): unknown {
  if (scope === null || typeof scope !== 'object') return undefined;
  if (Array.isArray(scope)) return /^\d+$/.test(key) ? scope[Number(key)] : undefined;
  return Object.prototype.hasOwnProperty.call(scope, key)
    ? (scope as Record<string, unknown>)[key]
    : undefined;
}

/** A parameter as Java's toString writes it (maps `{k=v, ...}`, lists `[a, b]`). */
export function javaString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(javaString).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}=${javaString(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** Jackson's quoteAsString: what may stand inside a JSON string literal. */
export function escapeJsonString(s: string): string {
  return s.replace(/["\\\u0000-\u001f]/g, (c) => {
    switch (c) {
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\b':
        return '\\b';
      case '\f':
        return '\\f';
      default:
        return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
    }
  });
}

/** java.net.URLEncoder with UTF-8: letters, digits and `.-*_` stay, a space is `+`. */
export function urlEncode(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9.\-*_]/.test(c)) out += c;
    else if (b === 0x20) out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
