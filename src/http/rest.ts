/**
 * The request/response shapes route handlers see. Handlers are small functions from a parsed
 * `RestRequest` to a `RestResponse`; they never touch Fastify directly.
 */
import { EsError, illegalArgument } from '../common/errors.js';
import { parseJson } from '../common/json.js';
import { decodeJson } from '../common/json-bytes.js';
import type { HttpMethod } from './router.js';

export interface RestRequest {
  readonly method: HttpMethod;
  /** Path and query as sent. */
  readonly uri: string;
  readonly path: string;
  readonly params: Record<string, string>;
  readonly query: Map<string, string>;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer | null;
  /** Deprecation warnings to send as `Warning` headers (ES DeprecationLogger). */
  readonly warnings: string[];
}

export interface RestResponse {
  status: number;
  /** An object serialised as JSON (or YAML), or a string sent as text. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Built like ES's channel.newErrorBuilder(): `filter_path` does not apply to error bodies. */
  error?: boolean;
}

/** ES DeprecationLogger header value. */
export function warningHeader(message: string): string {
  const escaped = message.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return `299 Elasticsearch-6.8.13-be13c69 "${encodeWarning(escaped)}" "${new Date().toUTCString()}"`;
}

/**
 * ES DeprecationLogger.encode: characters outside an RFC 7230 quoted-string (controls, `%`, and
 * anything above U+00FF) are percent-encoded as UTF-8, so every value is a legal header.
 */
function encodeWarning(s: string): string {
  const plain = (c: number) =>
    c === 9 ||
    c === 0x20 ||
    c === 0x21 ||
    c === 0x22 ||
    c === 0x23 ||
    c === 0x24 ||
    (c >= 0x26 && c <= 0x7e) ||
    (c >= 0x80 && c <= 0xff);
  let out = '';
  for (let i = 0; i < s.length;) {
    if (plain(s.charCodeAt(i))) {
      out += s[i++];
      continue;
    }
    const start = i;
    while (i < s.length && !plain(s.charCodeAt(i))) i++;
    for (const b of Buffer.from(s.slice(start, i), 'utf8'))
      out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export type Handler = (req: RestRequest) => RestResponse | Promise<RestResponse>;

export const ok = (body: unknown, status = 200): RestResponse => ({ status, body });

/** Path parameter, or query parameter. */
export function param(req: RestRequest, name: string): string | undefined {
  return req.params[name] ?? req.query.get(name);
}

export function hasBody(req: RestRequest): boolean {
  return req.body !== null && req.body.length > 0;
}

export function bodyText(req: RestRequest): string {
  return req.body ? req.body.toString('utf8') : '';
}

/** The JSON body, or the `source` query parameter (ES allows both), or undefined. */
export function bodyJson(req: RestRequest): unknown {
  if (hasBody(req)) {
    const t = decodeJson(req.body!);
    if (t.trim().length === 0) return undefined;
    return parseJson(t);
  }
  const src = req.query.get('source');
  if (src !== undefined) return parseJson(src);
  return undefined;
}

/** ES RestRequest.requiredContent: APIs whose body is the request. */
export function requireBody(req: RestRequest): void {
  if (!hasBody(req)) throw new EsError('parse_exception', 'request body is required', 400);
}

/** ES RestRequest.contentOrSourceParam: APIs that also read the `source` parameter. */
export function requireBodyOrSource(req: RestRequest): void {
  if (!hasBody(req) && !req.query.has('source'))
    throw new EsError('parse_exception', 'request body or source parameter is required', 400);
}

export function bodyObject(req: RestRequest): Record<string, unknown> | undefined {
  const v = bodyJson(req);
  if (v === undefined) return undefined;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new EsError('parse_exception', 'request body is required', 400);
  }
  return v as Record<string, unknown>;
}

/** ES Booleans.parseBoolean for request parameters. */
export function boolParam(req: RestRequest, name: string, dflt: boolean): boolean {
  const v = param(req, name);
  if (v === undefined) return dflt;
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

export function intParam(req: RestRequest, name: string, dflt: number): number {
  const v = param(req, name);
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n))
    throw illegalArgument(`Failed to parse int parameter [${name}] with value [${v}]`);
  return n;
}

export function listParam(req: RestRequest, name: string): string[] | undefined {
  const v = param(req, name);
  if (v === undefined) return undefined;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
