/**
 * Transport errors in Elasticsearch 6.8's words (ActionTransportException builds its message as
 * `[node][address][action] msg`), and EsError to and from the JSON an error response carries, so a
 * remote handler's error reaches the caller with its type, reason, status, metadata and causes.
 */
import { EsError } from '../../common/errors.js';

/** How a peer is named in messages: ES prints the node name, Quarry may only know the id. */
export interface PeerLabel {
  readonly name: string;
  readonly address: string;
}

const prefix = (peer: PeerLabel, action?: string) =>
  `[${peer.name}][${peer.address}]${action !== undefined ? `[${action}]` : ''}`;

export interface SerializedError {
  readonly type: string;
  readonly reason: string | null;
  readonly status: number;
  readonly meta?: Record<string, unknown>;
  readonly caused_by?: SerializedError;
  readonly root_causes?: SerializedError[];
  readonly headers?: Record<string, string>;
}

export function serializeError(e: EsError, depth = 0): SerializedError {
  const out: {
    type: string;
    reason: string | null;
    status: number;
    meta?: Record<string, unknown>;
    caused_by?: SerializedError;
    root_causes?: SerializedError[];
    headers?: Record<string, string>;
  } = { type: e.type, reason: e.reason, status: e.status };
  if (Object.keys(e.meta).length > 0) out.meta = e.meta;
  // Bounded: a cause chain is short, a cycle must not hang the sender.
  if (e.causedBy && depth < 32) out.caused_by = serializeError(e.causedBy, depth + 1);
  if (e.rootCauses && depth < 32)
    out.root_causes = e.rootCauses.map((r) => serializeError(r, depth + 1));
  if (e.headers) out.headers = e.headers;
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The inverse of serializeError; anything malformed becomes a plain transport error. */
export function deserializeError(v: unknown, depth = 0): EsError {
  if (!isRecord(v) || typeof v.type !== 'string' || typeof v.status !== 'number' || depth > 32)
    return new EsError('transport_serialization_exception', 'malformed error response', 500);
  const reason = typeof v.reason === 'string' ? v.reason : null;
  const opts: ConstructorParameters<typeof EsError>[3] = {};
  if (isRecord(v.meta)) opts.meta = v.meta;
  if (v.caused_by !== undefined) opts.causedBy = deserializeError(v.caused_by, depth + 1);
  if (Array.isArray(v.root_causes))
    opts.rootCauses = v.root_causes.map((r) => deserializeError(r, depth + 1));
  if (isRecord(v.headers)) {
    const h: Record<string, string> = {};
    for (const [k, x] of Object.entries(v.headers)) if (typeof x === 'string') h[k] = x;
    opts.headers = h;
  }
  return new EsError(v.type, reason, v.status, opts);
}

/** ES ActionNotFoundTransportException. */
export const actionNotFound = (action: string) =>
  new EsError('action_not_found_transport_exception', `No handler for action [${action}]`, 500);

/** ES ReceiveTimeoutTransportException, as TransportService's timeout handler words it. */
export const receiveTimeout = (peer: PeerLabel, action: string, requestId: number, ms: number) =>
  new EsError(
    'receive_timeout_transport_exception',
    `${prefix(peer, action)} request_id [${requestId}] timed out after [${ms}ms]`,
    500,
  );

/** ES NodeDisconnectedException. */
export const nodeDisconnected = (peer: PeerLabel, action: string) =>
  new EsError('node_disconnected_exception', `${prefix(peer, action)} disconnected`, 500);

/** ES ConnectTransportException(node, "connect_exception", cause). */
export const connectFailed = (peer: PeerLabel, msg: string, cause?: EsError) =>
  new EsError(
    'connect_transport_exception',
    `${prefix(peer)} ${msg}`,
    500,
    cause ? { causedBy: cause } : {},
  );

/** ES TransportService when stopped with requests in flight. */
export const transportStopped = (action: string) =>
  new EsError('transport_exception', `transport stopped, action: ${action}`, 500);

/** ES SendRequestTransportException: the request could not be written. */
export const sendFailed = (peer: PeerLabel, action: string, cause: EsError) =>
  new EsError('send_request_transport_exception', prefix(peer, action), 500, { causedBy: cause });

/** A socket error (ECONNREFUSED, ...) as the cause of a transport error. */
export const socketError = (e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  const msg = err?.code ? `${err.code}: ${err.message}` : String(err?.message ?? e);
  return new EsError('connect_exception', msg, 500);
};
