/**
 * JSON helpers: parsing with Elasticsearch-shaped errors, and serialisation that splices in
 * pre-serialised fragments (`RawJson`) so `_source` is sent as the bytes the client gave.
 */
import { isUtf8 } from 'node:buffer';
import { EsError } from './errors.js';
import { decodeJson } from './json-bytes.js';
import { textLocation } from './json-location.js';
import { blankComments, findJsonProblem, hasDuplicateKeys } from './json-syntax.js';

/**
 * A JSON fragment kept as it was stored (e.g. a document's `_source`): its text, or its UTF-8
 * bytes, decoded only when something reads `text` (a response written as bytes never does).
 */
export class RawJson {
  #text: string | null;
  /** The fragment's UTF-8 bytes when it was made from them (owned: not a reused buffer). */
  readonly bytes: Buffer | null;

  constructor(text: string);
  constructor(text: null, bytes: Buffer);
  constructor(text: string | null, bytes: Buffer | null = null) {
    this.#text = text;
    this.bytes = bytes;
  }

  /**
   * The fragment of stored bytes, kept as bytes when they are valid UTF-8 (decoding and
   * re-encoding gives them back unchanged). Bytes that are not (a source sent with overlong
   * forms or encoded surrogates, which the parser accepts as Jackson does) are decoded now, so
   * a response carries the replacement characters it always has. `bytes` must not be reused.
   */
  static ofUtf8(bytes: Buffer): RawJson {
    return isUtf8(bytes) ? new RawJson(null, bytes) : new RawJson(bytes.toString('utf8'));
  }

  get text(): string {
    return (this.#text ??= this.bytes!.toString('utf8'));
  }

  /**
   * Inside `stringifyRaw`, a placeholder swapped for the text afterwards; a hook rather than a
   * replacer function, which would take JSON.stringify off its fast path for every value. Any
   * other JSON.stringify gets the parsed value.
   */
  toJSON(): unknown {
    if (collected === null) return JSON.parse(this.text);
    collected.push(this);
    return `\u0001${collectNonce}:${collected.length - 1}\u0001`;
  }
}

/**
 * A value serialised ahead of its answer (a bulk's items, written while their commit is flushed):
 * a response writes its bytes as they are; whatever reads the value instead (pretty printing,
 * `filter_path`, another JSON.stringify) gets the value itself, not a parse of the bytes.
 */
export class RenderedJson extends RawJson {
  private constructor(
    readonly value: unknown,
    bytes: Buffer,
  ) {
    super(null, bytes);
  }

  /** `value` serialised as `stringifyRawBytes` would (its own fragments written verbatim). */
  static of(value: unknown): RenderedJson {
    const out = stringifyRawBytes(value);
    return new RenderedJson(value, typeof out === 'string' ? Buffer.from(out) : out);
  }

  override toJSON(): unknown {
    return collected === null ? this.value : super.toJSON();
  }
}

/** The fragments of the `stringifyRaw` call in progress (null outside one), and its nonce. */
let collected: RawJson[] | null = null;
let collectNonce = 0;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Parses JSON text as ES's parser reads it: comments are allowed, malformed input becomes
 * Jackson's `json_parse_exception` (or `json_e_o_f_exception`), and so does a key repeated within
 * one object (ES 6.8 parses with STRICT_DUPLICATE_DETECTION: `Duplicate field 'name'`).
 */
export function parseJson(text: string): unknown {
  return parseJsonText(text).value;
}

/**
 * `parseJson`, also giving the text JSON.parse read: `text` itself, or a copy with its comments
 * blanked out when it has some (ES parses with ALLOW_COMMENTS; JSON.parse knows none, so they
 * are looked for only once it has failed).
 */
export function parseJsonText(text: string): { value: unknown; text: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    if (!text.includes('/') || findJsonProblem(text) !== null) throw jsonParseError(text, e);
    const plain = blankComments(text);
    try {
      v = JSON.parse(plain);
    } catch (e2) {
      throw jsonParseError(text, e2);
    }
    if (hasDuplicateKeys(plain, v)) throw jsonParseError(text, null);
    return { value: v, text: plain };
  }
  if (hasDuplicateKeys(text, v)) throw jsonParseError(text, null);
  return { value: v, text };
}

/** Decodes (json-bytes.ts) and parses a request body or one NDJSON line of it. */
export function parseJsonBytes(bytes: Buffer, from = 0, to = bytes.length): unknown {
  return parseJson(decodeJson(bytes, from, to));
}

/** The error Jackson reports for `text`, which JSON.parse rejected or found a duplicate key in. */
export function jsonParseError(text: string, e: unknown): EsError {
  const p = findJsonProblem(text);
  if (p !== null) {
    const type = p.eof ? 'json_e_o_f_exception' : 'json_parse_exception';
    return new EsError(type, `${p.message}\n at ${textLocation(text, p.at)}`, 400);
  }
  // JSON.parse and the scanner disagree: say what JSON.parse said
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /position (\d+)/.exec(msg);
  const at = pos ? Number(pos[1]) : text.length;
  return new EsError(
    'json_parse_exception',
    `${msg.replace(/ in JSON at position \d+.*$/s, '')}\n at ${textLocation(text, at + 1)}`,
    400,
  );
}

/** Parses a request body that must be a JSON object (ES: XContentHelper.convertToMap). */
export function parseJsonObject(text: string): Record<string, unknown> {
  const v = parseJson(text);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new EsError('parse_exception', 'Failed to parse content to map', 400, {
      causedBy: new EsError(
        'json_parse_exception',
        'Current token not START_OBJECT (needed to unwrap)',
        400,
      ),
    });
  }
  return v as Record<string, unknown>;
}

/**
 * JSON.stringify that writes `RawJson` fragments verbatim (compact output only). The native
 * serializer does the work: fragments become unique placeholder strings (`RawJson.toJSON`) that
 * are swapped for the raw text afterwards. Non-finite numbers become null natively.
 */
export function stringifyRaw(value: unknown): string {
  const { text, raws, nonce } = stringifyWithPlaceholders(value);
  if (raws.length === 0) return text;
  let out = '';
  const from = eachPlaceholder(text, raws, nonce, (seg, raw) => {
    out += seg + raw.text;
  });
  return from === 0 ? text : out + text.slice(from);
}

/**
 * `stringifyRaw`'s text as UTF-8 bytes, for a response: the text when there is no fragment (a
 * string goes out in one write with the response head), otherwise one Buffer where fragments
 * held as bytes are copied in as they are (never decoded to a string and encoded back).
 */
export function stringifyRawBytes(value: unknown): string | Buffer {
  const { text, raws, nonce } = stringifyWithPlaceholders(value);
  if (raws.length === 0) return text;
  const segs: string[] = [];
  const frags: RawJson[] = [];
  let size = 0;
  const from = eachPlaceholder(text, raws, nonce, (seg, raw) => {
    segs.push(seg);
    frags.push(raw);
    size += raw.bytes !== null ? raw.bytes.length : Buffer.byteLength(raw.text);
  });
  if (from === 0) return text;
  const tail = text.slice(from);
  for (const seg of segs) size += seg.length;
  size += tail.length;
  // The JSON around the fragments is mostly ASCII, written as Latin-1 (no UTF-8 encoding
  // step); the placeholders are ASCII, so the whole text tells how many more bytes than
  // characters the rest takes.
  const extra = Buffer.byteLength(text) - text.length;
  const ascii = extra === 0;
  size += extra;
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < segs.length; i++) {
    at += buf.write(segs[i]!, at, ascii ? 'latin1' : 'utf8');
    const raw = frags[i]!;
    at += raw.bytes !== null ? raw.bytes.copy(buf, at) : buf.write(raw.text, at, 'utf8');
  }
  at += buf.write(tail, at, ascii ? 'latin1' : 'utf8');
  return at === size ? buf : buf.subarray(0, at);
}

/** JSON.stringify with `RawJson` fragments collected and replaced by placeholder strings. */
function stringifyWithPlaceholders(value: unknown): {
  text: string;
  raws: RawJson[];
  nonce: number;
} {
  const outer = collected;
  const outerNonce = collectNonce;
  const raws: RawJson[] = (collected = []);
  const nonce = (collectNonce = rawNonce = (rawNonce + 1) % 1e9);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } finally {
    collected = outer;
    collectNonce = outerNonce;
  }
  return { text: text ?? 'null', raws, nonce };
}

/**
 * Calls `each` with the text before each placeholder string (its control characters escaped by
 * JSON.stringify as `\u0001`) and its fragment, in order; returns where the text after the last
 * one starts (0: none found). A scan with indexOf, cheaper than a RegExp built and run per
 * response. A string that merely looks like a placeholder stays text.
 */
function eachPlaceholder(
  text: string,
  raws: RawJson[],
  nonce: number,
  each: (seg: string, raw: RawJson) => void,
): number {
  const open = `"\\u0001${nonce}:`;
  const close = '\\u0001"';
  let segStart = 0;
  let from = 0;
  for (let at = text.indexOf(open); at >= 0; at = text.indexOf(open, from)) {
    const digits = at + open.length;
    const end = text.indexOf(close, digits);
    if (end < 0) break;
    const raw = end > digits ? raws[Number(text.slice(digits, end))] : undefined;
    if (raw === undefined) {
      from = digits;
      continue;
    }
    each(text.slice(segStart, at), raw);
    from = segStart = end + close.length;
  }
  return segStart;
}

let rawNonce = 0;

/** Replaces RawJson fragments by parsed values (for pretty printing and filter_path). */
export function materialize(v: unknown): unknown {
  if (v instanceof RenderedJson) return materialize(v.value);
  if (v instanceof RawJson) return JSON.parse(v.text);
  if (Array.isArray(v)) return v.map(materialize);
  if (v && typeof v === 'object') {
    const maybe = v as { toJSON?: () => unknown };
    if (typeof maybe.toJSON === 'function') return materialize(maybe.toJSON());
    const o: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) if (val !== undefined) o[k] = materialize(val);
    return o;
  }
  return v;
}

/** Pretty printing as Elasticsearch does: two-space indent, `" : "` between key and value. */
export function stringifyPretty(value: unknown): string {
  return prettyWrite(materialize(value), '') + '\n';
}

function prettyWrite(v: unknown, indent: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) return 'null';
    return JSON.stringify(v);
  }
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[ ]';
    return `[\n${v.map((x) => inner + prettyWrite(x, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{ }';
  return `{\n${entries
    .map(([k, x]) => `${inner}${JSON.stringify(k)} : ${prettyWrite(x, inner)}`)
    .join(',\n')}\n${indent}}`;
}

/** Jackson (QUOTE_NON_NUMERIC_NUMBERS) writes NaN and infinities as strings; JSON.stringify, null. */
const quoteNonFinite = (_k: string, v: unknown) =>
  typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;

/**
 * JSON.stringify for plain data, also when it is nested deeper than V8's recursive serializer
 * reaches (about 4,000 levels; JSON.parse takes far more): such values are written iteratively.
 * `jackson`: non-finite numbers as ES writes them back into a _source ("Infinity", "NaN").
 */
export function stringifyDeep(value: unknown, jackson = false): string {
  try {
    return (jackson ? JSON.stringify(value, quoteNonFinite) : JSON.stringify(value)) ?? 'null';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  const out: string[] = [];
  const stack: { value: Record<string, unknown> | unknown[]; keys: string[] | null; i: number; n: number }[] = []; // prettier-ignore
  const put = (x: unknown) => {
    if (
      x === null ||
      typeof x !== 'object' ||
      typeof (x as { toJSON?: unknown }).toJSON === 'function'
    ) {
      out.push((jackson ? JSON.stringify(quoteNonFinite('', x)) : JSON.stringify(x)) ?? 'null');
    } else if (Array.isArray(x)) {
      out.push('[');
      stack.push({ value: x, keys: null, i: 0, n: 0 });
    } else {
      out.push('{');
      stack.push({ value: x as Record<string, unknown>, keys: Object.keys(x), i: 0, n: 0 });
    }
  };
  put(value);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.keys === null) {
      const a = f.value as unknown[];
      if (f.i < a.length) {
        if (f.i > 0) out.push(',');
        const x = a[f.i++];
        put(x === undefined || typeof x === 'function' ? null : x);
        continue;
      }
      out.push(']');
    } else {
      const o = f.value as Record<string, unknown>;
      const skip = (k: string) => o[k] === undefined || typeof o[k] === 'function';
      while (f.i < f.keys.length && skip(f.keys[f.i]!)) f.i++;
      if (f.i < f.keys.length) {
        const k = f.keys[f.i++]!;
        out.push(`${f.n++ > 0 ? ',' : ''}${JSON.stringify(k)}:`);
        put(o[k]);
        continue;
      }
      out.push('}');
    }
    stack.pop();
  }
  return out.join('');
}

/** Whether objects and arrays in `value` nest more than `max` levels deep (iterative). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  // values and their depths, side by side: a document checked per write allocates nothing more
  // than these two lists (no pair per object, no list of each object's values)
  const todo: unknown[] = [value];
  const depths: number[] = [0];
  while (todo.length > 0) {
    const v = todo.pop();
    const depth = depths.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') {
          todo.push(x);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const x: unknown = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') {
          todo.push(x);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
