/**
 * Collection and term statistics for scoring (Lucene IndexSearcher.collectionStatistics /
 * termStatistics). Per shard for query_then_fetch; summed over shards for dfs_query_then_fetch.
 * Deleted-but-unmerged documents count, as in Lucene.
 */
import type { ShardSnapshot } from '../index/live-segment.js';
import { totalTermFreq, type InvertedField } from '../index/segment.js';
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
  field(field: string): FieldStats;
  term(field: string, term: string): TermStats;
  /** Sorted unique terms of a field over all segments (for rewriting fuzzy queries). */
  terms(field: string): string[];
}

function invertedOf(s: ShardSnapshot, i: number, field: string): InvertedField | null {
  const seg = s.segments[i]!.segment;
  return field === '_field_names' ? seg.fieldNames : (seg.fields.get(field)?.inverted ?? null);
}

export function shardStats(s: ShardSnapshot): SearchStats {
  const fieldCache = new Map<string, FieldStats>();
  return {
    maxDoc: s.maxDoc,
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
              if (ords[k]! >= 0) ttf += totalTermFreq(invs[k]!, ords[k]!);
          }
          return ttf;
        },
        ordIn(inv) {
          for (let k = 0; k < invs.length; k++) if (invs[k] === inv) return ords[k]!;
          return undefined;
        },
      };
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
  };
}
