import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MERGE_POLICY,
  findMerge,
  type MergeInput,
} from '../../../../src/search/index/merge-policy.js';

const MB = 1024 * 1024;

/** Simulates refreshes of `flushBytes` each, applying merges; returns bytes rewritten by merges. */
function simulate(
  flushes: number,
  flushBytes: number,
): { rewritten: number; segs: number[]; maxSegs: number } {
  let segs: number[] = [];
  let rewritten = 0;
  let maxSegs = 0;
  for (let f = 0; f < flushes; f++) {
    segs.push(flushBytes);
    for (;;) {
      const take = findMerge(segs.map((bytes): MergeInput => ({ bytes, liveRatio: 1 })));
      if (!take) break;
      const picked = new Set(take);
      const merged = take.reduce((a, i) => a + segs[i]!, 0);
      rewritten += merged;
      segs = [...segs.filter((_, i) => !picked.has(i)), merged];
    }
    maxSegs = Math.max(maxSegs, segs.length);
  }
  return { rewritten, segs, maxSegs };
}

describe('tiered merge policy', () => {
  it('does not merge within the per-tier budget', () => {
    const segs = Array.from({ length: 10 }, () => ({ bytes: 4 * MB, liveRatio: 1 }));
    expect(findMerge(segs)).toBeNull();
  });

  it('merges maxMergeAtOnce similar-sized segments, leaving the large one alone', () => {
    // 500 MB may hold 10 segments of the 4 MB tier, 10 of the 40 MB tier and one more.
    const segs: MergeInput[] = [{ bytes: 400 * MB, liveRatio: 1 }];
    for (let i = 0; i < 20; i++) segs.push({ bytes: 4 * MB, liveRatio: 1 });
    expect(findMerge(segs)).toBeNull();
    for (let i = 0; i < 5; i++) segs.push({ bytes: 4 * MB, liveRatio: 1 });
    const take = findMerge(segs)!;
    expect(take).toHaveLength(DEFAULT_MERGE_POLICY.maxMergeAtOnce);
    expect(take).not.toContain(0);
  });

  it('rewrites each byte O(log) times during a bulk load', () => {
    // 1000 refreshes of 4 MB: tiers of 4, 40, 400 MB; each byte is merged about twice.
    const { rewritten, maxSegs } = simulate(1000, 4 * MB);
    const total = 1000 * 4 * MB;
    expect(rewritten / total).toBeLessThanOrEqual(3);
    expect(rewritten / total).toBeGreaterThanOrEqual(1);
    expect(maxSegs).toBeLessThanOrEqual(40);
  });

  it('treats segments below the floor as floor-sized, so tiny refreshes merge in batches', () => {
    // 500 MB in 1000 half-megabyte refreshes: ten of them make one segment above the floor.
    const { rewritten, segs } = simulate(1000, 0.5 * MB);
    expect(segs.length).toBeLessThanOrEqual(30);
    expect(rewritten / (1000 * 0.5 * MB)).toBeLessThan(4);
  });

  it('prefers merging segments with many deletions', () => {
    const segs: MergeInput[] = [];
    for (let i = 0; i < 11; i++) segs.push({ bytes: 40 * MB, liveRatio: 1 });
    for (let i = 0; i < 10; i++) segs.push({ bytes: 40 * MB, liveRatio: i === 3 ? 0.5 : 1 });
    expect(findMerge(segs)).toContain(14);
  });
});
