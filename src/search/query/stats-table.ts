/**
 * Scoring statistics as data, for dfs_query_then_fetch across nodes (ES DfsPhase +
 * AggregatedDfs): a shard records the statistics its query asks for (`recordStats`), the
 * coordinator sums the shards' tables (`sumStatsTables`, as combinedStats sums shards) and every
 * shard scores with the sum (`tableStats`). A statistic a shard did not record counts as zero
 * there: the shard asked for every term it holds that its query reads.
 */
import type { FieldStats, SearchStats } from './stats.js';

export interface StatsTable {
  maxDoc: number;
  readonly fields: Map<string, FieldStats>;
  /** By field and term (`field\0term`): docFreq and totalTermFreq. */
  readonly terms: Map<string, [number, number]>;
  readonly termLists: Map<string, string[]>;
  readonly prefixTerms: Map<string, [number, number]>;
  readonly prefixDocCounts: Map<string, number>;
}

const key = (a: string, b: string | number) => `${a}\u0000${b}`;

export const emptyStatsTable = (): StatsTable => ({
  maxDoc: 0,
  fields: new Map(),
  terms: new Map(),
  termLists: new Map(),
  prefixTerms: new Map(),
  prefixDocCounts: new Map(),
});

/** `inner` with every statistic it gives recorded in `table`. */
export function recordStats(inner: SearchStats, table: StatsTable): SearchStats {
  table.maxDoc = inner.maxDoc;
  return {
    maxDoc: inner.maxDoc,
    field(f) {
      const s = inner.field(f);
      table.fields.set(f, { docCount: s.docCount, sumTotalTermFreq: s.sumTotalTermFreq, sumDocFreq: s.sumDocFreq }); // prettier-ignore
      return s;
    },
    term(f, t) {
      const s = inner.term(f, t);
      table.terms.set(key(f, t), [s.docFreq, s.totalTermFreq]);
      return s;
    },
    terms(f) {
      const s = inner.terms(f);
      table.termLists.set(f, s);
      return s;
    },
    prefixTerm(f, p) {
      const s = inner.prefixTerm?.(f, p) ?? { docFreq: 0, totalTermFreq: 0 };
      table.prefixTerms.set(key(f, p), [s.docFreq, s.totalTermFreq]);
      return s;
    },
    prefixDocCount(f, min) {
      const n = inner.prefixDocCount?.(f, min) ?? 0;
      table.prefixDocCounts.set(key(f, min), n);
      return n;
    },
  };
}

/** The sum of the shards' tables; term lists are merged, sorted and unique. */
export function sumStatsTables(tables: readonly StatsTable[]): StatsTable {
  const out = emptyStatsTable();
  const add2 = (m: Map<string, [number, number]>, k: string, v: [number, number]) => {
    const c = m.get(k);
    m.set(k, c ? [c[0] + v[0], c[1] + v[1]] : [v[0], v[1]]);
  };
  for (const t of tables) {
    out.maxDoc += t.maxDoc;
    for (const [f, s] of t.fields) {
      const c = out.fields.get(f) ?? { docCount: 0, sumTotalTermFreq: 0, sumDocFreq: 0 };
      out.fields.set(f, {
        docCount: c.docCount + s.docCount,
        sumTotalTermFreq: c.sumTotalTermFreq + s.sumTotalTermFreq,
        sumDocFreq: c.sumDocFreq + s.sumDocFreq,
      });
    }
    for (const [k, v] of t.terms) add2(out.terms, k, v);
    for (const [k, v] of t.prefixTerms) add2(out.prefixTerms, k, v);
    for (const [k, n] of t.prefixDocCounts)
      out.prefixDocCounts.set(k, (out.prefixDocCounts.get(k) ?? 0) + n);
    for (const [f, l] of t.termLists) {
      const c = out.termLists.get(f);
      out.termLists.set(f, c ? [...new Set([...c, ...l])].sort() : [...l]);
    }
  }
  return out;
}

/** The statistics a table holds; zero for what no shard recorded. */
export function tableStats(t: StatsTable): SearchStats {
  return {
    maxDoc: t.maxDoc,
    field: (f) => ({ ...(t.fields.get(f) ?? { docCount: 0, sumTotalTermFreq: 0, sumDocFreq: 0 }) }), // prettier-ignore
    term(f, term) {
      const v = t.terms.get(key(f, term));
      return { docFreq: v?.[0] ?? 0, totalTermFreq: v?.[1] ?? 0 };
    },
    terms: (f) => t.termLists.get(f) ?? [],
    prefixTerm(f, p) {
      const v = t.prefixTerms.get(key(f, p));
      return { docFreq: v?.[0] ?? 0, totalTermFreq: v?.[1] ?? 0 };
    },
    prefixDocCount: (f, min) => t.prefixDocCounts.get(key(f, min)) ?? 0,
  };
}
