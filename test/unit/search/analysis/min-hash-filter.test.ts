import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';
import { murmur3x64_128 } from '../../../../src/search/analysis/filters/murmur3-128.js';

type Tok = {
  token: string;
  position: number;
  type: string;
  start_offset: number;
  end_offset: number;
};
const run = (body: Record<string, unknown>, reg = AnalysisRegistry.builtin) =>
  (analyzeApi(body, reg) as { tokens: Tok[] }).tokens;

describe('murmur3 x64 128', () => {
  it('gives the published test vectors', () => {
    const hex = (s: string) => {
      const h = murmur3x64_128(new TextEncoder().encode(s));
      return h.low.toString(16).padStart(16, '0') + h.high.toString(16).padStart(16, '0');
    };
    expect(hex('hello')).toBe('cbd8a7b341bd9b025b1e906a48ae1d19');
    expect(hex('The quick brown fox jumps over the lazy dog')).toBe(
      'e34bbc7bbc071b6c7a433ca9c49a9347',
    );
    expect(hex('')).toBe('00000000000000000000000000000000');
  });
});

describe('min_hash filter', () => {
  it('fills all 512 buckets by rotation, one position, MIN_HASH tokens spanning the input', () => {
    const toks = run({
      text: 'the quick brown fox',
      tokenizer: 'whitespace',
      filter: ['min_hash'],
    });
    expect(toks).toHaveLength(512);
    expect(new Set(toks.map((t) => t.token)).size).toBe(4);
    expect(toks.every((t) => t.position === 0 && t.type === 'MIN_HASH')).toBe(true);
    expect(toks.every((t) => t.start_offset === 0 && t.end_offset === 19)).toBe(true);
    expect(toks.every((t) => t.token.length === 8)).toBe(true);
  });
  it('without rotation only filled buckets are emitted; several hashes prefix their number', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      filter: {
        mh: { type: 'min_hash', hash_count: 2, bucket_count: 4, with_rotation: false },
      },
    });
    const toks = run({ text: 'a b c d e f g h', tokenizer: 'whitespace', filter: ['mh'] }, reg);
    expect(toks.length).toBeLessThanOrEqual(8);
    expect(toks.every((t) => t.token.length === 8)).toBe(true);
    const firstHash = toks.filter((t) => t.token.charCodeAt(1) === 0);
    expect(firstHash.length).toBeGreaterThan(0);
    expect(toks.slice(firstHash.length).every((t) => t.token.charCodeAt(1) === 1)).toBe(true);
  });
  it('emits nothing for an empty stream and rejects non-positive counts', () => {
    expect(run({ text: '', tokenizer: 'whitespace', filter: ['min_hash'] })).toEqual([]);
    expect(() =>
      AnalysisRegistry.fromIndexSettings({ filter: { m: { type: 'min_hash', hash_count: 0 } } }),
    ).toThrow('hashCount must be greater than zero');
  });
});
