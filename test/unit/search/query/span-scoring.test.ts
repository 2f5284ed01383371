/**
 * Span scores as Lucene 7.7's SpanWeight/SpanScorer give them (Elasticsearch 6.8), computed by
 * hand: BM25 with the idfs of every term under the top query summed in double then rounded to
 * float, and the sloppy frequency Σ 1/(width + 1) summed in float; explanations as ES prints them.
 */
import { describe, expect, it } from 'vitest';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { byte4ToInt, intToByte4 } from '../../../../src/search/index/norms.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { termQuery, type Query } from '../../../../src/search/query/query.js';
import type { SpanQuery } from '../../../../src/search/query/spans/types.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';
import { collectOptions } from '../../../helpers/collect-options.js';

const f = Math.fround;
const body = field('body', 'text');
const corpus = [
  'the quick brown fox', // 0
  'quick fox quick fox jumps', // 1
  'fox quick', // 2
  'the lazy dog', // 3
  'quick brown brown fox', // 4
];
const lengths = corpus.map((s) => s.split(' ').length);
const docCount = corpus.length;
const avgdl = f(lengths.reduce((a, b) => a + b, 0) / docCount);

const idx = new ShardIndex(standardResolver);
corpus.forEach((text, i) => idx.add(String(i), doc([[body, text]]), i, 1));
idx.refresh();

// ---- Lucene 7.7 BM25Similarity by hand
const K1 = f(1.2);
const B = f(0.75);
const idf = (df: number): number => f(Math.log(1 + (docCount - df + 0.5) / (df + 0.5)));
/** BM25Similarity.idfExplain(TermStatistics[]): a double sum rounded once. */
const idfSum = (...dfs: number[]): number => f(dfs.reduce((a, df) => a + idf(df), 0));
const norm = (len: number): number =>
  f(K1 * f(f(1 - B) + f(f(B * byte4ToInt(intToByte4(len))) / avgdl)));
/** SpanScorer.setFreqCurrentDoc: float sum of sloppyFreq(width) = 1 / (width + 1). */
const sloppy = (...widths: number[]): number => widths.reduce((a, w) => f(a + f(1 / (w + 1))), 0);
function score(freq: number, doc: number, idfValue: number, boost = 1): number {
  const weight = f(f(boost * idfValue) * f(K1 + 1));
  return f(f(weight * freq) / f(freq + norm(lengths[doc]!)));
}

// ---- queries
const t = (term: string): SpanQuery => ({ kind: 'SpanTerm', field: 'body', term, boost: 1 });
const near = (clauses: SpanQuery[], slop: number, inOrder: boolean, boost = 1): SpanQuery => ({
  kind: 'SpanNear',
  field: 'body',
  clauses,
  slop,
  inOrder,
  boost,
});

function scores(q: Query): Map<number, number> {
  const snap = idx.searcher();
  const w = createWeight(q, { stats: shardStats(snap), needsScores: true });
  const r = collectTopDocs(snap, w, collectOptions(10));
  return new Map(r.hits.map((h) => [h.doc, h.score]));
}

// document frequencies: quick 4, fox 4, brown 2, the 2
describe('SpanScorer parity with Lucene 7.7', () => {
  it('span_term scores as its term query, freq = the positions', () => {
    const s = scores(t('fox'));
    expect(s).toEqual(scores(termQuery('body', 'fox')));
    expect(s.get(1)).toBe(score(2, 1, idf(4)));
    expect(s.get(0)).toBe(score(1, 0, idf(4)));
  });

  it('ordered span_near: the sloppy freq of its matches, the idf of both terms', () => {
    const s = scores(near([t('quick'), t('fox')], 2, true));
    expect([...s.keys()].sort()).toEqual([0, 1, 4]);
    const both = idfSum(4, 4);
    expect(s.get(0)).toBe(score(sloppy(1), 0, both));
    expect(s.get(1)).toBe(score(sloppy(0, 0), 1, both));
    expect(s.get(4)).toBe(score(sloppy(2), 4, both));
  });

  it('unordered span_near: each match is as wide as its window', () => {
    const s = scores(near([t('fox'), t('quick')], 0, false));
    expect([...s.keys()].sort()).toEqual([1, 2]);
    // doc 1 "quick fox quick fox": windows [0,2) [1,3) [2,4), each of width 2
    expect(s.get(1)).toBe(score(sloppy(2, 2, 2), 1, idfSum(4, 4)));
    expect(s.get(2)).toBe(score(sloppy(2), 2, idfSum(4, 4)));
  });

  it('span_or: every term of every clause counts in the idf', () => {
    const q: SpanQuery = { kind: 'SpanOr', clauses: [t('brown'), t('the')], boost: 1 };
    const s = scores(q);
    expect(s.get(0)).toBe(score(2, 0, idfSum(2, 2)));
    expect(s.get(3)).toBe(score(1, 3, idfSum(2, 2)));
    expect(s.get(4)).toBe(score(2, 4, idfSum(2, 2)));
  });

  it('span_not at the top: idf of include and exclude terms, freq of the kept matches', () => {
    const q: SpanQuery = {
      kind: 'SpanNot',
      include: t('fox'),
      exclude: t('brown'),
      pre: 1,
      post: 1,
      boost: 1,
    };
    const s = scores(q);
    expect([...s.keys()].sort()).toEqual([1, 2]);
    expect(s.get(1)).toBe(score(2, 1, idfSum(4, 2)));
    expect(s.get(2)).toBe(score(1, 2, idfSum(4, 2)));
    // nested, a span_not only brings its include terms
    const nested = scores({ kind: 'SpanOr', clauses: [q, t('dog')], boost: 1 });
    expect(nested.get(1)).toBe(score(2, 1, idfSum(4, 1)));
  });

  it('span_first: one term, one idf', () => {
    const q: SpanQuery = { kind: 'SpanFirst', match: t('fox'), end: 2, boost: 1 };
    const s = scores(q);
    expect([...s.keys()].sort()).toEqual([1, 2]);
    expect(s.get(1)).toBe(score(1, 1, idf(4)));
  });

  it('boosts the top query only; inner boosts are printed, not scored', () => {
    const plain = scores(near([t('quick'), t('fox')], 2, true));
    const boosted = scores(near([t('quick'), t('fox')], 2, true, 2));
    expect(boosted.get(0)).toBe(score(sloppy(1), 0, idfSum(4, 4), 2));
    const inner = scores(near([{ ...t('quick'), boost: 5 }, t('fox')], 2, true));
    expect(inner).toEqual(plain);
    // a boost around a masked query is the masked query's own (FieldMaskingSpanQuery.createWeight)
    const masked: SpanQuery = {
      kind: 'SpanMask',
      inner: { ...t('fox'), boost: 3 },
      field: 'body',
      boost: 1,
    };
    expect(scores(masked).get(2)).toBe(score(1, 2, idf(4), 3));
  });

  it('explains as ES 6.8 does', () => {
    const snap = idx.searcher();
    const w = createWeight(near([t('quick'), t('fox')], 2, true), {
      stats: shardStats(snap),
      needsScores: true,
    });
    const e = w.explain(snap.segments[0]!, 0);
    expect(e.value).toBe(scores(near([t('quick'), t('fox')], 2, true)).get(0));
    expect(e.description).toBe(
      'weight(spanNear([body:quick, body:fox], 2, true) in 0) [PerFieldSimilarity], result of:',
    );
    const s = e.details[0]!;
    expect(s.description).toBe('score(doc=0,freq=0.5 = phraseFreq=0.5\n), product of:');
    const [idfE, tfNorm] = s.details;
    expect(idfE!.description).toBe('idf(), sum of:');
    expect(idfE!.value).toBe(idfSum(4, 4));
    expect(idfE!.details.map((d) => [d.value, d.details.map((x) => x.value)])).toEqual([
      [idf(4), [4, 5]],
      [idf(4), [4, 5]],
    ]);
    expect(tfNorm!.details[0]).toMatchObject({ value: 0.5, description: 'phraseFreq=0.5' });
    expect(w.explain(snap.segments[0]!, 3)).toMatchObject({
      value: 0,
      description: 'no matching term',
    });
    // freqs print as Java floats
    const u = createWeight(near([t('fox'), t('quick')], 0, false), {
      stats: shardStats(snap),
      needsScores: true,
    });
    expect(u.explain(snap.segments[0]!, 2).details[0]!.description).toBe(
      'score(doc=2,freq=0.33333334 = phraseFreq=0.33333334\n), product of:',
    );
  });
});
