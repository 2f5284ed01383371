/**
 * `_cat` tables as Elasticsearch 6.8's Table + RestTable render them: padded plain text (with
 * `v`, `h`, `s`, `help`, `bytes`, `time`, `ts`), or JSON/YAML arrays of string values.
 */
import { illegalArgument, EsError } from '../common/errors.js';
import { simpleMatch } from '../engine/index-names.js';

/** A byte size cell (rendered per `bytes=`). */
export class ByteSize {
  constructor(readonly bytes: number) {}
  toString(): string {
    return formatByteSizeValue(this.bytes);
  }
}

/** A time value cell in milliseconds (rendered per `time=`). */
export class TimeValue {
  constructor(readonly millis: number) {}
  toString(): string {
    return formatTimeValueMs(this.millis);
  }
}

export type Cell = string | number | boolean | ByteSize | TimeValue | null;

export interface Column {
  name: string;
  alias?: string;
  desc?: string;
  /** Shown without `h` (default true). */
  default?: boolean;
  right?: boolean;
}

export interface CatTable {
  columns: Column[];
  rows: Cell[][];
}

export interface CatParams {
  get(name: string): string | undefined;
  has(name: string): boolean;
  accept?: string;
}

/** ES Strings.format1Decimals: one decimal, truncated, dropped when zero. */
function format1Decimals(value: number, suffix: string): string {
  const p = javaDoubleString(value);
  const ix = p.indexOf('.') + 1;
  const ex = p.indexOf('E');
  const fraction = p.charAt(ix);
  if (fraction === '0')
    return ex !== -1 ? p.slice(0, ix - 1) + p.slice(ex) + suffix : p.slice(0, ix - 1) + suffix;
  return ex !== -1
    ? p.slice(0, ix) + fraction + p.slice(ex) + suffix
    : p.slice(0, ix) + fraction + suffix;
}

function javaDoubleString(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return `${v}.0`;
  if (Math.abs(v) >= 1e-3 && Math.abs(v) < 1e7) return String(v);
  const [m, e] = v.toExponential().split('e');
  return `${m!.includes('.') ? m : `${m}.0`}E${Number(e)}`;
}

export function formatByteSizeValue(bytes: number): string {
  const K = 1024;
  if (bytes >= K ** 5) return format1Decimals(bytes / K ** 5, 'pb');
  if (bytes >= K ** 4) return format1Decimals(bytes / K ** 4, 'tb');
  if (bytes >= K ** 3) return format1Decimals(bytes / K ** 3, 'gb');
  if (bytes >= K ** 2) return format1Decimals(bytes / K ** 2, 'mb');
  if (bytes >= K) return format1Decimals(bytes / K, 'kb');
  return format1Decimals(bytes, 'b');
}

export function formatTimeValueMs(ms: number): string {
  const nanos = ms * 1e6;
  const C = { us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9, d: 86400e9 };
  if (nanos >= C.d) return format1Decimals(nanos / C.d, 'd');
  if (nanos >= C.h) return format1Decimals(nanos / C.h, 'h');
  if (nanos >= C.m) return format1Decimals(nanos / C.m, 'm');
  if (nanos >= C.s) return format1Decimals(nanos / C.s, 's');
  if (nanos >= C.ms) return format1Decimals(nanos / C.ms, 'ms');
  if (nanos >= C.us) return format1Decimals(nanos / C.us, 'micros');
  return format1Decimals(nanos, 'nanos');
}

function render(v: Cell, p: CatParams): string | null {
  if (v === null) return null;
  if (v instanceof ByteSize) {
    const r = p.get('bytes');
    const div: Record<string, number> = {
      b: 1,
      k: 1024,
      kb: 1024,
      m: 1024 ** 2,
      mb: 1024 ** 2,
      g: 1024 ** 3,
      gb: 1024 ** 3,
      t: 1024 ** 4,
      tb: 1024 ** 4,
      p: 1024 ** 5,
      pb: 1024 ** 5,
    };
    if (r !== undefined && div[r] !== undefined) return String(Math.floor(v.bytes / div[r]!));
    return v.toString();
  }
  if (v instanceof TimeValue) {
    const r = p.get('time');
    const div: Record<string, number> = {
      nanos: 1e-6,
      micros: 1e-3,
      ms: 1,
      s: 1e3,
      m: 6e4,
      h: 3.6e6,
      d: 8.64e7,
    };
    if (r !== undefined && div[r] !== undefined) return String(Math.floor(v.millis / div[r]!));
    return v.toString();
  }
  return String(v);
}

interface Display {
  col: number;
  display: string;
}

function displayColumns(t: CatTable, p: CatParams): Display[] {
  const ts = p.get('ts');
  const tsOk = (name: string) =>
    !(name === 'timestamp' || name === 'epoch') || ts === undefined || ts === 'true' || ts === '';
  const h = p.get('h');
  if (h === undefined) {
    return t.columns
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.default !== false && tsOk(c.name))
      .map(({ c, i }) => ({ col: i, display: c.name }));
  }
  const wanted: string[] = [];
  for (const raw of h
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s)) {
    if (raw.includes('*')) {
      for (const c of t.columns) {
        const aliases = c.alias ? c.alias.split(',') : [];
        if (simpleMatch(raw, c.name) || aliases.some((a) => simpleMatch(raw, a))) {
          if (!wanted.includes(c.name)) wanted.push(c.name);
        }
      }
    } else if (!wanted.includes(raw)) wanted.push(raw);
  }
  const out: Display[] = [];
  for (const w of wanted) {
    let idx = t.columns.findIndex((c) => c.name === w);
    let display = w;
    if (idx < 0) {
      idx = t.columns.findIndex((c) => (c.alias ?? '').split(',').includes(w));
      display = w;
    }
    if (idx >= 0 && tsOk(t.columns[idx]!.name)) out.push({ col: idx, display });
  }
  return out;
}

function rowOrder(t: CatTable, p: CatParams): number[] {
  const order = t.rows.map((_, i) => i);
  const s = p.get('s');
  if (!s) return order;
  const keys = s
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k)
    .map((k) => {
      let name = k;
      let rev = false;
      if (name.endsWith(':desc')) {
        name = name.slice(0, -5);
        rev = true;
      } else if (name.endsWith(':asc')) name = name.slice(0, -4);
      const col = t.columns.findIndex(
        (c) => c.name === name || (c.alias ?? '').split(',').includes(name),
      );
      if (col < 0)
        throw new EsError(
          'unsupported_operation_exception',
          `Unable to sort by unknown sort key \`${name}\``,
          500,
        );
      return { col, rev };
    });
  const cmp = (a: Cell, b: Cell): number => {
    if (a === null && b === null) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    const av = a instanceof ByteSize ? a.bytes : a instanceof TimeValue ? a.millis : a;
    const bv = b instanceof ByteSize ? b.bytes : b instanceof TimeValue ? b.millis : b;
    if (typeof av === typeof bv && (typeof av === 'number' || typeof av === 'string'))
      return av < bv ? -1 : av > bv ? 1 : 0;
    const as = String(a);
    const bs = String(b);
    return as < bs ? -1 : as > bs ? 1 : 0;
  };
  order.sort((x, y) => {
    for (const k of keys) {
      const c = cmp(t.rows[x]![k.col]!, t.rows[y]![k.col]!);
      if (c !== 0) return k.rev ? -c : c;
    }
    return 0;
  });
  return order;
}

/** Returns the response body: text, or an array for format=json/yaml. */
export function renderCat(t: CatTable, p: CatParams): { text?: string; json?: unknown[] } {
  if (p.has('help') && p.get('help') !== 'false') return { text: renderHelp(t) };
  const format = p.get('format') ?? acceptFormat(p.accept);
  const cols = displayColumns(t, p);
  const order = rowOrder(t, p);
  if (format === 'json' || format === 'yaml' || format === 'smile' || format === 'cbor') {
    return {
      json: order.map((r) => {
        const o: Record<string, unknown> = {};
        for (const c of cols) o[c.display] = render(t.rows[r]![c.col]!, p);
        return o;
      }),
    };
  }
  if (format !== undefined && format !== 'txt' && format !== 'text') {
    throw illegalArgument(`Unsupported format [${format}]`);
  }
  const verbose = p.has('v') && p.get('v') !== 'false';
  const width = cols.map((c) => (verbose ? c.display.length : 0));
  const cells = order.map((r) => cols.map((c) => render(t.rows[r]![c.col]!, p)));
  for (const row of cells)
    row.forEach((v, i) => (width[i] = Math.max(width[i]!, v === null ? 0 : v.length)));
  const lines: string[] = [];
  const line = (vals: (string | null)[]) => {
    let s = '';
    vals.forEach((v, i) => {
      const last = i === vals.length - 1;
      const val = v ?? '';
      const left = width[i]! - val.length;
      const right = t.columns[cols[i]!.col]!.right;
      if (left > 0 && right) s += ' '.repeat(left) + val;
      else s += val + (last ? '' : ' '.repeat(Math.max(0, left)));
      if (!last) s += ' ';
    });
    lines.push(s + '\n');
  };
  if (verbose) line(cols.map((c) => c.display));
  for (const r of cells) line(r);
  return { text: lines.join('') };
}

function acceptFormat(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  if (accept.includes('application/json')) return 'json';
  if (accept.includes('application/yaml')) return 'yaml';
  return undefined;
}

function renderHelp(t: CatTable): string {
  const w = [0, 0, 0];
  for (const c of t.columns) {
    w[0] = Math.max(w[0]!, c.name.length);
    w[1] = Math.max(w[1]!, (c.alias ?? '').length);
    w[2] = Math.max(w[2]!, (c.desc ?? 'not available').length);
  }
  return t.columns
    .map(
      (c) =>
        `${c.name.padEnd(w[0]!)} | ${(c.alias ?? '').padEnd(w[1]!)} | ${(c.desc ?? 'not available').padEnd(w[2]!)}\n`,
    )
    .join('');
}
