import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';

type Tok = {
  token: string;
  position: number;
  type: string;
  start_offset: number;
  end_offset: number;
};
const run = (body: unknown) =>
  (analyzeApi(body, AnalysisRegistry.builtin) as { tokens: Tok[] }).tokens;

describe('shingle, keyword_repeat, remove_duplicates', () => {
  it('shingles with unigrams stack on their first token', () => {
    const t = run({ text: 'a b c', tokenizer: 'whitespace', filter: ['shingle'] });
    expect(t.map((x) => [x.token, x.position, x.type, x.start_offset, x.end_offset])).toEqual([
      ['a', 0, 'word', 0, 1],
      ['a b', 0, 'shingle', 0, 3],
      ['b', 1, 'word', 2, 3],
      ['b c', 1, 'shingle', 2, 5],
      ['c', 2, 'word', 4, 5],
    ]);
  });
  it('sizes, no unigrams, filler for removed tokens', () => {
    const f = { type: 'shingle', output_unigrams: false, max_shingle_size: 3 };
    expect(
      run({ text: 'a b c', tokenizer: 'whitespace', filter: [f] }).map((x) => [
        x.token,
        x.position,
      ]),
    ).toEqual([
      ['a b', 0],
      ['a b c', 0],
      ['b c', 1],
    ]);
    const gap = run({
      text: 'x the c',
      tokenizer: 'standard',
      filter: ['stop', { type: 'shingle', output_unigrams: false }],
    });
    expect(gap.map((x) => x.token)).toEqual(['x _', '_ c']);
  });
  it('refuses bad sizes', () => {
    expect(() =>
      run({
        text: 'a',
        tokenizer: 'whitespace',
        filter: [{ type: 'shingle', max_shingle_size: 1 }],
      }),
    ).toThrow('Max shingle size must be >= 2');
  });
  it('keyword_repeat keeps the original beside the stem; remove_duplicates drops equal stacked terms', () => {
    const t = run({
      text: 'jumps jump',
      tokenizer: 'whitespace',
      filter: ['keyword_repeat', 'porter_stem', 'remove_duplicates'],
    });
    expect(t.map((x) => [x.token, x.position])).toEqual([
      ['jumps', 0],
      ['jump', 0],
      ['jump', 1],
    ]);
  });
});
