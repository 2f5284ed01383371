import { describe, expect, it } from 'vitest';
import { translogRetention, translogTrimmed } from '../../../src/engine/translog-retention.js';
import { ShardCounters } from '../../../src/engine/stats.js';

describe('translog retention (ES TranslogDeletionPolicy)', () => {
  it('reads the retention settings with ES defaults 512mb and 12h', () => {
    expect(translogRetention({})).toEqual({ sizeBytes: 512 * 1024 * 1024, ageMs: 12 * 3600_000 });
    expect(
      translogRetention({
        'index.translog.retention.size': '-1',
        'index.translog.retention.age': '-1',
      }),
    ).toEqual({ sizeBytes: -1, ageMs: -1 });
  });

  it('trims committed operations only when size and age both stop keeping them', () => {
    expect(translogTrimmed({ sizeBytes: -1, ageMs: -1 }, 100)).toBe(true);
    expect(translogTrimmed({ sizeBytes: -1, ageMs: 1000 }, 100)).toBe(false);
    expect(translogTrimmed({ sizeBytes: 1000, ageMs: -1 }, 100)).toBe(false);
    // the stricter of the two decides: size over its limit trims whatever age would keep
    expect(translogTrimmed({ sizeBytes: 50, ageMs: 1000 }, 100)).toBe(true);
  });

  it('a commit clears the uncommitted operations and a trim the retained ones', () => {
    const c = new ShardCounters();
    c.indexed(0, 10);
    c.deleted(0);
    expect([c.translogOps, c.uncommittedOps]).toEqual([2, 2]);
    expect(c.uncommittedBytes).toBe(c.translogBytes);
    c.committed(false);
    expect([c.translogOps, c.uncommittedOps, c.uncommittedBytes]).toEqual([2, 0, 0]);
    expect(c.translogBytes).toBeGreaterThan(0);
    c.indexed(0, 5);
    c.committed(true);
    expect([c.translogOps, c.translogBytes, c.uncommittedOps]).toEqual([0, 0, 0]);
  });
});
