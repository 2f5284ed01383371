/**
 * Index sorting (ES `index.sort.*`, Lucene IndexWriterConfig.setIndexSort): the order in which a
 * segment keeps its documents, by the doc values of one or more fields. A multi-valued doc sorts
 * by its smallest or largest value; docs without a value go first or last in the sorted order
 * whichever the direction. Ties keep their previous order, so a merge keeps segment order.
 */
import type { NumericColumn, OrdinalColumn, Segment } from './segment.js';
import { uninvertedColumn } from './segment-builder.js';

export interface IndexSortField {
  readonly field: string;
  readonly reverse: boolean;
  readonly mode: 'min' | 'max';
  /** Docs without a value come first in the sorted order (else last). */
  readonly missingFirst: boolean;
}

export type IndexSort = readonly IndexSortField[];

/** Per doc the value a sort field compares (NaN: no value). Ordinals for keyword columns. */
function sortKeys(
  col: NumericColumn | OrdinalColumn | null,
  maxDoc: number,
  mode: 'min' | 'max',
): Float64Array {
  const keys = new Float64Array(maxDoc).fill(NaN);
  if (!col) return keys;
  if (col.kind === 'numeric') {
    if (col.single) keys.set(col.single);
    else {
      const { offsets, values } = col;
      for (let d = 0; d < maxDoc; d++) {
        const s = offsets![d]!;
        const e = offsets![d + 1]!;
        if (e > s) keys[d] = mode === 'min' ? values![s]! : values![e - 1]!;
      }
    }
    return keys;
  }
  if (col.single) {
    for (let d = 0; d < maxDoc; d++) if (col.single[d]! >= 0) keys[d] = col.single[d]!;
  } else {
    const { offsets, ords } = col;
    for (let d = 0; d < maxDoc; d++) {
      const s = offsets![d]!;
      const e = offsets![d + 1]!;
      if (e > s) keys[d] = mode === 'min' ? ords![s]! : ords![e - 1]!;
    }
  }
  return keys;
}

/**
 * The new doc order of a segment under `sort` (`order[newDoc] = oldDoc`), or null when the
 * segment already is in that order.
 */
export function indexSortOrder(seg: Segment, sort: IndexSort): Int32Array | null {
  const n = seg.maxDoc;
  const column = (field: string) => {
    const f = seg.fields.get(field);
    if (f?.docValues) return f.docValues;
    // a text field with fielddata sorts by its uninverted terms
    return f?.inverted ? uninvertedColumn(f.inverted, n) : null;
  };
  const cols = sort.map((s) => ({
    keys: sortKeys(column(s.field), n, s.mode),
    dir: s.reverse ? -1 : 1,
    missing: s.missingFirst ? -1 : 1,
  }));
  const cmp = (a: number, b: number): number => {
    for (const c of cols) {
      const x = c.keys[a]!;
      const y = c.keys[b]!;
      const mx = Number.isNaN(x);
      const my = Number.isNaN(y);
      if (mx || my) {
        if (mx && my) continue;
        return mx ? c.missing : -c.missing;
      }
      if (x !== y) return x < y ? -c.dir : c.dir;
    }
    return a - b;
  };
  let sorted = true;
  for (let d = 1; d < n && sorted; d++) if (cmp(d - 1, d) > 0) sorted = false;
  if (sorted) return null;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort(cmp);
}
