/**
 * SupersededSources: a superseded record stays while the view it was superseded in is current or
 * a pinned (scroll) view at or before it exists, and the byte bound drops the oldest first.
 */
import { describe, expect, it } from 'vitest';
import { SupersededSources } from '../../../src/engine/superseded-sources.js';
import type { DocRecord } from '../../../src/store/doc-record.js';

const rec = (seqNo: number, text = 'x'): DocRecord => ({
  tombstone: false,
  version: seqNo + 1,
  seqNo,
  primaryTerm: 1,
  timestamp: 0,
  routing: null,
  source: Buffer.from(JSON.stringify({ text })),
});

describe('SupersededSources', () => {
  it('keeps a record until a refresh replaces the view it was superseded in', () => {
    const s = new SupersededSources(1 << 20);
    s.add('a', rec(0, 'v1'), 3);
    s.evict(3);
    expect(s.get('a', 0)?.source.toString()).toBe('{"text":"v1"}');
    expect(s.get('a', 1)).toBeNull();
    s.evict(4);
    expect(s.get('a', 0)).toBeNull();
    expect(s.size).toBe(0);
  });

  it('a pinned view at or before the generation keeps it; unpinned it goes', () => {
    const s = new SupersededSources(1 << 20);
    s.pin(2);
    s.add('a', rec(0), 2); // superseded while view 2 was current
    s.add('a', rec(5), 4); // a later version, superseded in view 4
    s.evict(6);
    expect(s.get('a', 0)).not.toBeNull(); // the scroll on view 2 can still fetch it
    expect(s.get('a', 5)).not.toBeNull(); // kept behind it: eviction runs in order
    s.unpin(2);
    s.evict(6);
    expect(s.size).toBe(0);
    s.pin(7);
    s.pin(7);
    s.add('b', rec(9), 7);
    s.unpin(7);
    s.evict(8);
    expect(s.get('b', 9)).not.toBeNull(); // one pin of two remains
  });

  it('drops the oldest records past its byte bound', () => {
    const one = rec(0).source.length;
    const s = new SupersededSources(one * 2);
    for (let i = 0; i < 5; i++) s.add(`d${i}`, rec(i), 1);
    expect(s.size).toBe(2);
    expect(s.get('d0', 0)).toBeNull();
    expect(s.get('d4', 4)).not.toBeNull();
    for (let i = 5; i < 3000; i++) s.add(`d${i}`, rec(i), 1); // compaction of the queue
    expect(s.size).toBe(2);
    expect(s.get('d2999', 2999)).not.toBeNull();
  });
});
