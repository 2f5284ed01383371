/**
 * In-process access to the REST API without HTTP: the same router and handlers the server uses,
 * called with a method, path, query and body. Used by the benchmarks' in-process mode and tools.
 */
import { toEsError } from '../common/errors.js';
import type { NodeContext } from '../node-context.js';
import type { Handler, RestRequest, RestResponse } from './rest.js';
import { Router, type HttpMethod } from './router.js';
import { registerRoutes } from './routes/index.js';

export type Dispatch = (
  method: HttpMethod,
  uri: string,
  body?: Buffer | string | object,
) => Promise<RestResponse>;

export function createDispatcher(node: NodeContext): Dispatch {
  const router = new Router<Handler>();
  registerRoutes(router, node);
  return async (method, uri, body) => {
    const qIdx = uri.indexOf('?');
    const path = qIdx >= 0 ? uri.slice(0, qIdx) : uri;
    const query = new Map<string, string>();
    if (qIdx >= 0) for (const [k, v] of new URLSearchParams(uri.slice(qIdx + 1))) query.set(k, v);
    const found = router.find(method, path);
    if (!found || 'allowed' in found)
      return { status: found ? 405 : 400, body: { error: `no handler for ${method} ${uri}` } };
    const buf =
      body === undefined
        ? null
        : Buffer.isBuffer(body)
          ? body
          : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req: RestRequest = {
      method,
      uri,
      path,
      params: found.params,
      query,
      headers: {},
      body: buf,
      warnings: [],
    };
    try {
      return await found.handler(req);
    } catch (e) {
      const err = toEsError(e);
      return { status: err.status, body: err.toBody() };
    }
  };
}
