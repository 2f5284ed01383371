import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';

const terms = (body: Record<string, unknown>) =>
  (analyzeApi(body, AnalysisRegistry.builtin) as { tokens: Array<{ token: string }> }).tokens.map(
    (t) => t.token,
  );
const stem = (language: string, text: string) =>
  terms({ text, tokenizer: 'whitespace', filter: [{ type: 'stemmer', language }] });

describe('bengali', () => {
  it('the stemmer removes the longest fitting suffix group', () => {
    expect(stem('bengali', 'করেছিলাম')).toEqual(['কর']);
    // too short for the one-letter group
    expect(stem('bengali', 'কি')).toEqual(['কি']);
  });
  it('the analyzer normalises, drops stop words and stems', () => {
    expect(terms({ analyzer: 'bengali', text: 'বা\u09DCী এই' })).toEqual(['বার']);
  });
});

describe('lithuanian', () => {
  it('the Snowball stemmer (Lucene 7.7 version, with the -er- endings)', () => {
    expect(stem('lithuanian', 'vaikų seserų vandenyje')).toEqual(['vaik', 'ses', 'vand']);
    expect(
      terms({
        text: 'vaikų',
        tokenizer: 'keyword',
        filter: [{ type: 'snowball', language: 'Lithuanian' }],
      }),
    ).toEqual(['vaik']);
  });
  it('the analyzer drops stop words', () => {
    expect(terms({ analyzer: 'lithuanian', text: 'Vaikų ir tėvų' })).toEqual(['vaik', 'tėv']);
  });
});

describe('galician', () => {
  it('the RSLP stemmer runs plural, unification, adverb, augmentative, noun/verb and vowel steps', () => {
    expect(stem('galician', 'corresponderá felizmente cansadísimo brasileiro bons')).toEqual([
      'correspond',
      'feliz',
      'cans',
      'brasil',
      'bon',
    ]);
    // "luns" escapes the -ns rule but not the general -s one
    expect(stem('minimal_galician', 'casas luns xamós')).toEqual(['casa', 'lun', 'xamón']);
  });
  it('the analyzer drops stop words', () => {
    expect(terms({ analyzer: 'galician', text: 'As casas do concello' })).toEqual([
      'cas',
      'concell',
    ]);
  });
});

describe('brazilian', () => {
  it('the stemmer folds accents and removes standard, verb and residual endings', () => {
    expect(
      terms({
        text: 'Brasília boataria quilométricas consegue',
        tokenizer: 'whitespace',
        filter: ['brazilian_stem'],
      }),
    ).toEqual(['brasil', 'boat', 'quilometr', 'conseg']);
    // too short or with a non-letter: left alone / only normalised
    expect(stem('brazilian', 'lá água2')).toEqual(['lá', 'agua2']);
  });
  it('stem_exclusion marks words the stemmer must leave', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      filter: { b: { type: 'brazilian_stem', stem_exclusion: ['boataria'] } },
    });
    const out = analyzeApi({ text: 'boataria', tokenizer: 'keyword', filter: ['b'] }, reg) as {
      tokens: Array<{ token: string }>;
    };
    expect(out.tokens[0]!.token).toBe('boataria');
  });
  it('the analyzer drops stop words', () => {
    expect(terms({ analyzer: 'brazilian', text: 'A boataria de Brasília' })).toEqual([
      'boat',
      'brasil',
    ]);
  });
});

describe('kstem', () => {
  const k = (text: string) => terms({ text, tokenizer: 'whitespace', filter: ['kstem'] });
  it('keeps dictionary words and undoes inflections against the dictionary', () => {
    expect(k('bricks calories crosses aides backfilled fingerspelling footstamping')).toEqual([
      'brick',
      'calorie',
      'cross',
      'aide',
      'backfill',
      'fingerspell',
      'footstamp',
    ]);
    expect(k('walking running definition')).toEqual(['walking', 'running', 'definition']);
  });
  it('undoes derivations and maps listed variants to their roots', () => {
    expect(k('amplification elimination militarily heuristically optimal immunity')).toEqual([
      'amplify',
      'eliminate',
      'military',
      'heuristic',
      'optimum',
      'immune',
    ]);
    expect(k('italians dying')).toEqual(['italy', 'die']);
  });
  it('leaves short, long, non a-z and upper-case words alone', () => {
    expect(k('is Bricks brick2 ' + 'x'.repeat(50))).toEqual([
      'is',
      'Bricks',
      'brick2',
      'x'.repeat(50),
    ]);
    expect(stem('kstem', 'bricks')).toEqual(['brick']);
  });
});

describe('kstem reference vocabulary', () => {
  it('matches the CIIR reference implementation on 300 words (fixtures/analysis/kstem.tsv)', () => {
    const rows = readFileSync(join(__dirname, '../../../../fixtures/analysis/kstem.tsv'), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0 && !l.startsWith('#'))
      .map((l) => l.split('\t') as [string, string]);
    expect(rows.length).toBe(300);
    const words = rows.map(([w]) => w);
    expect(terms({ text: words.join(' '), tokenizer: 'whitespace', filter: ['kstem'] })).toEqual(
      rows.map(([, s]) => s),
    );
  });
});
