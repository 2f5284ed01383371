/**
 * The transport wire format and its incremental decoder. One frame:
 *
 *   magic 'Q' 'T' 0xE5 0x01 | u32 length of the rest | u32 request id | u8 flags
 *   | u16 action bytes | u32 JSON bytes | action (UTF-8) | JSON (UTF-8) | attachment (raw bytes)
 *
 * The attachment is whatever follows the JSON up to the frame's end, so binary data (shard files)
 * travels as is, never through JSON or base64. The decoder is pure (bytes in, frames or one error
 * out) and copes with any split of the stream: a frame arriving whole in one chunk is handed out as
 * a view of that chunk; one spread over chunks is assembled once into a buffer of its exact size.
 */
import { EsError } from '../../common/errors.js';
import { formatByteSize } from '../../common/units.js';

export const MAGIC = Buffer.from([0x51, 0x54, 0xe5, 0x01]);
/** Magic and length: what must be read before the frame's size is known. */
export const PREFIX_BYTES = 8;
/** Request id, flags, action length, JSON length. */
export const FIXED_HEADER_BYTES = 11;

export const FLAG_RESPONSE = 0x01;
export const FLAG_ERROR = 0x02;
export const FLAG_HANDSHAKE = 0x04;
/** Reserved: a compressed body (not produced by this version, refused when received). */
export const FLAG_COMPRESSED = 0x08;
export const FLAG_ATTACHMENT = 0x10;
const KNOWN_FLAGS = FLAG_RESPONSE | FLAG_ERROR | FLAG_HANDSHAKE | FLAG_COMPRESSED | FLAG_ATTACHMENT;

export interface Frame {
  readonly requestId: number;
  readonly flags: number;
  readonly action: string;
  /** The JSON part, undecoded (a view into the received bytes). */
  readonly json: Buffer;
  readonly attachment?: Buffer;
  /** Bytes the frame took on the wire, prefix included. */
  readonly size: number;
}

export interface OutFrame {
  readonly requestId: number;
  readonly flags: number;
  readonly action: string;
  readonly json: Buffer;
  readonly attachment?: Buffer;
}

/** The frame as buffers to write in order (the attachment is never copied). */
export function encodeFrame(f: OutFrame): Buffer[] {
  const actionLen = Buffer.byteLength(f.action, 'utf8');
  if (actionLen > 0xffff)
    throw new EsError('illegal_argument_exception', 'action name too long', 400);
  const head = Buffer.allocUnsafe(PREFIX_BYTES + FIXED_HEADER_BYTES + actionLen);
  const flags = f.attachment ? f.flags | FLAG_ATTACHMENT : f.flags & ~FLAG_ATTACHMENT;
  const rest = FIXED_HEADER_BYTES + actionLen + f.json.length + (f.attachment?.length ?? 0);
  MAGIC.copy(head, 0);
  head.writeUInt32BE(rest, 4);
  head.writeUInt32BE(f.requestId >>> 0, 8);
  head.writeUInt8(flags, 12);
  head.writeUInt16BE(actionLen, 13);
  head.writeUInt32BE(f.json.length, 15);
  head.write(f.action, 19, 'utf8');
  const parts = [head, f.json];
  if (f.attachment && f.attachment.length > 0) parts.push(f.attachment);
  return parts;
}

/** Total bytes of an encoded frame. */
export const frameSize = (parts: readonly Buffer[]): number =>
  parts.reduce((n, b) => n + b.length, 0);

export type DecodeFailure =
  /** The peer speaks HTTP: ES answers "This is not an HTTP port" before closing. */
  | { readonly kind: 'http'; readonly error: EsError }
  | { readonly kind: 'invalid'; readonly error: EsError }
  | { readonly kind: 'too_large'; readonly error: EsError };

export interface DecodeResult {
  readonly frames: Frame[];
  /** Set once the stream is unusable; the decoder then refuses further input. */
  readonly failure?: DecodeFailure;
}

export interface FrameDecoder {
  push(chunk: Buffer): DecodeResult;
  /** The largest frame (after the length field) accepted from now on. */
  setMaxContentLength(max: number): void;
  /** Bytes held back waiting for the rest of a frame. */
  buffered(): number;
}

/** ES TcpTransport's check: these starts are HTTP methods. */
const HTTP_STARTS = ['GET ', 'POST', 'PUT ', 'HEAD', 'DELE', 'OPTI', 'PATC', 'TRAC', 'CONN'].map(
  (s) => Buffer.from(s, 'latin1'),
);

export const notHttpPort = () =>
  new EsError('http_on_transport_exception', 'This is not an HTTP port', 400);

const invalidFormat = (head: Buffer) =>
  new EsError(
    'stream_corrupted_exception',
    `invalid internal transport message format, got (${[...head.subarray(0, 4)].map((b) => b.toString(16)).join(',')})`,
    500,
  );

export const contentTooLarge = (len: number, max: number) =>
  new EsError(
    'illegal_argument_exception',
    `transport content length received [${formatByteSize(len)}] exceeded [${formatByteSize(max)}]`,
    400,
  );

/** Checks the first four bytes (fewer if not yet received): null when they may start a frame. */
function checkMagic(head: Buffer): DecodeFailure | null {
  const n = Math.min(head.length, 4);
  if (head.subarray(0, n).equals(MAGIC.subarray(0, n))) return null;
  if (head.length < 4) {
    // Undecided until four bytes are in, unless no HTTP method can start this way either.
    const maybeHttp = HTTP_STARTS.some((m) => head.subarray(0, n).equals(m.subarray(0, n)));
    return maybeHttp ? null : { kind: 'invalid', error: invalidFormat(head) };
  }
  if (HTTP_STARTS.some((m) => head.subarray(0, 4).equals(m)))
    return { kind: 'http', error: notHttpPort() };
  return { kind: 'invalid', error: invalidFormat(head) };
}

/** Parses one complete frame body (everything after the length field). */
function parseBody(body: Buffer, size: number): Frame | DecodeFailure {
  const requestId = body.readUInt32BE(0);
  const flags = body.readUInt8(4);
  const actionLen = body.readUInt16BE(5);
  const jsonLen = body.readUInt32BE(7);
  const bad = (why: string): DecodeFailure => ({
    kind: 'invalid',
    error: new EsError('stream_corrupted_exception', `invalid transport frame: ${why}`, 500),
  });
  if ((flags & ~KNOWN_FLAGS) !== 0) return bad(`unknown flags [${flags}]`);
  if (flags & FLAG_COMPRESSED) return bad('compressed frames are not supported');
  const jsonStart = FIXED_HEADER_BYTES + actionLen;
  const jsonEnd = jsonStart + jsonLen;
  if (jsonEnd > body.length) return bad('header lengths exceed the frame');
  const hasAttachment = (flags & FLAG_ATTACHMENT) !== 0;
  if (!hasAttachment && jsonEnd !== body.length) return bad('trailing bytes after the body');
  const frame: Frame = {
    requestId,
    flags,
    action: body.toString('utf8', FIXED_HEADER_BYTES, jsonStart),
    json: body.subarray(jsonStart, jsonEnd),
    size,
    ...(hasAttachment ? { attachment: body.subarray(jsonEnd) } : {}),
  };
  return frame;
}

const isFailure = (x: Frame | DecodeFailure): x is DecodeFailure => 'kind' in x;

export function createFrameDecoder(maxContentLength: number): FrameDecoder {
  let max = maxContentLength;
  // Bytes received but not yet part of a frame being assembled: chunks[0] from offset `off`.
  const chunks: Buffer[] = [];
  let off = 0;
  let pending = 0;
  // The frame being assembled across chunks, and how much of it is filled.
  let body: Buffer | null = null;
  let bodyFill = 0;
  let failed: DecodeFailure | null = null;
  const scratch = Buffer.allocUnsafe(PREFIX_BYTES);

  /** Copies `n` buffered bytes into `dst` at `at`, consuming them. */
  const take = (dst: Buffer, at: number, n: number) => {
    while (n > 0) {
      const c = chunks[0]!;
      const k = Math.min(n, c.length - off);
      c.copy(dst, at, off, off + k);
      at += k;
      n -= k;
      off += k;
      pending -= k;
      if (off === c.length) {
        chunks.shift();
        off = 0;
      }
    }
  };
  /** The first `n` buffered bytes, without consuming them. */
  const peek = (n: number): Buffer => {
    const c = chunks[0]!;
    if (c.length - off >= n) return c.subarray(off, off + n);
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    for (let i = 0, o = off; at < n; i++, o = 0) {
      const k = Math.min(n - at, chunks[i]!.length - o);
      chunks[i]!.copy(out, at, o, o + k);
      at += k;
    }
    return out;
  };
  const fail = (f: DecodeFailure, frames: Frame[]): DecodeResult => {
    failed = f;
    chunks.length = 0;
    pending = 0;
    body = null;
    return { frames, failure: f };
  };

  return {
    setMaxContentLength(m) {
      max = m;
    },
    buffered: () => pending + bodyFill,
    push(chunk) {
      const frames: Frame[] = [];
      if (failed) return { frames, failure: failed };
      if (chunk.length > 0) {
        chunks.push(chunk);
        pending += chunk.length;
      }
      for (;;) {
        if (body) {
          const k = Math.min(body.length - bodyFill, pending);
          take(body, bodyFill, k);
          bodyFill += k;
          if (bodyFill < body.length) return { frames };
          const f = parseBody(body, body.length + PREFIX_BYTES);
          body = null;
          bodyFill = 0;
          if (isFailure(f)) return fail(f, frames);
          frames.push(f);
          continue;
        }
        if (pending === 0) return { frames };
        const magicFailure = checkMagic(peek(Math.min(pending, 4)));
        if (magicFailure) return fail(magicFailure, frames);
        if (pending < PREFIX_BYTES) return { frames };
        const len = peek(PREFIX_BYTES).readUInt32BE(4);
        if (len > max) return fail({ kind: 'too_large', error: contentTooLarge(len, max) }, frames);
        if (len < FIXED_HEADER_BYTES)
          return fail(
            {
              kind: 'invalid',
              error: new EsError(
                'stream_corrupted_exception',
                `invalid transport frame: length [${len}] is shorter than the header`,
                500,
              ),
            },
            frames,
          );
        const c = chunks[0]!;
        if (c.length - off >= PREFIX_BYTES + len) {
          // The whole frame is in one chunk: hand out a view, no copy.
          const view = c.subarray(off + PREFIX_BYTES, off + PREFIX_BYTES + len);
          off += PREFIX_BYTES + len;
          pending -= PREFIX_BYTES + len;
          if (off === c.length) {
            chunks.shift();
            off = 0;
          }
          const f = parseBody(view, len + PREFIX_BYTES);
          if (isFailure(f)) return fail(f, frames);
          frames.push(f);
          continue;
        }
        take(scratch, 0, PREFIX_BYTES);
        body = Buffer.allocUnsafe(len);
        bodyFill = 0;
      }
    },
  };
}
