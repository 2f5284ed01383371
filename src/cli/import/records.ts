/**
 * The documents of an import file, as `_bulk` action and source lines with the file line each came
 * from and the byte offset past it: NDJSON (one document a line), a JSON array, a `_bulk` file
 * (action lines, each but `delete` followed by its source) or CSV (a header row). A document
 * without an id gets one made of the file's name and its line number, so importing the same file
 * again (or resuming) overwrites instead of duplicating. What cannot be read becomes a `bad`
 * record with its line number, and the import goes on.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { csvDocument, csvOpen, parseCsvRecord } from './csv.js';
import { readJsonArray } from './json-array.js';
import { readLines } from './line-reader.js';

export type ImportFormat = 'ndjson' | 'json' | 'bulk' | 'csv';

export type ImportRecord =
  | {
      readonly kind: 'doc';
      readonly line: number;
      readonly end: number;
      /** The line number at `end` (where reading resumes). */
      readonly next: number;
      /** The `_bulk` action line. */
      readonly action: string;
      /** The source line, or null for a delete. */
      readonly source: string | null;
    }
  | {
      readonly kind: 'bad';
      readonly line: number;
      readonly end: number;
      readonly next: number;
      readonly reason: string;
      readonly text: string;
    };

export interface RecordSource {
  readonly path: string;
  readonly format: ImportFormat;
  /** Byte offset to start at (0, or a checkpoint's) and the line number there. */
  readonly start: number;
  readonly firstLine: number;
  /** A field whose value is the document id (NDJSON, JSON, CSV). */
  readonly idField: string | null;
  /** CSV field types from a mapping file. */
  readonly types: ReadonlyMap<string, string>;
}

/** The id prefix of a file: a short hash of its name (stable across runs and directories). */
export const idPrefix = (path: string): string =>
  createHash('sha1').update(basename(path)).digest('hex').slice(0, 10);

const OPS = new Set(['index', 'create', 'update', 'delete']);

/** The format of a file: by extension, else by its first line. */
export function detectFormat(path: string): ImportFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.bulk')) return 'bulk';
  const head = Buffer.alloc(64 * 1024);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.toString('utf8', 0, n).replace(/^\uFEFF/, '');
  if (text.trimStart().startsWith('[')) return 'json';
  const first = text.split('\n', 1)[0]!.trim();
  try {
    const o = JSON.parse(first) as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && OPS.has(keys[0]!) && typeof o[keys[0]!] === 'object') return 'bulk';
  } catch {
    // not one JSON object on the first line: read it as NDJSON and report the bad lines
  }
  return 'ndjson';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const indexAction = (id: string) => `{"index":{"_id":${JSON.stringify(id)}}}`;

function idOf(doc: Record<string, unknown>, field: string | null, prefix: string, line: number) {
  const v = field === null ? undefined : doc[field];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : `${prefix}-${line}`;
}

/** One JSON document's record (NDJSON line or array element). */
function docRecord(
  text: string,
  line: number,
  end: number,
  next: number,
  src: RecordSource,
  prefix: string,
): ImportRecord {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { kind: 'bad', line, end, next, reason: (e as Error).message, text };
  }
  if (!isObject(doc)) return { kind: 'bad', line, end, next, reason: 'not a JSON object', text };
  const id = idOf(doc, src.idField, prefix, line);
  // the line as read (no re-serialising) unless it spans lines, which `_bulk` cannot take
  const source = text.includes('\n') ? JSON.stringify(doc) : text;
  return { kind: 'doc', line, end, next, action: indexAction(id), source };
}

export async function* readRecords(
  src: RecordSource,
): AsyncGenerator<ImportRecord[], void, undefined> {
  const prefix = idPrefix(src.path);
  switch (src.format) {
    case 'ndjson':
      for await (const lines of readLines(src.path, src.start, src.firstLine)) {
        const out: ImportRecord[] = [];
        for (const l of lines) {
          if (l.text.trim() === '') continue;
          out.push(docRecord(l.text, l.line, l.end, l.line + 1, src, prefix));
        }
        yield out;
      }
      return;
    case 'json':
      for await (const elems of readJsonArray(src.path, src.start, src.firstLine))
        yield elems.map((e) => docRecord(e.text, e.line, e.end, e.next, src, prefix));
      return;
    case 'bulk':
      yield* bulkRecords(src, prefix);
      return;
    case 'csv':
      yield* csvRecords(src, prefix);
      return;
  }
}

async function* bulkRecords(src: RecordSource, prefix: string): AsyncGenerator<ImportRecord[]> {
  // an action waiting for its source line
  let pending: { action: string; line: number } | null = null;
  for await (const lines of readLines(src.path, src.start, src.firstLine)) {
    const out: ImportRecord[] = [];
    for (const l of lines) {
      if (pending) {
        const p = pending;
        pending = null;
        try {
          if (!isObject(JSON.parse(l.text))) throw new Error('not a JSON object');
          out.push({
            kind: 'doc',
            line: p.line,
            end: l.end,
            next: l.line + 1,
            action: p.action,
            source: l.text,
          });
        } catch (e) {
          out.push({ kind: 'bad', line: l.line, end: l.end, next: l.line + 1, reason: `source of the action on line ${p.line}: ${(e as Error).message}`, text: l.text }); // prettier-ignore
        }
        continue;
      }
      if (l.text.trim() === '') continue;
      let action: unknown;
      try {
        action = JSON.parse(l.text);
      } catch (e) {
        out.push({ kind: 'bad', line: l.line, end: l.end, next: l.line + 1, reason: `action: ${(e as Error).message}`, text: l.text }); // prettier-ignore
        continue;
      }
      const op = isObject(action) ? Object.keys(action) : [];
      const meta = op.length === 1 && OPS.has(op[0]!) ? (action as Record<string, unknown>)[op[0]!] : null; // prettier-ignore
      if (!isObject(meta)) {
        out.push({ kind: 'bad', line: l.line, end: l.end, next: l.line + 1, reason: 'not a bulk action (index, create, update or delete)', text: l.text }); // prettier-ignore
        continue;
      }
      if (meta._id === undefined && (op[0] === 'index' || op[0] === 'create'))
        meta._id = `${prefix}-${l.line}`;
      const text = JSON.stringify(action);
      if (op[0] === 'delete')
        out.push({ kind: 'doc', line: l.line, end: l.end, next: l.line + 1, action: text, source: null }); // prettier-ignore
      else pending = { action: text, line: l.line };
    }
    yield out;
  }
  if (pending) yield [{ kind: 'bad', line: pending.line, end: 0, next: 0, reason: 'action without a source line at the end of the file', text: pending.action }]; // prettier-ignore
}

/** The header of a CSV file (its first record). */
async function csvHeader(path: string): Promise<{ header: string[]; end: number; line: number }> {
  let text = '';
  for await (const lines of readLines(path, 0, 1)) {
    for (const l of lines) {
      text = text === '' ? l.text : `${text}\n${l.text}`;
      if (!csvOpen(text)) return { header: parseCsvRecord(text).map((h) => h.trim()), end: l.end, line: l.line }; // prettier-ignore
    }
  }
  throw new Error('the CSV file has no header row');
}

async function* csvRecords(src: RecordSource, prefix: string): AsyncGenerator<ImportRecord[]> {
  const h = await csvHeader(src.path);
  const start = src.start > 0 ? src.start : h.end;
  const firstLine = src.start > 0 ? src.firstLine : h.line + 1;
  let text = '';
  let recLine = 0;
  for await (const lines of readLines(src.path, start, firstLine)) {
    const out: ImportRecord[] = [];
    for (const l of lines) {
      if (text === '') {
        if (l.text.trim() === '') continue;
        recLine = l.line;
        text = l.text;
      } else text += '\n' + l.text;
      if (csvOpen(text)) continue;
      try {
        const doc = csvDocument(h.header, parseCsvRecord(text), src.types);
        const id = idOf(doc, src.idField, prefix, recLine);
        out.push({ kind: 'doc', line: recLine, end: l.end, next: l.line + 1, action: indexAction(id), source: JSON.stringify(doc) }); // prettier-ignore
      } catch (e) {
        out.push({
          kind: 'bad',
          line: recLine,
          end: l.end,
          next: l.line + 1,
          reason: (e as Error).message,
          text,
        });
      }
      text = '';
    }
    yield out;
  }
  if (text !== '') yield [{ kind: 'bad', line: recLine, end: 0, next: 0, reason: 'unterminated quoted field', text }]; // prettier-ignore
}
