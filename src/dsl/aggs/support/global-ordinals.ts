/**
 * Global ordinals of a keyword field on one shard reader (ES GlobalOrdinalsBuilder over Lucene's
 * OrdinalMap): the segments' sorted term dictionaries merged into one ordinal space, with a
 * segment ordinal → global ordinal array per segment and, per global ordinal, the segment and
 * ordinal of its first occurrence. Built once per reader and field, and accounted as fielddata
 * memory on the shard until a newer reader replaces it (ES IndexFieldDataCache).
 */
import type { ShardCounters } from '../../../engine/stats.js';
import type { LiveSegment, ShardSnapshot } from '../../../search/index/live-segment.js';
import type { OrdinalColumn } from '../../../search/index/segment.js';

export interface GlobalOrdinals {
  /** Number of distinct terms over all segments. */
  readonly valueCount: number;
  /** Per segment (by index in the snapshot): segment ordinal → global ordinal; null without values. */
  readonly segmentToGlobal: ReadonlyArray<Int32Array | null>;
  /** Per global ordinal: the first segment holding the term and its ordinal there. */
  readonly firstSegment: Int32Array;
  readonly firstSegmentOrd: Int32Array;
  /** Heap bytes of the mapping arrays (ES OrdinalMap.ramBytesUsed). */
  readonly ramBytesUsed: number;
}

/** Fixed overhead per map (ES OrdinalMap shallow size and array headers). */
const BASE_BYTES = 64;

const byReader = new WeakMap<ShardSnapshot, Map<string, GlobalOrdinals>>();
/** The reader each shard's accounted global ordinals belong to, and their bytes per field. */
const accounted = new WeakMap<
  ShardCounters,
  { reader: ShardSnapshot; bytes: Map<string, number> }
>();

/** Merges sorted segment dictionaries (k-way, in term order) into global ordinals. */
export function buildGlobalOrdinals(columns: ReadonlyArray<OrdinalColumn | null>): GlobalOrdinals {
  const segmentToGlobal = columns.map((c) => (c ? new Int32Array(c.dict.length) : null));
  const pos = new Int32Array(columns.length);
  let total = 0;
  for (const c of columns) if (c) total += c.dict.length;
  const firstSegment = new Int32Array(total);
  const firstSegmentOrd = new Int32Array(total);
  let next = 0;
  for (;;) {
    // the smallest term at the segments' cursors (few segments: a linear scan beats a heap)
    let min: string | null = null;
    for (let s = 0; s < columns.length; s++) {
      const c = columns[s];
      if (!c || pos[s]! >= c.dict.length) continue;
      const t = c.dict[pos[s]!]!;
      if (min === null || t < min) min = t;
    }
    if (min === null) break;
    const g = next++;
    let first = true;
    for (let s = 0; s < columns.length; s++) {
      const c = columns[s];
      if (!c || pos[s]! >= c.dict.length || c.dict[pos[s]!] !== min) continue;
      if (first) {
        firstSegment[g] = s;
        firstSegmentOrd[g] = pos[s]!;
        first = false;
      }
      segmentToGlobal[s]![pos[s]!] = g;
      pos[s]!++;
    }
  }
  let bytes = BASE_BYTES + 2 * 4 * next;
  for (const m of segmentToGlobal) if (m) bytes += m.byteLength;
  return {
    valueCount: next,
    segmentToGlobal,
    firstSegment: firstSegment.subarray(0, next),
    firstSegmentOrd: firstSegmentOrd.subarray(0, next),
    ramBytesUsed: bytes,
  };
}

/**
 * The global ordinals of `field` on `reader`, built on first use. `column` gives a segment's
 * ordinal column. Loading on a reader newer than the one accounted on `counters` releases the
 * old reader's memory first (its searches are over once a newer reader serves requests).
 */
export function loadGlobalOrdinals(
  reader: ShardSnapshot,
  field: string,
  column: (ls: LiveSegment) => OrdinalColumn | null,
  counters?: ShardCounters,
): GlobalOrdinals {
  let fields = byReader.get(reader);
  if (!fields) byReader.set(reader, (fields = new Map()));
  let go = fields.get(field);
  if (go) return go;
  go = buildGlobalOrdinals(reader.segments.map(column));
  fields.set(field, go);
  if (counters) {
    let acc = accounted.get(counters);
    if (acc && acc.reader !== reader) {
      for (const [f, b] of acc.bytes) counters.fielddataLoaded(f, -b);
      acc = undefined;
    }
    if (!acc) accounted.set(counters, (acc = { reader, bytes: new Map() }));
    acc.bytes.set(field, (acc.bytes.get(field) ?? 0) + go.ramBytesUsed);
    counters.fielddataLoaded(field, go.ramBytesUsed);
  }
  return go;
}
