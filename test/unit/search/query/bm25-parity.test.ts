/**
 * Score parity with Lucene 7.7 BM25 (Elasticsearch 6.8): scores computed by hand from the formula
 * and the one-byte norm table must equal what the engine returns, bit for bit as float32.
 */
import { describe, expect, it } from 'vitest';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { byte4ToInt, intToByte4 } from '../../../../src/search/index/norms.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { boolQuery, termQuery, type Query } from '../../../../src/search/query/query.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';
import { collectOptions } from '../../../helpers/collect-options.js';

const f = Math.fround;
const body = field('body', 'text');
const corpus = [
  'the quick brown fox',
  'the lazy dog',
  'quick quick quick fox jumps over the lazy dog again and again',
  'brown dog',
  'a fox',
];

/** Lucene 7 BM25 by hand: idf * (k1 + 1) * tf / (tf + k1 * (1 - b + b * dl / avgdl)), in float. */
function handScore(
  tf: number,
  dl: number,
  df: number,
  docCount: number,
  sumTtf: number,
  boost = 1,
): number {
  const k1 = f(1.2);
  const b = f(0.75);
  const idf = f(Math.log(1 + (docCount - df + 0.5) / (df + 0.5)));
  const avgdl = f(sumTtf / docCount);
  const decoded = byte4ToInt(intToByte4(dl));
  const norm = f(k1 * f(f(1 - b) + f(f(b * decoded) / avgdl)));
  const weight = f(f(boost * idf) * f(k1 + 1));
  return f(f(weight * tf) / f(tf + norm));
}

function search(idx: ShardIndex, q: Query) {
  const snap = idx.searcher();
  const w = createWeight(q, { stats: shardStats(snap), needsScores: true });
  return collectTopDocs(snap, w, collectOptions(10));
}

describe('BM25 parity with Lucene 7.7', () => {
  const idx = new ShardIndex(standardResolver);
  corpus.forEach((text, i) => idx.add(String(i), doc([[body, text]]), i, 1));
  idx.refresh();
  const lengths = corpus.map((t) => t.split(' ').length);
  const sumTtf = lengths.reduce((a, b) => a + b, 0);

  it('scores a single term exactly', () => {
    const r = search(idx, termQuery('body', 'fox'));
    // docs 0, 2, 4 contain fox once each
    expect(r.totalHits).toBe(3);
    for (const h of r.hits) {
      expect(h.score).toBe(handScore(1, lengths[h.doc]!, 3, 5, sumTtf));
    }
    // shorter documents rank first
    expect(r.hits.map((h) => h.doc)).toEqual([4, 0, 2]);
  });

  it('uses term frequency and norms', () => {
    const r = search(idx, termQuery('body', 'quick'));
    const byDoc = new Map(r.hits.map((h) => [h.doc, h.score]));
    expect(byDoc.get(2)).toBe(handScore(3, lengths[2]!, 2, 5, sumTtf));
    expect(byDoc.get(0)).toBe(handScore(1, lengths[0]!, 2, 5, sumTtf));
  });

  it('sums boolean should clauses in double, rounded to float', () => {
    const r = search(
      idx,
      boolQuery({ should: [termQuery('body', 'fox'), termQuery('body', 'dog')] }),
    );
    const d2 = r.hits.find((h) => h.doc === 2)!;
    const expected = f(
      handScore(1, lengths[2]!, 3, 5, sumTtf) + handScore(1, lengths[2]!, 3, 5, sumTtf),
    );
    expect(d2.score).toBe(expected);
    expect(r.totalHits).toBe(5);
  });

  it('applies boosts inside the weight', () => {
    const r = search(idx, termQuery('body', 'lazy', 2));
    for (const h of r.hits) expect(h.score).toBe(handScore(1, lengths[h.doc]!, 2, 5, sumTtf, 2));
  });

  it('encodes norms like SmallFloat.intToByte4', () => {
    for (let i = 0; i < 24; i++) expect(byte4ToInt(intToByte4(i))).toBe(i);
    expect(byte4ToInt(intToByte4(39))).toBe(39);
    expect(byte4ToInt(intToByte4(41))).toBe(40);
    expect(byte4ToInt(intToByte4(100))).toBe(96);
    expect(intToByte4(0x7fffffff)).toBe(255);
  });
});
