/**
 * ByteArena: copies packed into shared blocks keep their bytes after the source is overwritten
 * (LMDB's reused read buffer), across block boundaries and for runs too long for a block.
 */
import { describe, expect, it } from 'vitest';
import { ByteArena } from '../../../src/common/byte-arena.js';

describe('ByteArena', () => {
  it('keeps every copy intact while the source is reused', () => {
    const arena = new ByteArena();
    const src = Buffer.alloc(20_000);
    const want: string[] = [];
    const got: Buffer[] = [];
    // sizes that fill blocks unevenly, with runs past the block limit among them
    const sizes = [1, 7, 650, 2048, 2049, 5000, 0, 900, 3000, 13, 8192, 700, 700, 700, 700];
    sizes.forEach((n, i) => {
      src.fill(65 + i);
      src.write(`#${i}#`, 0, 'latin1');
      const start = 3;
      want.push(src.toString('latin1', start, start + n));
      got.push(arena.copy(src, start, start + n));
    });
    src.fill(0);
    expect(got.map((b) => b.toString('latin1'))).toEqual(want);
    expect(got.map((b) => b.length)).toEqual(sizes);
  });

  it('never lets one copy overlap another', () => {
    const arena = new ByteArena();
    const copies = Array.from({ length: 50 }, (_, i) => arena.copy(Buffer.alloc(300, i), 0, 300));
    copies.forEach((c, i) => expect(c.every((x) => x === i)).toBe(true));
  });
});
