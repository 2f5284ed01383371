import { describe, expect, it } from 'vitest';
import {
  formatPassage,
  passageNorm,
  passageTf,
  passageWeight,
  sentenceBounds,
  unifiedPassages,
  type PassageMatch,
} from '../../../../src/dsl/search/unified-passages.js';

const S1 = 'The old fox sleeps under the tall green tree near the quiet river bank. ';
const S2 = 'A quick brown fox jumps over the lazy dog while another fox watches. ';
const S3 = 'Brown dogs and brown cats play together in the warm afternoon sun.';
const TEXT = S1 + S2 + S3;

function matchesOf(text: string, terms: string[]): PassageMatch[] {
  const out: PassageMatch[] = [];
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const term = m[0].toLowerCase();
    if (terms.includes(term)) out.push({ start: m.index!, end: m.index! + m[0].length, term });
  }
  return out;
}

describe('PassageScorer', () => {
  // values computed in float32 from Lucene 7.7's formulas (k1 1.2, b 0.75, pivot 87)
  it('weighs, normalises and boosts as Lucene does', () => {
    expect(passageWeight(207, 3)).toBe(Math.fround(1.6410179138183594));
    expect(passageTf(2, 69)).toBe(Math.fround(0.6636155843734741));
    expect(passageNorm(72)).toBe(Math.fround(1.1972812414169312));
  });
});

describe('unifiedPassages', () => {
  it('breaks sentences after terminators and the spaces after them', () => {
    expect(sentenceBounds(TEXT)).toEqual([0, 72, 141, 207]);
    expect(sentenceBounds('See e.g. this. Next')).toEqual([0, 15, 19]);
    expect(sentenceBounds('one\ntwo\u0000three')).toEqual([0, 4, 8, 13]);
  });

  it('scores each sentence as a small document', () => {
    const ps = unifiedPassages(TEXT, matchesOf(TEXT, ['fox', 'brown']), 100, 5);
    expect(ps.map((p) => [p.start, p.end, p.score])).toEqual([
      [0, 72, Math.fround(0.9822209)],
      [72, 141, Math.fround(2.279497)],
      [141, 207, Math.fround(1.3030003)],
    ]);
    expect(formatPassage(TEXT, ps[0]!, '<em>', '</em>')).toBe(
      'The old <em>fox</em> sleeps under the tall green tree near the quiet river bank.',
    );
  });

  it('keeps the best passages, in text order', () => {
    const ps = unifiedPassages(TEXT, matchesOf(TEXT, ['fox', 'brown']), 100, 2);
    expect(ps.map((p) => p.start)).toEqual([72, 141]);
  });

  it('merges sentences up to fragment_size and cuts longer ones around the match', () => {
    const short = 'One fox. Two cats. Three dogs.';
    const merged = unifiedPassages(short, matchesOf(short, ['fox']), 100, 5);
    expect(merged.map((p) => [p.start, p.end])).toEqual([[0, short.length]]);
    const long = `${'word '.repeat(40)}fox ${'tail '.repeat(40)}`.trim();
    const [cut] = unifiedPassages(long, matchesOf(long, ['fox']), 20, 5);
    expect(cut!.end - cut!.start).toBeLessThanOrEqual(25);
    expect(long.slice(cut!.start, cut!.end)).toContain('fox');
  });
});
