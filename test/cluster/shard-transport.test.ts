/**
 * Replication and peer recovery between two nodes over the real transport (loopback sockets):
 * a copy recovers from its primary while writes go on and are replicated to it live, ends
 * identical and in sync; later writes are acknowledged with both copies; a copy that cannot be
 * reached is failed (through the fenced call) before the write is acknowledged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicate } from '../../src/cluster/replication/replicate.js';
import { ReplicationTracker } from '../../src/cluster/replication/replication-tracker.js';
import {
  CopyCheckpoints,
  recoverFromPrimary,
  registerRecoverySource,
  registerShardHandlers,
  transportReplication,
  type ShardHost,
} from '../../src/cluster/replication/shard-transport.js';
import { shardChanges } from '../../src/cluster/recovery/shard-endpoints.js';
import { createTransport, type Transport } from '../../src/cluster/transport/transport.js';
import type { IndexService } from '../../src/engine/index-service.js';
import { openNode, type OpenNode } from '../../src/node.js';
import { replicatedOf } from '../../src/engine/documents.js';

const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'quarry-shard-transport-')));
let a: OpenNode;
let b: OpenNode;
let ta: Transport;
let tb: Transport;
const addresses = new Map<string, string>();
const peerOf = (id: string) => ({ id, name: id, transportAddress: addresses.get(id)! });

const hostOf = (n: OpenNode): ShardHost => ({
  documents: n.context.documents,
  store: n.context.store,
  index: (name) => n.context.indices.get(name),
});

const transportFor = (nodeId: string) =>
  createTransport({
    local: { clusterName: 'shards', nodeId, nodeName: nodeId, version: '0.1.0' },
    settings: { 'transport.host': '127.0.0.1', 'transport.port': '0' },
  });

beforeAll(async () => {
  a = await openNode({ dataPath: dirs[0]! });
  b = await openNode({ dataPath: dirs[1]! });
  ta = transportFor('A');
  tb = transportFor('B');
  addresses.set('A', await ta.start());
  addresses.set('B', await tb.start());
});

afterAll(async () => {
  await ta.close();
  await tb.close().catch(() => undefined);
  await a.close();
  await b.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const fingerprint = (idx: IndexService) =>
  shardChanges(idx, 0, 0).map((o) =>
    [o.id, o.seqNo, o.primaryTerm, o.version, o.kind === 'index' ? o.source.toString() : '-'].join(
      '|',
    ),
  );

describe('shards over the transport', () => {
  it('recovers a copy while writes replicate to it live, then acknowledges with both copies', async () => {
    const body = { settings: { number_of_shards: 1, number_of_replicas: 1 } };
    await a.context.indices.create('logs', body);
    await b.context.indices.create('logs', body);
    const pIdx = a.context.indices.get('logs')!;
    const cIdx = b.context.indices.get('logs')!;
    const checkpointsB = new CopyCheckpoints();
    registerShardHandlers(tb, hostOf(b), checkpointsB);

    let tracked = false;
    let inSync: [string, number] | null = null;
    const tracker = new ReplicationTracker('primary-a', -1);
    const failed: string[] = [];
    const repl = transportReplication(ta, peerOf, 'logs', 0, async (t) => {
      failed.push(t.allocationId);
    });
    registerRecoverySource(ta, hostOf(a), peerOf, {
      startTracking: (_i, _s, aid) => {
        tracked = true;
        tracker.initiateTracking(aid);
      },
      markInSync: async (_i, _s, aid, cp) => {
        inSync = [aid, cp];
        await tracker.markInSyncWhenCaughtUp(aid, cp);
      },
    });
    const group = () => ({
      index: 'logs',
      shard: 0,
      primaryTerm: 1,
      primaryNodeId: 'A',
      targets: tracked ? [{ allocationId: 'copy-b', nodeId: 'B' }] : [],
      skipped: tracked ? 0 : 1,
    });
    const write = async (id: string, n: number) => {
      const out = a.context.documents.index({
        kind: 'index',
        index: 'logs',
        type: '_doc',
        id,
        routing: null,
        version: -3,
        versionType: 'internal',
        opType: 'index',
        source: Buffer.from(JSON.stringify({ n })),
      });
      await a.context.store.durable();
      tracker.updateLocalCheckpoint('primary-a', replicatedOf(out)!.seqNo);
      return replicate(replicatedOf(out)!, group(), tracker, repl);
    };
    for (let i = 0; i < 300; i++) await write(`d${i % 120}`, i);
    // the copy recovers while a writer keeps going
    let running = true;
    let k = 0;
    const writer = (async () => {
      while (running && k < 200) await write(`w${k % 50}`, 1000 + k++);
    })();
    const stats = await recoverFromPrimary(tb, peerOf('A'), cIdx, 0, 'copy-b', -1);
    running = false;
    await writer;
    expect(stats.stage).toBe('DONE');
    expect(stats.operations).toBeGreaterThan(100);
    expect(inSync![0]).toBe('copy-b');
    expect(fingerprint(cIdx)).toEqual(fingerprint(pIdx));
    const info = await write('after', 1);
    expect(info).toEqual({ total: 2, successful: 2, failed: 0 });
    expect(tracker.globalCheckpoint).toBe(pIdx.shard(0).maxSeqNo);
    expect(checkpointsB.get(cIdx, 0).checkpoint).toBe(pIdx.shard(0).maxSeqNo);
    expect(fingerprint(cIdx)).toEqual(fingerprint(pIdx));
  }, 60_000);

  it('fails a recovery the primary cannot track: the copy never reports in sync', async () => {
    const tc = transportFor('C');
    const td = transportFor('D');
    addresses.set('C', await tc.start());
    addresses.set('D', await td.start());
    try {
      const body = { settings: { number_of_shards: 1, number_of_replicas: 1 } };
      await a.context.indices.create('lonely-recovery', body);
      await b.context.indices.create('lonely-recovery', body);
      registerShardHandlers(td, hostOf(b), new CopyCheckpoints());
      let markedInSync = false;
      registerRecoverySource(tc, hostOf(a), peerOf, {
        // what a node that is not (yet) the primary answers (cluster-indices.ts)
        startTracking: () => {
          throw new Error('not the primary on node [C]');
        },
        markInSync: async () => {
          markedInSync = true;
        },
      });
      const cIdx = b.context.indices.get('lonely-recovery')!;
      await expect(recoverFromPrimary(td, peerOf('C'), cIdx, 0, 'copy-x', -1)).rejects.toThrow(
        'not the primary',
      );
      expect(markedInSync).toBe(false);
    } finally {
      await tc.close();
      await td.close();
    }
  });

  it('a copy refuses the recovery of an allocation it is no longer recovering', async () => {
    const te = transportFor('E');
    const tf = transportFor('F');
    addresses.set('E', await te.start());
    addresses.set('F', await tf.start());
    try {
      const body = { settings: { number_of_shards: 1, number_of_replicas: 1 } };
      await a.context.indices.create('stale-recovery', body);
      await b.context.indices.create('stale-recovery', body);
      const pIdx = a.context.indices.get('stale-recovery')!;
      for (let i = 0; i < 5; i++)
        a.context.documents.index({ kind: 'index', index: 'stale-recovery', type: '_doc', id: `s${i}`, routing: null, version: -3, versionType: 'internal', opType: 'index', source: Buffer.from('{}') }); // prettier-ignore
      await a.context.store.durable();
      // F's current copy of the shard is another allocation than the one recovering
      registerShardHandlers(
        tf,
        hostOf(b),
        new CopyCheckpoints(),
        (_i, _s, aid) => aid === 'current',
      );
      registerRecoverySource(te, hostOf(a), peerOf, {
        startTracking: () => undefined,
        markInSync: async () => undefined,
      });
      const cIdx = b.context.indices.get('stale-recovery')!;
      await expect(recoverFromPrimary(tf, peerOf('E'), cIdx, 0, 'old-copy', -1)).rejects.toThrow(
        'is not recovering on this node',
      );
      expect(pIdx.shard(0).maxSeqNo).toBe(4);
      expect(fingerprint(cIdx)).toEqual([]);
    } finally {
      await te.close();
      await tf.close();
    }
  });

  it('fails an unreachable copy before acknowledging', async () => {
    await tb.close();
    const tracker = new ReplicationTracker('primary-a', 0, -1, ['primary-a', 'copy-b']);
    const failed: string[] = [];
    const repl = transportReplication(
      ta,
      peerOf,
      'logs',
      0,
      async (t) => {
        failed.push(t.allocationId);
      },
      2_000,
    );
    const out = a.context.documents.index({
      kind: 'index',
      index: 'logs',
      type: '_doc',
      id: 'lonely',
      routing: null,
      version: -3,
      versionType: 'internal',
      opType: 'index',
      source: Buffer.from('{"n":0}'),
    });
    const info = await replicate(
      replicatedOf(out)!,
      { index: 'logs', shard: 0, primaryTerm: 1, primaryNodeId: 'A', targets: [{ allocationId: 'copy-b', nodeId: 'B' }], skipped: 0 }, // prettier-ignore
      tracker,
      repl,
    );
    expect(failed).toEqual(['copy-b']);
    expect(info.total).toBe(2);
    expect(info.successful).toBe(1);
    expect(info.failed).toBe(1);
    expect(tracker.isInSync('copy-b')).toBe(false);
  });
});
