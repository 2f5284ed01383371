/**
 * A build worker thread: keeps one indexing buffer (SegmentBuilder) per shard buffer the main
 * thread opened, applies the operation chunks it is sent as they arrive (analysis and inversion
 * happen here, off the main thread), and on `build` packs the buffer into a segment, encodes it
 * and transfers the bytes back on the reply port, then wakes the waiting main thread. It also
 * merges segments the main thread sends encoded (`merge`), answering the same way.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { FieldMapping } from '../../mapping/types.js';
import { AnalysisRegistry } from '../analysis/index.js';
import { applyOps } from './build-ops.js';
import type { BuildMessage, BuildReply } from './build-pool.js';
import { Bitset } from './bitset.js';
import { mergeSegments } from './merge.js';
import { decodeSegment, encodeSegment } from './segment-codec.js';
import { SegmentBuilder, type AnalysisResolver } from './segment-builder.js';

interface Buffered {
  readonly builder: SegmentBuilder;
  readonly fields: FieldMapping[];
  failure: string | null;
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

/** Transfers `bytes` back in a buffer of their own (small Buffers share Node's pool). */
function answerSegment(key: number, seq: number, signal: Int32Array, bytes: Buffer): void {
  const own = new ArrayBuffer(bytes.length);
  new Uint8Array(own).set(bytes);
  answer({ key, seq, segment: own, failure: null }, signal, [own]);
}

function answer(m: BuildReply, signal: Int32Array, transfer: ArrayBuffer[] = []): void {
  reply!.postMessage(m, transfer);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
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
      try {
        const parts = m.parts.map((p) => {
          const segment = decodeSegment(p.bytes);
          return { segment, live: p.live ? new Bitset(segment.maxDoc, p.live) : null };
        });
        answerSegment(0, m.seq, signal, encodeSegment(mergeSegments(parts)));
      } catch (e) {
        answer({ key: 0, seq: m.seq, segment: null, failure: String(e) }, signal);
      }
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
