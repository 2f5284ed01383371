/**
 * The limits of ES 6.8's HTTP decoder (Netty's HttpObjectDecoder with http.max_initial_line_length
 * 4kb and http.max_header_size 8kb): a longer request line or header block fails the decoder
 * with a TooLongFrameException, which ES answers as a bad request (400
 * `too_long_frame_exception`). Lines too long even for Node's parser (16kb) arrive as its
 * HPE_HEADER_OVERFLOW client error and get the same answer.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { EsError } from '../common/errors.js';

const MAX_INITIAL_LINE = 4096;
const MAX_HEADER_SIZE = 8192;

const tooLong = (what: 'line' | 'header', max: number) =>
  new EsError(
    'too_long_frame_exception',
    what === 'line'
      ? `An HTTP line is larger than ${max} bytes.`
      : `HTTP header is larger than ${max} bytes.`,
    400,
  );

/** The decoder's complaint about a request Node parsed, or null. */
export function frameTooLong(raw: IncomingMessage): EsError | null {
  // `METHOD SP target SP HTTP/x.y`, as Netty's LineParser counts it
  const line = raw.method!.length + raw.url!.length + raw.httpVersion.length + 7;
  if (line > MAX_INITIAL_LINE) return tooLong('line', MAX_INITIAL_LINE);
  let size = 0;
  const h = raw.rawHeaders;
  for (let i = 0; i + 1 < h.length; i += 2) size += h[i]!.length + 2 + h[i + 1]!.length;
  return size > MAX_HEADER_SIZE ? tooLong('header', MAX_HEADER_SIZE) : null;
}

/**
 * Node's `clientError` for a request it could not parse. Header overflow gets ES's answer (a
 * request line with no end in what arrived is the line, else the headers); others keep what
 * Fastify answers (408 for a timeout, else 400), and a reset connection gets nothing.
 */
export function answerClientError(error: Error, socket: Socket): void {
  const err = error as Error & { code?: string; rawPacket?: Buffer };
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const packet = err.rawPacket;
    const lineEnd = packet ? packet.indexOf('\r\n') : -1;
    const e = lineEnd < 0 || lineEnd > MAX_INITIAL_LINE ? tooLong('line', MAX_INITIAL_LINE) : tooLong('header', MAX_HEADER_SIZE); // prettier-ignore
    body = JSON.stringify(e.toBody());
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = '{"error":"Request Timeout","message":"Client Timeout","statusCode":408}';
  } else body = '{"error":"Bad Request","message":"Client Error","statusCode":400}';
  if (!socket.writable) return void socket.destroy(err);
  const reason = status === 408 ? 'Request Timeout' : 'Bad Request';
  // end, not destroy: the answer must leave before the connection closes
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=UTF-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
