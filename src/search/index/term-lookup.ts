/**
 * Term → ordinal lookups in a field's term dictionary through a hash table kept beside it (built
 * on the field's first lookup): a query looks every term up in every segment, and a binary search
 * touches ~15 scattered strings per lookup where the table touches one slot and one string.
 * Small dictionaries keep the binary search.
 */
import { findTerm, type InvertedField } from './segment.js';

/** Below this many terms a binary search is as fast and needs no table. */
const MIN_TERMS = 64;

interface Table {
  /**
   * Per slot, the ordinal + 1 (0 = empty) then the term's hash: a probe compares the hash before
   * reading the term, so only the term looked for is read (each term read is a cache miss in a
   * large dictionary). Open addressing with linear probing, load <= 1/2.
   */
  readonly slots: Int32Array;
  readonly mask: number;
}

const tables = new WeakMap<InvertedField, Table>();

/** FNV-1a over the UTF-16 code units. */
function hash(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h ^ (h >>> 15);
}

function build(terms: readonly string[]): Table {
  let size = 2;
  while (size < terms.length * 2) size <<= 1;
  const slots = new Int32Array(2 * size);
  const mask = size - 1;
  for (let t = 0; t < terms.length; t++) {
    const h = hash(terms[t]!);
    let s = h & mask;
    while (slots[2 * s] !== 0) s = (s + 1) & mask;
    slots[2 * s] = t + 1;
    slots[2 * s + 1] = h;
  }
  return { slots, mask };
}

/** The ordinal of `term` in the field's sorted terms, or -1 when absent. */
export function termOrd(inv: InvertedField, term: string): number {
  const terms = inv.terms;
  if (terms.length < MIN_TERMS) {
    const t = findTerm(terms, term);
    return t < 0 ? -1 : t;
  }
  let table = tables.get(inv);
  if (table === undefined) {
    table = build(terms);
    tables.set(inv, table);
  }
  const { slots, mask } = table;
  const h = hash(term);
  for (let s = h & mask; ; s = (s + 1) & mask) {
    const v = slots[2 * s]!;
    if (v === 0) return -1;
    if (slots[2 * s + 1] === h && terms[v - 1] === term) return v - 1;
  }
}
