import { describe, expect, it } from 'vitest';
import {
  allPools,
  poolCells,
  selectPools,
  type PoolFigures,
} from '../../../src/cat/thread-pools.js';

const write: PoolFigures = {
  name: 'write',
  type: 'fixed',
  active: 2,
  size: 4,
  queue: 3,
  queueSize: 200,
  rejected: 7,
  largest: 4,
  completed: 99,
};

describe('allPools', () => {
  it("keeps a real pool's figures and lists ES's other pools idle, by name", () => {
    const pools = allPools([write]);
    const names = pools.map((p) => p.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('management');
    expect(pools.find((p) => p.name === 'write')).toBe(write);
    const flush = pools.find((p) => p.name === 'flush')!;
    expect(flush).toMatchObject({ type: 'scaling', active: 0, size: 0, queue: 0, rejected: 0 });
  });
});

describe('selectPools', () => {
  it('keeps the pools any comma separated pattern matches', () => {
    const pools = allPools([write]);
    expect(selectPools(pools, 'write,fetch*').map((p) => p.name)).toEqual([
      'fetch_shard_started',
      'fetch_shard_store',
      'write',
    ]);
    expect(selectPools(pools, undefined)).toHaveLength(pools.length);
  });
});

describe('poolCells', () => {
  it('reports a fixed pool with min = max = size and no keep alive', () => {
    expect(poolCells(write)).toMatchObject({ min: 4, max: 4, keep_alive: null, queue_size: 200 });
  });
});
