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

/** base64url's 64 characters in ASCII order: digit value v is written as SORTED_64[v]. */
const SORTED_64 = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/**
 * 20-char time-based id for documents indexed without an id: 15 bytes, as ES's
 * TimeBasedUUIDGenerator (timestamp, sequence, node), in base64url's characters. Unlike ES, the
 * bytes go timestamp first, sequence next (both big endian), and each 6 bits map to the
 * characters in ASCII order, so ids a node makes sort in the order it made them. The store keys
 * documents by id: ascending ids append to its B-tree, where ES's order (sequence byte first)
 * spread every batch over the whole tree and made LMDB read back (and keep mapped) every page
 * of it.
 */
export function timeBasedId(): string {
  const seq = (sequence = (sequence + 1) & 0xffffff);
  let ts = Date.now();
  if (ts < lastTimestamp) ts = lastTimestamp;
  if (seq === 0) ts++;
  lastTimestamp = ts;
  const b = Buffer.allocUnsafe(15);
  b.writeUIntBE(ts, 0, 6);
  b.writeUIntBE(seq, 6, 3);
  macAddress.copy(b, 9);
  let out = '';
  for (let i = 0; i < 15; i += 3) {
    const v = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    out +=
      SORTED_64[v >>> 18]! +
      SORTED_64[(v >>> 12) & 63]! +
      SORTED_64[(v >>> 6) & 63]! +
      SORTED_64[v & 63]!;
  }
  return out;
}

/** Per-request counter producing `prefix0`, `prefix1`, … (deterministic aggregation names). */
export class IdCounter {
  private n = 0;
  constructor(private readonly prefix: string) {}
  next(): string {
    return `${this.prefix}${this.n++}`;
  }
}
