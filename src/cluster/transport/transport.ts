/**
 * Quarry's node-to-node transport (ES TcpTransport + TransportService): a TCP server on
 * `transport.host`/`transport.port`, handlers by action name, and `send` to a peer over one pooled
 * connection per peer, opened on first use and reopened after a failure.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { EsError, toEsError } from '../../common/errors.js';
import { transportStopped } from './errors.js';
import { ES_VERSION, type NodeIdentity } from './handshake.js';
import { acceptInbound, type RequestHandler } from './inbound.js';
import {
  openOutbound,
  type OutboundConnection,
  type TransportPeer,
  type TransportReply,
} from './outbound.js';
import { readTransportSettings, type TransportSettings } from './settings.js';
import { createStatsRecorder, type TransportStats } from './stats.js';
import { joinAddress, sourceAddressFor, splitAddress } from './wire.js';

export type { RequestHandler, RequestContext, HandlerResponse } from './inbound.js';
export type { TransportPeer, TransportReply } from './outbound.js';
export type { TransportStats } from './stats.js';

export interface TransportOptions {
  /** This node; `esVersion` defaults to 6.8.13. */
  readonly local: Omit<NodeIdentity, 'esVersion'> & { readonly esVersion?: string };
  /** The node's flat settings (`transport.*`, `network.host`, `xpack.security.enabled`). */
  readonly settings: Readonly<Record<string, string>>;
  /** How long an inbound connection may take to handshake; default `transport.connect_timeout`. */
  readonly handshakeTimeoutMs?: number;
  /** Connection-level failures (bad handshake, garbage, auth) for the log. */
  readonly onError?: (e: EsError, remoteAddress: string) => void;
}

export interface SendOptions {
  readonly timeoutMs: number;
  readonly attachment?: Buffer;
}

export interface Transport {
  /** Binds and listens; the bound `host:port`. */
  start(): Promise<string>;
  boundAddress(): string | null;
  registerHandler(action: string, handler: RequestHandler): void;
  send(
    peer: TransportPeer,
    action: string,
    body: unknown,
    opts: SendOptions,
  ): Promise<TransportReply>;
  stats(): TransportStats;
  /** Fails requests in flight, closes every connection, and waits for the server to stop. */
  close(): Promise<void>;
}

const bindFailed = (host: string, ports: readonly number[], cause: unknown) =>
  new EsError(
    'bind_transport_exception',
    `Failed to bind to [${ports.length > 1 ? `${ports[0]}-${ports[ports.length - 1]}` : ports[0]}]`,
    500,
    {
      causedBy: new EsError(
        'bind_exception',
        `${(cause as Error)?.message ?? String(cause)} (host [${host}])`,
        500,
      ),
    },
  );

function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port, exclusive: true });
  });
}

export function createTransport(opts: TransportOptions): Transport {
  // Throws on a bad setting, e.g. security without a secret: better now than at the first peer.
  const settings: TransportSettings = readTransportSettings(opts.settings);
  const local: NodeIdentity = { ...opts.local, esVersion: opts.local.esVersion ?? ES_VERSION };
  const stats = createStatsRecorder();
  const handlers = new Map<string, RequestHandler>();
  const conns = new Map<string, OutboundConnection>();
  const opening = new Map<string, Promise<OutboundConnection>>();
  const aborter = new AbortController();
  const inbound = new Set<Socket>();
  const onError = opts.onError ?? (() => {});
  let server: Server | null = null;
  let bound: string | null = null;
  let closed = false;

  const outboundOptions = {
    local,
    secret: settings.secret,
    maxContentLength: settings.maxContentLength,
    connectTimeoutMs: settings.connectTimeoutMs,
    stats,
    signal: aborter.signal,
    localAddress: (peerHost: string) =>
      sourceAddressFor(bound ? (splitAddress(bound)?.host ?? null) : null, peerHost),
  };

  async function connection(peer: TransportPeer): Promise<OutboundConnection> {
    const c = conns.get(peer.id);
    if (c && c.isOpen() && c.peer.transportAddress === peer.transportAddress) return c;
    if (c) {
      // Dead, or the node moved to another address: replaced by a fresh connection.
      conns.delete(peer.id);
      c.close(transportStopped);
    }
    let p = opening.get(peer.id);
    if (!p) {
      p = openOutbound(peer, outboundOptions).then((fresh) => {
        if (closed) {
          fresh.close(transportStopped);
          throw transportStopped('connect');
        }
        conns.set(peer.id, fresh);
        return fresh;
      });
      const mine = p;
      opening.set(peer.id, mine);
      // Whatever the outcome, the next send looks again (a failed connect is retried).
      mine.then(
        () => opening.get(peer.id) === mine && opening.delete(peer.id),
        () => opening.get(peer.id) === mine && opening.delete(peer.id),
      );
    }
    return p;
  }

  return {
    async start() {
      if (server) throw new EsError('illegal_state_exception', 'transport already started', 500);
      const srv = createServer((socket) => {
        if (closed) return void socket.destroy();
        inbound.add(socket);
        socket.once('close', () => inbound.delete(socket));
        acceptInbound(socket, {
          local,
          secret: settings.secret,
          maxContentLength: settings.maxContentLength,
          handshakeTimeoutMs: opts.handshakeTimeoutMs ?? settings.connectTimeoutMs,
          handlers,
          stats,
          onError,
        });
      });
      let lastError: unknown = null;
      for (const port of settings.ports) {
        try {
          await listenOn(srv, settings.host, port);
          lastError = null;
          break;
        } catch (e) {
          lastError = e;
          if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') break;
        }
      }
      if (lastError !== null) throw bindFailed(settings.host, settings.ports, lastError);
      server = srv;
      // After listening, an accept failure (EMFILE, ...) is logged, never a crash.
      srv.on('error', (e) => onError(toEsError(e), bound ?? settings.host));
      const a = srv.address();
      bound = a && typeof a === 'object' ? joinAddress(a.address, a.port) : null;
      return bound ?? '';
    },
    boundAddress: () => bound,
    registerHandler(action, handler) {
      if (handlers.has(action))
        throw new EsError(
          'illegal_argument_exception',
          `transport handlers for action ${action} is already registered`,
          400,
        );
      handlers.set(action, handler);
    },
    async send(peer, action, body, o) {
      if (closed) throw transportStopped(action);
      const c = await connection(peer);
      return c.request(action, body, o.timeoutMs, o.attachment);
    },
    stats: () => stats.snapshot(),
    async close() {
      if (closed) return;
      closed = true;
      aborter.abort();
      for (const c of conns.values()) c.close(transportStopped);
      conns.clear();
      for (const s of inbound) s.destroy();
      const srv = server;
      server = null;
      if (srv) await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}
