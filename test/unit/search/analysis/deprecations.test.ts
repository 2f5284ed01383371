import { describe, expect, it } from 'vitest';
import {
  AnalysisRegistry,
  analyzeApi,
  collectDeprecations,
} from '../../../../src/search/analysis/index.js';

describe('analysis deprecation warnings', () => {
  it('an nGram tokenizer with max_gram - min_gram > 1 is reported (ES 6 index.max_ngram_diff)', () => {
    const warnings: string[] = [];
    collectDeprecations(warnings, () =>
      analyzeApi(
        { text: 'good', tokenizer: { type: 'nGram', min_gram: 2, max_gram: 4 } },
        AnalysisRegistry.builtin,
      ),
    );
    expect(warnings).toEqual([
      'Deprecated big difference between max_gram and min_gram in NGram Tokenizer,expected difference must be less than or equal to: [1]',
    ]);
  });
  it('the htmlStrip char filter name is reported when used; nothing is reported uncollected', () => {
    const warnings: string[] = [];
    const body = { text: '<b>x</b>', tokenizer: 'keyword', char_filter: ['htmlStrip'] };
    expect(() => analyzeApi(body, AnalysisRegistry.builtin)).not.toThrow();
    collectDeprecations(warnings, () => analyzeApi(body, AnalysisRegistry.builtin));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('[htmpStrip] char filter name is deprecated');
  });
  it('collection follows the request across awaits (index creation, indexing)', async () => {
    const warnings: string[] = [];
    await collectDeprecations(warnings, async () => {
      await new Promise((r) => setTimeout(r, 1));
      AnalysisRegistry.fromIndexSettings({
        filter: { p: { type: 'delimited_payload_filter', delimiter: '^' } },
      });
    });
    expect(warnings).toEqual([
      'Deprecated [delimited_payload_filter] used, replaced by [delimited_payload]',
    ]);
  });
  it('the pre-configured delimited_payload_filter is reported when used', () => {
    const warnings: string[] = [];
    const out = collectDeprecations(warnings, () =>
      analyzeApi(
        { text: 'foo|5', tokenizer: 'keyword', filter: ['delimited_payload_filter'] },
        AnalysisRegistry.builtin,
      ),
    ) as { tokens: Array<{ token: string }> };
    expect(out.tokens.map((t) => t.token)).toEqual(['foo']);
    expect(warnings).toEqual([
      'Deprecated [delimited_payload_filter] used, replaced by [delimited_payload]',
    ]);
  });
  it('index.max_ngram_diff widens the allowed gram range of ngram tokenizers and filters', () => {
    const def = {
      tokenizer: { t: { type: 'ngram', min_gram: 1, max_gram: 20 } },
      filter: { f: { type: 'ngram', min_gram: 1, max_gram: 20 } },
    };
    const quiet: string[] = [];
    collectDeprecations(quiet, () => AnalysisRegistry.fromIndexSettings(def, { maxNgramDiff: 19 }));
    expect(quiet).toEqual([]);
    const loud: string[] = [];
    collectDeprecations(loud, () =>
      AnalysisRegistry.fromIndexSettings({ filter: def.filter }, { maxNgramDiff: 1 }),
    );
    expect(loud).toEqual([
      'Deprecated big difference between max_gram and min_gram in NGram Tokenizer,expected difference must be less than or equal to: [1]',
    ]);
  });
});
