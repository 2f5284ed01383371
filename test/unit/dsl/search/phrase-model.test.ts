/** The phrase suggester's language models: unigram, bigram and trigram probabilities. */
import { describe, expect, it } from 'vitest';
import { wordScorer, type Candidate } from '../../../../src/dsl/search/phrase-model.js';

const counts = new Map<string, number>([
  ['the', 10],
  ['god', 2],
  ['jewel', 1],
  ['the god', 2],
  ['the god jewel', 1],
  ['god jewel', 1],
]);
const ngrams = { frequency: (t: string) => counts.get(t) ?? 0, vocabularySize: 100, numTerms: 20 };
const word = (term: string, stringDistance = 1): Candidate => ({
  term,
  frequency: counts.get(term) ?? 0,
  stringDistance,
  score: 0,
  userInput: stringDistance === 1,
});
const path = [word('the'), word('god'), word('jewel')];
const unigram = (t: string) => (1 + (counts.get(t) ?? 0)) / 120;

describe('stupid backoff', () => {
  const s = wordScorer({ kind: 'stupid_backoff', discount: 0.4 }, ngrams, 0.95, ' ');
  it('scores the first word by its unigram and the channel likelihood', () => {
    expect(s.score(path, 0, 3)).toBeCloseTo(Math.log10(0.95 * unigram('the')), 12);
    // a corrected word's channel likelihood is its spelling similarity
    expect(s.score([word('the', 0.5)], 0, 1)).toBeCloseTo(Math.log10(0.5 * unigram('the')), 12);
  });
  it('uses the bigram count over the previous word, or backs off with the discount', () => {
    expect(s.score(path, 1, 2)).toBeCloseTo(Math.log10(0.95 * (2 / (10 + 1e-11))), 12);
    expect(s.score([word('god'), word('the')], 1, 2)).toBeCloseTo(
      Math.log10(0.95 * 0.4 * unigram('the')),
      12,
    );
  });
  it('uses the trigram over its bigram, backing off to the discounted bigram', () => {
    expect(s.score(path, 2, 3)).toBeCloseTo(Math.log10(0.95 * (1 / (1 + 1e-11))), 12);
    const p = [word('jewel'), word('god'), word('jewel')];
    expect(s.score(p, 2, 3)).toBeCloseTo(Math.log10(0.95 * 0.4 * (1 / (2 + 1e-11))), 12);
  });
});

describe('laplace', () => {
  const s = wordScorer({ kind: 'laplace', alpha: 0.5 }, ngrams, 0.95, ' ');
  it('adds alpha to the counts', () => {
    expect(s.score(path, 1, 2)).toBeCloseTo(Math.log10(0.95 * ((0.5 + 2) / (0.5 + 10 + 100))), 12);
    expect(s.score(path, 2, 3)).toBeCloseTo(Math.log10(0.95 * ((0.5 + 1) / (0.5 + 1 + 100))), 12);
  });
});

describe('linear interpolation', () => {
  const s = wordScorer(
    { kind: 'linear_interpolation', trigramLambda: 0.5, bigramLambda: 0.3, unigramLambda: 0.2 },
    ngrams,
    0.95,
    ' ',
  );
  it('mixes the bigram and unigram estimates by their lambdas', () => {
    const bi = 0.3 * (2 / (0.5 + 10)) + 0.2 * unigram('god');
    expect(s.score(path, 1, 2)).toBeCloseTo(Math.log10(0.95 * bi), 12);
  });
  it('falls back to the bigram mix without the (newest-first) trigram', () => {
    const bi = 0.3 * (1 / (0.5 + 2)) + 0.2 * unigram('jewel');
    expect(s.score(path, 2, 3)).toBeCloseTo(Math.log10(0.95 * bi), 12);
  });
});

describe('separator and vocabulary', () => {
  it('joins shingles with the separator and ignores a -1 term count for tiny vocabularies', () => {
    const c = new Map([['a|b', 3]]);
    const s = wordScorer(
      { kind: 'stupid_backoff', discount: 0.4 },
      { frequency: (t) => c.get(t) ?? 0, vocabularySize: 1, numTerms: -1 },
      0.95,
      '|',
    );
    const a = { ...word('a'), frequency: 3 };
    expect(s.score([a, word('b')], 1, 2)).toBeCloseTo(Math.log10(0.95 * (3 / (3 + 1e-11))), 12);
    expect(s.score([word('b')], 0, 1)).toBeCloseTo(Math.log10(0.95 * (1 / 1)), 12);
  });
});
