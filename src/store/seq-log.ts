/**
 * Keys of the per-index sequence-number log: u16 shard | u64 seq_no (both big endian, so a shard's
 * entries are contiguous and in seq_no order) | utf8 `_id`. The `_id` in the key keeps two records
 * that share a seq_no (a rolled-back copy) from overwriting each other's entry.
 *
 * A commit batch logs its records of one shard as one entry instead (one LMDB write per batch,
 * not per record, and one removal when pruned): u16 shard | u64 the batch's highest seq_no |
 * 0xff (never in UTF-8, so never an `_id`'s first byte) | u64 batch tag, whose value lists
 * (u64 seq_no | u16 length | document key) per record. Pruning up to a checkpoint removes the
 * batches whose every record is at or below it; reading from a seq_no skips the records below it.
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

const BATCH_MARK = 0xff;

/** The key of a batch entry of `shard` whose highest seq_no is `maxSeqNo`; `tag` is unique. */
export function seqLogBatchKey(shard: number, maxSeqNo: number, tag: number): Buffer {
  const k = Buffer.allocUnsafe(19);
  k.writeUInt16BE(shard, 0);
  writeU64(k, Math.max(0, maxSeqNo), 2);
  k[10] = BATCH_MARK;
  writeU64(k, tag, 11);
  return k;
}

export const isSeqLogBatchKey = (logKey: Buffer): boolean =>
  logKey.length === 19 && logKey[10] === BATCH_MARK;

/** A batch entry's value: its records' seq_nos and document keys. */
export function encodeSeqLogBatch(keys: readonly Buffer[], seqNos: readonly number[]): Buffer {
  let n = 0;
  for (const k of keys) n += 10 + k.length;
  const out = Buffer.allocUnsafe(n);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    writeU64(out, Math.max(0, seqNos[i]!), at);
    out.writeUInt16BE(k.length, at + 8);
    k.copy(out, at + 10);
    at += 10 + k.length;
  }
  return out;
}

/** The records of a batch entry with a seq_no of at least `fromSeqNo`. */
export function decodeSeqLogBatch(
  value: Buffer,
  fromSeqNo: number,
): Array<{ key: Buffer; seqNo: number }> {
  const out: Array<{ key: Buffer; seqNo: number }> = [];
  for (let at = 0; at + 10 <= value.length;) {
    const seqNo = value.readUInt32BE(at) * 0x100000000 + value.readUInt32BE(at + 4);
    const len = value.readUInt16BE(at + 8);
    if (seqNo >= fromSeqNo) out.push({ key: Buffer.from(value.subarray(at + 10, at + 10 + len)), seqNo }); // prettier-ignore
    at += 10 + len;
  }
  return out;
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
