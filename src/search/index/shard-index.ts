/**
 * A shard's in-memory search index (Lucene IndexWriter + NRT reader in one): buffers writes,
 * turns them into a segment on refresh, applies deletes copy-on-write to older segments, keeps
 * the segment count bounded by merging, and hands out immutable snapshots to searches.
 *
 * A scheduled refresh (`refreshInBackground`) does not wait for a build worker: it hands the
 * buffer over, writes go on into a new one, searches keep the old view until the segment arrives
 * and is published with the handed-over deletes in one step. Any other refresh first publishes a
 * build in flight (waiting for it), so refreshes stay in order and each publishes every write
 * made before it.
 */
import { dirname } from 'node:path';
import type { ParsedDocument } from '../../mapping/types.js';
import { Bitset } from './bitset.js';
import { prepareBlockImpacts } from './block-bounds.js';
import type { LiveSegment, ShardSnapshot } from './live-segment.js';
import { mergeSegments, type MergePart } from './merge.js';
import { mergeBytesOf, mergeFileOf, mergeSourceOf } from './merge-source.js';
import { findMerge } from './merge-policy.js';
import { lookupId, type Segment } from './segment.js';
import { SegmentBuilder, type AnalysisResolver } from './segment-builder.js';
import {
  mergeOnWorker,
  workerBuffer,
  type IndexBuffer,
  type MergeOutput,
  type MergePartBytes,
  type PendingBuild,
  type PendingMerge,
} from './build-pool.js';
import { knownEncoding } from './segment-codec.js';
import { checkTermLengths } from './immense-terms.js';
import { indexSortOrder, type IndexSort } from './index-sort.js';
import { sortSegment } from './sort-segment.js';

export interface ShardIndexStats {
  docs: number;
  deleted: number;
  segments: number;
  memoryBytes: number;
  refreshes: number;
}

/** A buffer handed to a worker by a scheduled refresh, with what its publication brings. */
interface Inflight {
  readonly build: PendingBuild;
  readonly buffer: IndexBuffer;
  readonly deletes: Set<string>;
  /** `wait_for` writers whose documents the buffer holds. */
  readonly waiters: Array<() => void>;
  readonly published: Promise<void>;
  readonly resolvePublished: () => void;
}

type Published = Omit<LiveSegment, 'docBase'>;

/** A merge a worker is running: its parts as they were published when it started. */
interface Merging {
  readonly parts: readonly Published[];
  readonly pending: PendingMerge;
}

export class ShardIndex {
  private builder: IndexBuffer;
  private inflight: Inflight | null = null;
  /** The merge a worker is running (one at a time); its parts stay searchable meanwhile. */
  private merging: Merging | null = null;
  /** Set once a worker failed a merge: the shard then merges on this thread. */
  private mergeLocally = false;
  /** Set once a buffer could not use a build worker: the shard then buffers on this thread. */
  private localOnly = false;
  private bufferIds = new Map<string, number>();
  /** Buffered documents of ids that did not exist (`add` with `mayExist` false), not yet in `bufferIds`. */
  private unmappedIds: string[] = [];
  private unmappedDocs: number[] = [];
  private pendingDeletes = new Set<string>();
  private snapshot: ShardSnapshot = { generation: 0, segments: [], maxDoc: 0, numDocs: 0 };
  private waiters: Array<() => void> = [];
  private refreshCount = 0;
  /** Per-shard segment numbers, as Lucene's IndexWriter counts the segments it writes. */
  private readonly generations = new WeakMap<Segment, number>();
  private nextGeneration = 0;
  /**
   * Where a build worker writes a large merged segment itself (the shard's store), set by the
   * shard's owner; null: merged segments come back as bytes and live on the heap until a commit.
   */
  mergeOutput: (() => MergeOutput | null) | null = null;

  /**
   * `indexSort`: the order every segment keeps its docs in (index.sort.*); flushed and merged
   * segments are sorted by it, so a search sorted the same way can stop early in each segment.
   */
  constructor(
    private readonly analysis: AnalysisResolver,
    readonly indexSort: IndexSort | null = null,
    /**
     * The index's analysis settings as JSON, for a build worker to build the same analyzers;
     * null keeps the buffer on this thread.
     */
    private readonly workerAnalysis: string | null = null,
  ) {
    this.builder = this.newBuffer();
  }

  private newBuffer(): IndexBuffer {
    if (this.workerAnalysis !== null && !this.localOnly) {
      const b = workerBuffer(this.analysis, this.workerAnalysis, () => (this.localOnly = true));
      if (b) return b;
    }
    return new SegmentBuilder(this.analysis);
  }

  /** The segment in index sort order. */
  private sorted(seg: Segment): Segment {
    if (!this.indexSort || this.indexSort.length === 0) return seg;
    const order = indexSortOrder(seg, this.indexSort);
    return order ? sortSegment(seg, order) : seg;
  }

  /** Buffers a document; `mayExist` false skips the delete-by-id of older versions. */
  add(
    id: string,
    doc: ParsedDocument,
    seqNo: number,
    version: number,
    routing: string | null = null,
    mayExist = true,
  ): void {
    if (!mayExist) {
      // a new id (auto-generated, or none stored): mapped only if a later write looks it up
      this.unmappedDocs.push(this.builder.add(id, doc, seqNo, version, routing));
      this.unmappedIds.push(id);
      return;
    }
    this.mapBuffered();
    const prev = this.bufferIds.get(id);
    if (prev !== undefined) this.builder.markDeleted(prev);
    this.pendingDeletes.add(id);
    this.bufferIds.set(id, this.builder.add(id, doc, seqNo, version, routing));
  }

  /** Maps the buffered documents of new ids, before a write looks an id up. */
  private mapBuffered(): void {
    const ids = this.unmappedIds;
    if (ids.length === 0) return;
    const docs = this.unmappedDocs;
    for (let i = 0; i < ids.length; i++) this.bufferIds.set(ids[i]!, docs[i]!);
    this.unmappedIds = [];
    this.unmappedDocs = [];
  }

  check(doc: ParsedDocument): void {
    checkTermLengths(this.analysis, doc);
  }

  delete(id: string): void {
    this.mapBuffered();
    const prev = this.bufferIds.get(id);
    if (prev !== undefined) {
      this.builder.markDeleted(prev);
      this.bufferIds.delete(id);
    }
    this.pendingDeletes.add(id);
  }

  get bufferedDocs(): number {
    return this.builder.size + (this.inflight?.buffer.size ?? 0);
  }

  /**
   * The generation of the newest view that will show what is searchable now: the current one, or
   * the one a scheduled refresh is building (it holds the writes made before it started).
   */
  get latestGeneration(): number {
    return this.snapshot.generation + (this.inflight ? 1 : 0);
  }

  /** Publishes everything buffered to new searches. */
  refresh(): void {
    this.finishInflight();
    if (this.builder.size === 0 && this.pendingDeletes.size === 0) {
      this.resolveWaiters();
      return;
    }
    const seg = this.builder.liveSize > 0 ? this.builder.build() : null;
    this.builder.dispose?.();
    this.publishRefresh(seg, this.pendingDeletes);
    this.builder = this.newBuffer();
    this.bufferIds = new Map();
    this.unmappedIds = [];
    this.unmappedDocs = [];
    this.pendingDeletes = new Set();
    this.resolveWaiters();
  }

  /**
   * The scheduled refresh: when a worker builds the buffer, hands it over and returns at once
   * (the promise resolves once the segment is published); otherwise refreshes here and returns
   * null. A build still in flight makes it a no-op: the next tick takes what came since.
   */
  refreshInBackground(): Promise<void> | null {
    if (this.inflight) return this.inflight.published;
    if (this.builder.liveSize === 0) {
      this.refresh();
      return null;
    }
    const build = this.builder.startBuild?.() ?? null;
    if (!build) {
      this.refresh();
      return null;
    }
    let resolvePublished!: () => void;
    const published = new Promise<void>((res) => (resolvePublished = res));
    const inflight: Inflight = {
      build,
      buffer: this.builder,
      deletes: this.pendingDeletes,
      waiters: this.waiters,
      published,
      resolvePublished,
    };
    this.inflight = inflight;
    this.builder = this.newBuffer();
    this.bufferIds = new Map();
    this.unmappedIds = [];
    this.unmappedDocs = [];
    this.pendingDeletes = new Set();
    this.waiters = [];
    void build.ready.then(() => {
      if (this.inflight === inflight) this.finishInflight();
    });
    return published;
  }

  /**
   * A view for a commit point, without this thread waiting for a build: once no build is in
   * flight, calls `handOver` (the caller notes what the view will hold, such as the shard's last
   * sequence number) and hands the buffer to its worker as the scheduled refresh does, or
   * refreshes at once when it cannot. Resolves with the view that refresh published, as it was
   * published (a later refresh does not change it) and with what `handOver` returned.
   */
  async refreshForCommit<T>(handOver: () => T): Promise<{ view: ShardSnapshot; at: T }> {
    while (this.inflight) await this.inflight.published;
    const at = handOver();
    if (this.refreshInBackground() === null) return { view: this.searcher(), at };
    const f = this.inflight!;
    // the build's waiters run right after its view is published, before anything else runs
    return new Promise((res) => f.waiters.push(() => res({ view: this.searcher(), at })));
  }

  /** Publishes the build in flight, if any (waiting for its worker when it is not done yet). */
  private finishInflight(): void {
    const f = this.inflight;
    if (!f) return;
    this.inflight = null;
    const seg = f.build.take();
    f.buffer.dispose?.();
    this.publishRefresh(seg, f.deletes);
    for (const w of f.waiters) w();
    f.resolvePublished();
  }

  /** Applies `deletes` to the published segments, adds `built`, merges and publishes. */
  private publishRefresh(built: Segment | null, deletes: Set<string>): void {
    const segs = this.snapshot.segments.map((s) => ({ ...s }));
    if (deletes.size > 0) {
      const cloned = new Set<number>();
      for (const id of deletes) {
        for (let i = segs.length - 1; i >= 0; i--) {
          const ls = segs[i]!;
          const d = lookupId(ls.segment, id);
          if (d < 0) continue;
          if (ls.live !== null && !ls.live.get(d)) continue;
          let live = ls.live;
          if (!cloned.has(i)) {
            live = live ? live.clone() : Bitset.full(ls.segment.maxDoc);
            cloned.add(i);
          }
          live!.clear(d);
          segs[i] = { segment: ls.segment, live, deleted: ls.deleted + 1, docBase: ls.docBase };
          break;
        }
      }
    }
    let out: Published[] = segs;
    if (built) out = [...segs, { segment: this.sorted(built), live: null, deleted: 0 }];
    out = out.filter((s) => s.deleted < s.segment.maxDoc);
    out = this.merge(out);
    this.publish(out);
    this.refreshCount++;
  }

  /**
   * Applies the merges the tiered merge policy asks for (Lucene TieredMergePolicy). With build
   * workers the merge runs on one (`startMerge`) and is published when it is done; segments keep
   * coming meanwhile and the policy looks again once it is in.
   */
  private merge(segs: Published[]): Published[] {
    for (;;) {
      if (this.merging) return segs;
      const take = findMerge(
        segs.map((s) => ({
          bytes: segmentBytes(s.segment),
          liveRatio: (s.segment.maxDoc - s.deleted) / s.segment.maxDoc,
        })),
      );
      if (!take) return segs;
      const picked = new Set(take);
      // Parts keep their shard order, so merged doc order follows it.
      const parts = segs.filter((_, i) => picked.has(i));
      if (this.startMerge(parts)) return segs;
      const merged = this.sorted(mergeSegments(mergeParts(parts)));
      segs = [
        ...segs.filter((_, i) => !picked.has(i)),
        { segment: merged, live: null, deleted: 0 },
      ];
    }
  }

  /**
   * Hands `parts` to a build worker when this shard builds on workers and every part's encoding
   * is at hand (built or merged by a worker, or read back from the store); false to merge them
   * here.
   */
  private startMerge(parts: readonly Published[]): boolean {
    if (this.workerAnalysis === null || this.localOnly || this.mergeLocally) return false;
    if (this.indexSort && this.indexSort.length > 0) return false;
    // each part as the worker reads it: where the store keeps it (nothing copied here), else its
    // encoding in memory (copied to the worker: a segment not committed yet)
    const sent: MergePartBytes[] = [];
    let scratchDir: string | null = null;
    for (const p of parts) {
      const live = p.live?.words ?? null;
      const place = mergeFileOf(p.segment);
      if (place) scratchDir ??= dirname('file' in place ? place.file.file : place.chunks[0]!.file);
      const bytes = place ? null : (knownEncoding(p.segment) ?? mergeBytesOf(p.segment));
      if (place) sent.push({ ...place, live });
      else if (bytes) sent.push({ bytes, live });
      else return false;
    }
    const output = this.mergeOutput?.() ?? null;
    const pending = mergeOnWorker(sent, scratchDir, output);
    if (!pending) {
      output?.release();
      return false;
    }
    const m: Merging = { parts, pending };
    this.merging = m;
    void pending.ready.then(() => this.finishMerge(m));
    return true;
  }

  /**
   * Publishes a worker's merge in place of its parts, with the deletes the parts took while it
   * ran carried over; a merge whose parts are gone (a force merge took them) is dropped. Then the
   * policy looks again.
   */
  private finishMerge(m: Merging): void {
    if (this.merging !== m) return;
    this.merging = null;
    const merged = m.pending.take();
    if (!merged) this.mergeLocally = true;
    let segs: Published[] = this.snapshot.segments.map((ls) => ({
      segment: ls.segment,
      live: ls.live,
      deleted: ls.deleted,
    }));
    const at = m.parts.map((p) => segs.findIndex((s) => s.segment === p.segment));
    const applies = merged !== null && at.every((i) => i >= 0);
    if (applies) {
      const out = carryDeletes(merged, m.parts, at.map((i) => segs[i]!)); // prettier-ignore
      const gone = new Set(at);
      segs = [...segs.filter((_, i) => !gone.has(i)), out].filter(
        (s) => s.deleted < s.segment.maxDoc,
      );
    }
    const next = this.merge(segs);
    if (next === segs && !applies) return;
    this.publish(next);
  }

  private publish(segs: Published[]): void {
    let base = 0;
    let numDocs = 0;
    const segments: LiveSegment[] = segs.map((s) => {
      if (!this.generations.has(s.segment)) this.generations.set(s.segment, this.nextGeneration++);
      prepareBlockImpacts(s.segment); // once per segment: queries read score bounds, never build them
      const ls = { ...s, docBase: base };
      base += s.segment.maxDoc;
      numDocs += s.segment.maxDoc - s.deleted;
      return ls;
    });
    this.snapshot = { generation: this.snapshot.generation + 1, segments, maxDoc: base, numDocs };
  }

  /** Forces all segments into one (force merge); also drops deleted docs. */
  forceMerge(maxSegments = 1): void {
    this.refresh();
    const segs = this.snapshot.segments;
    if (segs.length <= maxSegments && segs.every((s) => s.deleted === 0)) return;
    this.publish([
      { segment: this.sorted(mergeSegments(mergeParts(segs))), live: null, deleted: 0 },
    ]);
  }

  searcher(): ShardSnapshot {
    return this.snapshot;
  }

  segmentGeneration(segment: Segment): number {
    return this.generations.get(segment) ?? -1;
  }

  /** Installs segments loaded from a commit (before any write). */
  restore(segments: Array<{ segment: Segment; live: Bitset | null }>): void {
    this.publish(
      segments.map((s) => ({
        segment: s.segment,
        live: s.live,
        deleted: s.live ? s.segment.maxDoc - s.live.cardinality() : 0,
      })),
    );
  }

  nextRefresh(): Promise<void> {
    return new Promise((res) => this.waiters.push(res));
  }

  private resolveWaiters(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  stats(): ShardIndexStats {
    let memory = 0;
    let deleted = 0;
    for (const s of this.snapshot.segments) {
      deleted += s.deleted;
      memory += segmentBytes(s.segment);
    }
    return {
      docs: this.snapshot.numDocs,
      deleted,
      segments: this.snapshot.segments.length,
      memoryBytes: memory,
      refreshes: this.refreshCount,
    };
  }
}

/**
 * The merged segment as it is live now: documents its parts lost since the merge started
 * (`then` → `now`) are deleted in it too, found by id and sequence number (a live document's id
 * is in one part at most, so in the merged segment once).
 */
function carryDeletes(
  merged: Segment,
  then: readonly Published[],
  now: readonly Published[],
): Published {
  let live: Bitset | null = null;
  let deleted = 0;
  then.forEach((p, i) => {
    const cur = now[i]!.live;
    if (cur === p.live || cur === null) return;
    const seg = p.segment;
    for (let d = 0; d < seg.maxDoc; d++) {
      if ((p.live !== null && !p.live.get(d)) || cur.get(d)) continue;
      const nd = lookupId(merged, seg.ids[d]!);
      if (nd < 0 || merged.seqNos[nd] !== seg.seqNos[d]) continue;
      live ??= Bitset.full(merged.maxDoc);
      if (!live.get(nd)) continue;
      live.clear(nd);
      deleted++;
    }
  });
  return { segment: merged, live, deleted };
}

/** The merge's inputs, each read from its merge source (copies of mapped segments). */
function mergeParts(parts: ReadonlyArray<Omit<LiveSegment, 'docBase'>>): MergePart[] {
  return parts.map((p) => ({ segment: mergeSourceOf(p.segment), live: p.live }));
}

const sizeCache = new WeakMap<Segment, number>();

/** A segment's estimated memory (cached: segments are immutable). */
function segmentBytes(seg: Segment): number {
  let n = sizeCache.get(seg);
  if (n === undefined) sizeCache.set(seg, (n = estimateSegmentBytes(seg)));
  return n;
}

function estimateSegmentBytes(seg: Segment): number {
  let n = seg.maxDoc * (16 + 4 + 40);
  for (const f of seg.fields.values()) {
    if (f.inverted) {
      const inv = f.inverted;
      n += inv.docs.byteLength + (inv.freqs?.byteLength ?? 0) + (inv.positions?.byteLength ?? 0);
      n +=
        inv.termStart.byteLength + (inv.posStart?.byteLength ?? 0) + (inv.norms?.byteLength ?? 0);
      n += inv.terms.length * 40;
    }
    if (f.points) n += f.points.values.byteLength + f.points.docs.byteLength;
    const dv = f.docValues;
    if (dv?.kind === 'numeric')
      n +=
        (dv.single?.byteLength ?? 0) + (dv.values?.byteLength ?? 0) + (dv.offsets?.byteLength ?? 0);
    if (dv?.kind === 'ordinal')
      n +=
        (dv.single?.byteLength ?? 0) + (dv.ords?.byteLength ?? 0) + (dv.offsets?.byteLength ?? 0);
  }
  return n;
}
