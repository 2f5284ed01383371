/**
 * Identifiers: Elasticsearch-style random base64url UUIDs (20 chars for auto-generated document
 * ids, 22 for index and node uuids) and per-request counters for deterministic names.
 */
import { randomBytes } from 'node:crypto';

/** 22-char URL-safe base64 random UUID (ES UUIDs.randomBase64UUID). */
export function randomBase64Uuid(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return b.toString('base64url');
}

let lastTimestamp = 0;
let sequence = randomBytes(3).readUIntBE(0, 3);
const macAddress = randomBytes(6);

/**
 * 20-char time-based id for documents indexed without an id (ES TimeBasedUUIDGenerator layout:
 * sequence, timestamp and node bytes arranged so ids sharing a prefix compress well).
 */
export function timeBasedId(): string {
  const seq = (sequence = (sequence + 1) & 0xffffff);
  let ts = Date.now();
  if (ts < lastTimestamp) ts = lastTimestamp;
  if (seq === 0) ts++;
  lastTimestamp = ts;
  const b = Buffer.allocUnsafe(15);
  let i = 0;
  b[i++] = seq & 0xff;
  b[i++] = (seq >>> 16) & 0xff;
  b[i++] = Math.floor(ts / 2 ** 40) & 0xff;
  b[i++] = Math.floor(ts / 2 ** 32) & 0xff;
  b[i++] = (ts >>> 24) & 0xff;
  b[i++] = (ts >>> 16) & 0xff;
  b[i++] = (ts >>> 8) & 0xff;
  macAddress.copy(b, i);
  i += 6;
  b[i++] = (Math.floor(ts / 2 ** 40) & 0xff) ^ (ts & 0xff);
  b[i++] = (seq >>> 8) & 0xff;
  b[i++] = ts & 0xff;
  return b.toString('base64url');
}

/** Per-request counter producing `prefix0`, `prefix1`, … (deterministic aggregation names). */
export class IdCounter {
  private n = 0;
  constructor(private readonly prefix: string) {}
  next(): string {
    return `${this.prefix}${this.n++}`;
  }
}
