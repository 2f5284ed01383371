import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { docKey, encodeDoc, seqNoOf, shardRange } from '../../../src/store/doc-record.js';
import { Store } from '../../../src/store/store.js';

const header = (seqNo: number, tombstone = false) => ({
  tombstone,
  version: 3,
  seqNo,
  primaryTerm: 1,
  timestamp: 0,
  routing: tombstone ? null : 'r',
});

describe('seqNoOf', () => {
  it('reads the seq_no of an encoded record across the 32-bit boundary', () => {
    for (const n of [0, 1, 255, 65_536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 7, 2 ** 45 + 3])
      expect(seqNoOf(encodeDoc(header(n), Buffer.from('{}')))).toBe(n);
  });
});

describe('Store.docHeaders', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists keys, seq_no and tombstones of one shard without the sources', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-headers-'));
    const store = Store.open(dir);
    const db = store.docs('u1');
    const big = Buffer.from(JSON.stringify({ text: 'x'.repeat(20_000) }));
    await Promise.all([
      store.putDoc(db, docKey(0, 'a'), encodeDoc(header(5), big)),
      store.putDoc(db, docKey(0, 'b'), encodeDoc(header(7, true), null)),
      store.putDoc(db, docKey(1, 'c'), encodeDoc(header(9), Buffer.from('{}'))),
    ]);
    await store.durable();
    const { start, end } = shardRange(0);
    const rows = [...store.docHeaders('u1', start, end)].map((h) => [
      h.key.toString('utf8', 2),
      h.seqNo,
      h.tombstone,
    ]);
    expect(rows).toEqual([
      ['a', 5, false],
      ['b', 7, true],
    ]);
    // the plain handle still reads whole records
    expect(db.get(docKey(0, 'a'))!.length).toBeGreaterThan(20_000);
    await store.close();
  });
});
