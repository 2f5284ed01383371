import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';

type Tok = { token: string; position: number; positionLength?: number; type: string };
const reg = AnalysisRegistry.fromIndexSettings({
  filter: {
    g: { type: 'synonym_graph', synonyms: ['automatic teller machine,atm,cash point'] },
    one: { type: 'synonym_graph', synonyms: ['wifi => wireless fidelity'] },
  },
});
const run = (text: string, filter: string[]) =>
  (analyzeApi({ text, tokenizer: 'whitespace', filter }, reg) as { tokens: Tok[] }).tokens.map(
    (t) => [t.token, t.position, t.positionLength ?? 1, t.type],
  );

describe('synonym_graph and flatten_graph', () => {
  it('gives each synonym its own path; the original words come last', () => {
    expect(run('this automatic teller machine is down', ['g'])).toEqual([
      ['this', 0, 1, 'word'],
      ['atm', 1, 4, 'SYNONYM'],
      ['cash', 1, 1, 'SYNONYM'],
      ['automatic', 1, 2, 'word'],
      ['point', 2, 3, 'SYNONYM'],
      ['teller', 3, 1, 'word'],
      ['machine', 4, 1, 'word'],
      ['is', 5, 1, 'word'],
      ['down', 6, 1, 'word'],
    ]);
  });
  it('flatten_graph squashes the paths onto shared positions', () => {
    expect(run('this automatic teller machine is down', ['g', 'flatten_graph'])).toEqual([
      ['this', 0, 1, 'word'],
      ['atm', 1, 3, 'SYNONYM'],
      ['cash', 1, 1, 'SYNONYM'],
      ['automatic', 1, 1, 'word'],
      ['point', 2, 2, 'SYNONYM'],
      ['teller', 2, 1, 'word'],
      ['machine', 3, 1, 'word'],
      ['is', 4, 1, 'word'],
      ['down', 5, 1, 'word'],
    ]);
  });
  it('an explicit mapping replaces the input (no original path)', () => {
    expect(run('fast wifi here', ['one'])).toEqual([
      ['fast', 0, 1, 'word'],
      ['wireless', 1, 1, 'SYNONYM'],
      ['fidelity', 2, 1, 'SYNONYM'],
      ['here', 3, 1, 'word'],
    ]);
  });
});
