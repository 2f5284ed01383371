/**
 * Analysis parity beyond the YAML tests: for each Snowball language, ~300 words of the Snowball
 * project's published vocabulary (fixtures/analysis/snowball/*.tsv, sampled from snowball-data at
 * the algorithm version Lucene 7.7 ships) go through `_analyze` with the `snowball` filter and
 * with the `stemmer` filter of that language, and must come out exactly as the published stems.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';

const DIR = join(__dirname, '../../../../fixtures/analysis/snowball');

/** The ES `stemmer` filter's name for each Snowball algorithm (English's is porter2). */
const STEMMER_NAME: Record<string, string> = { english: 'porter2', kp: 'dutch_kp' };

function pairs(file: string): Array<[string, string]> {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('#'))
    .map((l) => l.split('\t') as [string, string]);
}

function stems(words: readonly string[], filter: Record<string, unknown>): string[] {
  // one _analyze request per word list: the keyword tokenizer keeps each word whole
  return words.map((text) => {
    const out = analyzeApi(
      { text, tokenizer: 'keyword', filter: [filter] },
      AnalysisRegistry.builtin,
    ) as {
      tokens: Array<{ token: string }>;
    };
    return out.tokens.map((t) => t.token).join(' ');
  });
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.tsv'));

describe('Snowball stemmers give the published stems', () => {
  it('covers the Snowball languages of ES 6.8 analyzers and filters', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });
  for (const file of files) {
    const language = file.replace(/\.tsv$/, '');
    const data = pairs(file);
    const words = data.map(([w]) => w);
    const expected = data.map(([, s]) => s);
    it(`${language}: snowball filter (${data.length} words)`, () => {
      expect(data.length).toBeGreaterThanOrEqual(250);
      const name = language[0]!.toUpperCase() + language.slice(1);
      expect(stems(words, { type: 'snowball', language: name })).toEqual(expected);
    });
    it(`${language}: stemmer filter`, () => {
      const name = STEMMER_NAME[language] ?? language;
      expect(stems(words, { type: 'stemmer', language: name })).toEqual(expected);
    });
  }
});
