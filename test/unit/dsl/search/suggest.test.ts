/**
 * Suggesters: SuggestBuilder parsing, DirectSpellChecker candidates (edits, prefix, accuracy,
 * suggest modes, frequency limits) and the phrase suggester's noisy-channel corrections.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { parseSuggest, DEFAULT_SPELL } from '../../../../src/dsl/search/suggest.js';
import { shardTermStats, suggestSimilar } from '../../../../src/dsl/search/spell.js';
import {
  directGenerator,
  joinCorrection,
  phraseCorrections,
} from '../../../../src/dsl/search/phrase-suggest.js';
import {
  DEFAULT_SMOOTHING,
  wordScorer,
  type Candidate,
} from '../../../../src/dsl/search/phrase-model.js';
import { Bench } from '../query/harness.js';

const err = (f: () => unknown): [string, string | null] => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return [e.type, e.reason];
    throw e;
  }
  throw new Error('expected an error');
};

describe('parseSuggest', () => {
  it('reads named suggestions and applies the global text', () => {
    const s = parseSuggest({
      text: 'quikc',
      a: { term: { field: 'body', size: 3, suggest_mode: 'popular', prefix_length: 0 } },
      b: { text: 'x', phrase: { field: 'body', confidence: 0 } },
      c: { prefix: 'do', completion: { field: 'title', skip_duplicates: true } },
    });
    expect(s.map((x) => [x.name, x.type, x.text, x.prefix, x.size])).toEqual([
      ['a', 'term', 'quikc', null, 3],
      ['b', 'phrase', 'x', null, 5],
      ['c', 'completion', null, 'do', 5],
    ]);
    const a = s[0]!;
    if (a.type !== 'term') throw new Error('term expected');
    expect([a.spell.suggestMode, a.spell.prefixLength]).toEqual(['popular', 0]);
  });
  it('reports unknown suggesters, fields and options', () => {
    expect(err(() => parseSuggest({ a: { text: 'x', nope: { field: 'f' } } }))).toEqual([
      'x_content_parse_exception',
      'unable to parse SuggestionBuilder with name [nope]: parser not found',
    ]);
    expect(err(() => parseSuggest({ a: { text: 'x' } }))).toEqual([
      'parse_exception',
      'missing suggestion object',
    ]);
    expect(err(() => parseSuggest({ a: { term: { field: 'f', bogus: 1 } } }))).toEqual([
      'parsing_exception',
      "suggester[term] doesn't support field [bogus]",
    ]);
    expect(err(() => parseSuggest({ a: { term: {} } }))).toEqual([
      'parse_exception',
      'the required field option [field] is missing',
    ]);
    expect(err(() => parseSuggest({ foo: 'bar' }))).toEqual([
      'illegal_argument_exception',
      '[suggest] does not support [foo]',
    ]);
  });
});

describe('phrase suggester options', () => {
  const phrase = (o: Record<string, unknown>) => {
    const s = parseSuggest({ p: { text: 'x', phrase: { field: 'f', ...o } } })[0]!;
    if (s.type !== 'phrase') throw new Error('phrase expected');
    return s;
  };
  it('reads smoothing models, generators, force_unigrams and collate', () => {
    const s = phrase({
      force_unigrams: false,
      smoothing: { linear_interpolation: { trigram_lambda: 0.5, bigram_lambda: 0.3, unigram_lambda: 0.2 } }, // prettier-ignore
      direct_generator: [{ field: 'f.rev', pre_filter: 'reverse', post_filter: 'reverse', size: 3, suggest_mode: 'always' }], // prettier-ignore
      collate: { query: { source: { match: { f: '{{suggestion}}' } } }, params: { a: 1 }, prune: true }, // prettier-ignore
    });
    expect(s.forceUnigrams).toBe(false);
    expect(s.smoothing).toEqual({ kind: 'linear_interpolation', trigramLambda: 0.5, bigramLambda: 0.3, unigramLambda: 0.2 }); // prettier-ignore
    expect(s.generators.map((g) => [g.field, g.preFilter, g.postFilter, g.size, g.spell.suggestMode])).toEqual([['f.rev', 'reverse', 'reverse', 3, 'always']]); // prettier-ignore
    expect(s.collate).toEqual({ query: { source: { match: { f: '{{suggestion}}' } } }, params: { a: 1 }, prune: true }); // prettier-ignore
    expect(phrase({ smoothing: { laplace: {} } }).smoothing).toEqual({
      kind: 'laplace',
      alpha: 0.5,
    });
  });
  it('rejects what ES rejects', () => {
    expect(err(() => phrase({ smoothing: { linear_interpolation: { trigram_lambda: 0.5 } } }))).toEqual(['illegal_argument_exception', 'linear smoothing lambdas must sum to 1']); // prettier-ignore
    expect(err(() => phrase({ smoothing: { nope: {} } }))).toEqual(['illegal_argument_exception', "suggester[phrase] doesn't support object field [nope]"]); // prettier-ignore
    expect(err(() => phrase({ max_errors: 0 }))).toEqual(['illegal_argument_exception', 'max_error must be > 0.0']); // prettier-ignore
    expect(err(() => phrase({ highlight: { pre_tag: '<b>' } }))).toEqual(['illegal_argument_exception', 'Pre and post tag must both be null or both not be null.']); // prettier-ignore
    expect(err(() => phrase({ collate: { prune: 'maybe' } }))).toEqual(['parsing_exception', "suggester[phrase][collate] prune must be either 'true' or 'false'"]); // prettier-ignore
    expect(err(() => phrase({ direct_generator: [{ field: 'f', bogus: 1 }] }))).toEqual(['x_content_parse_exception', '[direct_generator] unknown field [bogus], parser not found']); // prettier-ignore
  });
});

describe('suggestSimilar (DirectSpellChecker)', () => {
  const bench = new Bench({ properties: { body: { type: 'text' } } }).index([
    { body: 'quick brown fox' },
    { body: 'quick brown foxes' },
    { body: 'quack brown dog' },
    { body: 'brown' },
  ]);
  const stats = shardTermStats(bench.shards[0]!.searcher(), 'body');

  it('scores 1 - edits / min(length), best score then frequency first', () => {
    expect(suggestSimilar('quikc', 5, stats, DEFAULT_SPELL, 'missing')).toEqual([
      { string: 'quick', score: Math.fround(0.8), freq: 2 },
      { string: 'quack', score: Math.fround(0.6), freq: 1 },
    ]);
  });
  it('suggests nothing for short words or words in the index (mode missing)', () => {
    expect(suggestSimilar('quk', 5, stats, DEFAULT_SPELL, 'missing')).toEqual([]);
    expect(
      suggestSimilar('quick', 5, stats, { ...DEFAULT_SPELL, maxTermFreq: 1 }, 'missing'),
    ).toEqual([]);
  });
  it('keeps the prefix and the accuracy', () => {
    expect(suggestSimilar('wuick', 5, stats, DEFAULT_SPELL, 'missing')).toEqual([]);
    expect(
      suggestSimilar('quikc', 5, stats, { ...DEFAULT_SPELL, accuracy: 0.7 }, 'missing'),
    ).toEqual([{ string: 'quick', score: Math.fround(0.8), freq: 2 }]);
  });
  it('popular mode only offers more frequent words; always offers any', () => {
    const s = { ...DEFAULT_SPELL, maxTermFreq: 10 };
    expect(suggestSimilar('quack', 5, stats, s, 'popular').map((w) => w.string)).toEqual(['quick']);
    expect(suggestSimilar('quick', 5, stats, s, 'always').map((w) => w.string)).toEqual(['quack']);
  });
});

describe('phraseCorrections (NoisyChannelSpellChecker)', () => {
  const bench = new Bench({ properties: { name: { type: 'keyword' } } }).index([{ name: 'Ruth' }]);
  const stats = shardTermStats(bench.shards[0]!.searcher(), 'name');
  const gen = directGenerator({
    stats,
    spell: DEFAULT_SPELL,
    size: 5,
    realWordLikelihood: 0.95,
    preFilter: null,
    postFilter: null,
  });
  const scorer = wordScorer(
    DEFAULT_SMOOTHING,
    { frequency: (t) => stats.terms.get(t) ?? 0, vocabularySize: stats.maxDoc, numTerms: 1 },
    0.95,
    ' ',
  );
  const settings = {
    realWordLikelihood: 0.95,
    requireUnigram: true,
    maxErrors: 0.5,
    numCorrections: 5,
    confidence: 1,
    gramSize: 1,
    tokenLimit: 10,
  };
  const word = (term: string, type = 'word', posInc = 1) => ({ term, type, posInc });
  it('corrects a misspelled word when it beats the input phrase', () => {
    const r = phraseCorrections([word('Ruht')], gen, scorer, settings);
    // one doc, one term, no frequencies: LM(w) = (1 + freq) / (maxDoc + numTerms)
    expect(r.cutoffScore).toBeCloseTo(Math.exp(Math.log10(0.95 * (1 / 2))), 12);
    expect(r.corrections.map((c) => [joinCorrection(c, null), c.score])).toEqual([
      ['Ruth', Math.exp(Math.log10(0.75 * (2 / 2)))],
    ]);
    expect(joinCorrection(r.corrections[0]!, { pre: '<b>', post: '</b>' })).toBe('<b>Ruth</b>');
  });
  it('returns nothing past the token limit', () => {
    expect(
      phraseCorrections([word('Ruht')], gen, scorer, { ...settings, tokenLimit: 1 }).corrections,
    ).toEqual([]);
  });
  it('skips shingles when unigrams are forced, and fails when there are only shingles', () => {
    const r = phraseCorrections(
      [word('Ruht'), word('Ruht x', 'shingle', 0)],
      gen,
      scorer,
      settings,
    );
    expect(r.corrections.map((c) => joinCorrection(c, null))).toEqual(['Ruth']);
    expect(() => phraseCorrections([word('Ruht x', 'shingle')], gen, scorer, settings)).toThrow(
      'At least one unigram is required but all tokens were ngrams',
    );
    expect(
      phraseCorrections([word('Ruht x', 'shingle')], gen, scorer, {
        ...settings,
        requireUnigram: false,
      }).corrections,
    ).toEqual([]);
  });
  it('applies pre and post filters around the generator', () => {
    const reverse = (t: string) => [{ term: [...t].reverse().join(''), posInc: 1 }];
    const rstats = shardTermStats(
      new Bench({ properties: { name: { type: 'keyword' } } })
        .index([{ name: 'htuR' }])
        .shards[0]!.searcher(),
      'name',
    );
    const rgen = directGenerator({
      stats: rstats,
      spell: DEFAULT_SPELL,
      size: 5,
      realWordLikelihood: 0.95,
      preFilter: reverse,
      postFilter: reverse,
    });
    const set = {
      original: rgen.createCandidate('Ruhh', 0, 1, true),
      candidates: [] as Candidate[],
    };
    rgen.drawCandidates(set);
    // the reversed index term comes back reversed, as a real word of the real word likelihood
    expect(set.candidates.map((c) => [c.term, c.stringDistance])).toEqual([['Ruth', 0.95]]);
  });
});
