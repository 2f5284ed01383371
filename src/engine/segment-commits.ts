/**
 * Commit points of the search index (Lucene's flush + commit): a shard's refreshed segments and
 * live-docs bitsets are written to the store with the highest sequence number they contain, so a
 * restart loads them and replays only the operations after that point from the documents.
 */
import { readFileRange } from '../common/file-range.js';
import { Bitset } from '../search/index/bitset.js';
import { prepareBlockImpactsFrom } from '../search/index/block-bounds.js';
import type { Segment } from '../search/index/segment.js';
import { setMergeBytes, setMergeFile, setMergeSource } from '../search/index/merge-source.js';
import {
  adoptEncodedArrays,
  assembleChunked,
  chunkLengths,
  decodeChunkedInPlace,
  decodeSegmentInPlace,
  encodingToWrite,
  segmentOverCopy,
} from '../search/index/segment-codec.js';
import type { ShardSnapshot } from '../search/index/live-segment.js';
import type { MergeOutput } from '../search/index/build-pool.js';
import { chunkKey } from '../store/blob-sink.js';
import { BLOB_SINK_MODULE, isMapped, readsInPlace, type Store } from '../store/store.js';

interface CommitPoint {
  /** Every op with seqNo <= maxSeqNo is reflected in these segments and live docs. */
  maxSeqNo: number;
  segments: Array<{ key: string; hasLive: boolean }>;
  generation: number;
  /**
   * Live documents in these segments; with it, the store's sequence-number log holds every record
   * written after `maxSeqNo` (absent from commits of older versions: recovery then scans the store).
   */
  liveDocs?: number;
}

const persistedKeys = new WeakMap<Segment, string>();

/** Whether a segment belongs to a commit point (ES Segment.committed): written or loaded from one. */
export function isCommitted(segment: Segment): boolean {
  return persistedKeys.has(segment);
}

const commitKey = (uuid: string, shard: number) => `commit:${uuid}:${shard}`;

/**
 * Segments reading their blob in place from the store's map, per store and blob key. A blob is
 * removed only once its segment is collected (no search can read it any more): LMDB would reuse
 * the freed pages for later writes under a search still reading them. Until then a commit that
 * no longer lists the blob leaves it, and the next commit after the collection removes it.
 */
const mapped = new WeakMap<Store, Map<string, WeakRef<Segment>>>();
/** Blobs of dropped indices still read in place: removed when their segment is collected. */
const dropWhenCollected = new WeakMap<Store, Set<string>>();
const collected = new FinalizationRegistry<{ store: WeakRef<Store>; key: string }>(
  ({ store, key }) => {
    const st = store.deref();
    if (!st) return;
    const pins = mapped.get(st);
    if (pins?.get(key)?.deref() === undefined) pins?.delete(key);
    if (!dropWhenCollected.get(st)?.delete(key)) return;
    try {
      removeStored(st, key);
    } catch {
      // the store is closed: the blob stays (a deleted index's leftover)
    }
  },
);

/**
 * A segment's blob as stored: one blob, or (a large merge a build worker wrote) a head and the
 * chunks of its data region, blobs of their own (`chunkKey(key, i)`, see blob-sink.ts). The
 * chunks are never smaller than lmdb-js's in-place size, so they are read in place from the map
 * as one blob would be; the head (the dictionaries and metadata) is small and read as a copy.
 */
interface StoredBlob {
  readonly head: Uint8Array;
  readonly chunks: readonly Uint8Array[] | null;
}

/** A segment's stored blob, or undefined when it (or one of its chunks) is missing. */
function readStored(store: Store, key: string): StoredBlob | undefined {
  const head = store.getBlobMapped(key);
  if (!head) return undefined;
  const lengths = chunkLengths(head);
  if (!lengths) return { head, chunks: null };
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < lengths.length; i++) {
    const c = store.getBlobMapped(chunkKey(key, i));
    if (!c || c.byteLength !== lengths[i]) return undefined;
    chunks.push(c);
  }
  return { head, chunks };
}

/** Whether the segment's arrays are read in place from the store's map. */
function storedInPlace(b: StoredBlob): boolean {
  return b.chunks ? b.chunks.every(isMapped) : isMapped(b.head);
}

function decodeStored(b: StoredBlob): Segment {
  return b.chunks ? decodeChunkedInPlace(b.head, b.chunks) : decodeSegmentInPlace(b.head);
}

/** The whole encoding of a stored blob read as copies (not in place). */
function storedBytes(b: StoredBlob): Uint8Array {
  return b.chunks ? assembleChunked(b.head, b.chunks) : b.head;
}

/** A heap copy of a stored blob's whole encoding, read from the file (see `readMappedCopy`). */
function storedCopy(store: Store, b: StoredBlob): Uint8Array | null {
  if (!b.chunks) return store.readMappedCopy(b.head);
  const chunks: Uint8Array[] = [];
  for (const c of b.chunks) {
    const copy = store.readMappedCopy(c);
    if (!copy) return null;
    chunks.push(copy);
  }
  return assembleChunked(b.head, chunks);
}

/** The blob a stored key belongs to: a chunk's blob (`key#i`), else the key itself. */
function ownerOf(k: string): string {
  const at = k.lastIndexOf('#');
  return at < 0 ? k : k.slice(0, at);
}

/** Removes a segment's blob and its chunks, if any. */
function removeStored(store: Store, key: string): void {
  store.removeBlob(key).catch(() => {});
  for (const k of store.blobKeys(chunkKey(key, 0).slice(0, -1)))
    store.removeBlob(k).catch(() => {});
}

/** `segment` reads `blob` in place from the store's map (merges read a copy instead). */
function pin(store: Store, key: string, segment: Segment, blob: StoredBlob): void {
  let pins = mapped.get(store);
  if (!pins) mapped.set(store, (pins = new Map()));
  pins.set(key, new WeakRef(segment));
  collected.register(segment, { store: new WeakRef(store), key });
  setMergeSource(segment, () => {
    const copy = storedCopy(store, blob);
    return copy ? segmentOverCopy(segment, copy) : null;
  });
  setMergeBytes(segment, () => storedCopy(store, blob));
  setMergeFile(segment, () => {
    if (!blob.chunks) {
      const file = store.mappedRange(blob.head);
      return file && { file };
    }
    const chunks = [];
    for (const c of blob.chunks) {
      const range = store.mappedRange(c);
      if (!range) return null;
      chunks.push(range);
    }
    return { head: blob.head, chunks };
  });
}

/**
 * Computes the block impacts (block-bounds.ts) of a segment read in place from the map from
 * private copies of its postings, read from the file field by field: computed over the map, the
 * scan of every posting would keep the pages of every text field's postings resident (138 MB for
 * a 5M-doc logs segment) until the store closes, where queries may read few of them. A field
 * whose arrays cannot be read so is computed over the map when its segment is published.
 */
function prepareImpacts(store: Store, segment: Segment): void {
  for (const f of segment.fields.values()) {
    const inv = f.inverted;
    if (!inv || (inv.freqs === null && inv.norms === null)) continue;
    const docs = privateCopy(store, inv.docs);
    const freqs = inv.freqs && privateCopy(store, inv.freqs);
    const norms = inv.norms && privateCopy(store, inv.norms);
    if (!docs || (inv.freqs && !freqs) || (inv.norms && !norms)) continue;
    prepareBlockImpactsFrom(inv, { ...inv, docs, freqs, norms });
  }
}

/** A heap copy of an array read in place from the store's map (read from the file); null if not found. */
function privateCopy<T extends Int32Array | Uint16Array | Uint8Array>(
  store: Store,
  a: T,
): T | null {
  if (!isMapped(a)) return a;
  const range = store.mappedRange(a);
  const bytes = range && readFileRange(range);
  if (!bytes) return null;
  const Ctor = a.constructor as new (b: ArrayBufferLike, off: number, len: number) => T;
  return new Ctor(bytes.buffer, bytes.byteOffset, a.length);
}

/**
 * Whether a blob must stay although no commit point names it: a segment may still read it in
 * place, or a build worker is writing it.
 */
function pinned(store: Store, key: string): boolean {
  return mapped.get(store)?.get(key)?.deref() !== undefined || writing.get(store)?.has(key) === true; // prettier-ignore
}

/**
 * Blobs no commit point names that must stay, per store: a build worker is writing them (or may
 * still), or one wrote them for a merged segment that holds a heap copy (a blob under lmdb-js's
 * in-place size) until a commit names it or the segment is collected.
 */
const writing = new WeakMap<Store, Set<string>>();
const unnamedCollected = new FinalizationRegistry<{ store: WeakRef<Store>; key: string }>(
  ({ store, key }) => {
    const st = store.deref();
    if (st) writing.get(st)?.delete(key);
  },
);
/**
 * Merged segments a build worker wrote to the store and no commit point names yet: a commit only
 * names their blob (written and flushed before the worker answered).
 */
const workerWritten = new WeakMap<Segment, string>();
/** Indices dropped, per store: a merge of theirs that a worker writes afterwards is removed. */
const droppedIndices = new WeakMap<Store, Set<string>>();

/** Names of worker-written blobs: unique across runs (a removal queued for an orphan of an
 *  earlier run never meets a new blob of the same name). */
const runTag = Math.floor(Math.random() * 36 ** 6).toString(36);
let written = 0;

/**
 * Merged encodings of at least this many bytes go to the store from the worker: from lmdb-js's
 * in-place size, where the merged segment then reads the blob from the map. The crash tests set
 * `QUARRY_WORKER_WRITES_FROM` lower, so their small merges take this path too.
 */
const WORKER_WRITES_FROM = Number(process.env.QUARRY_WORKER_WRITES_FROM) || 0x1000000;

/**
 * The chunks a build worker writes a large merge in (see blob-sink.ts): each at least half of
 * this, lmdb-js's in-place size, so each is read in place from the map. The crash tests set
 * `QUARRY_BLOB_CHUNK_BYTES` lower, so their small merges are written in chunks too.
 */
const CHUNK_BYTES = Number(process.env.QUARRY_BLOB_CHUNK_BYTES) || 0x2000000;

/**
 * Where a build worker writes a large merge of shard `shard` itself: a new blob no commit point
 * names. The merged segment reads it in place from the map once the worker answered (written and
 * flushed); the shard's next commit names it (and drops the parts' blobs). A crash before that
 * leaves an orphan, which `loadCommit` removes. Null when merged segments are not read in place.
 */
export function mergeOutput(store: Store, uuid: string, shard: number): MergeOutput | null {
  if (!readsInPlace(0x1000000)) return null;
  const key = `${uuid}:${shard}:m${runTag}.${++written}`;
  const place = store.blobPlace(key);
  if (!place) return null;
  let inFlight = writing.get(store);
  if (!inFlight) writing.set(store, (inFlight = new Set()));
  inFlight.add(key);
  const done = () => writing.get(store)?.delete(key);
  return {
    target: {
      module: BLOB_SINK_MODULE,
      place,
      minBytes: WORKER_WRITES_FROM,
      chunkBytes: CHUNK_BYTES,
    },
    adopt: () => {
      // closed: the blob stays, an orphan the next load of the commit removes
      const closed = store.isClosed;
      const dropped = !closed && droppedIndices.get(store)?.has(uuid) === true;
      if (!closed && !dropped) store.freshBlobReads(); // the worker's commit is newer than this thread's reads
      const blob = closed || dropped ? undefined : readStored(store, key);
      if (!blob) {
        done();
        if (dropped) removeStored(store, key);
        return null;
      }
      const segment = decodeStored(blob);
      workerWritten.set(segment, key);
      if (storedInPlace(blob)) {
        pin(store, key, segment, blob);
        prepareImpacts(store, segment);
        done();
      } else {
        // a heap copy (a small blob): kept until a commit names it or the segment goes
        const bytes = storedBytes(blob);
        setMergeBytes(segment, () => bytes);
        unnamedCollected.register(segment, { store: new WeakRef(store), key });
      }
      return segment;
    },
    release: () => {
      done();
      // nothing was written, or a write that failed: removed in case it committed
      if (!store.isClosed) removeStored(store, key);
    },
  };
}

/** Segments read in place from the store's map (counts for tests and stats). */
export function mappedSegments(store: Store): number {
  let n = 0;
  for (const ref of mapped.get(store)?.values() ?? []) if (ref.deref()) n++;
  return n;
}

/** The last commit point's generation and sequence number (ES CommitStats), or null. */
export function commitInfo(
  store: Store,
  uuid: string,
  shard: number,
): { generation: number; maxSeqNo: number } | null {
  const c = store.getMeta<CommitPoint>(commitKey(uuid, shard));
  return c ? { generation: c.generation, maxSeqNo: c.maxSeqNo } : null;
}

export function loadCommit(
  store: Store,
  uuid: string,
  shard: number,
): {
  maxSeqNo: number;
  /** Set when the sequence-number log lists every record after `maxSeqNo`. */
  liveDocs: number | null;
  segments: Array<{ segment: Segment; live: Bitset | null }>;
} | null {
  const c = store.getMeta<CommitPoint>(commitKey(uuid, shard));
  if (!c) return null;
  const segments: Array<{ segment: Segment; live: Bitset | null }> = [];
  for (const s of c.segments) {
    const blob = readStored(store, s.key);
    if (!blob) return null; // incomplete commit: rebuild from documents
    const segment = decodeStored(blob);
    persistedKeys.set(segment, s.key);
    if (storedInPlace(blob)) {
      pin(store, s.key, segment, blob);
      prepareImpacts(store, segment);
    } else {
      // a copy of its own: a merge on a worker reads the bytes as they are
      const bytes = storedBytes(blob);
      setMergeBytes(segment, () => bytes);
    }
    let live: Bitset | null = null;
    if (s.hasLive) {
      const lb = store.getBlob(`${s.key}:live`);
      if (!lb) return null;
      const words = new Uint32Array(Math.ceil(segment.maxDoc / 32));
      new Uint8Array(words.buffer).set(lb.subarray(0, words.byteLength));
      live = new Bitset(segment.maxDoc, words);
    }
    segments.push({ segment, live });
  }
  // Blobs a previous run kept for its running searches (or a crash left) are not in the commit:
  // removed now, unless a segment of this process still reads one (the index reopened).
  // (a chunk goes with its blob)
  const keep = new Set(c.segments.flatMap((e) => [e.key, `${e.key}:live`]));
  for (const k of store.blobKeys(`${uuid}:${shard}:`))
    if (!keep.has(ownerOf(k)) && !pinned(store, ownerOf(k))) store.removeBlob(k).catch(() => {});
  return { maxSeqNo: c.maxSeqNo, liveDocs: c.liveDocs ?? null, segments };
}

/**
 * Writes the shard's current snapshot as its commit point. The caller refreshes first, so every
 * operation up to `maxSeqNo` is in the snapshot. Unreferenced segment blobs are removed.
 */
export async function writeCommit(
  store: Store,
  uuid: string,
  shard: number,
  snap: ShardSnapshot,
  maxSeqNo: number,
): Promise<void> {
  const prev = store.getMeta<CommitPoint>(commitKey(uuid, shard));
  let generation = prev?.generation ?? 0;
  const entries: CommitPoint['segments'] = [];
  const writes: Array<Promise<boolean>> = [];
  const written: Array<{ key: string; segment: Segment }> = [];
  for (const ls of snap.segments) {
    let key = persistedKeys.get(ls.segment);
    const byWorker = key ? undefined : workerWritten.get(ls.segment);
    if (byWorker) {
      // written and flushed by the build worker that merged it: only named here
      key = byWorker;
      persistedKeys.set(ls.segment, key);
      workerWritten.delete(ls.segment);
      writing.get(store)?.delete(key);
    } else if (!key) {
      key = `${uuid}:${shard}:${++generation}`;
      const bytes = encodingToWrite(ls.segment);
      writes.push(store.putBlob(key, bytes));
      persistedKeys.set(ls.segment, key);
      // a smaller blob would come back as a copy: the segment keeps reading its encoding
      if (readsInPlace(bytes.length)) written.push({ key, segment: ls.segment });
    }
    if (ls.live) {
      const w = ls.live.words;
      writes.push(store.putBlob(`${key}:live`, Buffer.from(w.buffer, w.byteOffset, w.byteLength)));
    }
    entries.push({ key, hasLive: ls.live !== null });
  }
  const point: CommitPoint = { maxSeqNo, segments: entries, generation, liveDocs: snap.numDocs };
  // The blobs live in their own environment (store.ts): the commit point goes to disk only after
  // the blobs it names, and the blobs only the previous point named are removed only once the
  // new point is on disk, so a crash never leaves a commit point naming a missing blob.
  await Promise.all(writes);
  if (writes.length > 0) await store.blobsDurable();
  await store.putMeta(commitKey(uuid, shard), point);
  const keep = new Set(entries.flatMap((e) => [e.key, `${e.key}:live`]));
  const stale = store.blobKeys(`${uuid}:${shard}:`).filter((k) => !keep.has(ownerOf(k)) && !pinned(store, ownerOf(k))); // prettier-ignore
  if (stale.length > 0) {
    await store.durable();
    await Promise.all(stale.map((k) => store.removeBlob(k)));
  }
  // The new blobs are committed: their segments read them in place from now on, and the heap
  // arrays they were built in go once running searches drop them.
  for (const { key, segment } of written) {
    const blob = store.getBlobMapped(key);
    if (blob && isMapped(blob) && adoptEncodedArrays(segment, blob))
      pin(store, key, segment, { head: blob, chunks: null });
  }
  // Only once the commit point is committed: a crash before leaves the previous point, whose
  // replay needs the log entries after its own checkpoint.
  await store.pruneSeqLog(uuid, shard, maxSeqNo);
}

export async function dropCommits(store: Store, uuid: string, shards: number): Promise<void> {
  const writes: Array<Promise<boolean>> = [];
  let later = dropWhenCollected.get(store);
  let dropped = droppedIndices.get(store);
  if (!dropped) droppedIndices.set(store, (dropped = new Set()));
  dropped.add(uuid);
  for (let s = 0; s < shards; s++) {
    writes.push(store.removeMeta(commitKey(uuid, s)));
    for (const k of store.blobKeys(`${uuid}:${s}:`)) {
      const owner = ownerOf(k);
      if (writing.get(store)?.has(owner)) continue; // removed when the worker answers
      if (!pinned(store, owner)) writes.push(store.removeBlob(k));
      else {
        if (!later) dropWhenCollected.set(store, (later = new Set()));
        later.add(owner); // its chunks go with it
      }
    }
  }
  await Promise.all(writes);
}

/**
 * Removes the blobs of indices that no longer exist (at the node's start, when every index
 * loaded): a merge a build worker wrote just before its index was deleted and the process died
 * leaves one that no index's commit would ever look at.
 */
export function dropUnownedBlobs(store: Store, owned: ReadonlySet<string>): void {
  for (const k of store.blobKeys('')) {
    const at = k.indexOf(':');
    if (at > 0 && !owned.has(k.slice(0, at)) && !pinned(store, ownerOf(k)))
      store.removeBlob(k).catch(() => {});
  }
}
