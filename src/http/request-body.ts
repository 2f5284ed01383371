/**
 * Request bodies read straight off the socket for the usual requests, so they skip Fastify's
 * content-type parsing. `requestBody` says whether a request qualifies; everything else (chunked
 * or oversized bodies, unusual content types) stays with Fastify's parser, whose errors
 * (413, invalid media type) the app renders as before.
 */
import type { IncomingMessage } from 'node:http';

/** Content types sent by ES clients, curl and Kibana that Fastify accepts as they are. */
const PLAIN_TYPES = new Set([
  'application/json',
  'application/json; charset=UTF-8',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json;charset=utf-8',
  'application/x-ndjson',
  'application/x-ndjson; charset=UTF-8',
  'application/x-ndjson; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
]);

/** The methods that have a body (Fastify's `bodywith`, and GET as the app declares it). */
const BODY_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/**
 * `'none'`: no body to read (as Fastify decides: a bodyless method, or no content type, length
 * or transfer encoding); a number: a body of that many bytes to read here; `'fastify'`: leave
 * the request to Fastify's parser.
 */
export function requestBody(raw: IncomingMessage, limit: number): 'none' | 'fastify' | number {
  if (!BODY_METHODS.has(raw.method!)) return 'none';
  const h = raw.headers;
  if (h['transfer-encoding'] !== undefined) return 'fastify';
  const length = h['content-length'];
  const type = h['content-type'];
  if (type === undefined) return length === undefined || length === '0' ? 'none' : 'fastify';
  if (length === undefined || !PLAIN_TYPES.has(type) || !/^\d{1,15}$/.test(length))
    return 'fastify';
  const n = Number(length);
  return n > limit ? 'fastify' : n;
}

/**
 * Reads a body of `length` bytes (the HTTP parser holds the stream to its Content-Length) into
 * one new Buffer: a copy, as Fastify makes, so no document keeps the socket's read buffer alive.
 */
export function readBody(
  raw: IncomingMessage,
  length: number,
  done: (e: Error | null, body: Buffer | null) => void,
): void {
  if (raw.complete && raw.readableLength === length) {
    // The parser already holds the whole body (it came with the headers and admission waited a
    // turn): one read takes it, without the stream's flowing mode and its ticks.
    const chunk = raw.read() as Buffer | null;
    if (chunk !== null || length === 0)
      return done(null, Buffer.concat(chunk === null ? [] : [chunk], length));
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = (e?: Error) => {
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('error', onEnd);
    if (e) return done(e, null);
    // Fastify: FST_ERR_CTP_INVALID_CONTENT_LENGTH
    if (received !== length)
      return done(new Error('Request body size did not match Content-Length'), null);
    done(null, Buffer.concat(chunks, received));
  };
  raw.on('data', onData);
  raw.on('end', onEnd);
  raw.on('error', onEnd);
}
