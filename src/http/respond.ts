/**
 * Writes RestResponses: JSON (compact, or `pretty`), YAML (`format=yaml` / Accept), text tables,
 * `filter_path` filtering, and Elasticsearch error bodies.
 */
import type { FastifyReply } from 'fastify';
import { stringify as toYaml } from 'yaml';
import type { EsError } from '../common/errors.js';
import { materialize, stringifyPretty, stringifyRaw } from '../common/json.js';
import type { NodeContext } from '../node-context.js';
import type { RestResponse } from './rest.js';
import type { HttpMethod } from './router.js';
import { filterPath } from './filter-path.js';

const JSON_TYPE = 'application/json; charset=UTF-8';

export function sendResponse(
  reply: FastifyReply,
  query: Map<string, string>,
  method: HttpMethod,
  res: RestResponse,
): void {
  reply.code(res.status);
  if (res.headers) for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
  if (res.body === undefined) {
    reply.header('content-type', res.contentType ?? JSON_TYPE);
    reply.header('content-length', '0');
    return void reply.send();
  }
  let text: string;
  let type = res.contentType;
  if (typeof res.body === 'string' || Buffer.isBuffer(res.body)) {
    text = res.body.toString();
    type ??= 'text/plain; charset=UTF-8';
  } else {
    let body: unknown = res.body;
    const fp = query.get('filter_path');
    if (fp && res.error !== true) body = filterPath(materialize(body), fp.split(','));
    const format = query.get('format');
    const accept = String(reply.request.headers['accept'] ?? '');
    if (format === 'yaml' || (!format && accept.includes('application/yaml'))) {
      text = '---\n' + toYaml(materialize(body), { lineWidth: 0 });
      type = 'application/yaml';
    } else if (query.has('pretty') && query.get('pretty') !== 'false') {
      text = stringifyPretty(body);
      type ??= JSON_TYPE;
    } else {
      text = stringifyRaw(body);
      type ??= JSON_TYPE;
    }
  }
  reply.header('content-type', type);
  if (method === 'HEAD') {
    reply.header('content-length', String(Buffer.byteLength(text)));
    return void reply.send();
  }
  reply.send(text);
}

export function sendError(
  reply: FastifyReply,
  query: Map<string, string>,
  method: HttpMethod,
  err: EsError,
  _node?: NodeContext,
): void {
  const body = err.toBody();
  sendResponse(reply, query, method, {
    status: err.status,
    body,
    error: true,
    ...(err.headers ? { headers: err.headers } : {}),
  });
}
