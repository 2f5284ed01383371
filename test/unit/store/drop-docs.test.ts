/**
 * Dropping an index's document database while writes are queued (a replica's write racing the
 * index's deletion in a cluster): the dropped database's writes are skipped and the other
 * indices' writes of the same transaction commit, where LMDB would fail them all (EINVAL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { docKey, encodeDoc } from '../../../src/store/doc-record.js';
import { Store } from '../../../src/store/store.js';

const header = {
  tombstone: false,
  version: 1,
  seqNo: 0,
  primaryTerm: 1,
  timestamp: 0,
  routing: null,
};

describe('Store.dropDocs', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('skips writes queued for a dropped database and commits the others', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-drop-'));
    const store = Store.open(dir);
    const gone = store.docs('gone');
    const kept = store.docs('kept');
    const w1 = store.putDoc(gone, docKey(0, 'a'), encodeDoc(header, Buffer.from('{}')));
    const w2 = store.putDoc(kept, docKey(0, 'b'), encodeDoc(header, Buffer.from('{"b":1}')));
    const dropped = store.dropDocs('gone');
    // a late write to the dropped database, queued after the drop began, then one after it ended
    const w3 = store.putDoc(gone, docKey(0, 'c'), encodeDoc(header, Buffer.from('{}')));
    await Promise.all([w1, w2, dropped, w3]);
    const w4 = store.putDoc(gone, docKey(0, 'd'), encodeDoc(header, Buffer.from('{}')));
    const w5 = store.putDoc(kept, docKey(0, 'e'), encodeDoc(header, Buffer.from('{"e":1}')));
    await Promise.all([w4, w5]);
    expect(store.docs('kept').getBinary(docKey(0, 'e'))).toBeDefined();
    await store.durable();
    expect(store.docs('kept').getBinary(docKey(0, 'b'))).toBeDefined();
    expect(store.docs('gone').getBinary(docKey(0, 'a'))).toBeUndefined();
    await store.close();
  });
});
