import { describe, expect, it } from 'vitest';
import {
  docInSlice,
  encodeId,
  idInSlice,
  shardSlice,
} from '../../src/http/routes/by-query-slices.js';
import { murmur3x86_32 } from '../../src/common/murmur3.js';

describe('encodeId (ES Uid.encodeId)', () => {
  it('packs numeric ids two digits per byte with a 0x0f end marker', () => {
    expect([...encodeId('1')]).toEqual([0xfe, 0x1f]);
    expect([...encodeId('12')]).toEqual([0xfe, 0x12]);
    expect([...encodeId('123')]).toEqual([0xfe, 0x12, 0x3f]);
  });

  it('decodes url-safe base64 ids, escaping a first byte >= 0xfd', () => {
    expect([...encodeId('AAAA')]).toEqual([0, 0, 0]);
    expect([...encodeId('_w')]).toEqual([0xfd, 0xff]);
    expect([...encodeId('-_8')]).toEqual([0xfb, 0xff]);
    expect([...encodeId('_-8')]).toEqual([0xfd, 0xff, 0xef]);
  });

  it('falls back to utf-8 with a 0xff prefix', () => {
    expect([...encodeId('a')]).toEqual([0xff, 0x61]);
    // 'ab' has length 2 but its last symbol carries bits a one-byte value cannot have
    expect([...encodeId('ab')]).toEqual([0xff, 0x61, 0x62]);
    expect([...encodeId('foo|bar')]).toEqual([0xff, ...Buffer.from('foo|bar')]);
    expect([...encodeId('é')]).toEqual([0xff, 0xc3, 0xa9]);
  });
});

describe('idInSlice (ES TermsSliceQuery)', () => {
  it('is floorMod(murmur3_x86_32(encoded id, 7919), max)', () => {
    for (const id of ['1', 'abc', 'x y', 'AAAA', '0042']) {
      const b = encodeId(id);
      const h = murmur3x86_32(b, 0, b.length, 7919);
      const expected = ((h % 7) + 7) % 7;
      for (let s = 0; s < 7; s++) expect(idInSlice(id, s, 7)).toBe(s === expected);
    }
  });
});

describe('shardSlice (ES SliceBuilder.toFilter)', () => {
  it('maps one shard per slice when slices equal shards', () => {
    for (let slice = 0; slice < 5; slice++) {
      for (let shard = 0; shard < 5; shard++) {
        expect(shardSlice(shard, 5, slice, 5)).toBe(shard === slice ? 'all' : 'none');
      }
    }
  });

  it('gives whole shards to slices when shards outnumber slices', () => {
    expect([0, 1, 2, 3, 4].map((s) => shardSlice(s, 5, 0, 2))).toEqual([
      'all',
      'none',
      'all',
      'none',
      'all',
    ]);
    expect([0, 1, 2, 3, 4].map((s) => shardSlice(s, 5, 1, 2))).toEqual([
      'none',
      'all',
      'none',
      'all',
      'none',
    ]);
  });

  it('sub-slices a shard that serves several slices', () => {
    // 3 slices over 2 shards: shard 0 serves slices 0 and 2, shard 1 serves slice 1 alone
    expect(shardSlice(0, 2, 0, 3)).toEqual({ id: 0, max: 2 });
    expect(shardSlice(0, 2, 2, 3)).toEqual({ id: 1, max: 2 });
    expect(shardSlice(1, 2, 1, 3)).toBe('all');
    expect(shardSlice(1, 2, 0, 3)).toBe('none');
    // a single-shard index slices by id only
    expect(shardSlice(0, 1, 3, 4)).toEqual({ id: 3, max: 4 });
  });

  it('puts every document in exactly one slice', () => {
    const ids = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? String(i) : `doc-${i}`));
    for (const [shards, slices] of [
      [1, 4],
      [2, 3],
      [3, 7],
      [5, 2],
      [5, 5],
    ] as const) {
      for (const id of ids) {
        const shard = id.length % shards;
        let owners = 0;
        for (let s = 0; s < slices; s++) if (docInSlice(id, shard, shards, s, slices)) owners++;
        expect(owners).toBe(1);
      }
    }
  });
});
