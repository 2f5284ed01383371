import { describe, expect, it } from 'vitest';
import { shardStats } from '../../../src/http/routes/cluster-admin.js';

describe('shardStats (ES ClusterStatsIndices.ShardStats)', () => {
  it('gives totals, replication and per-index min/max/avg', () => {
    expect(
      shardStats([
        { total: 10, primaries: 5 },
        { total: 2, primaries: 2 },
      ]),
    ).toEqual({
      total: 12,
      primaries: 7,
      replication: 5 / 7,
      index: {
        shards: { min: 2, max: 10, avg: 6 },
        primaries: { min: 2, max: 5, avg: 3.5 },
        replication: { min: 0, max: 1, avg: 0.5 },
      },
    });
  });
  it('has no index section without indices', () => {
    expect(shardStats([])).toEqual({ total: 0, primaries: 0, replication: 0 });
  });
});
