/**
 * The chunked form of a segment's encoding (a large merge a build worker writes in blobs of
 * bounded size): its data region cut at array starts, read back in place over the chunks, from
 * files chunk by chunk, or assembled whole, always the same segment as the whole encoding.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergePieces, mergeSegments } from '../../../../src/search/index/merge.js';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import {
  assembleChunked,
  chunkCuts,
  chunkLengths,
  decodeChunkedFromFiles,
  decodeChunkedInPlace,
  encodeSegment,
  encodeSegmentToFile,
  loadArrays,
  unloadArrays,
} from '../../../../src/search/index/segment-codec.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const text = field('t', 'text');
const kw = field('k', 'keyword');
const num = field('n', 'long');

function build(docs: Array<{ id: string; words: string[]; nums: number[] }>, base: number) {
  const b = new SegmentBuilder(standardResolver);
  docs.forEach((d, i) => {
    const values: Array<[typeof text, unknown]> = [];
    if (d.words.length) values.push([text, d.words.join(' ')]);
    for (const w of d.words.slice(0, 2)) values.push([kw, w]);
    for (const n of d.nums) values.push([num, n]);
    b.add(d.id, doc(values as never), base + i, 1, null);
  });
  return b.build();
}

const dir = mkdtempSync(join(tmpdir(), 'chunked-encoding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chunkCuts', () => {
  it('cuts only at array starts, every chunk at least half the size (a large array alone may be larger)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 16, max: 400 }),
        (sizes, chunk) => {
          const starts: number[] = [];
          let o = 0;
          for (const s of sizes) {
            starts.push(o);
            o += s;
          }
          const cuts = chunkCuts(starts, o, chunk);
          expect(cuts[0]).toBe(0);
          for (const c of cuts) expect(starts).toContain(c);
          const ends = [...cuts.slice(1), o];
          for (let i = 0; i < cuts.length; i++) {
            const len = ends[i]! - cuts[i]!;
            expect(len).toBeGreaterThan(0);
            if (cuts.length > 1) expect(len).toBeGreaterThanOrEqual(chunk / 2);
            // larger than twice the size only where one array makes it so
            if (len > 2 * chunk) {
              const inside = sizes.filter((_, j) => starts[j]! >= cuts[i]! && starts[j]! < ends[i]!); // prettier-ignore
              expect(Math.max(...inside)).toBeGreaterThan(chunk / 2);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('chunked segment encoding', () => {
  it('decodes over its chunks, from files, or assembled, to the segment of the whole encoding', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'dd', 'é', 'zz', 'x1');
    const docArb = fc.record({
      words: fc.array(word, { maxLength: 5 }),
      nums: fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(docArb, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 16, max: 2048 }),
        (groups, chunkBytes) => {
          let n = 0;
          const parts = groups.map((g) => ({
            segment: build(
              g.map((d) => ({ ...d, id: `id${n++}` })),
              n,
            ),
            live: null,
          }));
          const expected = encodeSegment(mergeSegments(parts));
          const scratch = join(dir, 'scratch');
          const fd = openSync(scratch, 'w+');
          try {
            const enc = encodeSegmentToFile(() => mergePieces(parts), fd);
            expect(enc.length).toBe(expected.length);
            expect(enc.whole().equals(expected)).toBe(true);
            const { head, count, chunk } = enc.chunks(chunkBytes);
            const chunks = Array.from({ length: count }, (_, i) => chunk(i));
            expect(chunkLengths(head)).toEqual(chunks.map((c) => c.length));
            expect(chunkLengths(expected)).toBeNull();
            expect(assembleChunked(head, chunks).equals(expected)).toBe(true);
            // over the chunks themselves (as read in place from the store's map)
            const inPlace = decodeChunkedInPlace(head, chunks);
            expect(encodeSegment(inPlace).equals(expected)).toBe(true);
            // each chunk somewhere in a file, read field by field as a worker's merge does
            const file = join(dir, 'chunks');
            const ranges: Array<{ file: string; offset: number; length: number }> = [];
            let off = 16;
            for (const c of chunks) {
              ranges.push({ file, offset: off, length: c.length });
              off += c.length + 8;
            }
            writeFileSync(file, Buffer.concat(chunks.flatMap((c, i) => [Buffer.alloc(i === 0 ? 16 : 8, 1), c]))); // prettier-ignore
            const lazy = decodeChunkedFromFiles(head, ranges);
            const again = encodeSegmentToFile(
              () => mergePieces([{ segment: lazy, live: null }], { load: loadArrays, unload: unloadArrays }), // prettier-ignore
              fd,
            );
            expect(again.whole().equals(expected)).toBe(true);
            // a missing chunk is an error, never a wrong segment
            if (count > 1) expect(() => decodeChunkedInPlace(head, chunks.slice(1))).toThrow();
          } finally {
            closeSync(fd);
            rmSync(scratch);
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
