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
