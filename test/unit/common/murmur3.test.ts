import { describe, expect, it } from 'vitest';
import { murmur3x86_32, routingHash, shardForRouting } from '../../../src/common/murmur3.js';

describe('murmur3', () => {
  it('matches the reference x86_32 vectors', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    // Reference values of MurmurHash3_x86_32 (seed 0 and 0x9747b28c) from the canonical test suite.
    expect(murmur3x86_32(enc(''), 0, 0, 0)).toBe(0);
    expect(murmur3x86_32(enc(''), 0, 0, 1) >>> 0).toBe(0x514e28b7);
    expect(murmur3x86_32(enc('Hello, world!'), 0, 13, 0x9747b28c) >>> 0).toBe(0x24884cba);
    expect(
      murmur3x86_32(enc('The quick brown fox jumps over the lazy dog'), 0, 43, 0x9747b28c) >>> 0,
    ).toBe(0x2fa826cd);
    expect(murmur3x86_32(enc('aaaa'), 0, 4, 0x9747b28c) >>> 0).toBe(0x5a97808a);
    expect(murmur3x86_32(enc('aaa'), 0, 3, 0x9747b28c) >>> 0).toBe(0x283e0130);
    expect(murmur3x86_32(enc('aa'), 0, 2, 0x9747b28c) >>> 0).toBe(0x5d211726);
    expect(murmur3x86_32(enc('a'), 0, 1, 0x9747b28c) >>> 0).toBe(0x7fa09ea6);
  });

  it('hashes routing strings as Elasticsearch does (Murmur3HashFunctionTests)', () => {
    // Values from Elasticsearch's Murmur3HashFunctionTests.
    expect(routingHash('hell')).toBe(0x5a0cb7c3);
    expect(routingHash('hello')).toBe(0xd7c31989 | 0);
    expect(routingHash('hello w')).toBe(0x22ab2984);
    expect(routingHash('hello wo')).toBe(0xdf0ca123 | 0);
    expect(routingHash('hello wor')).toBe(0xe7744d61 | 0);
    expect(routingHash('The quick brown fox jumps over the lazy dog')).toBe(0xe07db09c | 0);
    expect(routingHash('The quick brown fox jumps over the lazy cog')).toBe(0x4e63d2ad);
  });

  it('routes to shards in [0, n)', () => {
    for (let i = 0; i < 200; i++) {
      const s = shardForRouting(String(i), 5);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(5);
    }
  });

  it('routes everything to shard 0 of a one-shard index, whatever its routing shards', () => {
    // the write path skips the hash for one shard (documents.ts): this is why it may
    for (const r of [1, 2, 5, 64, 1024, 1 << 20])
      for (let i = 0; i < 500; i++) expect(shardForRouting(`id-${i}-é`, 1, r)).toBe(0);
  });
});
