import { describe, expect, it } from 'vitest';
import {
  bm25Idf,
  rewriteMoreLikeThis,
  selectTerms,
  termClauses,
  type MltParams,
} from '../../../../src/search/query/more-like-this.js';
import type { SearchStats } from '../../../../src/search/query/stats.js';

/** Statistics of a 10-doc shard with the given document frequencies per field:term. */
function stats(df: Record<string, number>, numDocs = 10): SearchStats {
  return {
    maxDoc: numDocs,
    numDocs,
    field: () => ({ docCount: numDocs, sumTotalTermFreq: 0, sumDocFreq: 0 }),
    term: (f, t) => ({ docFreq: df[`${f}:${t}`] ?? 0, totalTermFreq: 0 }),
    terms: () => [],
  };
}

const params = (p: Partial<MltParams> = {}): MltParams => ({
  maxQueryTerms: 25,
  minTermFreq: 1,
  minDocFreq: 1,
  maxDocFreq: 1000,
  boostTerms: 0,
  minShouldMatch: () => 0,
  ...p,
});

describe('more_like_this term selection', () => {
  it('scores tf × BM25 idf and pops the lowest score first', () => {
    const s = stats({ 'f:a': 1, 'f:b': 5, 'f:c': 2 });
    const terms = selectTerms(
      [
        ['a', 1],
        ['b', 3],
        ['c', 1],
      ],
      ['f'],
      s,
      params(),
    );
    expect(terms.map((t) => t.word)).toEqual(
      ['c', 'a', 'b'].sort((x, y) => {
        const sc = (w: string, tf: number, df: number) => Math.fround(tf * bm25Idf(df, 10));
        const score: Record<string, number> = {
          a: sc('a', 1, 1),
          b: sc('b', 3, 5),
          c: sc('c', 1, 2),
        };
        return score[x]! - score[y]!;
      }),
    );
    expect(terms[0]!.score).toBeLessThanOrEqual(terms[2]!.score);
  });

  it('drops terms rare in the source, rare or common in the index, or absent', () => {
    const s = stats({ 'f:a': 1, 'f:b': 5, 'f:c': 9 });
    const words: Array<[string, number]> = [
      ['a', 1],
      ['b', 2],
      ['c', 2],
      ['zzz', 5],
    ];
    const pick = (p: Partial<MltParams>) =>
      selectTerms(words, ['f'], s, params(p))
        .map((t) => t.word)
        .sort();
    expect(pick({})).toEqual(['a', 'b', 'c']);
    expect(pick({ minTermFreq: 2 })).toEqual(['b', 'c']);
    expect(pick({ minDocFreq: 2 })).toEqual(['b', 'c']);
    expect(pick({ maxDocFreq: 5 })).toEqual(['a', 'b']);
    // min_doc_freq 0 still needs the term in the index
    expect(pick({ minDocFreq: 0 })).toEqual(['a', 'b', 'c']);
  });

  it('keeps the best max_query_terms and names the field with the largest doc freq', () => {
    const s = stats({ 'f:a': 1, 'f:b': 2, 'g:b': 4, 'f:c': 3 });
    const terms = selectTerms(
      [
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ],
      ['f', 'g'],
      s,
      params({ maxQueryTerms: 2 }),
    );
    // b is the most common (4 docs in g): it goes first
    expect(terms.map((t) => t.word).sort()).toEqual(['a', 'c']);
    const all = selectTerms([['b', 1]], ['f', 'g'], s, params());
    expect(all[0]!.field).toBe('g');
  });

  it('boosts terms relative to the first popped and applies minimum_should_match', () => {
    const clauses = termClauses(
      [
        { word: 'x', field: 'f', score: 2 },
        { word: 'y', field: 'f', score: 4 },
      ],
      3,
    );
    expect(clauses.map((c) => ('boost' in c ? c.boost : 0))).toEqual([3, 6]);
    const q = rewriteMoreLikeThis(
      {
        fieldTerms: [
          {
            field: 'f',
            terms: [
              ['a', 1],
              ['b', 1],
              ['c', 1],
            ],
          },
        ],
        textTerms: null,
        textFields: ['f'],
        params: params({ minShouldMatch: (n) => Math.floor(n * 0.5) }),
      },
      stats({ 'f:a': 1, 'f:b': 1, 'f:c': 1 }),
    );
    expect(q.kind).toBe('Bool');
    const inner = (q as Extract<typeof q, { kind: 'Bool' }>).should[0]!;
    expect(inner).toMatchObject({ kind: 'Bool', minShouldMatch: 1 });
    expect((inner as Extract<typeof q, { kind: 'Bool' }>).should).toHaveLength(3);
  });
});
