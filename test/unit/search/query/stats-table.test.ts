/**
 * Statistics tables for dfs_query_then_fetch across nodes: what each shard's query read, summed,
 * answers as combinedStats over the shards' own statistics answers; unrecorded is zero.
 */
import { describe, expect, it } from 'vitest';
import { combinedStats, type SearchStats } from '../../../../src/search/query/stats.js';
import {
  emptyStatsTable,
  recordStats,
  sumStatsTables,
  tableStats,
} from '../../../../src/search/query/stats-table.js';

/** A shard's statistics over a term list (docFreq 2 per term, totalTermFreq 3). */
function shard(maxDoc: number, terms: string[]): SearchStats {
  return {
    maxDoc,
    field: () => ({ docCount: maxDoc, sumTotalTermFreq: terms.length * 3, sumDocFreq: terms.length * 2 }), // prettier-ignore
    term: (_f, t) => (terms.includes(t) ? { docFreq: 2, totalTermFreq: 3 } : { docFreq: 0, totalTermFreq: 0 }), // prettier-ignore
    terms: () => [...terms].sort(),
    prefixTerm: (_f, p) => ({ docFreq: terms.filter((t) => t.startsWith(p)).length, totalTermFreq: 1 }), // prettier-ignore
    prefixDocCount: (_f, min) => terms.filter((t) => t.length >= min).length,
  };
}

describe('statistics tables', () => {
  it('sum to what combinedStats answers for what the shards read', () => {
    const parts = [shard(10, ['fox', 'dog']), shard(7, ['fox', 'cat']), shard(0, [])];
    const tables = parts.map((p) => {
      const t = emptyStatsTable();
      const r = recordStats(p, t);
      // what a query over `fox`, `cat`, `dog` and the prefix `c` reads on each shard
      r.field('title');
      for (const term of r.terms('title')) r.term('title', term);
      r.term('title', 'fox');
      r.prefixTerm!('title', 'c');
      r.prefixDocCount!('title', 3);
      return t;
    });
    const summed = tableStats(sumStatsTables(tables));
    const lone = combinedStats(parts);
    expect(summed.maxDoc).toBe(17);
    expect(summed.field('title')).toEqual(lone.field('title'));
    expect(summed.terms('title')).toEqual(['cat', 'dog', 'fox']);
    for (const t of ['fox', 'cat', 'dog', 'eel'])
      expect(summed.term('title', t)).toEqual(lone.term('title', t));
    expect(summed.term('title', 'fox')).toEqual({ docFreq: 4, totalTermFreq: 6 });
    expect(summed.prefixTerm!('title', 'c')).toEqual(lone.prefixTerm!('title', 'c'));
    expect(summed.prefixDocCount!('title', 3)).toBe(4);
    expect(summed.field('other')).toEqual({ docCount: 0, sumTotalTermFreq: 0, sumDocFreq: 0 });
  });
});
