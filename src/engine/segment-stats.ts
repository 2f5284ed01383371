/**
 * Figures of a shard's searchable segments as ES reports them: Lucene document counts (DocsStats
 * counts nested documents, which Lucene stores as documents of their own) and the memory the
 * segments hold, split like SegmentsStats (terms, stored fields, norms, points, doc values). Our
 * segments live on the heap entirely, so memory is the byte size of their typed arrays plus an
 * estimate for the strings of term dictionaries.
 */
import { isLive, type ShardSnapshot } from '../search/index/live-segment.js';
import type { InvertedField, Segment } from '../search/index/segment.js';
import { stringBlockOf } from '../search/index/string-block.js';
import { isCommitted } from './segment-commits.js';

export interface SegmentMemory {
  count: number;
  terms: number;
  storedFields: number;
  norms: number;
  points: number;
  docValues: number;
}

/** V8 string: header plus two bytes per UTF-16 unit (strings are not shared with the source). */
const stringBytes = (s: string): number => 16 + 2 * s.length;

const dictBytes = (terms: readonly string[]): number => {
  // a list kept encoded (the `_id`s of a decoded segment) is its block
  const block = stringBlockOf(terms);
  if (block) return block.bytes.length + block.offsets.byteLength;
  let n = 8 * terms.length;
  for (const t of terms) n += stringBytes(t);
  return n;
};

function invertedBytes(inv: InvertedField): number {
  return (
    dictBytes(inv.terms) +
    inv.termStart.byteLength +
    inv.docs.byteLength +
    (inv.freqs?.byteLength ?? 0) +
    (inv.posStart?.byteLength ?? 0) +
    (inv.positions?.byteLength ?? 0)
  );
}

function addSegment(m: SegmentMemory, seg: Segment): void {
  // `_id`, sequence numbers, versions and routing stand in for Lucene's stored fields.
  m.storedFields += dictBytes(seg.ids) + seg.idOrder.byteLength;
  m.storedFields += seg.seqNos.byteLength + seg.versions.byteLength + 48 * seg.routing.size;
  m.terms += invertedBytes(seg.fieldNames);
  for (const f of seg.fields.values()) {
    if (f.inverted) {
      m.terms += invertedBytes(f.inverted);
      m.norms += f.inverted.norms?.byteLength ?? 0;
    }
    if (f.points) m.points += f.points.values.byteLength + f.points.docs.byteLength;
    const dv = f.docValues;
    if (dv?.kind === 'numeric') {
      m.docValues +=
        (dv.single?.byteLength ?? 0) + (dv.offsets?.byteLength ?? 0) + (dv.values?.byteLength ?? 0);
    } else if (dv?.kind === 'ordinal') {
      m.docValues +=
        dictBytes(dv.dict) +
        (dv.single?.byteLength ?? 0) +
        (dv.offsets?.byteLength ?? 0) +
        (dv.ords?.byteLength ?? 0);
    }
  }
  for (const block of seg.nested.values()) {
    addSegment(m, block.segment);
    m.storedFields += block.parentOf.byteLength;
  }
}

export function segmentMemory(snapshot: ShardSnapshot): SegmentMemory {
  const m: SegmentMemory = {
    count: snapshot.segments.length,
    terms: 0,
    storedFields: 0,
    norms: 0,
    points: 0,
    docValues: 0,
  };
  for (const ls of snapshot.segments) addSegment(m, ls.segment);
  return m;
}

/**
 * ES CompletionStats: memory of each completion field's suggester across the segments (here its
 * sorted term dictionary and postings), per field path. Fields without data are not listed.
 */
export function completionMemory(snapshot: ShardSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (const ls of snapshot.segments) {
    for (const f of ls.segment.fields.values()) {
      if (f.type !== 'completion' || !f.inverted || f.inverted.terms.length === 0) continue;
      out.set(f.path, (out.get(f.path) ?? 0) + invertedBytes(f.inverted));
    }
  }
  return out;
}

/** ES DocsStats: live and deleted Lucene documents, nested ones included (they die with their parent). */
export function luceneDocs(snapshot: ShardSnapshot): { count: number; deleted: number } {
  let count = 0;
  let deleted = 0;
  for (const ls of snapshot.segments) {
    count += ls.segment.maxDoc - ls.deleted;
    deleted += ls.deleted;
    for (const block of ls.segment.nested.values()) {
      for (let c = 0; c < block.segment.maxDoc; c++) {
        if (isLive(ls, block.parentOf[c]!)) count++;
        else deleted++;
      }
    }
  }
  return { count, deleted };
}

/** One segment of `_cat/segments` and `_segments` (nested documents counted as Lucene does). */
export interface SegmentFigures {
  /** The segment's number; Lucene names it `_` + base 36. */
  generation: number;
  name: string;
  docs: number;
  deleted: number;
  memoryBytes: number;
  /** In the shard's last commit point (a restart loads it rather than re-indexing). */
  committed: boolean;
}

/** `generation`: the segment's number on its shard (ShardSearchWriter.segmentGeneration). */
export function segmentFigures(
  snapshot: ShardSnapshot,
  generation: (segment: Segment) => number,
): SegmentFigures[] {
  return snapshot.segments.map((ls) => {
    const docs = luceneDocs({ ...snapshot, segments: [ls] });
    const m: SegmentMemory = {
      count: 1,
      terms: 0,
      storedFields: 0,
      norms: 0,
      points: 0,
      docValues: 0,
    };
    addSegment(m, ls.segment);
    const gen = generation(ls.segment);
    return {
      generation: gen,
      name: `_${gen.toString(36)}`,
      docs: docs.count,
      deleted: docs.deleted,
      memoryBytes: m.terms + m.storedFields + m.norms + m.points + m.docValues,
      committed: isCommitted(ls.segment),
    };
  });
}
