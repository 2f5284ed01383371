/**
 * `readMappedCopy`: a blob handed out in place from the map is read again from the data file
 * (pread, not through the map) into a private copy with the same bytes, also when the data path
 * is reached through a symlink (the maps list names the real file). `mappedRange` says where it
 * sits in that file, for a worker thread to read it there.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../helpers/temp-store.js';
import { isMapped } from '../../../src/store/store.js';
import { readFileRange } from '../../../src/common/file-range.js';

describe('Store.readMappedCopy', () => {
  const t = useTempStore();

  it('copies a mapped blob from the file, through a symlinked data path too', async () => {
    const dir = t.dir('quarry-mapped-copy-');
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const store = t.open(join(dir, 'link'));
    const blobs = [0, 1, 2].map((salt) => {
      const b = Buffer.alloc(17 * 2 ** 20);
      for (let i = 0; i < b.length; i += 997) b[i] = (i + salt) & 0xff;
      return b;
    });
    for (const [i, b] of blobs.entries()) await store.putBlob(`k${i}`, b);
    await store.putBlob('small', Buffer.alloc(1000, 3));
    for (const [i, b] of blobs.entries()) {
      const view = store.getBlobMapped(`k${i}`)!;
      expect(isMapped(view)).toBe(true);
      const copy = store.readMappedCopy(view)!;
      expect(copy).not.toBeNull();
      expect(isMapped(copy)).toBe(false);
      expect(copy.equals(b)).toBe(true);
      const range = store.mappedRange(view)!;
      expect(range.file.endsWith('segments.mdb')).toBe(true);
      expect(readFileRange(range)!.equals(b)).toBe(true);
    }
    // a blob under 16 MB comes as a heap copy already: nothing to read again
    expect(store.readMappedCopy(store.getBlobMapped('small')!)).toBeNull();
    expect(store.mappedRange(store.getBlobMapped('small')!)).toBeNull();
  });
});
