/**
 * Segment blobs live in `segments.mdb`, apart from the document records in `quarry.mdb` (the
 * records would otherwise reuse pages freed by removed blobs, inside large page-cache folios that
 * the writer's reads map whole). A data path written before the split still has its blobs in
 * `quarry.mdb`: they are read (in place too), listed and removed as before.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../helpers/temp-store.js';
import { isMapped } from '../../../src/store/store.js';

describe('Store segment environment', () => {
  const t = useTempStore();

  it('writes blobs to segments.mdb, not to the records environment', async () => {
    const dir = t.dir('quarry-seg-env-');
    let store = t.open(dir);
    await store.putBlob('u:0:1', Buffer.alloc(1000, 7));
    await store.durable();
    await t.close();
    expect(existsSync(join(dir, 'segments.mdb'))).toBe(true);
    const records = open({ path: join(dir, 'quarry.mdb'), maxDbs: 4096 });
    const names = [...records.getKeys()].map(String);
    await records.close();
    expect(names).not.toContain('segments');
    store = t.open(dir);
    expect(store.getBlob('u:0:1')?.equals(Buffer.alloc(1000, 7))).toBe(true);
    expect(store.blobKeys('u:0:')).toEqual(['u:0:1']);
  });

  it('reads, lists and removes blobs a data path kept in quarry.mdb', async () => {
    const dir = t.dir('quarry-seg-legacy-');
    const big = Buffer.alloc(17 * 2 ** 20);
    for (let i = 0; i < big.length; i += 991) big[i] = i & 0xff;
    const old = open({ path: join(dir, 'quarry.mdb'), maxDbs: 4096, mapSize: 2 ** 32 });
    const oldSegs = old.openDB<Buffer, string>({ name: 'segments', encoding: 'binary' });
    await oldSegs.put('u:0:1', Buffer.alloc(500, 1));
    await oldSegs.put('u:0:2', big);
    await old.close();

    const store = t.open(dir);
    await store.putBlob('u:0:3', Buffer.alloc(600, 3));
    expect(store.getBlob('u:0:1')?.equals(Buffer.alloc(500, 1))).toBe(true);
    const view = store.getBlobMapped('u:0:2')!;
    expect(isMapped(view)).toBe(true);
    expect(Buffer.from(view).equals(big)).toBe(true);
    // a merge reads the legacy file's blob by pread as well
    expect(store.readMappedCopy(view)?.equals(big)).toBe(true);
    expect(store.blobKeys('u:0:').sort()).toEqual(['u:0:1', 'u:0:2', 'u:0:3']);

    expect(await store.removeBlob('u:0:1')).toBe(true);
    expect(await store.removeBlob('u:0:3')).toBe(true);
    expect(store.getBlob('u:0:1')).toBeUndefined();
    expect(store.blobKeys('u:0:')).toEqual(['u:0:2']);
  });
});
