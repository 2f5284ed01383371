/**
 * `buildApp()`: the Fastify instance with Quarry's routes, built apart from `listen()` so tests
 * can use `inject()`. Fastify only does HTTP; routing is Elasticsearch's (see router.ts) so that
 * unknown paths and wrong methods answer exactly as Elasticsearch 6.8 does.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { EsError, toEsError } from '../common/errors.js';
import { locateInJson, resolveErrorLocations } from '../dsl/query/index.js';
import type { NodeContext } from '../node-context.js';
import type { HttpMethod } from './router.js';
import { securedRouter, type FileRealm } from './auth.js';
import { warningHeader, type Handler, type RestRequest } from './rest.js';
import { sendError, sendResponse } from './respond.js';
import { registerRoutes } from './routes/index.js';
import { admitRequest, OverloadControl } from './overload.js';

function addWarnings(reply: FastifyReply, warnings: string[]): void {
  if (warnings.length) reply.header('Warning', [...new Set(warnings)].map(warningHeader));
}

/**
 * Renders the JSON locations an error recorded (`line`/`col`, `[1:20]`) against the request body,
 * as ES's parsers report them; NDJSON bodies resolve per line where they are parsed.
 */
function locatedInBody(e: EsError, path: string, body: Buffer | null): EsError {
  const ndjson = path.endsWith('/_bulk') || path.endsWith('/_msearch') || path === '/_bulk';
  const text = body && !ndjson ? body.toString('utf8') : null;
  return resolveErrorLocations(e, (loc) => (text === null ? null : locateInJson(text, loc)));
}

type SlotHolder = FastifyRequest & { quarrySlot: (() => void) | null };

const METHODS: HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE'];

export interface AppOptions {
  /** http.max_content_length in bytes (default 100mb). */
  maxContentLength?: number;
  logger?: boolean;
  /** Users for HTTP basic authentication (xpack.security.enabled); none: no security. */
  realm?: FileRealm;
}

export function buildApp(node: NodeContext, opts: AppOptions = {}): FastifyInstance {
  const maxContentLength = opts.maxContentLength ?? 100 * 1024 * 1024;
  let frameworkError: ((req: FastifyRequest, reply: FastifyReply) => void) | undefined;
  const app = Fastify({
    logger: opts.logger ?? false,
    frameworkErrors: (_e, req, reply) => frameworkError!(req, reply),
    bodyLimit: maxContentLength,
    // Elasticsearch accepts bodies on GET (search, count, …) and DELETE.
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      maxParamLength: 4096,
    },
    return503OnClosing: false,
  });
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });

  // Every body arrives as raw bytes whatever its content type: handlers parse JSON or NDJSON
  // themselves, and documents keep the bytes the client sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // Overload protection before the body is read: the in-flight breaker reserves the request's
  // content length, then the request waits for a slot in its pool (or is rejected with 429). The
  // slot is held until the handler's synchronous work is done: like ES's write threads, which do
  // not wait for the translog fsync, a request waiting for its LMDB flush holds no slot.
  const overload = (node.overload ??= new OverloadControl(node.settings.raw, node.nodeName));
  // The slot rides on the request (declared up front, so every request keeps one shape): a
  // WeakMap entry per request costs an ephemeron insert and delete.
  app.decorateRequest('quarrySlot', null);
  const endSyncWork = (req: FastifyRequest) => {
    const held = req as SlotHolder;
    const slot = held.quarrySlot;
    if (slot) {
      held.quarrySlot = null;
      slot();
    }
  };
  app.addHook('onRequest', (req, reply, done) => {
    const length = req.headers['content-length'];
    admitRequest(overload, req.method, req.url, length, maxContentLength, reply.raw, {
      admitted: (slot) => {
        if (slot) (req as SlotHolder).quarrySlot = slot;
        done();
      },
      rejected: (e) => sendError(reply, new Map(), req.method as HttpMethod, e, node),
    });
  });

  const router = securedRouter(opts.realm);
  registerRoutes(router, node);

  const dispatch = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const method = req.method as HttpMethod;
    const uri = req.url;
    const qIdx = uri.indexOf('?');
    const path = qIdx >= 0 ? uri.slice(0, qIdx) : uri;
    const query = new Map<string, string>();
    if (qIdx >= 0) for (const [k, v] of new URLSearchParams(uri.slice(qIdx + 1))) query.set(k, v);
    let found: ReturnType<typeof router.find>;
    try {
      found = router.find(method, path);
    } catch (e) {
      return void sendError(reply, query, method, toEsError(e), node);
    }
    if (!found) {
      if (method === 'OPTIONS') return void reply.code(200).send('');
      return void sendResponse(reply, query, method, {
        status: 400,
        error: true,
        body: { error: `no handler found for uri [${uri}] and method [${method}]` },
      });
    }
    if ('allowed' in found) {
      if (method === 'OPTIONS') {
        return void reply.code(200).header('Allow', found.allowed.join(',')).send('');
      }
      return void sendResponse(reply, query, method, {
        status: 405,
        error: true,
        headers: { Allow: found.allowed.join(',') },
        body: {
          error: `Incorrect HTTP method for uri [${uri}] and method [${method}], allowed: [${found.allowed.join(', ')}]`,
          status: 405,
        },
      });
    }
    const body = req.body instanceof Buffer ? req.body : null;
    const rest: RestRequest = {
      method,
      uri,
      path,
      params: found.params,
      query,
      headers: req.headers,
      body,
      warnings: [],
    };
    try {
      const pending = found.handler(rest);
      endSyncWork(req);
      const res = pending instanceof Promise ? await pending : pending;
      addWarnings(reply, rest.warnings);
      sendResponse(reply, query, method, res);
    } catch (e) {
      endSyncWork(req);
      addWarnings(reply, rest.warnings);
      sendError(reply, query, method, locatedInBody(toEsError(e), path, body), node);
    }
  };

  app.route({ method: METHODS, url: '/', handler: dispatch });
  app.route({ method: METHODS, url: '/*', handler: dispatch });

  // find-my-way refuses paths with bad escapes or bytes that are not UTF-8 before any route runs;
  // ES decodes those itself (RestUtils), so they go through the ES router and its errors.
  frameworkError = (req, reply) => void dispatch(req, reply);

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const query = new Map<string, string>();
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // ES 6.8: Netty's HttpObjectAggregator answers an oversized request itself, with
      // `413 Request Entity Too Large`, an empty body, and closes the connection.
      return void reply
        .code(413)
        .header('connection', 'close')
        .header('content-length', '0')
        .send();
    }
    const status =
      err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    sendError(
      reply,
      query,
      req.method as HttpMethod,
      new EsError('exception', err.message, status),
      node,
    );
  });

  return app;
}
