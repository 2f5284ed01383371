/**
 * A blob written by a build worker thread into the store's blobs environment (`segments.mdb`): a
 * large merged segment goes to disk from the thread that merged it, so its bytes never cross to
 * the shard's thread, which reads the blob in place from the map instead.
 *
 * lmdb-js keeps one LMDB environment per file and process: opening `segments.mdb` here, while the
 * store has it open, shares the store's environment (writes of both threads take its one write
 * lock in turn), and closing it here only drops this thread's reference.
 */
import { existsSync } from 'node:fs';
import { open } from 'lmdb';
import type { BlobPlace } from './store.js';

/**
 * Writes `bytes` as the blob `place.key` and resolves once the write is committed and flushed to
 * disk: a commit point may name the blob from then on. No commit point names it yet, so a crash
 * before one does leaves an orphan, which the next load of the shard's commit removes.
 *
 * Once written, `bytes` is released: when it has its ArrayBuffer to itself, that buffer is
 * detached (its memory goes with the caller's last reference). lmdb-js keeps a reference to the
 * last value a thread wrote until that thread writes again, and a merged segment's encoding is
 * hundreds of megabytes a worker would otherwise hold until its next merge.
 */
export async function writeBlob(place: BlobPlace, bytes: Uint8Array): Promise<void> {
  // the store closed and its directory went (an index deleted, a test's data path): never
  // create a new environment here
  if (!existsSync(place.path)) throw new Error(`[${place.path}] is gone`);
  const env = open({ path: place.path, maxDbs: 4, mapSize: place.mapSize, overlappingSync: true });
  try {
    const db = env.openDB<Uint8Array, string>({ name: 'segments', encoding: 'binary' });
    await db.put(place.key, bytes);
    await db.flushed;
  } finally {
    await env.close();
  }
  release(bytes);
}

/** Detaches `bytes`' ArrayBuffer when it has it to itself (see `writeBlob`). */
function release(bytes: Uint8Array): void {
  const own = bytes.buffer;
  if (own instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === own.byteLength)
    structuredClone(own, { transfer: [own] });
}

/** The key of chunk `i` of the chunked blob `key` (see `writeChunkedBlob`). */
export function chunkKey(key: string, i: number): string {
  return `${key}#${i}`;
}

/**
 * Writes a chunked blob: `count` chunks (`chunk(i)` gives chunk `i`, released once written) as
 * the blobs `chunkKey(place.key, i)`, each in a commit of its own, then `head` as `place.key`;
 * resolves once all are committed and flushed to disk. LMDB copies a value into pages of its own
 * as it writes it and frees them at the commit: written whole, a merged segment of several
 * hundred megabytes would briefly cost its size twice (its bytes and the copy); in chunks, the
 * chunk being written only. A crash before a commit point names the head leaves orphans, which
 * the next load of the shard's commit removes with the blobs they belong to.
 */
export async function writeChunkedBlob(
  place: BlobPlace,
  head: Uint8Array,
  count: number,
  chunk: (i: number) => Uint8Array,
): Promise<void> {
  if (!existsSync(place.path)) throw new Error(`[${place.path}] is gone`);
  const env = open({ path: place.path, maxDbs: 4, mapSize: place.mapSize, overlappingSync: true });
  try {
    const db = env.openDB<Uint8Array, string>({ name: 'segments', encoding: 'binary' });
    for (let i = 0; i < count; i++) {
      const bytes = chunk(i);
      await db.put(chunkKey(place.key, i), bytes);
      release(bytes);
    }
    await db.put(place.key, head);
    await db.flushed;
  } finally {
    await env.close();
  }
}
