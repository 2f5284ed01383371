/**
 * The default stop lists checked word for word against Lucene 7.7's resource files (French,
 * Spanish, Portuguese, Italian, Norwegian, Finnish, Swedish, Danish, Hungarian, Thai): their sizes
 * pin them, and ES's `_language_` names resolve to them in a stop filter.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeToTokens } from '../../../../src/search/analysis/index.js';
import * as WORDS from '../../../../src/search/analysis/words/stopwords.js';

describe("default stop lists are Lucene 7.7's", () => {
  it.each([
    ['FRENCH', 164],
    ['SPANISH', 308],
    ['PORTUGUESE', 203],
    ['ITALIAN', 279],
    ['NORWEGIAN', 172],
    ['FINNISH', 229],
    ['SWEDISH', 114],
    ['DANISH', 94],
    ['HUNGARIAN', 198],
    ['THAI', 115],
  ] as const)('%s has %i words', (name, size) => {
    expect(new Set(WORDS[name]).size).toBe(size);
  });

  it('French includes the later additions (les, cette, …) and Spanish the estado forms', () => {
    for (const w of ['les', 'cette', 'ils', 'est', 'son']) expect(WORDS.FRENCH).toContain(w);
    for (const w of ['estado', 'estada', 'estados', 'estadas']) expect(WORDS.SPANISH).toContain(w);
  });

  it('a stop filter resolves ES named lists such as _french_ and _thai_', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      filter: { st: { type: 'stop', stopwords: ['_french_', '_thai_', 'extra'] } },
      analyzer: { a: { tokenizer: 'whitespace', filter: ['st'] } },
    });
    const terms = analyzeToTokens(reg.analyzer('a')!, 'les chats extra ของ _french_').map(
      (t) => t.token,
    );
    expect(terms).toEqual(['chats', '_french_']);
  });
});
