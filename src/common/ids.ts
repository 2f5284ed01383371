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
  // the timestamp's 8 characters change once a millisecond and the node's 8 never: only the
  // sequence's 4 are worked out per id, and the id is made in one flat string (a bulk of auto ids
  // made a Buffer and a chain of concatenations per document, flattened again when hashed)
  if (ts !== idTimestamp) {
    idTimestamp = ts;
    const hi = Math.floor(ts / 0x1000000);
    const lo = ts % 0x1000000;
    idCodes24(hi, 0);
    idCodes24(lo, 4);
  }
  const c = idCodes;
  return String.fromCharCode(
    c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!,
    SORTED_64_CODES[seq >>> 18]!, SORTED_64_CODES[(seq >>> 12) & 63]!,
    SORTED_64_CODES[(seq >>> 6) & 63]!, SORTED_64_CODES[seq & 63]!,
    c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
  ); // prettier-ignore
}

const SORTED_64_CODES = Uint8Array.from(SORTED_64, (ch) => ch.charCodeAt(0));
/** The character codes of the id being made: the timestamp's (0-7) and the node's (12-19). */
const idCodes = new Uint8Array(20);
let idTimestamp = -1;

/** Writes the 4 characters of a 24-bit group at `at` in idCodes. */
function idCodes24(v: number, at: number): void {
  idCodes[at] = SORTED_64_CODES[v >>> 18]!;
  idCodes[at + 1] = SORTED_64_CODES[(v >>> 12) & 63]!;
  idCodes[at + 2] = SORTED_64_CODES[(v >>> 6) & 63]!;
  idCodes[at + 3] = SORTED_64_CODES[v & 63]!;
}
idCodes24(macAddress.readUIntBE(0, 3), 12);
idCodes24(macAddress.readUIntBE(3, 3), 16);

/** Per-request counter producing `prefix0`, `prefix1`, … (deterministic aggregation names). */
export class IdCounter {
  private n = 0;
  constructor(private readonly prefix: string) {}
  next(): string {
    return `${this.prefix}${this.n++}`;
  }
}
