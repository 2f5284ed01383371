/**
 * `buildApp()`: the Fastify instance with Quarry's routes, built apart from `listen()` so tests
 * can use `inject()`. Fastify only does HTTP; routing is Elasticsearch's (see router.ts) so that
 * unknown paths and wrong methods answer exactly as Elasticsearch 6.8 does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { EsError, toEsError } from '../common/errors.js';
import { locateInJson, resolveErrorLocations } from '../dsl/query/index.js';
import type { NodeContext } from '../node-context.js';
import type { HttpMethod } from './router.js';
import { securedRouter, type FileRealm } from './auth.js';
import type { RestRequest } from './rest.js';
import { sendError, sendResponse, type Answering } from './respond.js';
import { registerRoutes } from './routes/index.js';
import { admitRequest, OverloadControl } from './overload.js';
import { readBody, requestBody } from './request-body.js';
import { parseContentType, readsStream, refusedContentType } from './content-type.js';
import { answerClientError, frameTooLong } from './frame-limits.js';
import { dataPlaneBlocked, servedWithoutDataPlane } from './cluster-gate.js';
import { forwardedToMaster, masterUrl, relayToMaster } from './master-forward.js';
import { collectDeprecations } from '../search/analysis/index.js';
import { isConsoleRequest, serveConsole } from './routes/console.js';
import { collectsDeprecations } from './deprecation-scope.js';

/**
 * Renders the JSON locations an error recorded (`line`/`col`, `[1:20]`) against the request body,
 * as ES's parsers report them; NDJSON bodies resolve per line where they are parsed.
 */
function locatedInBody(e: EsError, path: string, body: Buffer | null): EsError {
  const ndjson = path.endsWith('/_bulk') || path.endsWith('/_msearch') || path === '/_bulk';
  const text = body && !ndjson ? body.toString('utf8') : null;
  return resolveErrorLocations(e, (loc) => (text === null ? null : locateInJson(text, loc)));
}

/** No route for the path, or none for the method (ES RestController's 400 and 405 answers). */
function answerUnrouted(
  out: ServerResponse,
  req: Answering,
  uri: string,
  allowed: HttpMethod[] | undefined,
): void {
  const { method } = req;
  if (method === 'OPTIONS') {
    return void sendResponse(out, req, {
      status: 200,
      body: '',
      contentType: 'text/plain; charset=utf-8',
      ...(allowed ? { headers: { Allow: allowed.join(',') } } : {}),
    });
  }
  if (!allowed) {
    return void sendResponse(out, req, {
      status: 400,
      error: true,
      body: { error: `no handler found for uri [${uri}] and method [${method}]` },
    });
  }
  sendResponse(out, req, {
    status: 405,
    error: true,
    headers: { Allow: allowed.join(',') },
    body: {
      error: `Incorrect HTTP method for uri [${uri}] and method [${method}], allowed: [${allowed.join(', ')}]`,
      status: 405,
    },
  });
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
    clientErrorHandler: answerClientError,
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
  // On the fallback path (below) the slot rides on the request, declared up front so every
  // request keeps one shape: a WeakMap entry per request costs an ephemeron insert and delete.
  app.decorateRequest('quarrySlot', null);

  const router = securedRouter(opts.realm);
  registerRoutes(router, node);

  /**
   * Runs one request through the ES router and writes its answer on the raw response. `slot` is
   * the pool slot, given back once the handler's synchronous work is done.
   */
  const dispatch = async (
    raw: IncomingMessage,
    out: ServerResponse,
    body: Buffer | null,
    slot: (() => void) | null,
  ): Promise<void> => {
    const method = raw.method as HttpMethod;
    const uri = raw.url!;
    const qIdx = uri.indexOf('?');
    const path = qIdx >= 0 ? uri.slice(0, qIdx) : uri;
    const query = new Map<string, string>();
    if (qIdx >= 0) for (const [k, v] of new URLSearchParams(uri.slice(qIdx + 1))) query.set(k, v);
    const accept = raw.headers['accept'];
    let found: ReturnType<typeof router.find>;
    try {
      found = router.find(method, path);
    } catch (e) {
      slot?.();
      return void sendError(out, { method, query, accept }, toEsError(e));
    }
    if (!found || 'allowed' in found) {
      slot?.();
      return void answerUnrouted(out, { method, query, accept }, uri, found?.allowed);
    }
    if (
      node.cluster &&
      !node.cluster.dataPlane &&
      !servedWithoutDataPlane(method, path, found.params)
    ) {
      slot?.();
      return void sendError(out, { method, query, accept }, dataPlaneBlocked());
    }
    if (node.cluster && forwardedToMaster(method, path)) {
      try {
        const base = masterUrl(node.cluster);
        if (base !== null) {
          const res = await relayToMaster(base, method, uri, raw.headers, body);
          slot?.();
          return void sendResponse(out, { method, query, accept }, res);
        }
      } catch (e) {
        slot?.();
        return void sendError(out, { method, query, accept }, toEsError(e));
      }
    }
    if (body !== null && body.length > 0) {
      const header = raw.headers['content-type'];
      const refused = refusedContentType(header, readsStream(path));
      if (refused) {
        slot?.();
        return void sendResponse(out, { method, query, accept }, refused);
      }
    }
    const rest: RestRequest = {
      method,
      uri,
      path,
      params: found.params,
      query,
      headers: raw.headers,
      body,
      warnings: [],
    };
    try {
      // analysis components report deprecations (ES DeprecationLogger) wherever they run
      const pending = collectsDeprecations(node, method, path)
        ? collectDeprecations(rest.warnings, () => found.handler(rest))
        : found.handler(rest);
      slot?.();
      slot = null;
      const res = pending instanceof Promise ? await pending : pending;
      sendResponse(out, { method, query, accept, warnings: rest.warnings }, res);
    } catch (e) {
      slot?.();
      const err = locatedInBody(toEsError(e), path, body);
      try {
        sendError(out, { method, query, accept, warnings: rest.warnings }, err);
      } catch {
        // Nothing can be written (e.g. a header value Node refuses): drop the connection
        // rather than leave the client waiting. Callers run dispatch unawaited.
        out.destroy();
      }
    }
  };

  // The usual request is served from its onRequest hook: admitted, its body (if any) read
  // straight off the socket, dispatched and answered on the raw response (`reply.hijack()`),
  // without Fastify's content-type parsing, async resources, handler and reply pipeline.
  // Requests that could answer differently there (chunked or oversized bodies, content types
  // Fastify might refuse, methods and URLs Fastify has no route for) take Fastify's path.
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    if (isConsoleRequest(raw)) {
      reply.hijack();
      return void serveConsole(raw, reply.raw);
    }
    const tooLong = frameTooLong(raw);
    if (tooLong) {
      reply.hijack();
      reply.raw.shouldKeepAlive = false;
      const method = raw.method as HttpMethod;
      return void sendError(reply.raw, { method, query: new Map(), accept: undefined }, tooLong);
    }
    // ES reads the Content-Type header as it builds the request, before anything else
    const type = raw.headers['content-type'];
    if (type !== undefined) {
      try {
        parseContentType(type);
      } catch (e) {
        reply.hijack();
        const method = raw.method as HttpMethod;
        return void sendError(reply.raw, { method, query: new Map(), accept: raw.headers['accept'] }, toEsError(e)); // prettier-ignore
      }
    }
    const length = raw.headers['content-length'];
    admitRequest(overload, raw.method!, raw.url!, length, maxContentLength, reply.raw, {
      admitted: (slot) => {
        // Fastify's 404 (a method or URL no route takes) answers as it always has.
        const mode = req.is404 ? 'fastify' : requestBody(raw, maxContentLength);
        if (mode === 'fastify') {
          if (slot) (req as SlotHolder).quarrySlot = slot;
          return done();
        }
        reply.hijack();
        if (mode === 'none') return void dispatch(raw, reply.raw, null, slot);
        readBody(raw, mode, (e, body) => {
          if (e) {
            slot?.();
            const method = raw.method as HttpMethod;
            const err = new EsError('exception', e.message, 400);
            return void sendError(reply.raw, { method, query: new Map(), accept: undefined }, err);
          }
          void dispatch(raw, reply.raw, body, slot);
        });
      },
      rejected: (e) => {
        reply.hijack();
        const method = raw.method as HttpMethod;
        sendError(reply.raw, { method, query: new Map(), accept: raw.headers['accept'] }, e);
      },
    });
  });

  /** Fastify's path: the body was read by the content-type parser. */
  const handle = (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    const held = req as SlotHolder;
    const slot = held.quarrySlot;
    held.quarrySlot = null;
    return dispatch(req.raw, reply.raw, req.body instanceof Buffer ? req.body : null, slot);
  };

  app.route({ method: METHODS, url: '/', handler: handle });
  app.route({ method: METHODS, url: '/*', handler: handle });

  // find-my-way refuses paths with bad escapes or bytes that are not UTF-8 before any route runs;
  // ES decodes those itself (RestUtils), so they go through the ES router and its errors.
  frameworkError = (req, reply) => void handle(req, reply);

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
    reply.hijack();
    const method = req.method as HttpMethod;
    const accept = req.headers['accept'];
    sendError(reply.raw, { method, query, accept }, new EsError('exception', err.message, status));
  });

  return app;
}
