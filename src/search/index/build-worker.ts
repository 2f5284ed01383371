/**
 * A build worker thread: keeps one indexing buffer (SegmentBuilder) per shard buffer the main
 * thread opened, applies the operation chunks it is sent as they arrive (analysis and inversion
 * happen here, off the main thread), and on `build` packs the buffer into a segment, encodes it
 * and transfers the bytes back on the reply port, then wakes the waiting main thread. It also
 * merges segments the main thread sends encoded or as file ranges (`merge`), answering the same
 * way.
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { parentPort, threadId, workerData, type MessagePort } from 'node:worker_threads';
import { readFileRange } from '../../common/file-range.js';
import type { FieldMapping } from '../../mapping/types.js';
import { AnalysisRegistry } from '../analysis/index.js';
import { applyOps } from './build-ops.js';
import type { BuildMessage, BuildReply, MergePartBytes, MergeTarget } from './build-pool.js';
import { Bitset } from './bitset.js';
import { mergePieces, type MergePart } from './merge.js';
import {
  decodeChunkedFromFiles,
  decodeSegment,
  decodeSegmentFromFile,
  encodeSegment,
  encodeSegmentToFile,
  loadArrays,
  unloadArrays,
  type StreamedEncoding,
} from './segment-codec.js';
import { SegmentBuilder, type AnalysisResolver } from './segment-builder.js';

interface Buffered {
  readonly builder: SegmentBuilder;
  readonly fields: FieldMapping[];
  failure: string | null;
}

/**
 * The build worker's nice value. Its work (segment building, merges) is background work: a merge
 * of millions of documents runs for seconds after a bulk load has been answered, and at the same
 * priority it took half of a 2-core machine from the searches and aggregations (which have a
 * worker of their own) that came after the load. Linux keeps the nice value per thread, so this
 * lowers only this thread; where it cannot be set the worker runs at the node's priority.
 */
const BUILD_NICE = 10;
try {
  setPriority(0, BUILD_NICE);
} catch {
  // not permitted here: the node's own priority
}

const buffers = new Map<number, Buffered>();
const resolvers = new Map<string, AnalysisResolver>();
let reply: MessagePort | null = null;

/** The same resolution as the index's own (IndexService): named analyzer or the default. */
function resolverFor(analysis: string): AnalysisResolver {
  let r = resolvers.get(analysis);
  if (r) return r;
  const { settings, index } = JSON.parse(analysis) as { settings: unknown; index: never };
  const reg = AnalysisRegistry.fromIndexSettings(settings, index);
  r = {
    indexAnalyzer: (f) =>
      (f.analyzer ? reg.analyzer(f.analyzer) : undefined) ?? reg.defaultAnalyzer(),
    normalize: (f, v) => {
      if (!f.normalizer) return v;
      const n = reg.normalizer(f.normalizer);
      return n ? n.normalize(v) : v;
    },
  };
  resolvers.set(analysis, r);
  return r;
}

/**
 * Transfers `bytes` back: their own ArrayBuffer when they have one to themselves (a large
 * encoding), else a copy (small Buffers share Node's pool).
 */
function answerSegment(key: number, seq: number, signal: Int32Array, bytes: Buffer): void {
  let own: ArrayBuffer;
  if (
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength
  )
    own = bytes.buffer;
  else {
    own = new ArrayBuffer(bytes.length);
    new Uint8Array(own).set(bytes);
  }
  answer({ key, seq, segment: own, failure: null }, signal, [own]);
}

function answer(m: BuildReply, signal: Int32Array, transfer: ArrayBuffer[] = []): void {
  reply!.postMessage(m, transfer);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

let scratchNo = 0;

/**
 * Fields with at least this many postings have their merged postings written block by block as
 * they are computed (merge.ts `mergeInvertedStreamed`), never whole in memory.
 */
const STREAM_POSTINGS_FROM = 1 << 20;

/** Parts read from files of at least this many bytes are collected before the output is read back. */
const COLLECT_AFTER_BYTES = 64 * 2 ** 20;

/**
 * A full garbage collection, where the runtime lets one be asked for: the parts' buffers are
 * external memory, and nothing else would free them before the merged encoding is allocated.
 */
const collectGarbage: (() => void) | null = (() => {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
})();

/**
 * The merge of `parts`, encoded: parts given as a file range are read from the file here; the
 * merged segment is computed field by field and each field's arrays go to a scratch file as they
 * are encoded (removed at once: it lives while open), read back from there by the caller, whole
 * or in chunks, before it closes `fd`. What is held at once: the parts and one merged field.
 */
function mergeStreaming(
  parts: readonly MergePartBytes[],
  scratchDir: string | null,
): { encoding: StreamedEncoding; fd: number } {
  const dir = scratchDir ?? tmpdir();
  const file = join(dir, `merge-${process.pid}-${threadId}-${++scratchNo}.tmp`);
  const fd = openSync(file, 'wx+');
  try {
    rmSync(file);
    // the parts read from files are held only while the pieces are written: a large merge
    // collects them before its encoding is read back, so the two are not held at once
    let fromFiles = 0;
    for (const p of parts) {
      if ('file' in p) fromFiles += p.file.length;
      else if ('chunks' in p) for (const c of p.chunks) fromFiles += c.length;
    }
    const written = fromFiles >= COLLECT_AFTER_BYTES ? collectGarbage : null;
    const arrays = { load: loadArrays, unload: unloadArrays, streamPostingsFrom: STREAM_POSTINGS_FROM, dropIds: true }; // prettier-ignore
    const pieces = () => mergePieces(parts.map(readPart), arrays);
    return { encoding: encodeSegmentToFile(pieces, fd, written ?? undefined), fd };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** A part: from a file, its arrays are read field by field as the merge reaches them. */
function readPart(p: MergePartBytes): MergePart {
  if ('chunks' in p) {
    const segment = decodeChunkedFromFiles(p.head, p.chunks);
    return { segment, live: p.live ? new Bitset(segment.maxDoc, p.live) : null };
  }
  let segment = 'file' in p ? decodeSegmentFromFile(p.file) : decodeSegment(p.bytes);
  if (!segment && 'file' in p) {
    const bytes = readFileRange(p.file); // an older version: read whole
    if (!bytes) throw new Error('a merge part could not be read');
    segment = decodeSegment(bytes);
  }
  if (!segment) throw new Error('a merge part could not be read');
  return { segment, live: p.live ? new Bitset(segment.maxDoc, p.live) : null };
}

/** What a merge target's module exports (blob-sink.ts for the store's blobs). */
interface TargetModule {
  writeBlob(place: unknown, bytes: Uint8Array): Promise<void>;
  writeChunkedBlob(
    place: unknown,
    head: Uint8Array,
    count: number,
    chunk: (i: number) => Uint8Array,
  ): Promise<void>;
}

/**
 * Writes a merged encoding to its target, in chunks read from the scratch file one at a time
 * (never whole in memory) when its data region makes chunks of the target's in-place size;
 * resolves once it is durable there.
 */
async function writeToTarget(target: MergeTarget, encoding: StreamedEncoding): Promise<void> {
  const mod = (await import(target.module)) as TargetModule;
  if (encoding.dataLength < target.chunkBytes / 2) {
    await mod.writeBlob(target.place, encoding.whole());
    return;
  }
  const { head, count, chunk } = encoding.chunks(target.chunkBytes);
  await mod.writeChunkedBlob(target.place, head, count, chunk);
}

parentPort!.on('message', (m: BuildMessage) => {
  switch (m.t) {
    case 'port':
      reply = m.port;
      return;
    case 'open': {
      let failure: string | null = null;
      let builder: SegmentBuilder;
      try {
        builder = new SegmentBuilder(resolverFor(m.analysis));
      } catch (e) {
        failure = String(e);
        builder = new SegmentBuilder({ indexAnalyzer: () => { throw e; }, normalize: (_f, v) => v }); // prettier-ignore
      }
      buffers.set(m.key, { builder, fields: [], failure });
      return;
    }
    case 'ops': {
      const b = buffers.get(m.key);
      if (!b || b.failure) return;
      for (const f of m.fields) b.fields.push(f);
      try {
        applyOps(m.chunk, b.fields, b.builder);
      } catch (e) {
        b.failure = e instanceof Error ? (e.stack ?? e.message) : String(e);
      }
      return;
    }
    case 'build': {
      const b = buffers.get(m.key);
      buffers.delete(m.key);
      const signal = new Int32Array(m.signal);
      if (!b || b.failure) {
        answer({ key: m.key, seq: m.seq, segment: null, failure: b?.failure ?? 'no buffer' }, signal); // prettier-ignore
        return;
      }
      try {
        answerSegment(m.key, m.seq, signal, encodeSegment(b.builder.build()));
      } catch (e) {
        answer({ key: m.key, seq: m.seq, segment: null, failure: String(e) }, signal);
      }
      return;
    }
    case 'merge': {
      const signal = new Int32Array(m.signal);
      let merged: { encoding: StreamedEncoding; fd: number };
      try {
        merged = mergeStreaming(m.parts, m.scratchDir);
      } catch (e) {
        answer({ key: 0, seq: m.seq, segment: null, failure: String(e) }, signal);
        return;
      }
      const { encoding, fd } = merged;
      /** Sends the encoding back whole (closing the scratch file), or the failure to read it. */
      const sendBack = () => {
        try {
          answerSegment(0, m.seq, signal, encoding.whole());
        } catch (e) {
          answer({ key: 0, seq: m.seq, segment: null, failure: String(e) }, signal);
        } finally {
          closeSync(fd);
        }
      };
      const target = m.target;
      if (target === null || encoding.length < target.minBytes) return sendBack();
      // written where the shard reads it from: the encoding never goes to the shard's thread
      void writeToTarget(target, encoding).then(
        () => {
          closeSync(fd);
          answer({ key: 0, seq: m.seq, segment: null, stored: true, failure: null }, signal);
          // the chunks are external memory the worker's heap does not weigh: without a
          // collection they would stay until the worker's next one, seconds or minutes later
          if (collectGarbage) setImmediate(collectGarbage);
        },
        sendBack, // not written: sent back as before
      );
      return;
    }
    case 'drop':
      buffers.delete(m.key);
      return;
  }
});

// the main thread may now wait on this worker at a refresh
const ready = (workerData as { ready: Int32Array }).ready;
Atomics.store(ready, 0, 1);
