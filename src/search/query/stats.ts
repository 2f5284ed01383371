/**
 * Collection and term statistics for scoring (Lucene IndexSearcher.collectionStatistics /
 * termStatistics). Per shard for query_then_fetch; summed over shards for dfs_query_then_fetch.
 * Deleted-but-unmerged documents count, as in Lucene.
 */
import type { ShardSnapshot } from '../index/live-segment.js';
import { seekCeil, totalTermFreq as termTotalFreq, type InvertedField } from '../index/segment.js';
import { termOrd } from '../index/term-lookup.js';

export interface FieldStats {
  docCount: number;
  sumTotalTermFreq: number;
  sumDocFreq: number;
}

export interface TermStats {
  docFreq: number;
  totalTermFreq: number;
  /**
   * The term's ordinal in a field of one of the shard's segments, as the statistics lookup found
   * it (-1: absent), or undefined for a field it did not visit: weights reuse it instead of
   * searching the term dictionary again.
   */
  ordIn?(inv: InvertedField): number | undefined;
}

export interface SearchStats {
  maxDoc: number;
  /** Live docs of the shard (IndexReader.numDocs), when the statistics come from one shard. */
  numDocs?: number;
  field(field: string): FieldStats;
  term(field: string, term: string): TermStats;
  /** Sorted unique terms of a field over all segments (for rewriting fuzzy queries). */
  terms(field: string): string[];
  /**
   * ES `index_prefixes`: the term `prefix` of the hidden `<field>._index_prefix` field, which
   * indexes the edge n-grams of `field`'s tokens at their positions. Its postings are the union of
   * `field`'s terms starting with `prefix` (docFreq: their distinct docs).
   */
  prefixTerm?(field: string, prefix: string): { docFreq: number; totalTermFreq: number };
  /** Docs of the `<field>._index_prefix` field: those with a token of at least `minChars`. */
  prefixDocCount?(field: string, minChars: number): number;
}

/** Term `t` of a field: does it have at least `n` code points? */
function hasCodePoints(t: string, n: number): boolean {
  if (t.length < n) return false;
  let cp = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || !isHigh(t.charCodeAt(i - 1))) cp++;
  }
  return cp >= n;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

const prefixDocCounts = new WeakMap<InvertedField, Map<number, number>>();

/** Docs of one segment's field with a term of at least `minChars` code points. */
function segmentPrefixDocCount(inv: InvertedField, maxDoc: number, minChars: number): number {
  let byMin = prefixDocCounts.get(inv);
  if (!byMin) prefixDocCounts.set(inv, (byMin = new Map()));
  let n = byMin.get(minChars);
  if (n !== undefined) return n;
  n = 0;
  const seen = new Uint8Array(maxDoc);
  for (let t = 0; t < inv.terms.length; t++) {
    if (!hasCodePoints(inv.terms[t]!, minChars)) continue;
    for (let i = inv.termStart[t]!; i < inv.termStart[t + 1]!; i++) {
      const d = inv.docs[i]!;
      if (seen[d] === 0) {
        seen[d] = 1;
        n++;
      }
    }
  }
  byMin.set(minChars, n);
  return n;
}

/** Distinct docs and total occurrences of a segment field's terms starting with `prefix`. */
function segmentPrefixTerm(
  inv: InvertedField,
  maxDoc: number,
  prefix: string,
): { docFreq: number; totalTermFreq: number } {
  let docFreq = 0;
  let totalTermFreq = 0;
  let seen: Uint8Array | null = null;
  for (let t = seekCeil(inv.terms, prefix); t < inv.terms.length; t++) {
    if (!inv.terms[t]!.startsWith(prefix)) break;
    totalTermFreq += termTotalFreq(inv, t);
    const s = inv.termStart[t]!;
    const e = inv.termStart[t + 1]!;
    if (seen === null && t + 1 < inv.terms.length && inv.terms[t + 1]!.startsWith(prefix)) {
      seen = new Uint8Array(maxDoc);
    }
    if (seen === null) {
      docFreq += e - s;
      continue;
    }
    for (let i = s; i < e; i++) {
      const d = inv.docs[i]!;
      if (seen[d] === 0) {
        seen[d] = 1;
        docFreq++;
      }
    }
  }
  return { docFreq, totalTermFreq };
}

function invertedOf(s: ShardSnapshot, i: number, field: string): InvertedField | null {
  const seg = s.segments[i]!.segment;
  return field === '_field_names' ? seg.fieldNames : (seg.fields.get(field)?.inverted ?? null);
}

export function shardStats(s: ShardSnapshot): SearchStats {
  const fieldCache = new Map<string, FieldStats>();
  return {
    maxDoc: s.maxDoc,
    numDocs: s.numDocs,
    field(field) {
      let fs = fieldCache.get(field);
      if (!fs) {
        fs = { docCount: 0, sumTotalTermFreq: 0, sumDocFreq: 0 };
        for (let i = 0; i < s.segments.length; i++) {
          const inv = invertedOf(s, i, field);
          if (!inv) continue;
          fs.docCount += inv.docCount;
          fs.sumTotalTermFreq += inv.sumTotalTermFreq;
          fs.sumDocFreq += inv.sumDocFreq;
        }
        fieldCache.set(field, fs);
      }
      return fs;
    },
    terms(field) {
      const all = new Set<string>();
      for (let i = 0; i < s.segments.length; i++) {
        const inv = invertedOf(s, i, field);
        if (inv) for (const t of inv.terms) all.add(t);
      }
      return [...all].sort();
    },
    term(field, term) {
      // totalTermFreq sums every posting's freq: only computed when asked (BM25 needs docFreq).
      let docFreq = 0;
      const invs: InvertedField[] = [];
      const ords: number[] = [];
      for (let i = 0; i < s.segments.length; i++) {
        const inv = invertedOf(s, i, field);
        if (!inv) continue;
        const t = termOrd(inv, term);
        invs.push(inv);
        ords.push(t);
        if (t >= 0) docFreq += inv.termStart[t + 1]! - inv.termStart[t]!;
      }
      let ttf = -1;
      return {
        docFreq,
        get totalTermFreq() {
          if (ttf < 0) {
            ttf = 0;
            for (let k = 0; k < invs.length; k++)
              if (ords[k]! >= 0) ttf += termTotalFreq(invs[k]!, ords[k]!);
          }
          return ttf;
        },
        ordIn(inv) {
          for (let k = 0; k < invs.length; k++) if (invs[k] === inv) return ords[k]!;
          return undefined;
        },
      };
    },
    prefixTerm(field, prefix) {
      const out = { docFreq: 0, totalTermFreq: 0 };
      for (let i = 0; i < s.segments.length; i++) {
        const inv = invertedOf(s, i, field);
        if (!inv) continue;
        const p = segmentPrefixTerm(inv, s.segments[i]!.segment.maxDoc, prefix);
        out.docFreq += p.docFreq;
        out.totalTermFreq += p.totalTermFreq;
      }
      return out;
    },
    prefixDocCount(field, minChars) {
      let n = 0;
      for (let i = 0; i < s.segments.length; i++) {
        const inv = invertedOf(s, i, field);
        if (inv) n += segmentPrefixDocCount(inv, s.segments[i]!.segment.maxDoc, minChars);
      }
      return n;
    },
  };
}

/** Global statistics over several shards (dfs_query_then_fetch). */
export function combinedStats(parts: SearchStats[]): SearchStats {
  return {
    maxDoc: parts.reduce((a, p) => a + p.maxDoc, 0),
    field(field) {
      const out = { docCount: 0, sumTotalTermFreq: 0, sumDocFreq: 0 };
      for (const p of parts) {
        const f = p.field(field);
        out.docCount += f.docCount;
        out.sumTotalTermFreq += f.sumTotalTermFreq;
        out.sumDocFreq += f.sumDocFreq;
      }
      return out;
    },
    terms(field) {
      const all = new Set<string>();
      for (const p of parts) for (const t of p.terms(field)) all.add(t);
      return [...all].sort();
    },
    term(field, term) {
      const out = { docFreq: 0, totalTermFreq: 0 };
      for (const p of parts) {
        const t = p.term(field, term);
        out.docFreq += t.docFreq;
        out.totalTermFreq += t.totalTermFreq;
      }
      return out;
    },
    prefixTerm(field, prefix) {
      const out = { docFreq: 0, totalTermFreq: 0 };
      for (const p of parts) {
        const t = p.prefixTerm?.(field, prefix);
        if (!t) continue;
        out.docFreq += t.docFreq;
        out.totalTermFreq += t.totalTermFreq;
      }
      return out;
    },
    prefixDocCount(field, minChars) {
      let n = 0;
      for (const p of parts) n += p.prefixDocCount?.(field, minChars) ?? 0;
      return n;
    },
  };
}
