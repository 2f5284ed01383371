import { describe, expect, it } from 'vitest';
import {
  selectSnapshots,
  snapshotInfoJson,
  snapshotStatusJson,
  validateSnapshotName,
  type SnapshotRecord,
} from '../../../../src/engine/snapshots/snapshot-info.js';

const rec = (
  snapshot: string,
  startMs: number,
  extra: Partial<SnapshotRecord> = {},
): SnapshotRecord => ({
  snapshot,
  uuid: `u-${snapshot}`,
  versionId: 6081399,
  version: '6.8.13',
  indices: ['a'],
  includeGlobalState: true,
  state: 'SUCCESS',
  startMs,
  endMs: startMs + 5,
  shards: {
    a: [
      { files: 1, bytes: 10 },
      { files: 1, bytes: 30 },
    ],
  },
  ...extra,
});

describe('snapshot names', () => {
  it('refuses what ES refuses, with its reasons', () => {
    const reason = (n: string, existing: SnapshotRecord[] = []) => {
      try {
        validateSnapshotName('r', n, existing);
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(reason('ok-1')).toBeNull();
    expect(reason('Up')).toBe('[r:Up] Invalid snapshot name [Up], must be lowercase');
    expect(reason('_x')).toBe("[r:_x] Invalid snapshot name [_x], must not start with '_'");
    expect(reason('a#b')).toBe("[r:a#b] Invalid snapshot name [a#b], must not contain '#'");
    expect(reason('a b')).toMatch(/must not contain the following characters/);
    expect(reason('s', [rec('s', 1)])).toMatch(/snapshot with the same name already exists$/);
  });
});

describe('selecting snapshots', () => {
  const all = [rec('b', 2), rec('a', 2), rec('c', 1)];
  it('sorts by start time then name; _all, wildcards and names', () => {
    const names = (l: SnapshotRecord[]) => l.map((s) => s.snapshot);
    expect(names(selectSnapshots('r', all, ['_all'], false))).toEqual(['c', 'a', 'b']);
    expect(names(selectSnapshots('r', all, ['b*', 'c'], false))).toEqual(['c', 'b']);
    expect(selectSnapshots('r', all, ['_current'], false)).toEqual([]);
    expect(names(selectSnapshots('r', all, ['x', 'a'], true))).toEqual(['a']);
    expect(() => selectSnapshots('r', all, ['x'], false)).toThrow('[r:x] is missing');
  });
});

describe('rendering', () => {
  it('prints the full info, or the short one when not verbose', () => {
    const s = rec('s', 1000);
    expect(snapshotInfoJson(s, false, false)).toEqual({ snapshot: 's', uuid: 'u-s', indices: ['a'], state: 'SUCCESS' }); // prettier-ignore
    const full = snapshotInfoJson(s, true, false);
    expect(Object.keys(full)).toEqual([
      'snapshot', 'uuid', 'version_id', 'version', 'indices', 'include_global_state', 'state',
      'start_time', 'start_time_in_millis', 'end_time', 'end_time_in_millis', 'duration_in_millis',
      'failures', 'shards',
    ]); // prettier-ignore
    expect(full.start_time).toBe('1970-01-01T00:00:01.000Z');
    expect(full.shards).toEqual({ total: 2, failed: 0, successful: 2 });
  });

  it('reports a completed snapshot status with every shard done', () => {
    const st = snapshotStatusJson('r', rec('s', 1000)) as any;
    expect(st.shards_stats.done).toBe(2);
    expect(st.stats).toMatchObject({
      total: { file_count: 2, size_in_bytes: 40 },
      time_in_millis: 5,
    });
    expect(st.indices.a.shards['1'].stats.total.size_in_bytes).toBe(30);
  });
});
