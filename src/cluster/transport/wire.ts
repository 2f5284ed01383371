/**
 * Writing frames to a socket, and the small helpers both connection ends share. A frame goes out
 * as its parts in one corked batch (a single writev): the JSON and the attachment are never
 * concatenated into a new buffer.
 */
import { isIP, type Socket } from 'node:net';
import type { EsError } from '../../common/errors.js';
import { encodeFrame, frameSize, PREFIX_BYTES, contentTooLarge, type OutFrame } from './frame.js';
import { serializeError } from './errors.js';
import type { StatsRecorder } from './stats.js';

/** Frames in the handshake are small; a larger one before authentication is hostile. */
export const HANDSHAKE_MAX_CONTENT = 64 * 1024;

export const jsonBytes = (v: unknown): Buffer => Buffer.from(JSON.stringify(v ?? null), 'utf8');

export function parseJson(b: Buffer): unknown {
  return b.length === 0 ? null : (JSON.parse(b.toString('utf8')) as unknown);
}

/** Encodes and writes a frame; throws (nothing written) when it exceeds `maxContent`. */
export function writeFrame(
  socket: Socket,
  frame: OutFrame,
  maxContent: number,
  stats: StatsRecorder,
  peerId: string | null,
): void {
  const parts = encodeFrame(frame);
  const size = frameSize(parts);
  if (size - PREFIX_BYTES > maxContent) throw contentTooLarge(size - PREFIX_BYTES, maxContent);
  if (socket.destroyed || !socket.writable) return;
  socket.cork();
  for (const p of parts) socket.write(p);
  socket.uncork();
  stats.tx(size, peerId);
}

export const errorJson = (e: EsError): Buffer => jsonBytes(serializeError(e));

/** `host:port` into its parts (`[::1]:9300` for IPv6). */
export function splitAddress(address: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(address) ?? /^([^:]+):(\d+)$/.exec(address);
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port <= 65535 ? { host: m[1]!, port } : null;
}

export const joinAddress = (host: string, port: number) =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** Ends after what is queued is written; a peer that never closes its side is cut after a while. */
export function endSoon(socket: Socket, graceMs = 2000): void {
  socket.end();
  setTimeout(() => socket.destroy(), graceMs).unref();
}

const isLoopback = (host: string) =>
  isIP(host) === 4 ? host.startsWith('127.') : host === '::1' || host === '0:0:0:0:0:0:0:1';

/**
 * The source address for a connection to `peerHost`: the node's own bound host, when it is one
 * address (not a wildcard) of the peer's family, and loopback only towards loopback. Then a peer
 * and a firewall rule see which node talks, even when several nodes share loopback (unbound
 * sockets there all leave from 127.0.0.1). Otherwise the kernel chooses.
 */
export function sourceAddressFor(boundHost: string | null, peerHost: string): string | undefined {
  if (!boundHost) return undefined;
  const family = isIP(boundHost);
  if (family === 0 || family !== isIP(peerHost)) return undefined;
  if (boundHost === '0.0.0.0' || boundHost === '::') return undefined;
  if (isLoopback(boundHost) && !isLoopback(peerHost)) return undefined;
  return boundHost;
}
