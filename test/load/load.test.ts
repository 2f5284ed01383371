/**
 * The short load run for CI: a child-process node is driven at ten times its measured sustainable
 * rate with a mix of bulk, single writes, searches and gets. Every answer must be a success or an
 * ES-shaped 429 rejection, exactly the acknowledged writes must be in the index, RSS must stay
 * bounded and the node must serve normally afterwards. `npm run test:load` is the long run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formatLoadReport, runLoadTest } from './harness.js';

it('survives 10x its sustainable rate: only ES-shaped rejections, acked writes readable, RSS bounded', async () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'quarry-load-'));
  try {
    const r = await runLoadTest({
      dataPath,
      calibrateMs: 1500,
      calibrateConcurrency: 16,
      overloadMs: 3000,
      factor: 10,
      // Below the node's accept backlog (511), so the sockets can all be opened up front.
      maxOutstanding: 400,
      // Small queues so that the short run reaches the rejection path on any machine.
      settings: { 'thread_pool.search.queue_size': '50', 'thread_pool.write.queue_size': '20' },
    });
    console.log(formatLoadReport(r));
    const samples = r.overload.errorSamples.concat(
      r.calibrate.errorSamples,
      r.recovery.errorSamples,
    );
    expect(samples).toEqual([]);
    expect(r.nodeAlive).toBe(true);
    for (const f of [r.calibrate, r.overload, r.recovery]) {
      expect(f.otherErrors).toBe(0);
      expect(f.transportErrors).toBe(0);
    }
    expect(r.calibrate.ok).toBeGreaterThan(0);
    // Overload is real: the pools rejected work, and still accepted some.
    expect(r.overload.rejected429 + r.overload.breaker429).toBeGreaterThan(0);
    expect(r.overload.ok).toBeGreaterThan(0);
    // A 429 means "not applied": the index holds the seed plus exactly the acknowledged writes.
    expect(r.indexedDocs).toBe(r.seedDocs + r.ackedWrites);
    // Bounded queues bound memory: a few hundred MB over the seeded baseline at most.
    expect(r.peakRssMb - r.baselineRssMb).toBeLessThan(400);
    // Once the load stops the node drains and serves everything again.
    expect(r.recovery.ok).toBe(r.recovery.sent);
    expect(r.drainMs).toBeLessThan(15_000);
    // Accepted requests stay fast once the overload is gone (the queues were bounded).
    expect(r.recovery.p99).toBeLessThan(3000);
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}, 50_000);
