import { describe, expect, it } from 'vitest';
import '../../../../src/dsl/script/index.js';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';

type Tok = { token: string; position: number };
const run = (body: unknown, reg = AnalysisRegistry.builtin) =>
  (analyzeApi(body, reg) as { tokens: Tok[] }).tokens.map((t) => [t.token, t.position]);

describe('scripted analysis filters', () => {
  it('predicate_token_filter keeps the tokens the script accepts, positions carried', () => {
    expect(
      run({
        text: 'a b c d e f',
        tokenizer: 'whitespace',
        filter: [{ type: 'predicate_token_filter', script: { source: 'token.position >= 4' } }],
      }),
    ).toEqual([
      ['e', 4],
      ['f', 5],
    ]);
  });
  it('condition runs its filters on accepted tokens only; params reach the script', () => {
    expect(
      run({
        text: 'Vorsprung Durch Technik',
        tokenizer: 'whitespace',
        filter: [
          {
            type: 'condition',
            filter: ['lowercase'],
            script: { source: 'token.term.length() > params.n', params: { n: 5 } },
          },
        ],
      }),
    ).toEqual([
      ['vorsprung', 0],
      ['Durch', 1],
      ['technik', 2],
    ]);
  });
  it('condition filters resolve in the index context and refuse unknown names', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      filter: {
        up: { type: 'uppercase' },
        c: { type: 'condition', filter: ['up'], script: 'token.term == "x"' },
        bad: { type: 'condition', filter: ['nope'], script: 'true' },
      },
    });
    expect(run({ text: 'x 1', tokenizer: 'standard', filter: ['c'] }, reg)).toEqual([
      ['X', 0],
      ['1', 1],
    ]);
    expect(() =>
      AnalysisRegistry.fromIndexSettings({
        filter: { bad: { type: 'condition', filter: ['nope'], script: 'true' } },
        analyzer: { a: { tokenizer: 'standard', filter: ['bad'] } },
      }),
    ).toThrow('ScriptedConditionTokenFilter [bad] refers to undefined token filter [nope]');
  });
});
