/**
 * Block impacts and term lookups: every doc's BM25 score is within its block's bound (through
 * TermScorer.shallowAdvance/blockMax, whose block ends are the postings' own), impacts are ready
 * as soon as a segment is published, and hashed term lookups agree with the binary search.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockImpacts, computeImpacts } from '../../../../src/search/index/block-bounds.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { findTerm } from '../../../../src/search/index/segment.js';
import { termOrd } from '../../../../src/search/index/term-lookup.js';
import { Bm25 } from '../../../../src/search/query/bm25.js';
import { NO_MORE_DOCS } from '../../../../src/search/query/scorer.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { TermScorer } from '../../../../src/search/query/term-scorers.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const body = field('body', 'text');
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'eps'];

function corpus(seed: number, nDocs: number): ShardIndex {
  let a = seed >>> 0;
  const r = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const idx = new ShardIndex(standardResolver);
  for (let i = 0; i < nDocs; i++) {
    // Long docs repeat words (high freqs), short docs have few: the pairs that bound a block.
    const len = 1 + Math.floor(r() * r() * 60);
    const t: string[] = [];
    for (let k = 0; k < len; k++) t.push(WORDS[Math.floor(WORDS.length * r() * r())]!);
    idx.add(String(i), doc([[body, t.join(' ')]]), i, 1);
    if (r() < 2 / nDocs) idx.refresh();
  }
  idx.refresh();
  return idx;
}

describe('block impacts', () => {
  it('bound the score of every doc of each block, with block ends from the postings', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom(1, 2.5, 0.1),
        (seed, nDocs, boost) => {
          const snap = corpus(seed, nDocs).searcher();
          const stats = shardStats(snap);
          for (const ls of snap.segments) {
            const inv = ls.segment.fields.get('body')!.inverted!;
            // published segments are prepared: the cached impacts equal a fresh computation
            expect(blockImpacts(inv)).toEqual(computeImpacts(inv));
            for (const w of WORDS) {
              const t = findTerm(inv.terms, w);
              if (t < 0) continue;
              const bm25 = new Bm25(boost, stats.field('body'), stats.term('body', w), snap.maxDoc);
              const s = new TermScorer(inv, t, bm25, boost);
              const probe = new TermScorer(inv, t, bm25, boost);
              for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
                const last = probe.shallowAdvance(d);
                expect(last).toBeGreaterThanOrEqual(d);
                // the block holding d ends at a multiple of 128 postings or the last posting
                const k = s.i - s.start;
                const blockEnd = Math.min(s.end, s.start + (((k >> 7) + 1) << 7)) - 1;
                expect(last).toBe(inv.docs[blockEnd]);
                expect(s.score()).toBeLessThanOrEqual(probe.blockMax());
                expect(s.score()).toBeLessThanOrEqual(s.maxScore());
              }
              expect(probe.shallowAdvance(inv.docs[s.end - 1]! + 1)).toBe(NO_MORE_DOCS);
              expect(probe.blockMax()).toBe(0);
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('termOrd', () => {
  it('finds the same ordinals as the binary search, and -1 for absent terms', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 30 }),
        (words, probes) => {
          const idx = new ShardIndex(standardResolver);
          const kw = field('kw', 'keyword');
          words.forEach((w, i) => idx.add(String(i), doc([[kw, w]]), i, 1));
          idx.refresh();
          for (const ls of idx.searcher().segments) {
            const inv = ls.segment.fields.get('kw')?.inverted;
            if (!inv) continue;
            for (const w of [...words, ...probes]) {
              const t = findTerm(inv.terms, w);
              expect(termOrd(inv, w)).toBe(t < 0 ? -1 : t);
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
