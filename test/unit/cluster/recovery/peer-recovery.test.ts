/**
 * Peer recovery between two real stores (two in-process nodes) while the primary keeps taking
 * writes: the copy rolls back what the primary never had, receives live writes from the moment
 * it is tracked, replays the rest, and ends identical to the primary, in sync, with a local
 * checkpoint at the primary's max sequence number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runPeerRecovery,
  type RecoveryStage,
} from '../../../../src/cluster/recovery/peer-recovery.js';
import {
  copyRecoveryTarget,
  primaryRecoverySource,
  shardChanges,
} from '../../../../src/cluster/recovery/shard-endpoints.js';
import type { IndexService } from '../../../../src/engine/index-service.js';
import type { ReplicatedOperation } from '../../../../src/engine/replicated-op.js';
import { openNode, type OpenNode } from '../../../../src/node.js';
import { replicatedOf } from '../../../../src/engine/documents.js';

let dirs: string[] = [];
let primary: OpenNode;
let copy: OpenNode;

beforeAll(async () => {
  dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'quarry-recovery-')));
  primary = await openNode({ dataPath: dirs[0]! });
  copy = await openNode({ dataPath: dirs[1]! });
});

afterAll(async () => {
  await primary.close();
  await copy.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const fingerprint = (idx: IndexService) =>
  shardChanges(idx, 0, 0).map((o) =>
    [
      o.id,
      o.seqNo,
      o.primaryTerm,
      o.version,
      o.kind,
      o.kind === 'index' ? o.source.toString() : '',
    ].join('|'),
  );

describe('runPeerRecovery', () => {
  it('brings a stale, diverged copy in sync while writes go on', async () => {
    const p = primary.context;
    const c = copy.context;
    const body = { settings: { number_of_shards: 1, number_of_replicas: 1 } };
    await p.indices.create('logs', body);
    await c.indices.create('logs', body);
    const pIdx = p.indices.get('logs')!;
    const cIdx = c.indices.get('logs')!;
    const write = (id: string, n: number) =>
      p.documents.index({
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
    // shared history: 50 documents, then the copy stops at global checkpoint 49
    for (let i = 0; i < 50; i++) write(`d${i}`, i);
    await p.store.durable();
    for (const op of shardChanges(pIdx, 0, 0)) await c.documents.applyReplicated(cIdx, 0, op).done;
    const global = 49;
    // the copy got an operation of the old primary that the new one never had
    const lost: ReplicatedOperation = {
      kind: 'index',
      id: 'ghost',
      seqNo: 50,
      primaryTerm: 1,
      version: 1,
      routing: null,
      source: Buffer.from('{"n":-1}'),
    };
    await c.documents.applyReplicated(cIdx, 0, lost).done;
    // the primary moves on (a promotion: term 2) and writes more, including over old documents
    pIdx.shard(0).raisePrimaryTerm(2);
    for (let i = 0; i < 100; i++) write(`d${i % 70}`, 1000 + i);
    await p.store.durable();

    // live replication to the copy once tracked, as the replication layer would do it
    let tracked = false;
    let inSync: [string, number] | null = null;
    const live: Promise<void>[] = [];
    const writeLive = (id: string, n: number) => {
      const out = write(id, n);
      if (tracked)
        live.push(
          c.documents
            .applyReplicated(cIdx, 0, replicatedOf(out)!)
            .done.then(() => target.tracker.markProcessed(replicatedOf(out)!.seqNo)),
        );
    };
    const source = primaryRecoverySource(p.store, pIdx, 0, {
      startTracking: () => {
        tracked = true;
      },
      markInSync: async (aid, cp) => {
        inSync = [aid, cp];
      },
    });
    const target = copyRecoveryTarget(c.documents, c.store, cIdx, 0, 'copy-1', global);
    // writes keep coming while the recovery runs
    let running = true;
    let n = 0;
    const writer = (async () => {
      while (running && n < 300) {
        writeLive(`w${n % 40}`, 5000 + n);
        n++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const stages: RecoveryStage[] = [];
    const stats = await runPeerRecovery(source, target, global, (s) => stages.push(s.stage));
    running = false;
    await writer;
    await Promise.all(live);
    await Promise.all([p.store.durable(), c.store.durable()]);

    expect(stages).toEqual(['INDEX', 'VERIFY_INDEX', 'TRANSLOG', 'FINALIZE', 'DONE']);
    expect(stats.rolledBack).toBe(1);
    expect(stats.operations).toBeGreaterThan(0);
    expect(n).toBeGreaterThan(0);
    expect(fingerprint(cIdx)).toEqual(fingerprint(pIdx));
    expect(cIdx.shard(0).read('ghost')).toBeNull();
    expect(inSync).not.toBeNull();
    expect(inSync![0]).toBe('copy-1');
    expect(target.tracker.checkpoint).toBe(pIdx.shard(0).maxSeqNo);
  });
});
