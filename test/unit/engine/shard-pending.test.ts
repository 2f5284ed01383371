/**
 * A shard's writes before their LMDB commit (kept as the encoded records queued for it): realtime
 * reads, records and version checks see them, tombstones included, routing and source as written,
 * and the same answers come from the store once committed.
 */
import { describe, expect, it } from 'vitest';
import { Shard } from '../../../src/engine/shard.js';
import { useTempStore } from '../../helpers/temp-store.js';

describe('Shard writes not yet committed', () => {
  const t = useTempStore();

  it('reads a put and a tombstone before and after their commit', async () => {
    const store = t.open(t.dir('quarry-shard-pending-'));
    const shard = new Shard(0, 3, store.docs('idx-uuid'), store, () => 60_000);
    const source = Buffer.from('{"a":"é"}');
    const put = shard.putDoc('d1', 'r1', source, 2, shard.nextSeqNo(), null);
    const del = shard.putTombstone('d2', null, 5, shard.nextSeqNo(), null);
    const check = () => {
      const r = shard.read('d1')!;
      expect(r.source.toString()).toBe('{"a":"é"}');
      expect({ ...r, source: undefined }).toEqual({
        tombstone: false,
        version: 2,
        seqNo: 0,
        primaryTerm: 3,
        timestamp: r.timestamp,
        routing: 'r1',
        source: undefined,
      });
      expect(shard.latest('d1')).toEqual({
        version: 2,
        seqNo: 0,
        primaryTerm: 3,
        deleted: false,
        timestamp: r.timestamp,
      });
      expect(shard.read('d2')).toBeNull();
      const tomb = shard.record('d2')!;
      expect(tomb.tombstone).toBe(true);
      expect(tomb.version).toBe(5);
      expect(tomb.source.length).toBe(0);
      expect(shard.current('d2')).toMatchObject({ version: 5, seqNo: 1, deleted: true });
      expect(shard.read('missing')).toBeNull();
    };
    expect(shard.pendingCount).toBe(2);
    check();
    expect(shard.recomputeMaxSeqNo()).toBe(1);
    await Promise.all([put, del]);
    expect(shard.pendingCount).toBe(0);
    check();
  });
});
