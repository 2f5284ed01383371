/** Nodes stats `jvm` and `discovery` sections: ES's field names, this runtime's figures. */
import { describe, expect, it } from 'vitest';
import { discoveryStats, runtimeStats } from '../../../src/http/runtime-stats.js';

describe('runtimeStats', () => {
  it("reports the heap, threads, collectors and buffer pools under ES JvmStats' names", () => {
    const s = runtimeStats(Date.now() - 5_000, false) as any;
    expect(s.uptime_in_millis).toBeGreaterThanOrEqual(5_000);
    expect(s.mem.heap_used_in_bytes).toBeGreaterThan(0);
    expect(s.mem.heap_max_in_bytes).toBeGreaterThanOrEqual(s.mem.heap_used_in_bytes);
    expect(s.mem.heap_used_percent).toBeGreaterThanOrEqual(0);
    expect(s.mem.heap_used_percent).toBeLessThanOrEqual(100);
    expect(Object.keys(s.mem.pools)).toEqual(['young', 'survivor', 'old']);
    expect(s.threads.count).toBeGreaterThanOrEqual(1);
    expect(s.threads.peak_count).toBeGreaterThanOrEqual(s.threads.count);
    expect(Object.keys(s.gc.collectors)).toEqual(['young', 'old']);
    expect(s.buffer_pools.direct.count).toBeGreaterThanOrEqual(0);
    expect(s.buffer_pools.direct.used_in_bytes).toBeGreaterThanOrEqual(0);
    expect(s.mem.heap_used).toBeUndefined();
  });
  it('adds the human-readable figures when asked', () => {
    const s = runtimeStats(Date.now(), true) as any;
    expect(typeof s.mem.heap_used).toBe('string');
    expect(typeof s.uptime).toBe('string');
  });
});

describe('discoveryStats', () => {
  it('has the cluster state queue and published states of ES DiscoveryStats', () => {
    expect(discoveryStats()).toEqual({
      cluster_state_queue: { total: 0, pending: 0, committed: 0 },
      published_cluster_states: { full_states: 0, incompatible_diffs: 0, compatible_diffs: 0 },
    });
  });
});
