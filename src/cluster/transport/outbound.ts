/**
 * The client end of one connection to a peer: connect, handshake (checks the server, proves this
 * node), then requests matched to their responses by id, each with its own timeout. When the
 * connection drops, every request in flight fails with ES's node_disconnected_exception.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { EsError, toEsError } from '../../common/errors.js';
import { formatTimeValue } from '../../common/units.js';
import {
  createFrameDecoder,
  FLAG_ERROR,
  FLAG_HANDSHAKE,
  FLAG_RESPONSE,
  type Frame,
} from './frame.js';
import {
  connectFailed,
  deserializeError,
  nodeDisconnected,
  receiveTimeout,
  sendFailed,
  serializeError,
  socketError,
  transportStopped,
} from './errors.js';
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
  endSoon,
  HANDSHAKE_MAX_CONTENT,
  jsonBytes,
  parseJson,
  splitAddress,
  writeFrame,
} from './wire.js';

export interface TransportPeer {
  readonly id: string;
  readonly transportAddress: string;
  /** For messages; ES prints the node name. */
  readonly name?: string;
}

export interface TransportReply {
  readonly body: unknown;
  readonly attachment?: Buffer;
}

export interface OutboundOptions {
  readonly local: NodeIdentity;
  readonly secret: Buffer | null;
  readonly maxContentLength: number;
  readonly connectTimeoutMs: number;
  readonly stats: StatsRecorder;
  /** Aborts a connect in progress (the transport is closing). */
  readonly signal?: AbortSignal;
  /**
   * Source address for the connection (the node's own bound host), so a peer and a firewall see
   * which node is talking: unbound sockets on loopback all leave from 127.0.0.1.
   */
  readonly localAddress?: (peerHost: string) => string | undefined;
}

export interface OutboundConnection {
  readonly peer: TransportPeer;
  isOpen(): boolean;
  request(
    action: string,
    body: unknown,
    timeoutMs: number,
    attachment?: Buffer,
  ): Promise<TransportReply>;
  /** Fails what is in flight with `reason` and closes. */
  close(reason: (action: string) => EsError): void;
}

interface Pending {
  readonly action: string;
  readonly resolve: (r: TransportReply) => void;
  readonly reject: (e: EsError) => void;
  readonly timer: NodeJS.Timeout;
}

/** Connects and handshakes; resolves once the server has accepted this node. */
export function openOutbound(peer: TransportPeer, o: OutboundOptions): Promise<OutboundConnection> {
  const label: { name: string; address: string } = {
    name: peer.name ?? peer.id,
    address: peer.transportAddress,
  };
  const addr = splitAddress(peer.transportAddress);
  if (!addr)
    return Promise.reject(
      connectFailed(label, `invalid transport address [${peer.transportAddress}]`),
    );

  return new Promise((resolveOpen, rejectOpen) => {
    const localAddress = o.localAddress?.(addr.host);
    const socket: Socket = netConnect({
      host: addr.host,
      port: addr.port,
      ...(localAddress ? { localAddress } : {}),
    });
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    const decoder = createFrameDecoder(HANDSHAKE_MAX_CONTENT);
    const pending = new Map<number, Pending>();
    const clientNonce = newNonce();
    const security = o.secret !== null;
    let state: 'connecting' | 'hello' | 'ack' | 'ready' | 'closed' = 'connecting';
    let nextId = 1;
    let closeReason: ((action: string) => EsError) | null = null;

    const timer = setTimeout(
      () =>
        openFailed(connectFailed(label, `connect_timeout[${formatTimeValue(o.connectTimeoutMs)}]`)),
      o.connectTimeoutMs,
    );
    function openFailed(e: EsError) {
      if (state === 'ready' || state === 'closed') return;
      state = 'closed';
      clearTimeout(timer);
      socket.destroy();
      rejectOpen(e);
    }
    const onAbort = () => conn.close(transportStopped);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) queueMicrotask(onAbort);
    const sendHandshake = (json: Buffer) =>
      writeFrame(
        socket,
        { requestId: 0, flags: FLAG_HANDSHAKE, action: HANDSHAKE_ACTION, json },
        HANDSHAKE_MAX_CONTENT,
        o.stats,
        null,
      );

    const conn: OutboundConnection = {
      peer,
      isOpen: () => state === 'ready',
      request(action, body, timeoutMs, attachment) {
        return new Promise<TransportReply>((resolve, reject) => {
          if (state !== 'ready') return reject(nodeDisconnected(label, action));
          // Ids wrap at 2^32; one still in flight is skipped.
          while (pending.has(nextId) || nextId === 0) nextId = (nextId + 1) >>> 0;
          const requestId = nextId;
          nextId = (nextId + 1) >>> 0;
          try {
            writeFrame(
              socket,
              {
                requestId,
                flags: 0,
                action,
                json: jsonBytes(body),
                ...(attachment ? { attachment } : {}),
              },
              o.maxContentLength,
              o.stats,
              peer.id,
            );
          } catch (e) {
            return reject(sendFailed(label, action, toEsError(e)));
          }
          const t = setTimeout(() => {
            pending.delete(requestId);
            reject(receiveTimeout(label, action, requestId, timeoutMs));
          }, timeoutMs);
          pending.set(requestId, { action, resolve, reject, timer: t });
        });
      },
      close(reason) {
        closeReason = reason;
        if (state !== 'ready') openFailed(reason(HANDSHAKE_ACTION));
        else socket.destroy();
      },
    };

    function onHello(f: Frame) {
      let hello: Hello;
      try {
        hello = parseHello(parseJson(f.json));
      } catch (e) {
        return openFailed(toEsError(e));
      }
      label.name = peer.name ?? hello.nodeName;
      let verdict =
        checkIdentity(o.local, hello, peer.transportAddress, peer.id) ??
        checkSecurityMode(security, hello.security, 'to', peer.transportAddress);
      let proof: string | null = null;
      if (!verdict && o.secret) {
        const expected = computeProof(
          o.secret,
          'server',
          o.local.clusterName,
          clientNonce,
          hello.nonce,
          o.local.nodeId,
          hello.nodeId,
        );
        if (!proofMatches(expected, hello.proof))
          verdict = authFailed(
            'to',
            peer.transportAddress,
            `node {${hello.nodeName}}{${hello.nodeId}} did not prove it holds the shared secret [transport.auth.secret]`,
          );
        else
          proof = computeProof(
            o.secret,
            'client',
            o.local.clusterName,
            clientNonce,
            hello.nonce,
            o.local.nodeId,
            hello.nodeId,
          );
      }
      // The server learns why we give up, so both logs tell the story.
      sendHandshake(jsonBytes(verdict ? { proof, error: serializeError(verdict) } : { proof }));
      if (verdict) {
        state = 'closed';
        clearTimeout(timer);
        endSoon(socket);
        return rejectOpen(verdict);
      }
      state = 'ack';
    }

    function onResponse(f: Frame) {
      const p = pending.get(f.requestId);
      if (!p) return; // timed out already
      pending.delete(f.requestId);
      clearTimeout(p.timer);
      let body: unknown;
      try {
        body = parseJson(f.json);
      } catch (e) {
        return p.reject(
          new EsError(
            'transport_serialization_exception',
            `failed to deserialize response of action [${p.action}]`,
            500,
            {
              causedBy: toEsError(e),
            },
          ),
        );
      }
      if (f.flags & FLAG_ERROR) p.reject(deserializeError(body));
      else p.resolve(f.attachment ? { body, attachment: f.attachment } : { body });
    }

    function onFrame(f: Frame) {
      const handshake = (f.flags & FLAG_HANDSHAKE) !== 0;
      if ((f.flags & FLAG_RESPONSE) === 0 || handshake !== (state !== 'ready'))
        return protocolViolation();
      if (state === 'ready') return onResponse(f);
      if (f.flags & FLAG_ERROR) {
        let err: EsError;
        try {
          err = deserializeError(parseJson(f.json));
        } catch (e) {
          err = toEsError(e);
        }
        return openFailed(err);
      }
      if (state === 'hello') return onHello(f);
      // The server accepted us.
      state = 'ready';
      clearTimeout(timer);
      // From here the transport closes the connection itself.
      o.signal?.removeEventListener('abort', onAbort);
      decoder.setMaxContentLength(o.maxContentLength);
      resolveOpen(conn);
    }

    function protocolViolation() {
      const e = new EsError(
        'illegal_state_exception',
        `transport protocol violation by ${`[${label.name}][${label.address}]`}`,
        500,
      );
      if (state !== 'ready') openFailed(e);
      else socket.destroy();
    }

    socket.on('connect', () => {
      if (state !== 'connecting') return;
      state = 'hello';
      sendHandshake(jsonBytes(helloBody(o.local, clientNonce, security)));
    });
    const isClosed = () => state === 'closed';
    socket.on('data', (chunk: Buffer) => {
      if (isClosed()) return;
      const res = decoder.push(chunk);
      for (const f of res.frames) {
        if (isClosed()) return;
        o.stats.rx(f.size, state === 'ready' ? peer.id : null);
        onFrame(f);
      }
      if (res.failure) {
        if (state !== 'ready')
          openFailed(connectFailed(label, 'handshake failed', res.failure.error));
        else socket.destroy();
      }
    });
    socket.on('error', (e) => {
      if (state === 'connecting' || state === 'hello' || state === 'ack')
        openFailed(connectFailed(label, 'connect_exception', socketError(e)));
    });
    socket.on('close', () => {
      o.signal?.removeEventListener('abort', onAbort);
      if (state !== 'ready' && state !== 'closed')
        openFailed(connectFailed(label, 'connection closed during the handshake'));
      state = 'closed';
      clearTimeout(timer);
      const reason = closeReason ?? ((action: string) => nodeDisconnected(label, action));
      for (const p of pending.values()) {
        clearTimeout(p.timer);
        p.reject(reason(p.action));
      }
      pending.clear();
    });
  });
}
