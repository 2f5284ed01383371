/**
 * The server end of one connection: the handshake (checks the client, proves this node, checks
 * the client's proof), then requests dispatched to the registered handlers. Nothing a peer sends
 * before the handshake succeeds reaches a handler; any protocol violation closes the connection.
 */
import type { Socket } from 'node:net';
import { EsError, toEsError } from '../../common/errors.js';
import {
  createFrameDecoder,
  FLAG_ERROR,
  FLAG_HANDSHAKE,
  FLAG_RESPONSE,
  type Frame,
} from './frame.js';
import { actionNotFound, deserializeError } from './errors.js';
import {
  authFailed,
  checkIdentity,
  checkSecurityMode,
  computeProof,
  HANDSHAKE_ACTION,
  helloBody,
  newNonce,
  parseHello,
  proofMatches,
  type Hello,
  type NodeIdentity,
} from './handshake.js';
import type { StatsRecorder } from './stats.js';
import {
  errorJson,
  HANDSHAKE_MAX_CONTENT,
  jsonBytes,
  joinAddress,
  parseJson,
  writeFrame,
  endSoon,
} from './wire.js';

export interface RequestContext {
  readonly body: unknown;
  /** A view of the received bytes (no copy); copy it to keep it past the handler's answer. */
  readonly attachment?: Buffer;
  readonly fromNode: { readonly id: string; readonly name: string };
}

export interface HandlerResponse {
  readonly body: unknown;
  readonly attachment?: Buffer;
}

export type RequestHandler = (req: RequestContext) => Promise<HandlerResponse>;

export interface InboundOptions {
  readonly local: NodeIdentity;
  readonly secret: Buffer | null;
  readonly maxContentLength: number;
  readonly handshakeTimeoutMs: number;
  readonly handlers: ReadonlyMap<string, RequestHandler>;
  readonly stats: StatsRecorder;
  readonly onError: (e: EsError, remoteAddress: string) => void;
}

const protocolError = (why: string) =>
  new EsError('illegal_state_exception', `transport protocol violation: ${why}`, 500);

export function acceptInbound(socket: Socket, o: InboundOptions): void {
  const address = joinAddress(socket.remoteAddress ?? '?', socket.remotePort ?? 0);
  const decoder = createFrameDecoder(HANDSHAKE_MAX_CONTENT);
  let state: 'hello' | 'proof' | 'ready' | 'closed' = 'hello';
  let remote: Hello | null = null;
  let verdict: EsError | null = null;
  const serverNonce = newNonce();
  const security = o.secret !== null;

  o.stats.serverOpened();
  socket.setNoDelay(true);
  socket.setKeepAlive(true);
  const timer = setTimeout(
    () => fail(protocolError(`handshake not completed within [${o.handshakeTimeoutMs}ms]`)),
    o.handshakeTimeoutMs,
  );

  const peerId = () => (state === 'ready' && remote ? remote.nodeId : null);
  const send = (requestId: number, flags: number, json: Buffer, attachment?: Buffer) =>
    writeFrame(
      socket,
      { requestId, flags, action: '', json, ...(attachment ? { attachment } : {}) },
      o.maxContentLength,
      o.stats,
      peerId(),
    );
  /** Reports, tells the peer when it may still listen, and closes. */
  function fail(e: EsError, answerTo?: number) {
    if (state === 'closed') return;
    o.onError(e, address);
    if (answerTo !== undefined) {
      try {
        send(answerTo, FLAG_RESPONSE | FLAG_ERROR | FLAG_HANDSHAKE, errorJson(e));
      } catch {
        // nothing more to tell
      }
      close(false);
    } else close(true);
  }
  function close(now: boolean) {
    if (state === 'closed') return;
    state = 'closed';
    clearTimeout(timer);
    if (now) socket.destroy();
    else endSoon(socket);
  }

  function onHello(f: Frame) {
    let hello: Hello;
    try {
      hello = parseHello(parseJson(f.json));
    } catch (e) {
      return fail(toEsError(e), f.requestId);
    }
    remote = hello;
    verdict =
      checkIdentity(o.local, hello, address) ??
      checkSecurityMode(security, hello.security, 'from', address);
    const proof =
      o.secret && hello.security
        ? computeProof(
            o.secret,
            'server',
            o.local.clusterName,
            hello.nonce,
            serverNonce,
            hello.nodeId,
            o.local.nodeId,
          )
        : undefined;
    // The hello goes out even when the client failed our checks, so that it can word its own.
    send(
      f.requestId,
      FLAG_RESPONSE | FLAG_HANDSHAKE,
      jsonBytes(helloBody(o.local, serverNonce, security, proof)),
    );
    state = 'proof';
  }

  function onProof(f: Frame) {
    let body: { proof?: unknown; error?: unknown };
    try {
      body = (parseJson(f.json) ?? {}) as { proof?: unknown; error?: unknown };
    } catch (e) {
      return fail(toEsError(e), f.requestId);
    }
    const r = remote!;
    if (!verdict && o.secret) {
      const expected = computeProof(
        o.secret,
        'client',
        o.local.clusterName,
        r.nonce,
        serverNonce,
        r.nodeId,
        o.local.nodeId,
      );
      if (!proofMatches(expected, typeof body.proof === 'string' ? body.proof : null))
        verdict = authFailed(
          'from',
          address,
          `node {${r.nodeName}}{${r.nodeId}} did not prove it holds the shared secret [transport.auth.secret]`,
        );
    }
    if (verdict) return fail(verdict, f.requestId);
    if (body.error !== undefined) {
      const remoteErr = deserializeError(body.error);
      return fail(
        new EsError(
          'illegal_state_exception',
          `handshake refused by the remote node: ${remoteErr.reason}`,
          500,
          {
            causedBy: remoteErr,
          },
        ),
      );
    }
    clearTimeout(timer);
    state = 'ready';
    decoder.setMaxContentLength(o.maxContentLength);
    send(f.requestId, FLAG_RESPONSE | FLAG_HANDSHAKE, jsonBytes({}));
  }

  function onRequest(f: Frame) {
    const r = remote!;
    const reply = (flags: number, json: Buffer, attachment?: Buffer) => {
      if (state === 'closed') return;
      try {
        send(f.requestId, flags, json, attachment);
      } catch (e) {
        // The answer is too large to send: the caller gets why instead.
        send(f.requestId, FLAG_RESPONSE | FLAG_ERROR, errorJson(toEsError(e)));
      }
    };
    const replyError = (e: unknown) => reply(FLAG_RESPONSE | FLAG_ERROR, errorJson(toEsError(e)));
    const handler = o.handlers.get(f.action);
    if (!handler) return replyError(actionNotFound(f.action));
    let body: unknown;
    try {
      body = parseJson(f.json);
    } catch (e) {
      return replyError(
        new EsError(
          'transport_serialization_exception',
          `failed to deserialize request of action [${f.action}]`,
          500,
          {
            causedBy: toEsError(e),
          },
        ),
      );
    }
    const req: RequestContext = {
      body,
      fromNode: { id: r.nodeId, name: r.nodeName },
      ...(f.attachment ? { attachment: f.attachment } : {}),
    };
    let pending: Promise<HandlerResponse>;
    try {
      pending = handler(req);
    } catch (e) {
      return replyError(e);
    }
    Promise.resolve(pending).then(
      (res) => reply(FLAG_RESPONSE, jsonBytes(res?.body), res?.attachment),
      replyError,
    );
  }

  function onFrame(f: Frame) {
    const isHandshake = (f.flags & FLAG_HANDSHAKE) !== 0;
    if ((f.flags & FLAG_RESPONSE) !== 0)
      return fail(protocolError('a response sent to the server end'));
    if (state === 'ready') {
      if (isHandshake) return fail(protocolError('handshake after the handshake'));
      return onRequest(f);
    }
    if (!isHandshake || f.action !== HANDSHAKE_ACTION)
      return fail(
        authFailed('from', address, `action [${f.action}] sent before the handshake completed`),
        f.requestId,
      );
    if (state === 'hello') onHello(f);
    else onProof(f);
  }

  const isClosed = () => state === 'closed';
  socket.on('data', (chunk: Buffer) => {
    if (isClosed()) return;
    const res = decoder.push(chunk);
    for (const f of res.frames) {
      if (isClosed()) return;
      o.stats.rx(f.size, peerId());
      onFrame(f);
    }
    if (res.failure && !isClosed()) {
      o.onError(res.failure.error, address);
      state = 'closed';
      clearTimeout(timer);
      // ES answers an HTTP request with this plain text, then closes.
      if (res.failure.kind === 'http') {
        socket.write(Buffer.from(res.failure.error.reason ?? '', 'utf8'));
        endSoon(socket);
      } else socket.destroy();
    }
  });
  socket.on('error', () => {
    // A reset by the peer; 'close' follows.
  });
  socket.on('close', () => {
    state = 'closed';
    clearTimeout(timer);
    o.stats.serverClosed();
  });
}
