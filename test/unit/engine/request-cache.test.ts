/**
 * The node's shard request cache: hits and misses per shard, LRU eviction by bytes (counted as
 * evictions), dropping entries of older readers (not evictions) and rejecting stale hits.
 */
import { describe, expect, it } from 'vitest';
import { RequestCache } from '../../../src/engine/request-cache.js';
import { ShardCounters } from '../../../src/engine/stats.js';

const shard = () => ({ counters: new ShardCounters() });
const size = () => 100;

describe('RequestCache', () => {
  it('misses once then hits for the same shard, generation and key', () => {
    const c = new RequestCache<string>(10_000);
    const s = shard();
    let loads = 0;
    const load = () => `v${++loads}`;
    expect(c.getOrLoad(s, 1, 'k', load, size)).toEqual({ value: 'v1', hit: false });
    expect(c.getOrLoad(s, 1, 'k', load, size)).toEqual({ value: 'v1', hit: true });
    expect(s.counters.requestCacheHits).toBe(1);
    expect(s.counters.requestCacheMisses).toBe(1);
    expect(s.counters.requestCacheBytes).toBeGreaterThan(100);
    expect(c.sizeInBytes).toBe(s.counters.requestCacheBytes);
    // another shard with the same key is a different entry
    const s2 = shard();
    expect(c.getOrLoad(s2, 1, 'k', load, size).hit).toBe(false);
    expect(c.count).toBe(2);
  });

  it('drops the entries of an older reader generation without counting evictions', () => {
    const c = new RequestCache<string>(10_000);
    const s = shard();
    c.getOrLoad(s, 1, 'k', () => 'a', size);
    const r = c.getOrLoad(s, 2, 'k', () => 'b', size);
    expect(r).toEqual({ value: 'b', hit: false });
    expect(c.count).toBe(1);
    expect(s.counters.requestCacheEvictions).toBe(0);
    expect(s.counters.requestCacheMisses).toBe(2);
  });

  it('evicts the least recently used entries past the byte limit', () => {
    const c = new RequestCache<string>(400);
    const s = shard();
    c.getOrLoad(s, 1, 'a', () => 'A', size);
    c.getOrLoad(s, 1, 'b', () => 'B', size);
    c.getOrLoad(s, 1, 'a', () => 'A2', size); // touch a: b is now the oldest
    c.getOrLoad(s, 1, 'c', () => 'C', size);
    expect(s.counters.requestCacheEvictions).toBe(1);
    expect(c.getOrLoad(s, 1, 'a', () => 'x', size)).toEqual({ value: 'A', hit: true });
    expect(c.getOrLoad(s, 1, 'b', () => 'B2', size).hit).toBe(false);
    expect(c.sizeInBytes).toBeLessThanOrEqual(400);
    expect(s.counters.requestCacheBytes).toBe(c.sizeInBytes);
  });

  it('does not store a value larger than the whole cache', () => {
    const c = new RequestCache<string>(50);
    const s = shard();
    c.getOrLoad(s, 1, 'a', () => 'A', size);
    expect(c.count).toBe(0);
    expect(s.counters.requestCacheBytes).toBe(0);
  });

  it('replaces an entry the validity check rejects, as a miss', () => {
    const c = new RequestCache<string>(10_000);
    const s = shard();
    c.getOrLoad(s, 1, 'k', () => 'old', size);
    const r = c.getOrLoad(
      s,
      1,
      'k',
      () => 'new',
      size,
      (v) => v !== 'old',
    );
    expect(r).toEqual({ value: 'new', hit: false });
    expect(s.counters.requestCacheMisses).toBe(2);
    expect(c.count).toBe(1);
  });

  it('clears one shard', () => {
    const c = new RequestCache<string>(10_000);
    const s = shard();
    const s2 = shard();
    c.getOrLoad(s, 1, 'k', () => 'a', size);
    c.getOrLoad(s2, 1, 'k', () => 'b', size);
    c.clearShard(s);
    expect(c.count).toBe(1);
    expect(s.counters.requestCacheBytes).toBe(0);
    expect(s2.counters.requestCacheBytes).toBeGreaterThan(0);
  });
});
