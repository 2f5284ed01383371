/**
 * Writes RestResponses: JSON (compact, or `pretty`), YAML (`format=yaml` / Accept), text tables,
 * `filter_path` filtering, and Elasticsearch error bodies.
 */
import type { ServerResponse } from 'node:http';
import { stringify as toYaml } from 'yaml';
import type { EsError } from '../common/errors.js';
import { materialize, stringifyPretty, stringifyRawBytes } from '../common/json.js';
import type { RestResponse } from './rest.js';
import type { HttpMethod } from './router.js';
import { filterPath } from './filter-path.js';
import { warningHeader } from './rest.js';

const JSON_TYPE = 'application/json; charset=UTF-8';
/** Characters from which a text answer goes out as bytes rather than as a string. */
const LARGE_TEXT = 64 * 1024;

/** What of the request shapes its answer: method, query parameters, Accept, warnings. */
export interface Answering {
  readonly method: HttpMethod;
  readonly query: Map<string, string>;
  readonly accept: string | string[] | undefined;
  /** Deprecation warnings, sent as `Warning` headers (duplicates once). */
  readonly warnings?: string[];
}

/**
 * Writes the response on the raw Node response in one `writeHead` + `end`: header names in
 * lower case, and the content length computed once (Fastify's reply pipeline, bypassed with
 * `reply.hijack()`, would add hooks, header bookkeeping and a second length count).
 */
export function sendResponse(out: ServerResponse, req: Answering, res: RestResponse): void {
  const headers: Record<string, string | string[]> = {};
  if (req.warnings?.length) headers['warning'] = [...new Set(req.warnings)].map(warningHeader);
  if (res.headers) for (const k in res.headers) headers[k.toLowerCase()] = res.headers[k]!;
  if (res.body === undefined) {
    headers['content-type'] = res.contentType ?? JSON_TYPE;
    headers['content-length'] = '0';
    return void writeAll(out, res.status, headers, undefined);
  }
  let text: string | Buffer;
  let type = res.contentType;
  if (typeof res.body === 'string' || Buffer.isBuffer(res.body)) {
    text = res.body.toString();
    type ??= 'text/plain; charset=UTF-8';
  } else {
    let body: unknown = res.body;
    const query = req.query;
    const fp = query.size === 0 ? undefined : query.get('filter_path');
    if (fp && res.error !== true) body = filterPath(materialize(body), fp.split(','));
    const format = query.size === 0 ? undefined : query.get('format');
    const accept = req.accept === undefined ? '' : String(req.accept);
    if (format === 'yaml' || (!format && accept.includes('application/yaml'))) {
      text = '---\n' + toYaml(materialize(body), { lineWidth: 0 });
      type = 'application/yaml';
    } else if (query.size !== 0 && query.has('pretty') && query.get('pretty') !== 'false') {
      text = stringifyPretty(body);
      type ??= JSON_TYPE;
    } else {
      // A string when the answer holds no stored fragment (it goes out in one write with the
      // head); bytes when it does (a page of hits: their `_source` bytes copied in, never
      // decoded and encoded back).
      text = stringifyRawBytes(body);
      type ??= JSON_TYPE;
    }
  }
  headers['content-type'] = type;
  // A large answer (a bulk's items) is encoded once, here: as a string it was measured, then
  // joined to the head and encoded again as it was written.
  if (typeof text === 'string' && text.length >= LARGE_TEXT) text = Buffer.from(text);
  headers['content-length'] = String(
    typeof text === 'string' ? Buffer.byteLength(text) : text.length,
  );
  writeAll(out, res.status, headers, req.method === 'HEAD' ? undefined : text);
}

function writeAll(
  out: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  text: string | Buffer | undefined,
): void {
  if (out.headersSent) {
    // An error after the answer started: nothing more can be said on this response.
    if (!out.writableEnded) out.end();
    return;
  }
  if (status < 200 || status === 204 || status === 304) {
    // RFC 9110 §8.6: no content and no content headers on these.
    delete headers['content-type'];
    delete headers['content-length'];
    text = undefined;
  }
  out.writeHead(status, headers);
  if (text === undefined) out.end();
  else out.end(text);
}

export function sendError(out: ServerResponse, req: Answering, err: EsError): void {
  sendResponse(out, req, {
    status: err.status,
    body: err.toBody(),
    error: true,
    ...(err.headers ? { headers: err.headers } : {}),
  });
}
