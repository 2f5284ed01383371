import { describe, expect, it } from 'vitest';
import { WorkerState } from '../../src/http/routes/by-query-worker.js';
import {
  emptyStatus,
  mergeSliceStatuses,
  resultJson,
  resultStatus,
  statusFields,
} from '../../src/http/routes/by-query-status.js';
import { EsError } from '../../src/common/errors.js';

const elapsed = async (p: Promise<void>) => {
  const t0 = performance.now();
  await p;
  return performance.now() - t0;
};

describe('WorkerState throttling (ES WorkerBulkByScrollTaskState)', () => {
  it('does not wait after an empty batch or when unthrottled', async () => {
    const w = new WorkerState(null, 2);
    expect(await elapsed(w.throttle(0))).toBeLessThan(50);
    const free = new WorkerState(null, Infinity);
    expect(await elapsed(free.throttle(1000))).toBeLessThan(50);
    expect(free.throttledNanos).toBe(0);
  });

  it('waits batch size / requests per second and counts the scheduled delay', async () => {
    const w = new WorkerState(null, 20);
    const p = w.throttle(2); // 100ms
    await new Promise((r) => setTimeout(r, 20));
    const until = w.status().throttledUntilNanos;
    expect(until).toBeGreaterThan(50e6);
    expect(until).toBeLessThanOrEqual(100e6);
    expect(await elapsed(p)).toBeGreaterThan(60);
    expect(w.throttledNanos).toBe(100e6);
    expect(w.status().throttledUntilNanos).toBe(0);
  });

  it('reschedules the pending wait when sped up, not when slowed down', async () => {
    const w = new WorkerState(null, 1);
    const p = w.throttle(1); // one second
    w.rethrottle(0.5); // slower: the pending wait stays
    expect(w.requestsPerSecond).toBe(0.5);
    w.rethrottle(Infinity); // unlimited: the wait ends now
    expect(await elapsed(p)).toBeLessThan(100);
    expect(w.throttledNanos).toBe(0);
    expect(() => w.rethrottle(0)).toThrow('requests per second must be more than 0 but was [0]');
  });

  it('scales the remaining wait by the ratio of the rates', async () => {
    const w = new WorkerState(null, 1);
    const p = w.throttle(1); // 1000ms
    w.rethrottle(10); // ~100ms left
    const ms = await elapsed(p);
    expect(ms).toBeGreaterThan(60);
    expect(ms).toBeLessThan(300);
    expect(w.throttledNanos).toBeGreaterThan(90e6);
    expect(w.throttledNanos).toBeLessThanOrEqual(100e6);
  });
});

describe('bulk-by-scroll status and response JSON', () => {
  it('merges slice statuses: sums, summed rates and the earliest throttled-until', () => {
    const a = { ...emptyStatus(), sliceId: 0, total: 2, deleted: 2, batches: 1 };
    a.requestsPerSecond = 0.5;
    a.throttledUntilNanos = 30e6;
    const b = { ...emptyStatus(), sliceId: 1, total: 3, deleted: 1, versionConflicts: 2 };
    b.requestsPerSecond = 0.5;
    b.throttledUntilNanos = 10e6;
    const m = mergeSliceStatuses([a, b, null], null);
    expect(m).toMatchObject({ total: 5, deleted: 3, versionConflicts: 2, batches: 1 });
    expect(m.requestsPerSecond).toBe(1);
    expect(m.throttledUntilNanos).toBe(10e6);
    const json = statusFields(m, { includeCreated: false, includeUpdated: false });
    expect(Object.keys(json)).toEqual([
      'total',
      'deleted',
      'batches',
      'version_conflicts',
      'noops',
      'retries',
      'throttled_millis',
      'requests_per_second',
      'throttled_until_millis',
      'slices',
    ]);
    expect(json.slices).toEqual([
      expect.objectContaining({ slice_id: 0, total: 2 }),
      expect.objectContaining({ slice_id: 1, version_conflicts: 2 }),
      null,
    ]);
  });

  it('renders float rates as Java does and -1 for unlimited', () => {
    const s = { ...emptyStatus(), requestsPerSecond: Math.fround(1e-8) };
    expect(
      statusFields(s, { includeCreated: true, includeUpdated: true }).requests_per_second,
    ).toBe(1e-8);
    expect(
      statusFields(emptyStatus(), { includeCreated: true, includeUpdated: true }),
    ).toMatchObject({
      requests_per_second: -1,
      updated: 0,
      created: 0,
    });
  });

  it('answers with the highest failure status (script failures are 500 in ES 6.8)', () => {
    const base = { tookNanos: 2.5e6, status: emptyStatus(), timedOut: false };
    const conflict = new EsError('version_conflict_engine_exception', 'x', 409);
    const r = {
      ...base,
      bulkFailures: [{ index: 'i', type: '_doc', id: '1', cause: conflict, status: 409 }],
      searchFailures: [
        {
          index: 'i',
          shard: 0,
          node: 'n',
          reason: new EsError('script_exception', 'runtime error', 400),
        },
      ],
    };
    expect(resultStatus(r)).toBe(500);
    const json = resultJson(r, { includeCreated: false, includeUpdated: true });
    expect(json.took).toBe(2);
    expect(json.failures).toEqual([
      {
        index: 'i',
        type: '_doc',
        id: '1',
        cause: { type: conflict.type, reason: 'x' },
        status: 409,
      },
      {
        index: 'i',
        shard: 0,
        node: 'n',
        reason: { type: 'script_exception', reason: 'runtime error' },
      },
    ]);
    expect(resultStatus({ ...base, bulkFailures: [], searchFailures: [], timedOut: true })).toBe(
      408,
    );
  });
});
