/**
 * Binary layout of one stored document (or delete tombstone) in LMDB. The `_source` bytes are kept
 * exactly as the client sent them, after a fixed header:
 *   u8 flags (1 = tombstone) | i64 version | i64 seq_no | i64 primary_term | f64 timestamp ms |
 *   u16 routing length | routing utf8 | source bytes
 */
import type { ByteArena } from '../common/byte-arena.js';
import { utf8Length, writeUtf8 } from '../common/utf8-write.js';

export const FLAG_TOMBSTONE = 1;
const HEADER = 1 + 8 + 8 + 8 + 8 + 2;
/** Bytes of a record's fixed header; a shorter record is corrupt. */
export const RECORD_HEADER_BYTES = HEADER;

export interface DocHeader {
  tombstone: boolean;
  version: number;
  seqNo: number;
  primaryTerm: number;
  timestamp: number;
  routing: string | null;
}

export interface DocRecord extends DocHeader {
  /** `_source` bytes (empty for tombstones). */
  source: Buffer;
}

export function encodeDoc(h: DocHeader, source: Uint8Array | null): Buffer {
  const routing = h.routing === null ? null : Buffer.from(h.routing, 'utf8');
  const rlen = routing ? routing.length : 0;
  const slen = source ? source.length : 0;
  const buf = Buffer.allocUnsafe(HEADER + rlen + slen);
  buf[0] = h.tombstone ? FLAG_TOMBSTONE : 0;
  writeInt64(buf, h.version, 1);
  writeInt64(buf, h.seqNo, 9);
  writeInt64(buf, h.primaryTerm, 17);
  buf.writeDoubleLE(h.timestamp, 25);
  buf.writeUInt16LE(routing ? rlen : 0xffff, 33);
  if (routing) routing.copy(buf, HEADER);
  if (source) buf.set(source, HEADER + rlen);
  return buf;
}

export function decodeHeader(buf: Uint8Array): DocHeader {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const rl = b.readUInt16LE(33);
  return {
    tombstone: (b[0]! & FLAG_TOMBSTONE) !== 0,
    version: readInt64(b, 1),
    seqNo: readInt64(b, 9),
    primaryTerm: readInt64(b, 17),
    timestamp: b.readDoubleLE(25),
    routing: rl === 0xffff ? null : b.toString('utf8', HEADER, HEADER + rl),
  };
}

/** `_seq_no` of an encoded record, read without decoding the rest. */
export function seqNoOf(b: Uint8Array): number {
  const lo = (b[9]! | (b[10]! << 8) | (b[11]! << 16)) + b[12]! * 0x1000000;
  const hi = b[13]! | (b[14]! << 8) | (b[15]! << 16) | (b[16]! << 24);
  return hi * 0x100000000 + lo;
}

export function decodeDoc(buf: Uint8Array): DocRecord {
  const h = decodeHeader(buf);
  const rl = h.routing === null ? 0 : Buffer.byteLength(h.routing, 'utf8');
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return { ...h, source: b.subarray(HEADER + rl) };
}

/**
 * A copy of the `_source` bytes of a live record at `seqNo`, taken straight from `buf` (which may
 * be a reused read buffer: nothing of it is kept); null for a tombstone or another sequence
 * number. `end`: the record's length when `buf` is longer. `arena`: where the copy is packed
 * (a page of hits shares its blocks).
 */
export function sourceBytesIfAt(
  buf: Buffer,
  seqNo: number,
  end = buf.length,
  arena?: ByteArena,
): Buffer | null {
  if ((buf[0]! & FLAG_TOMBSTONE) !== 0 || seqNoOf(buf) !== seqNo) return null;
  const rl = buf[33]! | (buf[34]! << 8);
  const start = HEADER + (rl === 0xffff ? 0 : rl);
  if (arena !== undefined) return arena.copy(buf, start, end);
  // small copies come from Node's shared allocation pool
  const out = Buffer.allocUnsafe(end - start);
  buf.copy(out, 0, start, end);
  return out;
}

/** Key of a document: u16 shard (big endian, so a shard's keys are contiguous) + utf8 id. */
export function docKey(shard: number, id: string): Buffer {
  const k = Buffer.allocUnsafe(2 + utf8Length(id));
  k[0] = shard >>> 8;
  k[1] = shard & 0xff;
  writeUtf8(k, id, 2);
  return k;
}

export function shardRange(shard: number): { start: Buffer; end: Buffer } {
  const start = Buffer.alloc(2);
  start.writeUInt16BE(shard, 0);
  const end = Buffer.alloc(2);
  end.writeUInt16BE(shard + 1, 0);
  return { start, end };
}

export function idFromKey(key: Uint8Array): string {
  const b = Buffer.isBuffer(key) ? key : Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  return b.toString('utf8', 2);
}

/** Little-endian int64 without BigInt (exact for |v| < 2^53, the range JS numbers hold). */
function writeInt64(b: Buffer, v: number, at: number): void {
  const lo = v % 0x100000000;
  const loU = lo < 0 ? lo + 0x100000000 : lo;
  const hi = Math.floor(v / 0x100000000);
  b.writeUInt32LE(loU >>> 0, at);
  b.writeInt32LE(hi | 0, at + 4);
}

function readInt64(b: Buffer, at: number): number {
  return b.readInt32LE(at + 4) * 0x100000000 + b.readUInt32LE(at);
}
