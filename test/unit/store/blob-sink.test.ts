/**
 * A blob written from another thread's handle on the blobs environment (a build worker's): the
 * store sees it after `freshBlobReads`, the written bytes are released, and a data path that is
 * gone is never recreated.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBlob } from '../../../src/store/blob-sink.js';
import { useTempStore } from '../../helpers/temp-store.js';

describe('blob sink', () => {
  const t = useTempStore();

  it('writes a blob the store reads, and releases the written bytes', async () => {
    const store = t.open(t.dir('quarry-blob-sink-'));
    expect(store.getBlob('k')).toBeUndefined(); // this thread's read snapshot starts here
    const bytes = Buffer.allocUnsafeSlow(1 << 20).fill(9);
    await writeBlob(store.blobPlace('k')!, bytes);
    expect(bytes.length).toBe(0); // detached: lmdb-js no longer holds its memory
    store.freshBlobReads();
    const got = store.getBlob('k')!;
    expect(got.length).toBe(1 << 20);
    expect(got.every((b) => b === 9)).toBe(true);
    // the store's own writes go on in the same environment
    await store.putBlob('j', Buffer.from('x'));
    expect(store.getBlob('j')!.toString()).toBe('x');
  });

  it('a data path that is gone is not created again', async () => {
    const dir = join(t.dir('quarry-blob-sink-'), 'gone');
    await expect(
      writeBlob({ path: join(dir, 'segments.mdb'), mapSize: 2 ** 30, key: 'k' }, Buffer.from('x')),
    ).rejects.toThrow(/is gone/);
    expect(existsSync(dir)).toBe(false);
  });

  it('a closed store gives no place to write to', async () => {
    const store = t.open(t.dir('quarry-blob-sink-'));
    await t.close();
    expect(store.blobPlace('k')).toBeNull();
    expect(store.isClosed).toBe(true);
  });
});
