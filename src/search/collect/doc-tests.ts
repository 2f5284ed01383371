/**
 * Per-doc membership tests of plain filter queries, read from doc values where the index keeps
 * them (Lucene's two-phase / IndexOrDocValuesQuery idea: check the column for the few docs a
 * sorted walk visits instead of materialising the query's whole doc set). Ranges test the numeric
 * column, terms the ordinal column built from the same postings; other filter shapes fall back to
 * their doc set as a bitset. Deleted docs are not excluded here (the caller tests live docs).
 */
import type { Bitset } from '../index/bitset.js';
import type { LiveSegment } from '../index/live-segment.js';
import { findTerm, type NumericColumn, type OrdinalColumn } from '../index/segment.js';
import type { Query } from '../query/query.js';
import { docSetBits, filterDocSet } from './doc-sets.js';

export type DocTest = (doc: number) => boolean;

/** Every doc of the segment matches. */
export const ALL_DOCS = 'all';

const NONE: DocTest = () => false;

/** A test of `q` in `ls`: ALL_DOCS, a per-doc test, or null when `q` is no plain filter. */
export function docTest(q: Query, ls: LiveSegment): DocTest | typeof ALL_DOCS | null {
  switch (q.kind) {
    case 'MatchAll':
      return ALL_DOCS;
    case 'MatchNone':
      return NONE;
    case 'ConstantScore':
      return docTest(q.inner, ls);
    case 'NumericRange': {
      const sf = ls.segment.fields.get(q.field);
      if (!sf?.points) return NONE;
      // doc_values: false keeps points only: use the range's doc set
      if (sf.docValues?.kind !== 'numeric') break;
      return rangeTest(sf.docValues, q.lo, q.hi, q.includeLo, q.includeHi);
    }
    case 'Term': {
      const sf = q.field === '_field_names' ? undefined : ls.segment.fields.get(q.field);
      // the ordinal column is built from the field's postings, so its ordinals are the terms'
      if (!sf?.inverted || sf.docValues?.kind !== 'ordinal') break;
      const ord = findTerm(sf.docValues.dict, q.term);
      return ord < 0 ? NONE : ordinalTest(sf.docValues, ord);
    }
    case 'Bool': {
      if (q.should.length > 0 || q.minShouldMatch > 0) return null;
      const required = [...q.must, ...q.filter];
      // only must_not clauses: not a plain conjunction (doc-sets.ts does not take it either)
      if (required.length === 0) return null;
      const all: DocTest[] = [];
      for (const c of required) {
        const t = docTest(c, ls);
        if (t === null) return null;
        if (t === NONE) return NONE;
        if (t !== ALL_DOCS) all.push(t);
      }
      const not: DocTest[] = [];
      for (const c of q.mustNot) {
        const t = docTest(c, ls);
        if (t === null) return null;
        if (t === ALL_DOCS) return NONE;
        if (t !== NONE) not.push(t);
      }
      return conjunction(all, not);
    }
    default:
      break;
  }
  const set = filterDocSet(q, ls);
  if (!set) return null;
  const bits = docSetBits(set, ls.segment.maxDoc);
  return bits === null ? ALL_DOCS : bitsTest(bits);
}

function rangeTest(
  col: NumericColumn,
  lo: number,
  hi: number,
  incLo: boolean,
  incHi: boolean,
): DocTest {
  // NaN (no value) fails every comparison
  if (col.single) {
    const v = col.single;
    if (incLo && incHi) return (d) => v[d]! >= lo && v[d]! <= hi;
    return (d) => (incLo ? v[d]! >= lo : v[d]! > lo) && (incHi ? v[d]! <= hi : v[d]! < hi);
  }
  const offsets = col.offsets!;
  const values = col.values!;
  return (d) => {
    for (let i = offsets[d]!, e = offsets[d + 1]!; i < e; i++) {
      const x = values[i]!;
      if ((incLo ? x >= lo : x > lo) && (incHi ? x <= hi : x < hi)) return true;
    }
    return false;
  };
}

function ordinalTest(col: OrdinalColumn, ord: number): DocTest {
  if (col.single) {
    const s = col.single;
    return (d) => s[d] === ord;
  }
  const offsets = col.offsets!;
  const ords = col.ords!;
  return (d) => {
    for (let i = offsets[d]!, e = offsets[d + 1]!; i < e; i++) if (ords[i] === ord) return true;
    return false;
  };
}

function bitsTest(bits: Bitset): DocTest {
  const w = bits.words;
  return (d) => (w[d >>> 5]! & (1 << (d & 31))) !== 0;
}

function conjunction(all: DocTest[], not: DocTest[]): DocTest | typeof ALL_DOCS {
  if (not.length === 0) {
    if (all.length === 0) return ALL_DOCS;
    if (all.length === 1) return all[0]!;
    if (all.length === 2) {
      const [a, b] = all as [DocTest, DocTest];
      return (d) => a(d) && b(d);
    }
  }
  return (d) => {
    for (let i = 0; i < all.length; i++) if (!all[i]!(d)) return false;
    for (let i = 0; i < not.length; i++) if (not[i]!(d)) return false;
    return true;
  };
}
