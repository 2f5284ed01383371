/**
 * The store's sequence-number log: one entry per shard of a commit batch, listing its records, in
 * the records' transaction, read back in seq_no order per shard, pruned up to a commit's
 * checkpoint, dropped with the index; single-record entries of older stores are still read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { docKey, encodeDoc, idFromKey } from '../../../src/store/doc-record.js';
import {
  decodeSeqLogBatch,
  encodeSeqLogBatch,
  isSeqLogBatchKey,
  seqLogBatchKey,
  seqLogEntry,
  seqLogKey,
} from '../../../src/store/seq-log.js';
import { Store } from '../../../src/store/store.js';

const rec = (seqNo: number, tombstone = false) =>
  encodeDoc(
    { tombstone, version: 1, seqNo, primaryTerm: 1, timestamp: 0, routing: null },
    tombstone ? null : Buffer.from('{}'),
  );

describe('seq-log keys', () => {
  it('round-trip and sort by shard, then seq_no (beyond 2^32), then id', () => {
    const keys = [
      seqLogKey(docKey(1, 'a'), 0),
      seqLogKey(docKey(0, 'z'), 2 ** 40 + 3),
      seqLogKey(docKey(0, 'b'), 7),
      seqLogKey(docKey(0, 'a'), 7),
      seqLogKey(docKey(0, 'ü'), 300),
    ];
    const sorted = [...keys].sort(Buffer.compare).map(seqLogEntry);
    expect(sorted.map((e) => [e.key.readUInt16BE(0), e.seqNo, idFromKey(e.key)])).toEqual([
      [0, 7, 'a'],
      [0, 7, 'b'],
      [0, 300, 'ü'],
      [0, 2 ** 40 + 3, 'z'],
      [1, 0, 'a'],
    ]);
  });
});

describe('seq-log batch entries', () => {
  it('sort among single entries by shard and highest seq_no, and list their records', () => {
    const batch = seqLogBatchKey(0, 9, 2 ** 40 + 1);
    expect(isSeqLogBatchKey(batch)).toBe(true);
    expect(isSeqLogBatchKey(seqLogKey(docKey(0, 'abcdefghi'), 9))).toBe(false);
    const sorted = [seqLogKey(docKey(0, 'a'), 10), batch, seqLogKey(docKey(0, 'z'), 8)].sort(
      Buffer.compare,
    );
    expect(sorted.indexOf(batch)).toBe(1);
    const keys = [docKey(0, 'x'), docKey(0, 'ü'), docKey(0, 'y')];
    const value = encodeSeqLogBatch(keys, [7, 2 ** 40 + 3, 9]);
    const read = (from: number) =>
      decodeSeqLogBatch(value, from).map((e) => `${idFromKey(e.key)}@${e.seqNo}`);
    expect(read(0)).toEqual(['x@7', `ü@${2 ** 40 + 3}`, 'y@9']);
    expect(read(8)).toEqual([`ü@${2 ** 40 + 3}`, 'y@9']);
  });
});

describe('Store sequence-number log', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('logs every record write, reads a shard from a seq_no, prunes and drops', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-seqlog-unit-'));
    const store = Store.open(dir);
    const db = store.docs('u1');
    // two commit batches: x@0 y@1 q@0, then x@2 y@3
    await Promise.all([
      store.putDoc(db, docKey(0, 'x'), rec(0)),
      store.putDoc(db, docKey(0, 'y'), rec(1)),
      store.putDoc(db, docKey(1, 'q'), rec(0)),
    ]);
    await Promise.all([
      store.putDoc(db, docKey(0, 'x'), rec(2)), // update: a second entry
      store.putDoc(db, docKey(0, 'y'), rec(3, true)), // tombstone
    ]);
    const read = (shard: number, from: number) =>
      [...store.seqLogFrom('u1', shard, from)].map((e) => `${idFromKey(e.key)}@${e.seqNo}`);
    expect(read(0, 0)).toEqual(['x@0', 'y@1', 'x@2', 'y@3']);
    expect(read(0, 2)).toEqual(['x@2', 'y@3']);
    expect(read(0, 3)).toEqual(['y@3']);
    expect(read(1, 0)).toEqual(['q@0']);
    // a batch goes once every record of it is covered: the second one stays after a prune to 2
    await store.pruneSeqLog('u1', 0, 2);
    expect(read(0, 0)).toEqual(['x@2', 'y@3']);
    expect(read(0, 3)).toEqual(['y@3']);
    await store.pruneSeqLog('u1', 0, 3);
    expect(read(0, 0)).toEqual([]);
    expect(read(1, 0)).toEqual(['q@0']);
    await store.dropDocs('u1');
    expect(read(0, 0)).toEqual([]);
    expect(read(1, 0)).toEqual([]);
    await store.close();
  });
});
