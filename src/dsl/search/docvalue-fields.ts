/**
 * docvalue_fields values (ES DocValueFieldsFetchSubPhase): without a format the legacy script doc
 * values (numbers, booleans, dates as ISO-8601 instants, keyword and ip strings); with a format
 * (`use_field_mapping` or an explicit one) the field's DocValueFormat output.
 */
import type { FieldMapping } from '../../mapping/types.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { sortableToIp } from '../../search/index/field-values.js';
import { fieldDocFormat, type DocFormat } from '../aggs/support/doc-format.js';

export const USE_FIELD_MAPPING = 'use_field_mapping';

/** Legacy (format-less) rendering of one numeric doc value. */
function legacyNumber(f: FieldMapping, v: number): unknown {
  if (f.type === 'boolean') return v === 1;
  if (f.type === 'date') return isoInstant(v);
  return v;
}

/** Joda's ISO instant with milliseconds, as 6.8 renders script date values. */
function isoInstant(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  const y = d.getUTCFullYear();
  if (y >= 0 && y <= 9999) return d.toISOString();
  const iso = d.toISOString(); // ±YYYYYY-… for years outside 0..9999
  return iso.replace(/^([+-])0*(\d{4,})/, (_m, s: string, n: string) => (s === '-' ? '-' : '') + n);
}

export function formatDocValues(
  f: FieldMapping,
  ls: LiveSegment,
  doc: number,
  format: string | null,
): unknown[] {
  const col = ls.segment.fields.get(f.path)?.docValues;
  if (!col) return [];
  let fmt: DocFormat | null = null;
  if (format !== null) fmt = fieldDocFormat(f, format === USE_FIELD_MAPPING ? null : format, null);
  const out: unknown[] = [];
  if (col.kind === 'numeric') {
    const push = (v: number) => out.push(fmt ? fmt.format(v) : legacyNumber(f, v));
    if (col.single) {
      const v = col.single[doc]!;
      if (!Number.isNaN(v)) push(v);
    } else for (let i = col.offsets![doc]!; i < col.offsets![doc + 1]!; i++) push(col.values![i]!);
    return out;
  }
  const show = (t: string) => (fmt ? fmt.formatTerm(t) : f.type === 'ip' ? sortableToIp(t) : t);
  if (col.single) {
    const o = col.single[doc]!;
    if (o >= 0) out.push(show(col.dict[o]!));
  } else
    for (let i = col.offsets![doc]!; i < col.offsets![doc + 1]!; i++)
      out.push(show(col.dict[col.ords![i]!]!));
  return out;
}
