/**
 * The Dev Tools buffer: requests written as a `METHOD /path` line followed by an optional JSON
 * body (one object, or NDJSON lines for _bulk/_msearch), separated by the next method line.
 * Pure: no DOM, so it is unit-tested in node.
 */
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'] as const;
export type Method = (typeof METHODS)[number];

export interface BufferRequest {
  readonly method: Method;
  readonly path: string;
  /** The body's text as written (trimmed), or '' for none. */
  readonly body: string;
  /** Offsets of the request's first and last character in the buffer. */
  readonly from: number;
  readonly to: number;
}

const METHOD_LINE = /^\s*(GET|POST|PUT|DELETE|HEAD)\s+(\S*)\s*$/i;

/** Every request of the buffer, in order. Text before the first method line is ignored. */
export function parseRequests(text: string): BufferRequest[] {
  const out: BufferRequest[] = [];
  let current: { method: Method; path: string; from: number; bodyFrom: number } | null = null;
  let offset = 0;
  const close = (end: number) => {
    if (!current) return;
    const raw = text.slice(current.bodyFrom, end);
    const body = raw.trim();
    let to = end;
    while (to > current.from && /\s/.test(text[to - 1]!)) to--;
    out.push({ method: current.method, path: current.path, body, from: current.from, to });
  };
  for (const line of text.split('\n')) {
    const m = METHOD_LINE.exec(line);
    if (m && !line.trimStart().startsWith('#')) {
      close(offset);
      const path = m[2]!;
      current = {
        method: m[1]!.toUpperCase() as Method,
        path: path.startsWith('/') ? path : '/' + path,
        from: offset + line.indexOf(m[1]!),
        bodyFrom: offset + line.length + 1,
      };
    }
    offset += line.length + 1;
  }
  close(text.length);
  return out;
}

/** The request the cursor is in: the last one starting at or before it. */
export function requestAt(text: string, pos: number): BufferRequest | null {
  let found: BufferRequest | null = null;
  for (const r of parseRequests(text)) if (r.from <= pos) found = r;
  return found;
}

/**
 * The body to send: NDJSON APIs get one line per JSON value (with the final newline they
 * need); others get the text as written. Comment lines (`#`, `//`) are dropped.
 */
export function bodyToSend(req: BufferRequest): { text: string; ndjson: boolean } | null {
  const body = req.body
    .split('\n')
    .filter((l) => !/^\s*(#|\/\/)/.test(l))
    .join('\n')
    .trim();
  if (body === '') return null;
  const path = req.path.split('?')[0]!;
  const ndjson = /\/_(bulk|msearch)$/.test(path) || /\/_msearch\/template$/.test(path);
  if (!ndjson) return { text: body, ndjson: false };
  return { text: splitJsonValues(body).join('\n') + '\n', ndjson: true };
}

/** Splits concatenated JSON values (objects may span lines) into one compact line each. */
export function splitJsonValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && --depth === 0) {
      const value = text.slice(start, i + 1);
      try {
        out.push(JSON.stringify(JSON.parse(value)));
      } catch {
        out.push(value.replace(/\n\s*/g, ' '));
      }
    }
  }
  return out;
}
