/**
 * The copies checker: identical copies pass; a missing or different document, a (term, seq_no)
 * naming two operations, a document contradicting its own op log, and a global checkpoint ahead of
 * an in-sync copy are each reported with the copies involved.
 */
import { describe, expect, it } from 'vitest';
import { checkCopies, type ShardCopy } from './checkers/copies.js';

const doc = (id: string, version: number, seqNo: number, primaryTerm = 1) => ({
  id,
  version,
  seqNo,
  primaryTerm,
});
const idx = (id: string, seqNo: number, primaryTerm = 1, version = 1) =>
  ({ opType: 'index', id, seqNo, primaryTerm, version }) as const;

const good = (copy: string): ShardCopy => ({
  copy,
  docs: [doc('a', 2, 2), doc('b', 1, 1)],
  ops: [idx('a', 0), idx('b', 1), idx('a', 2, 1, 2)],
  inSync: true,
  localCheckpoint: 2,
  globalCheckpoint: 2,
});

describe('copies check', () => {
  it('passes identical copies', () => {
    const r = checkCopies({
      'logs[0]': [good('n1'), good('n2')],
      'logs[1]': [good('n2'), good('n3')],
    });
    expect(r.valid).toBe(true);
    expect(r.problems).toEqual([]);
    expect(r.shards.map((s) => [s.shard, s.docs, s.copies])).toEqual([
      ['logs[0]', 2, ['n1', 'n2']],
      ['logs[1]', 2, ['n2', 'n3']],
    ]);
  });

  it('reports a missing document and a different version, per copy', () => {
    const n2 = { ...good('n2'), docs: [doc('a', 3, 4, 2)] };
    const r = checkCopies({ 'logs[0]': [good('n1'), n2] });
    expect(r.valid).toBe(false);
    expect(r.shards[0]!.diffs).toEqual([
      {
        id: 'a',
        copies: {
          n1: { version: 2, seqNo: 2, primaryTerm: 1 },
          n2: { version: 3, seqNo: 4, primaryTerm: 2 },
        },
      },
      { id: 'b', copies: { n1: { version: 1, seqNo: 1, primaryTerm: 1 }, n2: null } },
    ]);
    expect(r.problems).toEqual([
      'logs[0]: doc a differs: n1 v2 seq 2 term 1, n2 v3 seq 4 term 2',
      'logs[0]: doc b differs: n1 v1 seq 1 term 1, n2 missing',
    ]);
  });

  it('reports a (term, seq_no) pair used by two operations, across or within copies', () => {
    const n2 = { ...good('n2'), ops: [idx('a', 0), idx('c', 1), idx('a', 2, 1, 2)] };
    const r = checkCopies({ s: [good('n1'), n2, good('n3')] });
    expect(r.valid).toBe(false);
    expect(r.shards[0]!.reusedPairs).toHaveLength(1);
    expect(r.problems).toContain(
      's: (term 1, seq 1) names 2 operations: index b v1 on n1+n3; index c v1 on n2',
    );
    // the same seq_no in two terms is not a reuse of a pair
    const retried = { ...good('n1'), ops: [...good('n1').ops!, idx('z', 1, 2)] };
    expect(checkCopies({ s: [retried] }).shards[0]!.reusedPairs).toEqual([]);
    // one copy with two different ops under one pair
    const twice = {
      ...good('n1'),
      ops: [...good('n1').ops!, { ...idx('b', 1), source: '{"x":2}' }],
    };
    expect(checkCopies({ s: [twice] }).shards[0]!.reusedPairs).toHaveLength(1);
  });

  it("reports a document whose version is another op's in its own log", () => {
    const n1 = {
      ...good('n1'),
      ops: [
        idx('a', 0),
        idx('b', 1),
        { opType: 'delete', id: 'a', seqNo: 2, primaryTerm: 1 } as const,
      ],
    };
    const r = checkCopies({ s: [n1] });
    expect(r.problems).toEqual([
      's: n1: doc a (v2 seq 2 term 1) but its (term, seq_no) is logged as delete a',
    ]);
  });

  it('reports a global checkpoint above an in-sync local checkpoint, ignoring copies not in sync', () => {
    const behind = { ...good('n2'), localCheckpoint: 1, globalCheckpoint: 1 };
    const r = checkCopies({ s: [good('n1'), behind] });
    expect(r.shards[0]!.checkpointViolations).toEqual([
      "n1 has global checkpoint 2 above in-sync n2's local checkpoint 1",
    ]);
    const recovering = { ...behind, inSync: false };
    expect(checkCopies({ s: [good('n1'), recovering] }).valid).toBe(true);
  });
});
