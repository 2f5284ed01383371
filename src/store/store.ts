/**
 * The durable store: two LMDB environments per data path. `quarry.mdb` holds a `meta` database
 * (node and index metadata as JSON) and, per index, a `docs:<uuid>` database keyed by shard +
 * `_id` and its sequence-number log; `segments.mdb` holds the search segments' blobs. Writes are
 * queued by lmdb-js and committed in batches; `durable()` resolves once every record and metadata
 * write queued so far is committed and flushed to disk, which is when the engine acknowledges a
 * write.
 *
 * Why the blobs have an environment of their own: the kernel keeps a file's page cache in large
 * folios (up to 2 MB) where it was written in large writes, and a read fault through the map on
 * such a folio maps all of it into the process. LMDB's writer reads the pages it modifies (the
 * last leaf of each B-tree, branch pages) through the map; in one file, the document records
 * reuse the pages that removed (merged) segment blobs freed, inside those large folios, so every
 * write batch mapped about 2 MB and the file-backed RSS grew with the records written (~100 MB
 * per million logs documents). Apart, the records' file has small folios and the writer maps a
 * few pages a batch, and the blobs' file is mapped where segments are read, as before.
 */
import { closeSync, mkdirSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import * as lmdb from 'lmdb';
import { open, type Database, type RootDatabase } from 'lmdb';
import { readFileRange, type FileRange } from '../common/file-range.js';
import { FLAG_TOMBSTONE, RECORD_HEADER_BYTES, seqNoOf } from './doc-record.js';
import {
  decodeSeqLogBatch,
  encodeSeqLogBatch,
  isSeqLogBatchKey,
  seqLogBatchKey,
  seqLogBounds,
  seqLogEntry,
} from './seq-log.js';

export type DocsDb = Database<Buffer, Buffer>;

export interface DocSeq {
  key: Buffer;
  seqNo: number;
  tombstone: boolean;
}

/** Header decoder for `docHeaders`: seq_no * 2 + tombstone bit (no allocation per record). */
function seqAndFlag(b: Uint8Array, size?: number): number {
  // A record cut short is corrupt: recovery must fail (the index goes red), not read garbage.
  const n = size ?? b.length;
  if (n < RECORD_HEADER_BYTES)
    throw new RangeError(
      `document record of ${n} bytes is shorter than its ${RECORD_HEADER_BYTES}-byte header`,
    );
  return seqNoOf(b) * 2 + (b[0]! & FLAG_TOMBSTONE);
}

/** `QUARRY_SEGMENTS_IN_HEAP=1` copies segment blobs into the heap (the old way, for comparison). */
const segmentsInHeap = process.env.QUARRY_SEGMENTS_IN_HEAP === '1';

/** Whether lmdb-js returned a view over its memory map (not a heap buffer). */
export function isMapped(bytes: ArrayBufferView): boolean {
  return (bytes.buffer as { isSharedMap?: boolean }).isSharedMap === true;
}

/**
 * Whether `getBlobMapped` hands out a blob of this size in place: lmdb-js shares values of 16 MB
 * and more as views of its map and copies smaller ones (reading them through the map).
 */
export function readsInPlace(bytes: number): boolean {
  return !segmentsInHeap && bytes >= 0x1000000;
}

function readOnlyHandle(): never {
  throw new Error('the header handle is read-only');
}

/**
 * The map reserves address space only (the file grows with the data). It is large so it never
 * has to grow: lmdb-js keeps the old mapping when it grows the map (views handed out by
 * `getBlobMapped` stay valid), and every page read through an old mapping stays resident and
 * counted in the process's RSS besides the new one's.
 */
const DEFAULT_MAP_SIZE = 128 * 2 ** 30;

/** lmdb-js's native `getAddress` (not in its typings): where an ArrayBuffer's memory starts. */
function addressOf(b: ArrayBufferLike): number | null {
  const native = (lmdb as unknown as { nativeAddon?: { getAddress?(b: ArrayBufferLike): number } })
    .nativeAddon;
  return typeof native?.getAddress === 'function' ? native.getAddress(b) : null;
}

/**
 * Where `bytes` bytes at address `addr` sit in `file`, from the mapping that holds them
 * (/proc/self/maps: start-end perms offset dev inode path); null when no mapping of the file does.
 */
function fileOffsetOf(file: string, addr: number, bytes: number): number | null {
  let maps: string;
  try {
    maps = readFileSync('/proc/self/maps', 'utf8');
  } catch {
    return null; // not Linux
  }
  for (const line of maps.split('\n')) {
    if (!line.endsWith(file)) continue;
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) /.exec(line);
    if (!m) continue;
    const start = parseInt(m[1]!, 16);
    const end = parseInt(m[2]!, 16);
    if (addr >= start && addr + bytes <= end) return parseInt(m[3]!, 16) + (addr - start);
  }
  return null;
}

/**
 * Where a build worker writes a merged segment's blob itself (blob-sink.ts): the blobs'
 * environment, which lmdb-js shares between the threads of a process that open it.
 */
export interface BlobPlace {
  /** `segments.mdb` of the store's data path. */
  readonly path: string;
  readonly mapSize: number;
  readonly key: string;
}

/** The module a build worker imports to write a blob (`writeBlob` in blob-sink.ts). */
export const BLOB_SINK_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './blob-sink.ts' : './blob-sink.js',
  import.meta.url,
).href;

export interface StoreOptions {
  /** Initial map size in bytes; LMDB grows it as needed. */
  mapSize?: number;
}

/**
 * Document writes queued in one event-loop turn, as parallel lists rather than an object per
 * write: a bulk's writes stay queued while it runs, through the young collections it causes.
 */
interface QueuedDocs {
  dbs: DocsDb[];
  keys: Buffer[];
  values: Array<Buffer | null>;
}

export class Store {
  private readonly root: RootDatabase;
  private readonly meta: Database<unknown, string>;
  private readonly docDbs = new Map<string, DocsDb>();
  private readonly headerDbs = new Map<string, Database<number, Buffer>>();
  /**
   * Per index, the sequence-number log: shard + seq_no + _id of every document record written,
   * in the same transaction as the record, so a restart finds the records newer than the last
   * commit point without reading every record. Pruned up to the checkpoint of each commit point.
   */
  private readonly seqLogs = new Map<string, Database<Buffer, Buffer>>();
  private readonly seqLogOf = new WeakMap<DocsDb, Database<Buffer, Buffer>>();
  /** Persisted search segments and live-docs bitsets (derived data, rebuildable from docs). */
  private readonly segEnv: RootDatabase;
  private readonly segDb: Database<Buffer, string>;
  /**
   * The blobs of a data path written before they moved to `segments.mdb` (null when none): read
   * and removed as before, never written; commits replace them as segments merge.
   */
  private readonly legacySegDb: Database<Buffer, string> | null;
  /** Document writes queued in this event-loop turn, committed together in one transaction. */
  private queued: QueuedDocs = { dbs: [], keys: [], values: [] };
  private queuedCommit: Promise<void> | null = null;
  private resolveQueued: (() => void) | null = null;
  private rejectQueued: ((e: unknown) => void) | null = null;

  private readonly mapSize: number;

  private constructor(
    readonly dataPath: string,
    opts: StoreOptions,
  ) {
    mkdirSync(dataPath, { recursive: true });
    this.mapSize = opts.mapSize ?? DEFAULT_MAP_SIZE;
    this.root = open({
      path: join(dataPath, 'quarry.mdb'),
      maxDbs: 4096,
      mapSize: opts.mapSize ?? DEFAULT_MAP_SIZE,
      // Commit flushes overlap with the next transaction; durable() waits for the flush.
      overlappingSync: true,
    });
    this.meta = this.root.openDB<unknown, string>({ name: 'meta', encoding: 'json' });
    this.legacySegDb = this.hasDatabase('segments')
      ? this.root.openDB<Buffer, string>({ name: 'segments', encoding: 'binary' })
      : null;
    this.segEnv = open({
      path: join(dataPath, 'segments.mdb'),
      maxDbs: 4,
      mapSize: opts.mapSize ?? DEFAULT_MAP_SIZE,
      overlappingSync: true,
    });
    this.segDb = this.segEnv.openDB<Buffer, string>({ name: 'segments', encoding: 'binary' });
  }

  /** Whether `quarry.mdb` has a named database (they are keys of its main database). */
  private hasDatabase(name: string): boolean {
    for (const k of this.root.getKeys({ start: name })) return k === name;
    return false;
  }

  static open(dataPath: string, opts: StoreOptions = {}): Store {
    return new Store(dataPath, opts);
  }

  getMeta<T>(key: string): T | undefined {
    return this.meta.get(key) as T | undefined;
  }

  putMeta(key: string, value: unknown): Promise<boolean> {
    return this.meta.put(key, value);
  }

  removeMeta(key: string): Promise<boolean> {
    return this.meta.remove(key);
  }

  metaKeys(prefix: string): string[] {
    const out: string[] = [];
    for (const k of this.meta.getKeys({ start: prefix })) {
      if (typeof k !== 'string' || !k.startsWith(prefix)) break;
      out.push(k);
    }
    return out;
  }

  docs(uuid: string): DocsDb {
    let db = this.docDbs.get(uuid);
    if (!db) {
      db = this.root.openDB<Buffer, Buffer>({
        name: `docs:${uuid}`,
        encoding: 'binary',
        keyEncoding: 'binary',
      });
      this.docDbs.set(uuid, db);
      this.seqLogOf.set(db, this.seqLog(uuid));
    }
    return db;
  }

  private seqLog(uuid: string): Database<Buffer, Buffer> {
    let db = this.seqLogs.get(uuid);
    if (!db) {
      db = this.root.openDB<Buffer, Buffer>({
        name: `seqlog:${uuid}`,
        encoding: 'binary',
        keyEncoding: 'binary',
      });
      this.seqLogs.set(uuid, db);
    }
    return db;
  }

  /**
   * The document keys a shard's sequence-number log holds from `fromSeqNo` on, in seq_no order.
   * An entry may be stale (its record since overwritten or purged): the caller checks the record.
   */
  *seqLogFrom(
    uuid: string,
    shard: number,
    fromSeqNo: number,
  ): Generator<{ key: Buffer; seqNo: number }> {
    const { start, end } = seqLogBounds(shard, fromSeqNo);
    const out: Array<{ key: Buffer; seqNo: number }> = [];
    for (const { key, value } of this.seqLog(uuid).getRange({ start, end })) {
      const k = key as Buffer;
      if (isSeqLogBatchKey(k)) for (const e of decodeSeqLogBatch(value, fromSeqNo)) out.push(e);
      else out.push(seqLogEntry(k));
    }
    // batches overlap in seq_no (concurrent bulks): sorted here, stably (a rolled-back copy's
    // records may share one)
    out.sort((a, b) => a.seqNo - b.seqNo);
    yield* out;
  }

  /**
   * Removes a shard's log entries up to and including `upToSeqNo` (a commit point covers them).
   * Best effort: an entry left behind (the index dropped meanwhile) is at or below the checkpoint,
   * so recovery never reads it, and the next commit prunes it.
   */
  async pruneSeqLog(uuid: string, shard: number, upToSeqNo: number): Promise<void> {
    if (upToSeqNo < 0) return;
    const log = this.seqLogs.get(uuid);
    if (!log) return;
    const { start } = seqLogBounds(shard, 0);
    const { start: end } = seqLogBounds(shard, upToSeqNo + 1);
    const keys = [...log.getKeys({ start, end })] as Buffer[];
    if (keys.length === 0) return;
    await this.root
      .transaction(() => {
        if (this.seqLogs.get(uuid) !== log) return; // dropped since
        for (const k of keys) log.removeSync(k);
      })
      .catch(() => {});
  }

  /**
   * Every document key of a shard range with its `_seq_no` and tombstone flag, read straight from
   * the mapped pages: a second handle on the same database decodes only the record header, so a
   * restart does not copy every `_source` (the plain handle makes a Buffer per value).
   */
  *docHeaders(uuid: string, start: Buffer, end: Buffer): Generator<DocSeq> {
    let db = this.headerDbs.get(uuid);
    if (!db) {
      // `encoder` is an lmdb-js option its typings do not list for openDB.
      const options = {
        name: `docs:${uuid}`,
        keyEncoding: 'binary' as const,
        encoder: { encode: readOnlyHandle, decode: seqAndFlag },
      };
      db = this.root.openDB<number, Buffer>(options);
      this.headerDbs.set(uuid, db);
    }
    for (const { key, value } of db.getRange({ start, end })) {
      this.docHeadersRead++;
      yield { key: key as Buffer, seqNo: Math.floor(value / 2), tombstone: (value & 1) === 1 };
    }
  }

  /** Record headers `docHeaders` has read (a restart from a commit point should read none). */
  docHeadersRead = 0;

  /** The index uuids that have a document database in the environment. */
  docDatabases(): string[] {
    const out: string[] = [];
    for (const k of this.root.getKeys({ start: 'docs:' })) {
      if (typeof k !== 'string' || !k.startsWith('docs:')) break;
      out.push(k.slice('docs:'.length));
    }
    return out;
  }

  async dropDocs(uuid: string): Promise<void> {
    const db = this.docs(uuid);
    const log = this.seqLog(uuid);
    this.docDbs.delete(uuid);
    this.headerDbs.delete(uuid);
    this.seqLogs.delete(uuid);
    // writes queued for it from now on are skipped: a write to a dropped database would fail the
    // whole shared transaction (EINVAL), other indices' writes included
    this.dropped.add(db);
    await this.committed();
    await db.drop();
    await log.drop();
  }

  /**
   * Tags of the log's batch entries: unique across restarts (a random base, in whole 2^32 steps,
   * so two batches with the same highest seq_no never share a key).
   */
  private readonly logTagBase = Math.floor(Math.random() * 0x200000) * 0x100000000;
  private logTags = 0;

  /** Document databases dropped (their late writes are skipped). */
  private readonly dropped = new WeakSet<object>();

  /**
   * Queues a document write. Writes queued in one turn go to LMDB together, in one commit; the
   * promise resolves when that commit is done.
   */
  putDoc(db: DocsDb, key: Buffer, value: Buffer): Promise<void> {
    return this.queueDoc(db, key, value);
  }

  /**
   * Queues the removal of a document record (tombstone included): only a recovering copy rolls
   * back what its primary never had; every other delete is a tombstone.
   */
  removeDoc(db: DocsDb, key: Buffer): Promise<void> {
    return this.queueDoc(db, key, null);
  }

  private queueDoc(db: DocsDb, key: Buffer, value: Buffer | null): Promise<void> {
    const q = this.queued;
    q.dbs.push(db);
    q.keys.push(key);
    q.values.push(value);
    if (!this.queuedCommit) {
      this.queuedCommit = new Promise<void>((res, rej) => {
        this.resolveQueued = res;
        this.rejectQueued = rej;
      });
      queueMicrotask(() => void this.flushQueued());
    }
    return this.queuedCommit;
  }

  /** Starts the transaction for everything queued; resolves when it commits. */
  private flushQueued(): Promise<void> {
    const done = this.queuedCommit;
    if (!done) return Promise.resolve();
    const { dbs, keys, values } = this.queued;
    const res = this.resolveQueued!;
    const rej = this.rejectQueued!;
    this.queued = { dbs: [], keys: [], values: [] };
    this.queuedCommit = null;
    this.resolveQueued = this.rejectQueued = null;
    // Queued puts, not a transaction callback: lmdb-js batches every write queued in this turn
    // into one commit and does the B-tree work on its own write thread, not on this one. The
    // records' sequence-number log entry (one per shard of a database) is queued before the
    // records: were a batch ever split between them, recovery finds log entries without their
    // records (skipped), never a record written after the commit without the entry that makes
    // it replayed.
    const logged = new Map<Database<Buffer, Buffer>, Map<number, { keys: Buffer[]; seqNos: number[] }>>(); // prettier-ignore
    for (let i = 0; i < dbs.length; i++) {
      const db = dbs[i]!;
      const key = keys[i]!;
      const value = values[i]!;
      if (value === null || this.dropped.has(db)) continue;
      // only a well-formed record is logged (shard prefix and header): a malformed write must
      // not throw here, where it would leave every write of this batch unanswered
      if (key.length < 2 || value.length < RECORD_HEADER_BYTES) continue;
      const log = this.seqLogOf.get(db);
      if (!log) continue;
      let shards = logged.get(log);
      if (!shards) logged.set(log, (shards = new Map()));
      const shard = key.readUInt16BE(0);
      let b = shards.get(shard);
      if (!b) shards.set(shard, (b = { keys: [], seqNos: [] }));
      b.keys.push(key);
      b.seqNos.push(seqNoOf(value));
    }
    for (const [log, shards] of logged) {
      for (const [shard, b] of shards) {
        let max = 0;
        for (const n of b.seqNos) if (n > max) max = n;
        const tag = this.logTagBase + this.logTags++;
        void log.put(seqLogBatchKey(shard, max, tag), encodeSeqLogBatch(b.keys, b.seqNos));
      }
    }
    let last: Promise<boolean> = Promise.resolve(true);
    for (let i = 0; i < dbs.length; i++) {
      const db = dbs[i]!;
      if (this.dropped.has(db)) continue;
      const value = values[i]!;
      last = value === null ? db.remove(keys[i]!) : db.put(keys[i]!, value);
    }
    last.then(() => res(), rej);
    return done;
  }

  /**
   * Resolves when every record and metadata write queued so far is committed and flushed to disk.
   * Not the blobs (`blobsDurable`): an acknowledged write does not wait behind a large merged
   * segment's flush, and what needs a blob on disk (a commit point) waits for it itself.
   */
  async durable(): Promise<void> {
    await this.flushQueued();
    await this.root.committed;
    await this.root.flushed;
  }

  /** Resolves when every write queued so far is committed (visible), not necessarily flushed. */
  async committed(): Promise<void> {
    await this.flushQueued();
    await Promise.all([this.root.committed, this.segEnv.committed]);
  }

  /**
   * Resolves when every blob write and removal queued so far is flushed to disk. The blobs are
   * in their own environment: a commit point (in `quarry.mdb`) must not reach the disk before
   * the blobs it names, nor the removal of the blobs the previous one named before it.
   */
  async blobsDurable(): Promise<void> {
    await this.segEnv.committed;
    await this.segEnv.flushed;
  }

  putBlob(key: string, value: Buffer): Promise<boolean> {
    return this.segDb.put(key, value);
  }

  getBlob(key: string): Buffer | undefined {
    return this.segDb.getBinary(key) ?? this.legacySegDb?.getBinary(key);
  }

  /**
   * A blob read in place from the memory map when lmdb-js can hand it out that way (values of
   * 16 MB and more; smaller ones land in a reused buffer and are copied): no heap copy, and its
   * pages are the OS page cache's to keep or drop. Such a view is read-only (a write faults) and
   * stays valid while the blob is stored: LMDB never rewrites a committed value's pages, it frees
   * them when the value is removed and reuses them in a later write; a grown map leaves the old
   * mapping in place. So the caller keeps the blob until nothing reads the view, and the store
   * must not be closed under it: `close()` detaches the mapped buffers, so a late read finds an
   * empty array instead of unmapped memory.
   */
  getBlobMapped(key: string): Uint8Array | undefined {
    if (segmentsInHeap) return this.getBlob(key);
    const v = (this.segDb.getBinaryFast(key) ?? this.legacySegDb?.getBinaryFast(key)) as
      Uint8Array | undefined;
    if (!v) return undefined;
    if (isMapped(v)) {
      this.mappedBuffers.add(v.buffer);
      return v;
    }
    return Uint8Array.prototype.slice.call(v, 0, v.length);
  }

  /**
   * A heap copy of a blob `getBlobMapped` handed out in place, read from the data file with
   * `pread` instead of through the map; null when its place in the file is not found. A page read
   * through the map stays mapped, counted in the process's RSS, until the store closes: a reader
   * of every byte that keeps none of them (a merge) reads this copy instead.
   */
  readMappedCopy(view: Uint8Array): Buffer | null {
    const range = this.mappedRange(view);
    return range && readFileRange(range);
  }

  /**
   * Where a blob `getBlobMapped` handed out in place sits in its data file, for another thread to
   * read it from there (`readFileRange`); null when not found. The bytes stay there, unchanged,
   * while the blob is stored (see `getBlobMapped`).
   */
  mappedRange(view: ArrayBufferView): FileRange | null {
    if (this.closed || !isMapped(view)) return null;
    const at = addressOf(view.buffer);
    if (at === null) return null;
    let file = this.dataFile('segments.mdb');
    let pos = fileOffsetOf(file, at + view.byteOffset, view.byteLength);
    if (pos === null && this.legacySegDb) {
      file = this.dataFile('quarry.mdb');
      pos = fileOffsetOf(file, at + view.byteOffset, view.byteLength);
    }
    return pos === null ? null : { file, offset: pos, length: view.byteLength };
  }

  /** A data file's real path, as /proc/self/maps names it (a relative or linked path is not). */
  private dataFile(name: string): string {
    let p = this.realDataFiles.get(name);
    if (p === undefined)
      this.realDataFiles.set(name, (p = realpathSync(join(this.dataPath, name))));
    return p;
  }

  private readonly realDataFiles = new Map<string, string>();

  /** The memory-map buffers handed out by `getBlobMapped` (detached on close). */
  private readonly mappedBuffers = new Set<ArrayBufferLike>();

  /**
   * Where another thread of this process may write the blob `key` (`writeBlob` of blob-sink.ts),
   * or null once the store is closed. Its commit is not this thread's: read it after
   * `freshBlobReads`.
   */
  blobPlace(key: string): BlobPlace | null {
    if (this.closed) return null;
    return { path: join(this.dataPath, 'segments.mdb'), mapSize: this.mapSize, key };
  }

  /** The next blob read sees every commit made so far, those of other threads included. */
  freshBlobReads(): void {
    this.segDb.resetReadTxn();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  removeBlob(key: string): Promise<boolean> {
    // a removal deferred until a segment was collected may come after the store closed
    if (this.closed) return Promise.resolve(false);
    const legacy = this.legacySegDb;
    if (!legacy) return this.segDb.remove(key);
    return Promise.all([this.segDb.remove(key), legacy.remove(key)]).then(([a, b]) => a || b);
  }

  blobKeys(prefix: string): string[] {
    const out = new Set<string>();
    for (const db of this.legacySegDb ? [this.segDb, this.legacySegDb] : [this.segDb]) {
      for (const k of db.getKeys({ start: prefix })) {
        if (typeof k !== 'string' || !k.startsWith(prefix)) break;
        out.add(k);
      }
    }
    return [...out];
  }

  /** Bytes used by the environment's data file (for store sizes). */
  sizeBytes(): number {
    let n = 0;
    for (const env of [this.root, this.segEnv]) {
      const s = env.getStats() as { pageSize?: number; lastPageNumber?: number };
      n += (s.lastPageNumber ?? 0) * (s.pageSize ?? 4096);
    }
    return n;
  }

  private closed = false;

  async close(): Promise<void> {
    await this.durable();
    await this.blobsDurable();
    this.closed = true;
    // Transferring detaches: views over the map read as empty once it is unmapped.
    for (const b of this.mappedBuffers) {
      try {
        structuredClone(b, { transfer: [b as ArrayBuffer] });
      } catch {
        // already detached
      }
    }
    this.mappedBuffers.clear();
    await this.segEnv.close();
    await this.root.close();
  }
}
