/**
 * Fielddata of text fields (`fielddata: true`): ES loads it by uninverting the field the first
 * time a search sorts on it, per reader, and reports its memory in the fielddata stats (indices
 * stats, `_cat/fielddata`) until a newer reader replaces it. Quarry keeps the uninverted column
 * with the segment; loading is where its memory starts to count.
 */
import type { ShardCounters } from '../../engine/stats.js';
import { uninvertedColumn } from '../../search/index/segment-builder.js';
import type { ShardSnapshot } from '../../search/index/live-segment.js';

/** The reader each shard's accounted text fielddata belongs to, and its bytes per field. */
const accounted = new WeakMap<
  ShardCounters,
  { reader: ShardSnapshot; bytes: Map<string, number> }
>();

/** Heap bytes of a field's ordinal columns on a reader (term strings, ordinals, offsets). */
export function textFielddataBytes(reader: ShardSnapshot, field: string): number {
  let n = 0;
  for (const ls of reader.segments) {
    const inv = ls.segment.fields.get(field)?.inverted;
    if (!inv) continue;
    const dv = uninvertedColumn(inv, ls.segment.maxDoc);
    for (const t of dv.dict) n += 8 + 16 + 2 * t.length;
    n += (dv.single?.byteLength ?? 0) + (dv.offsets?.byteLength ?? 0) + (dv.ords?.byteLength ?? 0);
  }
  return n;
}

/** Accounts `field`'s fielddata on `counters` once per reader (a newer reader releases the old). */
export function loadTextFielddata(
  reader: ShardSnapshot,
  field: string,
  counters: ShardCounters,
): void {
  let acc = accounted.get(counters);
  if (acc && acc.reader !== reader) {
    for (const [f, b] of acc.bytes) counters.fielddataLoaded(f, -b);
    acc = undefined;
  }
  if (!acc) accounted.set(counters, (acc = { reader, bytes: new Map() }));
  if (acc.bytes.has(field)) return;
  const bytes = textFielddataBytes(reader, field);
  if (bytes === 0) return;
  acc.bytes.set(field, bytes);
  counters.fielddataLoaded(field, bytes);
}
