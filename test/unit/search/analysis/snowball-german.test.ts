/**
 * Lucene 7.7's German and German2 Snowball stemmers: the 2007 algorithms, without the 2009
 * "-nisse" rule (checked against all 35,033 words of snowball-data's pre-2009 German output and
 * 2007 German2 output; samples in fixtures/analysis/snowball), and German2's umlaut digraphs.
 */
import { describe, expect, it } from 'vitest';
import {
  german2Prelude,
  german2Stem,
  luceneGermanStem,
} from '../../../../src/search/analysis/stemmers/snowball-german.js';

describe('Lucene German stemmer', () => {
  it('keeps the second s of -niss- (no 2009 -nisse rule)', () => {
    expect(['bündnisse', 'ergebnissen', 'kenntnisses'].map(luceneGermanStem)).toEqual([
      'bundniss',
      'ergebniss',
      'kenntniss',
    ]);
  });
  it('stems as before elsewhere', () => {
    expect(['häuser', 'straße', 'aufeinanderfolgenden'].map(luceneGermanStem)).toEqual([
      'haus',
      'strass',
      'aufeinanderfolg',
    ]);
  });
});

describe('German2 stemmer', () => {
  it('reads ae/oe/ue as umlauts, but not in qu, after marking u/y between vowels', () => {
    expect(german2Prelude('muelleimer')).toBe('mülleimer');
    expect(german2Prelude('quelle')).toBe('quelle');
    expect(german2Prelude('treue')).toBe('treUe');
    expect(german2Prelude('grüße')).toBe('grüsse');
  });
  it('stems the digraph spelling as the umlaut one', () => {
    expect(german2Stem('haeuser')).toBe(german2Stem('häuser'));
    expect(german2Stem('koenigen')).toBe('konig');
    expect(german2Stem('bedürfnisse')).toBe('bedurfniss');
  });
});
