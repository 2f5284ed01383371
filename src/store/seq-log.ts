/**
 * Keys of the per-index sequence-number log: u16 shard | u64 seq_no (both big endian, so a shard's
 * entries are contiguous and in seq_no order) | utf8 `_id`. The `_id` in the key keeps two records
 * that share a seq_no (a rolled-back copy) from overwriting each other's entry.
 */

/** The log key of a document record: `docKey` is u16 shard + utf8 id (see doc-record.ts). */
export function seqLogKey(docKey: Buffer, seqNo: number): Buffer {
  const k = Buffer.allocUnsafe(docKey.length + 8);
  docKey.copy(k, 0, 0, 2);
  writeU64(k, Math.max(0, seqNo), 2);
  docKey.copy(k, 10, 2);
  return k;
}

/** The document key and seq_no a log key names. */
export function seqLogEntry(logKey: Buffer): { key: Buffer; seqNo: number } {
  const key = Buffer.allocUnsafe(logKey.length - 8);
  logKey.copy(key, 0, 0, 2);
  logKey.copy(key, 2, 10);
  return { key, seqNo: logKey.readUInt32BE(2) * 0x100000000 + logKey.readUInt32BE(6) };
}

/** Range of a shard's log from `fromSeqNo` (inclusive) to the shard's end (exclusive). */
export function seqLogBounds(shard: number, fromSeqNo: number): { start: Buffer; end: Buffer } {
  const start = Buffer.alloc(10);
  start.writeUInt16BE(shard, 0);
  writeU64(start, Math.max(0, fromSeqNo), 2);
  const end = Buffer.alloc(2);
  end.writeUInt16BE(shard + 1, 0);
  return { start, end };
}

function writeU64(b: Buffer, n: number, at: number): void {
  b.writeUInt32BE(Math.floor(n / 0x100000000), at);
  b.writeUInt32BE(n >>> 0, at + 4);
}
