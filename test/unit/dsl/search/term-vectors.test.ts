/** Term vectors generated from field values: positions, offsets, payloads, and the filter settings. */
import { describe, expect, it } from 'vitest';
import { analyzeValues, parseFilterSettings } from '../../../../src/dsl/search/term-vectors.js';
import { AnalysisRegistry } from '../../../../src/search/analysis/index.js';
import { encodePayload } from '../../../../src/search/analysis/filters/selection-filters.js';

const reg = AnalysisRegistry.fromIndexSettings({
  analyzer: {
    typed: { tokenizer: 'standard', filter: ['type_as_payload'] },
    delimited: { tokenizer: 'whitespace', filter: ['delimited_payload'] },
  },
});

describe('analyzeValues', () => {
  it('collects every occurrence of a term with its position and offsets', () => {
    const t = analyzeValues(reg.analyzer('standard')!, ['The quick brown fox is brown.']);
    expect([...t.keys()]).toEqual(['the', 'quick', 'brown', 'fox', 'is']);
    expect(t.get('brown')!.map((o) => [o.position, o.start, o.end])).toEqual([
      [2, 10, 15],
      [5, 23, 28],
    ]);
  });

  it('continues positions after the position gap and offsets after each value plus one', () => {
    const t = analyzeValues(reg.analyzer('standard')!, ['a b', 'b c']);
    // standard's position_increment_gap is 100: the second value starts at 1 + 100 + 1
    expect(t.get('b')!.map((o) => [o.position, o.start, o.end])).toEqual([
      [1, 2, 3],
      [102, 4, 5],
    ]);
  });

  it('keeps the payloads the analyzer attached', () => {
    const typed = analyzeValues(reg.analyzer('typed')!, ['fox 42']);
    expect(Buffer.from(typed.get('fox')![0]!.payload!).toString()).toBe('<ALPHANUM>');
    expect(Buffer.from(typed.get('42')![0]!.payload!).toString()).toBe('<NUM>');
    const delimited = analyzeValues(reg.analyzer('delimited')!, ['fox|2.5 dog']);
    expect([...delimited.keys()]).toEqual(['fox', 'dog']);
    expect([...delimited.get('fox')![0]!.payload!]).toEqual([...encodePayload('2.5', 'float')]);
    expect(delimited.get('dog')![0]!.payload).toBeNull();
  });
});

describe('payload encodings', () => {
  it('encodes floats and ints as 4 big-endian bytes, identity as UTF-8', () => {
    expect([...encodePayload('1', 'float')]).toEqual([0x3f, 0x80, 0, 0]);
    expect([...encodePayload('258', 'int')]).toEqual([0, 0, 1, 2]);
    expect(Buffer.from(encodePayload('né', 'identity')).toString('utf8')).toBe('né');
  });
});

describe('parseFilterSettings', () => {
  it('reads the filter with ES defaults and rejects unknown parameters', () => {
    expect(parseFilterSettings({ max_num_terms: 3, min_word_length: 2 })).toEqual({
      maxNumTerms: 3,
      minTermFreq: 0,
      maxTermFreq: 2147483647,
      minDocFreq: 0,
      maxDocFreq: 2147483647,
      minWordLength: 2,
      maxWordLength: 0,
    });
    expect(() => parseFilterSettings({ bogus: 1 })).toThrow(
      'The parameter bogus is not valid for filter parameter for term vector request',
    );
  });
});
