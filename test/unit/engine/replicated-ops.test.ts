/**
 * A copy that applies the primary's operations (sequence number, term and version as assigned)
 * ends up identical to the primary whatever the order and however often each arrives: the
 * property replication, recovery and resync rest on. Two real stores (two in-process nodes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCheckpointTracker } from '../../../src/engine/local-checkpoint.js';
import {
  planReplicaOperation,
  planRollback,
  type ReplicatedOperation,
} from '../../../src/engine/replicated-op.js';
import type { IndexService } from '../../../src/engine/index-service.js';
import { openNode, type OpenNode } from '../../../src/node.js';

describe('LocalCheckpointTracker', () => {
  it('moves over filled gaps only', () => {
    const t = new LocalCheckpointTracker();
    t.markProcessed(1);
    t.markProcessed(3);
    expect(t.checkpoint).toBe(-1);
    expect(t.maxSeqNo).toBe(3);
    t.markProcessed(0);
    expect(t.checkpoint).toBe(1);
    t.markProcessed(2);
    expect(t.checkpoint).toBe(3);
    expect(t.hasProcessed(2)).toBe(true);
    expect(t.hasProcessed(4)).toBe(false);
    expect(t.generate()).toBe(4);
    t.markProcessed(2);
    expect(t.checkpoint).toBe(3);
  });

  it('starts from a recovered checkpoint', () => {
    const t = new LocalCheckpointTracker(10, 7);
    t.markProcessed(9);
    expect(t.checkpoint).toBe(7);
    t.markProcessed(8);
    expect(t.checkpoint).toBe(9);
    expect(() => new LocalCheckpointTracker(1, 2)).toThrow();
  });
});

describe('planReplicaOperation', () => {
  it('applies a newer operation and skips an older or equal one', () => {
    const cur = { version: 3, seqNo: 5, primaryTerm: 1, deleted: false };
    expect(planReplicaOperation(null, { seqNo: 0 })).toBe('apply');
    expect(planReplicaOperation(cur, { seqNo: 6 })).toBe('apply');
    expect(planReplicaOperation(cur, { seqNo: 5 })).toBe('stale');
    expect(planReplicaOperation({ ...cur, deleted: true }, { seqNo: 4 })).toBe('stale');
  });
});

let dirs: string[] = [];
let primary: OpenNode;
let replica: OpenNode;

beforeAll(async () => {
  dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'quarry-repl-')));
  primary = await openNode({ dataPath: dirs[0]! });
  replica = await openNode({ dataPath: dirs[1]! });
});

afterAll(async () => {
  await primary.close();
  await replica.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const body = { settings: { number_of_shards: 2, number_of_replicas: 0 } };

/** A deterministic pseudo-random sequence (tests must repeat). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

function opsOf(idx: IndexService, shard: number): ReplicatedOperation[] {
  return idx
    .shard(shard)
    .changesSince(0)
    .map(
      ({ id, record }) =>
    record.tombstone
      ? { kind: 'delete' as const, id, seqNo: record.seqNo, primaryTerm: record.primaryTerm, version: record.version, routing: record.routing } // prettier-ignore
      : { kind: 'index' as const, id, seqNo: record.seqNo, primaryTerm: record.primaryTerm, version: record.version, routing: record.routing, source: record.source }, // prettier-ignore
    );
}

function fingerprint(idx: IndexService, shard: number): string[] {
  return idx
    .shard(shard)
    .changesSince(0)
    .map(({ id, record: r }) =>
      [id, r.seqNo, r.primaryTerm, r.version, r.tombstone, r.source.toString('utf8')].join('|'),
    );
}

describe('DocumentService.applyReplicated', () => {
  it('makes a copy identical to the primary, in any order, with duplicates', async () => {
    const p = primary.context;
    const r = replica.context;
    await p.indices.create('logs', body);
    await r.indices.create('logs', body);
    const rand = rng(42);
    for (let i = 0; i < 400; i++) {
      const id = `d${Math.floor(rand() * 60)}`;
      const base = { index: 'logs', type: '_doc', id, routing: null, version: -3, versionType: 'internal' as const }; // prettier-ignore
      if (rand() < 0.2) {
        try {
          p.documents.delete({ kind: 'delete', ...base });
        } catch {
          // nothing to delete is fine
        }
      } else {
        const source = Buffer.from(JSON.stringify({ n: i, tag: `t${i % 7}` }));
        p.documents.index({ kind: 'index', ...base, opType: 'index', source });
      }
    }
    await p.store.durable();
    const pIdx = p.indices.get('logs')!;
    const rIdx = r.indices.get('logs')!;
    for (const shard of [0, 1]) {
      const ops = opsOf(pIdx, shard);
      expect(ops.length).toBeGreaterThan(10);
      // every operation twice, shuffled
      const sent = [...ops, ...ops];
      for (let i = sent.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [sent[i], sent[j]] = [sent[j]!, sent[i]!];
      }
      const results = sent.map((op) => r.documents.applyReplicated(rIdx, shard, op));
      await Promise.all(results.map((x) => x.done));
      expect(results.filter((x) => x.applied).length).toBeGreaterThanOrEqual(ops.length);
      expect(fingerprint(rIdx, shard)).toEqual(fingerprint(pIdx, shard));
      expect(rIdx.shard(shard).maxSeqNo).toBe(pIdx.shard(shard).maxSeqNo);
    }
    pIdx.refresh();
    rIdx.refresh();
    const live = (idx: IndexService) => idx.shards.reduce((n, s) => n + s.searcher().numDocs, 0);
    expect(live(rIdx)).toBe(live(pIdx));
  });

  it('refuses an operation of an older primary term and follows a newer one', async () => {
    const r = replica.context;
    await r.indices.create('terms', { settings: { number_of_shards: 1 } });
    const idx = r.indices.get('terms')!;
    const op = (seqNo: number, primaryTerm: number): ReplicatedOperation => ({
      kind: 'index',
      id: 'a',
      seqNo,
      primaryTerm,
      version: seqNo + 1,
      routing: null,
      source: Buffer.from('{"x":1}'),
    });
    expect(r.documents.applyReplicated(idx, 0, op(0, 2)).applied).toBe(true);
    expect(idx.shard(0).primaryTerm).toBe(2);
    expect(() => r.documents.applyReplicated(idx, 0, op(1, 1))).toThrow(
      '[terms][0] operation primary term [1] is too old (current [2])',
    );
    expect(r.documents.applyReplicated(idx, 0, op(0, 2)).applied).toBe(false);
  });
});

describe('recovery of a copy that diverged from its new primary', () => {
  it('rolls back what the primary never had, then catches up, and both are identical', async () => {
    const p = primary.context;
    const r = replica.context;
    const body1 = { settings: { number_of_shards: 1, number_of_replicas: 0 } };
    await p.indices.create('div', body1);
    await r.indices.create('div', body1);
    const pIdx = p.indices.get('div')!;
    const rIdx = r.indices.get('div')!;
    const src = (o: unknown) => Buffer.from(JSON.stringify(o));
    const index = (id: string, seqNo: number, term: number, v: number): ReplicatedOperation => ({
      kind: 'index',
      id,
      seqNo,
      primaryTerm: term,
      version: v,
      routing: null,
      source: src({ id, seqNo, term }),
    });
    // history both copies share (up to the global checkpoint 2)
    const shared = [index('a', 0, 1, 1), index('b', 1, 1, 1), index('c', 2, 1, 1)];
    // the old primary's operations that reached only the copy: term 1, seq 3 and 4
    const lost = [index('a', 3, 1, 2), index('x', 4, 1, 1)];
    // the new primary (term 2) wrote other operations at seq 3 and 5
    const fresh = [
      index('b', 3, 2, 2),
      { kind: 'delete', id: 'c', seqNo: 5, primaryTerm: 2, version: 2, routing: null } as const,
    ];
    for (const op of [...shared, ...fresh]) p.documents.applyReplicated(pIdx, 0, op);
    for (const op of [...shared, ...lost]) r.documents.applyReplicated(rIdx, 0, op);
    await Promise.all([p.store.durable(), r.store.durable()]);
    const global = 2;
    const copyAbove = new Map(
      rIdx
        .shard(0)
        .changesSince(global + 1)
        .map(({ id, record }) => [id, record] as const),
    );
    const pShard = pIdx.shard(0);
    const resets = planRollback(copyAbove, (id) => pShard.latest(id));
    expect(resets).toEqual(['a', 'x']);
    const pRecords = new Map(pShard.changesSince(0).map(({ id, record }) => [id, record]));
    await Promise.all(
      resets.map((id) => r.documents.resetForRecovery(rIdx, 0, id, pRecords.get(id) ?? null)),
    );
    await r.store.durable();
    rIdx.shard(0).recomputeMaxSeqNo();
    const catchUp = opsOf(pIdx, 0).filter((op) => op.seqNo > global);
    for (const op of catchUp) r.documents.applyReplicated(rIdx, 0, op);
    await r.store.durable();
    expect(fingerprint(rIdx, 0)).toEqual(fingerprint(pIdx, 0));
    expect(rIdx.shard(0).maxSeqNo).toBe(5);
    pIdx.refresh();
    rIdx.refresh();
    expect(rIdx.shard(0).searcher().numDocs).toBe(pIdx.shard(0).searcher().numDocs);
    expect(rIdx.shard(0).read('x')).toBeNull();
  });
});
