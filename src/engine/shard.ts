/**
 * One primary shard: its sequence numbers, the versions of writes not yet committed to LMDB (ES
 * LiveVersionMap), realtime reads from the store, the versions searches may still show, and the
 * in-memory search index it feeds.
 */
import type { ByteArena } from '../common/byte-arena.js';
import { writeUtf8 } from '../common/utf8-write.js';
import type { IndexSort } from '../search/index/index-sort.js';
import type { DocsDb, Store } from '../store/store.js';
import {
  decodeDoc,
  decodeHeader,
  docKey,
  encodeDoc,
  idFromKey,
  seqNoOf,
  shardRange,
  sourceBytesIfAt,
  type DocRecord,
} from '../store/doc-record.js';
import type { CurrentVersion } from './versioning.js';
import type { ParsedDocument } from '../mapping/types.js';
import type { ShardSnapshot } from '../search/index/live-segment.js';
import type { Segment } from '../search/index/segment.js';
import { lookupId } from '../search/index/segment.js';
import { ShardCounters } from './stats.js';
import { SupersededSources } from './superseded-sources.js';
import { uncommitted } from './uncommitted.js';

/** Longest id (UTF-16 units) Shard.readKey writes into its reused buffer (ids have ≤ 512 bytes). */
const READ_KEY_MAX_CHARS = 512;

/** Bytes of superseded sources a shard keeps for the views that still show them. */
const SUPERSEDED_MAX_BYTES = 16 * 1024 * 1024;

/** The shard's in-memory search index as the write path sees it (implemented in src/search). */
export interface ShardRecovery {
  readonly type: 'EMPTY_STORE' | 'EXISTING_STORE' | 'PEER' | 'SNAPSHOT';
  readonly startMs: number;
  readonly stopMs: number;
  readonly replayedOps: number;
  /** PEER: the node the copy recovered from. */
  readonly source?: { readonly id: string; readonly name: string; readonly transportAddress: string }; // prettier-ignore
  /** SNAPSHOT: what the copy was restored from (ES SnapshotRecoverySource). */
  readonly snapshot?: { readonly repository: string; readonly snapshot: string; readonly version: string; readonly index: string }; // prettier-ignore
}

/**
 * A new copy's recovery from an empty store: done within the millisecond it was made, reported as
 * that millisecond (ES reports whole milliseconds; a zero would read as never run).
 */
export function emptyStoreRecovery(now: number): ShardRecovery {
  return { type: 'EMPTY_STORE', startMs: now, stopMs: now + 1, replayedOps: 0 };
}

export interface ShardSearchWriter {
  /** Buffers a document version for the next refresh; replaces any older version of `id`
   *  unless `mayExist` is false (auto-generated ids). */
  add(
    id: string,
    doc: ParsedDocument,
    seqNo: number,
    version: number,
    routing: string | null,
    mayExist: boolean,
  ): void;
  /** Throws what Lucene would refuse `doc` for (an immense term), before anything is written. */
  check(doc: ParsedDocument): void;
  /** Buffers the deletion of `id` for the next refresh. */
  delete(id: string): void;
  /** Makes everything buffered visible to searches. */
  refresh(): void;
  /**
   * The scheduled refresh: may hand the buffer to a build worker and return before the view is
   * published (the promise resolves then); null when it refreshed at once.
   */
  refreshInBackground?(): Promise<void> | null;
  /**
   * A view for a commit point without blocking this thread on a build worker: `handOver` is
   * called at the moment what the view holds is fixed (see ShardIndex.refreshForCommit).
   */
  refreshForCommit?<T>(handOver: () => T): Promise<{ view: ShardSnapshot; at: T }>;
  /** The generation of the newest view (published, or being built by a scheduled refresh). */
  readonly latestGeneration?: number;
  /** Resolves after the next refresh (scheduled or explicit): `refresh=wait_for`. */
  nextRefresh(): Promise<void>;
  /** Searchable (refreshed) document counts and index memory. */
  stats(): ShardSearchStats;
  /** The current point-in-time view for searches. */
  searcher(): ShardSnapshot;
  /** A published segment's number on this shard (Lucene names segments `_` + it, in base 36). */
  segmentGeneration(segment: Segment): number;
  /** Refreshes, then merges the segments into at most `maxSegments`, dropping deleted docs. */
  forceMerge(maxSegments: number): void;
  /** Number of documents buffered since the last refresh. */
  readonly bufferedDocs: number;
  /** The order segments keep their docs in (index.sort.*), if any. */
  readonly indexSort?: IndexSort | null;
}

export interface ShardSearchStats {
  docs: number;
  deleted: number;
  segments: number;
  memoryBytes: number;
  refreshes: number;
}

export class Shard {
  maxSeqNo = -1;
  /** Writes since the last commit point of the search index. */
  opsSinceFlush = 0;
  /** ES synced flush marker: set when a synced flush commits, dropped by the next write (ES
   *  keeps it in the Lucene commit's user data until a new commit without it). */
  syncId: string | null = null;
  /** How this copy came to be (ES RecoveryState): a new index starts from an empty store, a
   *  restarted node recovers its shards from the existing store and replays newer operations. */
  recovery: ShardRecovery = emptyStoreRecovery(Date.now());
  /** Set by the search layer; null until the shard's search index exists. */
  search: ShardSearchWriter | null = null;
  /** Operation counters for the indices stats API. */
  readonly counters = new ShardCounters();
  /**
   * Writes not yet durable, which GET and version checks must see: each as its encoded record
   * (the bytes queued for LMDB, read as a stored record is), not an object of its own: a bulk's
   * writes wait for their commit, and each object they keep is copied by every young collection
   * meanwhile.
   */
  private readonly pending = uncommitted<Buffer>();
  private readonly superseded = new SupersededSources(SUPERSEDED_MAX_BYTES);

  /**
   * The term operations are written with: the index's at open, raised when this copy learns of a
   * newer primary (a promotion); replicated operations of an older term are refused.
   */
  primaryTerm: number;

  constructor(
    readonly id: number,
    primaryTerm: number,
    private readonly docs: DocsDb,
    private readonly store: Store,
    /** index.gc_deletes in ms: how long delete tombstones keep their version. */
    private readonly gcDeletesMs: () => number,
  ) {
    this.primaryTerm = primaryTerm;
  }

  /** A newer primary term (promotion, or a replica hearing of one); never moves back. */
  raisePrimaryTerm(term: number): void {
    if (term > this.primaryTerm) this.primaryTerm = term;
  }

  /**
   * Every document and tombstone of the shard with a sequence number of at least `fromSeqNo`, in
   * sequence number order: the operations a copy that has everything below `fromSeqNo` needs
   * (ES LuceneChangesSnapshot over soft deletes; here the store keeps the newest operation per
   * id, which is all an idempotent copy needs). Reads the store: wait for durability first.
   */
  changesSince(fromSeqNo: number): Array<{ id: string; record: DocRecord }> {
    const { start, end } = shardRange(this.id);
    const out: Array<{ id: string; record: DocRecord }> = [];
    for (const { key, value } of this.docs.getRange({ start, end })) {
      if (seqNoOf(value) < fromSeqNo) continue;
      out.push({ id: idFromKey(key), record: decodeDoc(value) });
    }
    return out.sort((a, b) => a.record.seqNo - b.record.seqNo);
  }

  /** Current version state of a document, including recent deletes (ES resolveDocVersion). */
  current(id: string, now = Date.now()): CurrentVersion | null {
    const v = this.latest(id);
    if (v && v.deleted && now - v.timestamp > this.gcDeletesMs()) return null;
    return v;
  }

  /**
   * The newest operation on `id`, tombstones however old included: what a copy applying
   * replicated operations compares sequence numbers with.
   */
  latest(id: string): (CurrentVersion & { timestamp: number }) | null {
    const raw = this.pending.get(id) ?? this.docs.getBinaryFast(this.readKey(id));
    if (!raw) return null;
    const h = decodeHeader(raw);
    return {
      version: h.version,
      seqNo: h.seqNo,
      primaryTerm: h.primaryTerm,
      deleted: h.tombstone,
      timestamp: h.timestamp,
    };
  }

  /** The record of a document as stored, tombstones included (null when never written). */
  record(id: string): DocRecord | null {
    const raw = this.pending.get(id) ?? this.docs.getBinary(docKey(this.id, id));
    return raw ? decodeDoc(raw) : null;
  }

  /** Realtime read of a live document (null when missing or deleted). */
  read(id: string): DocRecord | null {
    const raw = this.pending.get(id) ?? this.docs.getBinary(docKey(this.id, id));
    if (!raw) return null;
    const d = decodeDoc(raw);
    return d.tombstone ? null : d;
  }

  /**
   * The record a search hit shows: the version at `seqNo` that the searched view holds, which a
   * later write may have superseded (then kept, superseded-sources.ts); else the current one.
   */
  readAt(id: string, seqNo: number): DocRecord | null {
    const cur = this.read(id);
    if (cur && cur.seqNo === seqNo) return cur;
    return this.superseded.get(id, seqNo) ?? cur;
  }

  /**
   * The `_source` bytes of readAt's record (null when it has none), copied from LMDB's reused
   * read buffer without decoding the record when the stored one is the searched version: a page
   * of hits fetched for their sources pays only the lookups and the copies (packed in `arena`).
   */
  sourceBytesAt(id: string, seqNo: number, arena?: ByteArena): Buffer | null {
    if (!this.pending.has(id)) {
      const raw = this.docs.getBinaryFast(this.readKey(id));
      // the length lmdb-js read into its reused buffer (its `length` is set to it)
      const bytes = raw ? sourceBytesIfAt(raw, seqNo, raw.length, arena) : null;
      if (bytes !== null) return bytes;
    }
    const rec = this.readAt(id, seqNo);
    return rec ? rec.source : null;
  }

  /** docKey's bytes in one buffer reused by every read, and its views by key length. */
  private readonly keyBytes = Buffer.allocUnsafe(2 + 3 * READ_KEY_MAX_CHARS);
  private readonly keyViews: Buffer[] = [];

  /**
   * The key of `id` for a read that copies it before the next one (lmdb-js writes it into its
   * own key buffer): `docKey` without allocating a key per hit fetched.
   */
  private readKey(id: string): Buffer {
    if (id.length > READ_KEY_MAX_CHARS) return docKey(this.id, id);
    const b = this.keyBytes;
    b[0] = this.id >>> 8;
    b[1] = this.id & 0xff;
    const n = 2 + writeUtf8(b, id, 2);
    return (this.keyViews[n] ??= b.subarray(0, n));
  }

  /** Keeps the view of `generation` able to fetch superseded versions (an open scroll). */
  pinView(generation: number): void {
    this.superseded.pin(generation);
  }

  unpinView(generation: number): void {
    this.superseded.unpin(generation);
    const search = this.search;
    if (search) this.superseded.evict(search.searcher().generation);
  }

  /** Generation of the refreshed view last seen by a write, and the last seqNo it holds. */
  private viewGeneration = -1;
  private viewSeqNo = -1;

  /**
   * Before `id` is overwritten or deleted by the write of `seqNo`: keeps the current record if
   * the refreshed view shows it. A refresh publishes every write made before it, so the first
   * write to see a new view knows the view holds every earlier sequence number.
   */
  private supersede(id: string, current: CurrentVersion | null, seqNo: number): void {
    const search = this.search;
    if (!search) return;
    const generation = search.searcher().generation;
    if (generation !== this.viewGeneration) {
      this.viewGeneration = generation;
      this.viewSeqNo = seqNo - 1;
      this.superseded.evict(generation);
    }
    if (!current || current.deleted || current.seqNo > this.viewSeqNo) return;
    const rec = this.read(id);
    // a view being built by a scheduled refresh holds the record too: kept until one replaces it
    if (rec && rec.seqNo === current.seqNo)
      this.superseded.add(id, rec, search.latestGeneration ?? generation);
  }

  /**
   * The refreshed view searches run on (empty before the search index is attached), counted as
   * a query phase of the search's `stats` groups.
   */
  searcher(groups?: readonly string[]): ShardSnapshot {
    this.counters.queried(groups);
    return this.search?.searcher() ?? { generation: 0, segments: [], maxDoc: 0, numDocs: 0 };
  }

  /** Whether the refreshed view holds `id` at sequence number `seqNo` (GET with realtime=false). */
  searcherHas(id: string, seqNo: number): boolean {
    for (const ls of this.search?.searcher().segments ?? []) {
      const d = lookupId(ls.segment, id);
      if (d >= 0 && (ls.live === null || ls.live.get(d))) return ls.segment.seqNos[d] === seqNo;
    }
    return false;
  }

  nextSeqNo(): number {
    return ++this.maxSeqNo;
  }

  /** Queues the document for the store; returns the promise of its commit. */
  /** `current` is the version being replaced, as the caller's version check read it. */
  putDoc(
    id: string,
    routing: string | null,
    source: Buffer,
    version: number,
    seqNo: number,
    current: CurrentVersion | null,
    term = this.primaryTerm,
  ): Promise<void> {
    this.supersede(id, current, seqNo);
    const timestamp = Date.now();
    this.opsSinceFlush++;
    this.syncId = null;
    const record = encodeDoc(
      { tombstone: false, version, seqNo, primaryTerm: term, timestamp, routing },
      source,
    );
    const p = this.store.putDoc(this.docs, docKey(this.id, id), record);
    this.pending.set(p, id, record);
    return p;
  }

  putTombstone(
    id: string,
    routing: string | null,
    version: number,
    seqNo: number,
    current: CurrentVersion | null,
    term = this.primaryTerm,
  ): Promise<void> {
    this.supersede(id, current, seqNo);
    const timestamp = Date.now();
    this.opsSinceFlush++;
    this.syncId = null;
    const record = encodeDoc(
      { tombstone: true, version, seqNo, primaryTerm: term, timestamp, routing },
      null,
    );
    const p = this.store.putDoc(this.docs, docKey(this.id, id), record);
    this.pending.set(p, id, record);
    return p;
  }

  /**
   * Removes a document's record outright (no tombstone): a recovering copy rolling back an
   * operation its new primary never had. Only while the copy serves nothing; wait for the
   * store's durability before reading the shard again.
   */
  purge(id: string): Promise<void> {
    this.pending.delete(id);
    return this.store.removeDoc(this.docs, docKey(this.id, id));
  }

  /** The highest sequence number the store holds (after a rollback lowered it). */
  recomputeMaxSeqNo(): number {
    const { start, end } = shardRange(this.id);
    let max = -1;
    for (const { value } of this.docs.getRange({ start, end })) max = Math.max(max, seqNoOf(value));
    for (const p of this.pending.values()) max = Math.max(max, seqNoOf(p));
    this.maxSeqNo = max;
    return max;
  }

  get pendingCount(): number {
    return this.pending.size;
  }
}
