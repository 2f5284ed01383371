/**
 * `format=json` (and the shared model for YAML): ES SqlQueryResponse.toXContent. Rows or
 * `columnar: true` values, columns only on the first page, `cursor` only when there is one.
 * `toJsonText` renders the body the way ES's Jackson generator does (compact, Double.toString
 * numbers such as 1.0E7, NaN/Infinity quoted, upper-case \u escapes), while `toJsonObject` gives
 * a plain object for callers that serialise themselves.
 */
import { toTypeName, type ColumnInfo } from './text.js';
import { numberText, xcontentValue, type XValue } from './value-text.js';

export interface SqlResponse {
  /** First page only; null on cursor pages. `type` is the `/_sql` type name ("datetime"). */
  readonly columns: readonly ColumnInfo[] | null;
  readonly rows: ReadonlyArray<readonly unknown[]>;
  /** "" or undefined when there is no next page. */
  readonly cursor?: string | null;
  readonly columnar?: boolean;
  /** ColumnInfo.display_size, sent to JDBC/ODBC clients only. */
  readonly displaySizes?: readonly number[] | null;
}

/** The response as an ordered tree of XValues. */
export type XNode = XValue | readonly XNode[] | { readonly [k: string]: XNode };

function typedRows(
  r: SqlResponse,
  types: ReadonlyArray<ReturnType<typeof toTypeName>>,
): XValue[][] {
  return r.rows.map((row) => row.map((v, i) => xcontentValue(v, types[i] ?? null)));
}

/** SqlQueryResponse.toXContent as a tree (key order as ES writes it). */
export function responseTree(
  r: SqlResponse,
  pageTypes?: readonly string[],
): { [k: string]: XNode } {
  const out: { [k: string]: XNode } = {};
  const typeNames = r.columns ? r.columns.map((c) => c.type) : (pageTypes ?? []);
  const types = typeNames.map(toTypeName);
  if (r.columns) {
    out.columns = r.columns.map((c, i) => {
      const col: { [k: string]: XNode } = { name: c.name, type: String(c.type).toLowerCase() };
      const ds = r.displaySizes?.[i];
      if (ds !== undefined && ds !== null) col.display_size = { number: String(ds), value: ds };
      return col;
    });
  }
  const rows = typedRows(r, types);
  if (r.columnar) {
    const count = rows.length > 0 ? rows[0]!.length : (r.columns?.length ?? 0);
    const values: XValue[][] = [];
    for (let c = 0; c < count; c++) values.push(rows.map((row) => row[c] ?? null));
    out.values = values;
  } else {
    out.rows = rows;
  }
  if (r.cursor) out.cursor = r.cursor;
  return out;
}

/** What Jackson escapes: `"`, `\\` and control characters. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** Jackson's string escaping. */
export function jsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c < 0x20) {
      if (c === 0x0a) out += '\\n';
      else if (c === 0x0d) out += '\\r';
      else if (c === 0x09) out += '\\t';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x0c) out += '\\f';
      else out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    } else out += s[i];
  }
  return out + '"';
}

function isNumberNode(n: XNode): n is { number: string; value: number } {
  return (
    typeof n === 'object' &&
    n !== null &&
    !Array.isArray(n) &&
    typeof (n as { number?: unknown }).number === 'string'
  );
}

function render(n: XNode): string {
  if (n === null) return 'null';
  if (typeof n === 'boolean') return n ? 'true' : 'false';
  if (typeof n === 'string') return jsonString(n);
  if (isNumberNode(n)) return Number.isFinite(n.value) ? n.number : jsonString(n.number);
  if (Array.isArray(n)) return '[' + n.map(render).join(',') + ']';
  const obj = n as { [k: string]: XNode };
  return (
    '{' +
    Object.keys(obj)
      .map((k) => jsonString(k) + ':' + render(obj[k]!))
      .join(',') +
    '}'
  );
}

/** One cell as render(xcontentValue(v, type)) writes it, without the intermediate node. */
function cellText(v: unknown, type: ReturnType<typeof toTypeName>): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number': {
      const text = numberText(v, type);
      return Number.isFinite(v) ? text : jsonString(text);
    }
  }
  return render(xcontentValue(v, type));
}

/** The `/_sql?format=json` body text. `pageTypes`: column types for cursor pages (optional). */
export function toJsonText(r: SqlResponse, pageTypes?: readonly string[]): string {
  if (r.columnar) return render(responseTree(r, pageTypes));
  // rows are written straight to text: the tree of a large page is most of its cost
  const { rows: _, ...rest } = responseTree({ ...r, rows: [] }, pageTypes);
  void _;
  const typeNames = r.columns ? r.columns.map((c) => c.type) : (pageTypes ?? []);
  const types = typeNames.map(toTypeName);
  let rows = '[';
  for (let i = 0; i < r.rows.length; i++) {
    const row = r.rows[i]!;
    rows += i === 0 ? '[' : ',[';
    for (let j = 0; j < row.length; j++) {
      if (j > 0) rows += ',';
      rows += cellText(row[j], types[j] ?? null);
    }
    rows += ']';
  }
  rows += ']';
  let out = '{';
  if (rest.columns !== undefined) out += '"columns":' + render(rest.columns) + ',';
  out += '"rows":' + rows;
  if (rest.cursor !== undefined) out += ',"cursor":' + render(rest.cursor);
  return out + '}';
}

function plain(n: XNode): unknown {
  if (isNumberNode(n)) return n.value;
  if (Array.isArray(n)) return n.map(plain);
  if (n !== null && typeof n === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) o[k] = plain(v as XNode);
    return o;
  }
  return n;
}

/** The body as a plain object (datetimes/intervals already rendered as ES prints them). */
export function toJsonObject(
  r: SqlResponse,
  pageTypes?: readonly string[],
): Record<string, unknown> {
  return plain(responseTree(r, pageTypes)) as Record<string, unknown>;
}

export { render as renderXContentJson, isNumberNode };
