/**
 * The crash oracle must catch what it exists to catch: lost, stale, rejected, half-written and
 * unknown documents and reused sequence numbers, while accepting every state a crash may leave.
 */
import { describe, expect, it } from 'vitest';
import { Oracle, type DocState, type Source } from './harness/oracle.js';

const src = (op: string, extra: Source = {}): Source => ({ op, n: 1, w: 'x', ...extra });
const res = (version: number, seqNo: number, source: Source | null) => ({
  version,
  seqNo,
  primaryTerm: 1,
  source,
});
const found = (version: number, seqNo: number, source: Source): DocState => ({
  found: true,
  version,
  seqNo,
  primaryTerm: 1,
  source,
});

function verify(o: Oracle, obs: DocState, id = '1'): string[] {
  o.verifyIndex('i', new Map([[id, obs]]));
  return o.problems;
}

describe('crash oracle', () => {
  it('accepts the last acknowledged write', () => {
    const o = new Oracle();
    o.ack(o.begin('index', 'i', '1', src('a')), res(1, 0, src('a')));
    o.ack(o.begin('index', 'i', '1', src('b')), res(2, 1, src('b')));
    expect(verify(o, found(2, 1, src('b')))).toEqual([]);
  });

  it('reports a lost write, a stale document and a wrong version', () => {
    const mk = () => {
      const o = new Oracle();
      o.ack(o.begin('index', 'i', '1', src('a')), res(1, 0, src('a')));
      o.ack(o.begin('index', 'i', '1', src('b')), res(2, 1, src('b')));
      return o;
    };
    expect(verify(mk(), { found: false })[0]).toMatch(/acknowledged write lost, document missing/);
    expect(verify(mk(), found(1, 0, src('a')))[0]).toMatch(/acknowledged write lost/);
    expect(verify(mk(), found(3, 1, src('b')))[0]).toMatch(/version\/seq_no differ/);
    expect(verify(mk(), found(2, 1, src('b', { n: 2 })))[0]).toMatch(/source differs/);
  });

  it('reports a rejected write that was applied and content nobody wrote', () => {
    const o = new Oracle();
    o.reject(o.begin('create', 'i', '1', src('r')));
    expect(verify(o, found(1, 0, src('r')))[0]).toMatch(/rejected write/);
    expect(verify(new Oracle(), found(1, 0, src('zzz')))[0]).toMatch(/unknown document content/);
  });

  it('accepts an unacknowledged write that landed whole, not a torn one', () => {
    const mk = () => {
      const o = new Oracle();
      o.ack(o.begin('index', 'i', '1', src('a')), res(1, 0, src('a')));
      o.begin('index', 'i', '1', src('b', { text: 'full' }));
      return o;
    };
    expect(verify(mk(), found(2, 3, src('b', { text: 'full' })))).toEqual([]);
    expect(verify(mk(), found(1, 0, src('a')))).toEqual([]);
    expect(verify(mk(), found(2, 3, src('b')))[0]).toMatch(/half-written/);
    expect(verify(mk(), found(1, 0, src('b', { text: 'full' })))[0]).toMatch(/hides acknowledged/);
    expect(verify(mk(), { found: false })[0]).toMatch(/document missing/);
  });

  it('checks partial updates and upserts in flight', () => {
    const o = new Oracle();
    o.ack(o.begin('index', 'i', '1', src('a', { k: 1 })), res(1, 0, src('a', { k: 1 })));
    o.begin('update', 'i', '1', { op: 'u', n: 5 });
    expect(verify(o, found(2, 1, { op: 'u', n: 5, w: 'x', k: 1 }))).toEqual([]);
    const o2 = new Oracle();
    o2.ack(o2.begin('index', 'i', '1', src('a')), res(1, 0, src('a')));
    o2.begin('update', 'i', '1', { op: 'u', n: 5 });
    expect(verify(o2, found(2, 1, { op: 'u', n: 1, w: 'x' }))[0]).toMatch(/half-applied/);
  });

  it('requires acknowledged deletes to stay deleted', () => {
    const o = new Oracle();
    o.ack(o.begin('index', 'i', '1', src('a')), res(1, 0, src('a')));
    o.ack(o.begin('delete', 'i', '1', null), res(2, 1, null));
    expect(verify(o, { found: false })).toEqual([]);
    expect(verify(o, found(1, 0, src('a')))[0]).toMatch(/acknowledged write lost/);
    const o2 = new Oracle();
    o2.ack(o2.begin('index', 'i', '1', src('a')), res(1, 0, src('a')));
    o2.begin('delete', 'i', '1', null);
    expect(verify(o2, { found: false })).toEqual([]);
  });

  it('rebaselines on the observed state and compares later restarts to it', () => {
    const o = new Oracle();
    o.begin('index', 'i', '1', src('a'));
    const obs = new Map<string, DocState>([['1', found(1, 0, src('a'))]]);
    o.verifyIndex('i', obs);
    o.rebaseline('i', obs);
    o.newLife();
    expect(o.inflightAtCrash).toBe(1);
    expect(verify(o, found(1, 0, src('a')))).toEqual([]);
    expect(verify(o, found(1, 1, src('a')))[0]).toMatch(/unchanged document changed/);
  });

  it('reports sequence numbers reused after a restart or acknowledged twice', () => {
    const o = new Oracle();
    o.shardCounts.set('i', 1);
    o.ack(o.begin('index', 'i', '1', src('a')), res(1, 7, src('a')));
    o.newLife();
    o.ack(o.begin('index', 'i', '2', src('b')), res(1, 7, src('b')));
    expect(o.problems[0]).toMatch(/sequence number reused/);
    o.ack(o.begin('index', 'i', '3', src('c')), res(1, 9, src('c')));
    o.ack(o.begin('index', 'i', '4', src('d')), res(1, 9, src('d')));
    expect(o.problems[1]).toMatch(/acknowledged twice/);
  });
});
