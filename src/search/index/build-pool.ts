/**
 * The build worker pool: worker threads that analyze and invert buffered documents and build the
 * refresh's segment, so the main thread only parses, stores and answers. Sized by the node setting
 * `indexing.workers` (default: the machine's parallelism less one, at least one; 0: off).
 *
 * A shard's indexing buffer (`RemoteBuffer`) writes each document's parsed values as bytes into
 * shared chunks (build-ops.ts) that one worker applies as they arrive. A scheduled refresh asks for
 * the segment and goes on (`startBuild`): the reply port's message event says when the worker has
 * transferred the encoded segment back. An explicit refresh (or one that finds a build in flight)
 * sleeps on a shared flag (Atomics.wait) until the worker answers and reads the port with
 * receiveMessageOnPort. The segment's arrays are views over the transferred bytes, which a flush
 * writes as they are.
 * Anything the worker cannot take (nested documents, completion or range values) or a worker that
 * failed turns the buffer local: its chunks, still held, are replayed into a SegmentBuilder.
 */
import { availableParallelism } from 'node:os';
import type { SegmentPlace } from './merge-source.js';
import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import type { FieldMapping, ParsedDocument } from '../../mapping/types.js';
import { applyOps, encodable, fieldForWorker, OpsWriter, type OpsChunk } from './build-ops.js';
import type { Segment } from './segment.js';
import { SegmentBuilder, type AnalysisResolver } from './segment-builder.js';
import { decodeSegment, rememberEncoding } from './segment-codec.js';

export const BUILD_WORKERS_SETTING = 'indexing.workers';

export type BuildMessage =
  | { readonly t: 'port'; readonly port: MessagePort }
  | { readonly t: 'open'; readonly key: number; readonly analysis: string }
  | {
      readonly t: 'ops';
      readonly key: number;
      readonly fields: FieldMapping[];
      readonly chunk: OpsChunk;
    }
  | { readonly t: 'build'; readonly key: number; readonly seq: number; readonly signal: SharedArrayBuffer } // prettier-ignore
  | {
      readonly t: 'merge';
      readonly seq: number;
      readonly signal: SharedArrayBuffer;
      readonly parts: readonly MergePartBytes[];
      /** Where the worker may keep its scratch file (a data path, beside the store's files). */
      readonly scratchDir: string | null;
      /** Where the worker writes a large merged segment itself (null: it sends every one back). */
      readonly target: MergeTarget | null;
    }
  | { readonly t: 'drop'; readonly key: number };

/**
 * A merge input as a worker gets it: the segment's encoding (copied) or where it sits in a file
 * (the worker reads it from there), and its live docs' words (null: all).
 */
export type MergePartBytes =
  | { readonly bytes: Uint8Array; readonly live: Uint32Array | null }
  | (SegmentPlace & { readonly live: Uint32Array | null });

export interface BuildReply {
  readonly key: number;
  readonly seq: number;
  /** The encoding (transferred), or null when the worker failed or wrote it to `target`. */
  readonly segment: ArrayBuffer | null;
  /** Set when a merge went to its target (written and durable) instead of coming back. */
  readonly stored?: boolean;
  readonly failure: string | null;
}

/**
 * Where a build worker writes a large merged segment itself (the shard's store), so the merged
 * encoding never comes back whole to the shard's thread: the module at `module` exports
 * `writeBlob(place, bytes)`, which resolves once the bytes are durable.
 */
export interface MergeTarget {
  readonly module: string;
  /** What `writeBlob` takes (structured-cloneable). */
  readonly place: unknown;
  /** Smaller merged encodings come back as bytes. */
  readonly minBytes: number;
  /**
   * The size of the chunks a merged encoding is written in (`writeChunkedBlob(place, head,
   * count, chunk)`), each at least half of it; one whose data region is smaller goes whole.
   */
  readonly chunkBytes: number;
}

/** A merge output the shard's owner offers: the worker's target and what becomes of the result. */
export interface MergeOutput {
  readonly target: MergeTarget;
  /** The segment the worker wrote to the target, read from there; null if it cannot be read. */
  adopt(): Segment | null;
  /** The worker did not write to the target (the merge came back as bytes, failed, never ran). */
  release(): void;
}

/** A segment a worker is building: `ready` resolves when `take` no longer has to wait for it. */
export interface PendingBuild {
  readonly ready: Promise<void>;
  /** The segment (waits for the worker if it is not done; builds locally if the worker failed). */
  take(): Segment;
}

/** What a shard index buffers documents in: a local SegmentBuilder or a worker's. */
export interface IndexBuffer {
  readonly size: number;
  readonly liveSize: number;
  add(id: string, doc: ParsedDocument, seqNo: number, version: number, routing: string | null): number; // prettier-ignore
  markDeleted(doc: number): void;
  build(): Segment;
  /**
   * Asks a worker for the segment without waiting for it; null when the buffer is built on this
   * thread (then `build`). No document may be added once a build started.
   */
  startBuild?(): PendingBuild | null;
  /** Releases what the buffer holds elsewhere (a worker's builder) when it is replaced. */
  dispose?(): void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly replies: MessagePort;
  /** Set to 1 by the worker once it listens: a refresh never waits on a worker that is not. */
  readonly ready: Int32Array;
  /** Replies read from the port and not yet taken, by build number. */
  readonly got: Map<number, BuildReply>;
  /** Builds whose reply is awaited asynchronously, woken when it arrives (or the worker dies). */
  readonly awaited: Map<number, () => void>;
  dead: boolean;
}

let configured: number | null = null;
let pool: PoolWorker[] = [];
let next = 0;
let nextKey = 1;
let nextSeq = 1;
/** How long a refresh waits for its worker before building the buffer itself. */
const BUILD_WAIT_MS = 120_000;

/** The pool size a setting value asks for (absent: parallelism less one, at least one). */
export function buildWorkerCount(setting: string | undefined): number {
  if (setting === undefined || setting === '') {
    // run from sources (tests, tsx) the pool is off unless asked for: a worker would have to
    // compile the engine again before its first document
    if (import.meta.url.endsWith('.ts')) return 0;
    return Math.max(1, availableParallelism() - 1);
  }
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`[${BUILD_WORKERS_SETTING}] must be a whole number >= 0, got [${setting}]`);
  return n;
}

/**
 * Sets the pool size (the node does at start). Workers start on first use; a smaller size stops
 * the extra ones once their buffers are built (new buffers no longer go to them).
 */
export function configureBuildWorkers(n: number): void {
  configured = n;
  if (pool.length > n) {
    const extra = pool.slice(n);
    pool = pool.slice(0, n);
    for (const w of extra) void w.worker.terminate();
  }
}

/** Workers in use (0 when off or not configured: tests and tools building in process). */
export function buildWorkers(): number {
  return configured ?? 0;
}

/** The worker: the compiled module, or from sources (tests, tsx) through tsx's loader. */
function newWorker(workerData: unknown): Worker {
  const self = import.meta.url;
  const opts = { name: 'quarry-build', workerData };
  if (!self.endsWith('.ts')) return new Worker(new URL('./build-worker.js', self), opts);
  const url = JSON.stringify(new URL('./build-worker.ts', self).href);
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${url}); })`;
  return new Worker(boot, { ...opts, eval: true });
}

function startWorker(): PoolWorker {
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const worker = newWorker({ ready });
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ t: 'port', port: port2 } satisfies BuildMessage, [port2]);
  const w: PoolWorker = { worker, replies: port1, ready, got: new Map(), awaited: new Map(), dead: false }; // prettier-ignore
  const died = () => {
    w.dead = true;
    for (const wake of w.awaited.values()) wake();
    w.awaited.clear();
  };
  worker.on('error', died);
  worker.on('exit', died);
  // replies not read synchronously arrive as events (a scheduled refresh does not wait on them)
  port1.on('message', (r: BuildReply) => deliver(w, r));
  port1.unref();
  worker.unref();
  return w;
}

/** Builds given up on (timed out): their late replies are dropped. */
const abandoned = new Set<number>();

function deliver(w: PoolWorker, r: BuildReply): void {
  if (abandoned.delete(r.seq)) return;
  w.got.set(r.seq, r);
  const wake = w.awaited.get(r.seq);
  if (wake) {
    w.awaited.delete(r.seq);
    wake();
  }
}

/** Reads the replies already on the port (a waiting thread sees no message events). */
function drain(w: PoolWorker): void {
  for (let m = receiveMessageOnPort(w.replies); m; m = receiveMessageOnPort(w.replies))
    deliver(w, m.message as BuildReply);
}

/** A live worker for a new buffer (round robin), or null when the pool is off. */
function pickWorker(): PoolWorker | null {
  const n = configured ?? 0;
  if (n === 0) return null;
  pool = pool.filter((w) => !w.dead);
  while (pool.length < n) pool.push(startWorker());
  return pool[next++ % pool.length]!;
}

const released = new FinalizationRegistry<{ w: PoolWorker; key: number }>(({ w, key }) => {
  if (!w.dead) w.worker.postMessage({ t: 'drop', key } satisfies BuildMessage);
});

/**
 * A worker's indexing buffer, or null when the pool is off. `analysis` is the index's analysis
 * settings as JSON (the worker builds the same analyzers); `onLocal` hears that the buffer had
 * to turn local, so the shard can stop asking for workers.
 */
export function workerBuffer(
  analysis: AnalysisResolver,
  analysisJson: string,
  onLocal: (why: string) => void,
): IndexBuffer | null {
  const w = pickWorker();
  return w ? new RemoteBuffer(w, analysis, analysisJson, onLocal) : null;
}

class RemoteBuffer implements IndexBuffer {
  private readonly key = nextKey++;
  private n = 0;
  private readonly deleted = new Set<number>();
  /** The main thread's fields, by the numbers the chunks use. */
  private readonly fields: FieldMapping[] = [];
  private readonly fieldNos = new Map<FieldMapping, number>();
  /** Worker copies of fields numbered since the last chunk went out. */
  private newFields: FieldMapping[] = [];
  /** Every chunk written, kept to replay locally. */
  private readonly chunks: OpsChunk[] = [];
  private readonly writer: OpsWriter;
  private local: SegmentBuilder | null = null;
  private opened = false;
  private flushQueued = false;
  private readonly fieldNo = (f: FieldMapping): number => {
    let no = this.fieldNos.get(f);
    if (no === undefined) {
      no = this.fields.push(f) - 1;
      this.fieldNos.set(f, no);
      this.newFields.push(fieldForWorker(f));
    }
    return no;
  };
  private readonly flushSoon = () => {
    this.flushQueued = false;
    if (this.local === null) this.writer.flush();
  };

  constructor(
    private readonly w: PoolWorker,
    private readonly analysis: AnalysisResolver,
    private readonly analysisJson: string,
    private readonly onLocal: (why: string) => void,
  ) {
    this.writer = new OpsWriter((c) => this.send(c));
    released.register(this, { w, key: this.key }, this);
  }

  get size(): number {
    return this.local ? this.local.size : this.n;
  }

  get liveSize(): number {
    return this.local ? this.local.liveSize : this.n - this.deleted.size;
  }

  private send(c: OpsChunk): void {
    this.chunks.push(c);
    if (this.local !== null) return;
    if (this.w.dead) return this.toLocal();
    if (!this.opened) {
      this.w.worker.postMessage({ t: 'open', key: this.key, analysis: this.analysisJson } satisfies BuildMessage); // prettier-ignore
      this.opened = true;
    }
    const fields = this.newFields;
    this.newFields = [];
    this.w.worker.postMessage({ t: 'ops', key: this.key, fields, chunk: c } satisfies BuildMessage);
  }

  add(
    id: string,
    doc: ParsedDocument,
    seqNo: number,
    version: number,
    routing: string | null,
  ): number {
    // prettier-ignore
    if (this.local === null && !encodable(doc)) {
      this.toLocal();
      this.onLocal('a document the worker cannot take');
    }
    if (this.local !== null) return this.local.add(id, doc, seqNo, version, routing);
    this.writer.add(id, doc, this.fieldNo, seqNo, version, routing);
    if (!this.flushQueued) {
      // the worker starts on this turn's documents while the main thread goes on
      this.flushQueued = true;
      queueMicrotask(this.flushSoon);
    }
    return this.n++;
  }

  markDeleted(doc: number): void {
    if (this.local !== null) return this.local.markDeleted(doc);
    this.writer.delete(doc);
    this.deleted.add(doc);
  }

  /** Replays every chunk into a local builder (the worker stopped, failed or cannot take a document); the buffer stays local. */
  private toLocal(): void {
    if (this.local !== null) return;
    const local = new SegmentBuilder(this.analysis);
    this.local = local;
    this.writer.flush(); // into `chunks` (send keeps it local)
    const fields = this.fields;
    for (const c of this.chunks) applyOps(c, fields, local);
    this.chunks.length = 0;
    this.dispose();
  }

  build(): Segment {
    const req = this.requestBuild();
    if (req) {
      const got = this.collect(req.seq, req.flag);
      if (got) return got;
    }
    return this.localBuild();
  }

  startBuild(): PendingBuild | null {
    const req = this.requestBuild();
    if (!req) return null;
    const w = this.w;
    const ready = new Promise<void>((res) => {
      if (w.dead || w.got.has(req.seq)) return res();
      w.awaited.set(req.seq, res);
    });
    let taken: Segment | null = null;
    const take = (): Segment => {
      w.awaited.delete(req.seq);
      taken ??= this.collect(req.seq, req.flag) ?? this.localBuild();
      return taken;
    };
    return { ready, take };
  }

  /** Builds on this thread (the buffer turns local if it was not). */
  private localBuild(): Segment {
    this.toLocal();
    return this.local!.build();
  }

  /** Sends the worker the build request; null when the buffer has to be built locally. */
  private requestBuild(): { seq: number; flag: Int32Array } | null {
    if (this.local !== null) return null;
    this.writer.flush();
    const w = this.w;
    if (this.local !== null || !this.opened || w.dead || Atomics.load(w.ready, 0) !== 1)
      return null;
    const signal = new SharedArrayBuffer(4);
    const seq = nextSeq++;
    w.worker.postMessage({ t: 'build', key: this.key, seq, signal } satisfies BuildMessage);
    this.opened = false; // the worker forgets the buffer once it builds it
    return { seq, flag: new Int32Array(signal) };
  }

  /** The worker's segment for build `seq`, waiting for it if needed; null if it failed. */
  private collect(seq: number, flag: Int32Array): Segment | null {
    const seg = collectReply(this.w, seq, flag);
    if (seg) this.chunks.length = 0;
    return seg;
  }

  dispose(): void {
    released.unregister(this);
    if (this.opened && !this.w.dead) {
      this.w.worker.postMessage({ t: 'drop', key: this.key } satisfies BuildMessage);
    }
    this.opened = false;
  }
}

/** The segment a worker answered request `seq` with, waiting for it if needed; null if it failed. */
function collectReply(w: PoolWorker, seq: number, flag: Int32Array): Segment | null {
  const r = awaitReply(w, seq, flag);
  return r && segmentOf(r);
}

/** The encoded segment of a reply, decoded; null if the worker failed. */
function segmentOf(r: BuildReply): Segment | null {
  if (r.segment === null) return null;
  const bytes = Buffer.from(r.segment);
  const seg = decodeSegment(bytes);
  rememberEncoding(seg, bytes);
  return seg;
}

/** The worker's reply to request `seq`, waiting for it if needed; null if none came. */
function awaitReply(w: PoolWorker, seq: number, flag: Int32Array): BuildReply | null {
  if (!w.got.has(seq)) {
    const until = Date.now() + BUILD_WAIT_MS;
    while (Atomics.load(flag, 0) === 0 && !w.dead && Date.now() < until)
      Atomics.wait(flag, 0, 0, 200);
    drain(w);
  }
  const r = w.got.get(seq);
  if (!r) {
    abandoned.add(seq);
    return null;
  }
  w.got.delete(seq);
  return r;
}

/** A merge a worker is running: `ready` resolves once `take` no longer waits. */
export interface PendingMerge {
  readonly ready: Promise<void>;
  /** The merged segment, or null when the worker failed (or died): then merge on this thread. */
  take(): Segment | null;
}

/**
 * Hands a merge to a worker (the segments are immutable: the worker reads their encodings, copies
 * or from the store's file, so the main thread goes on parsing and answering meanwhile); null when
 * the pool is off or its worker is not listening yet. With `output`, a large merged segment is
 * written there by the worker and read from there (`adopt`); otherwise `release` is called once.
 */
export function mergeOnWorker(
  parts: readonly MergePartBytes[],
  scratchDir: string | null = null,
  output: MergeOutput | null = null,
): PendingMerge | null {
  const w = pickWorker();
  if (!w || w.dead || Atomics.load(w.ready, 0) !== 1) return null;
  const signal = new SharedArrayBuffer(4);
  const seq = nextSeq++;
  const target = output?.target ?? null;
  w.worker.postMessage({ t: 'merge', seq, signal, parts, scratchDir, target } satisfies BuildMessage); // prettier-ignore
  const flag = new Int32Array(signal);
  const ready = new Promise<void>((res) => {
    if (w.dead || w.got.has(seq)) return res();
    w.awaited.set(seq, res);
  });
  let taken: Segment | null | undefined;
  return {
    ready,
    take: () => {
      w.awaited.delete(seq);
      if (taken !== undefined) return taken;
      const r = awaitReply(w, seq, flag);
      // a reply given up on (timed out) leaves its output reserved: the worker may still write
      // there, and the next start of the shard removes what no commit point names
      if (r === null) return (taken = null);
      if (r.stored && output) return (taken = output.adopt());
      output?.release();
      return (taken = segmentOf(r));
    },
  };
}
