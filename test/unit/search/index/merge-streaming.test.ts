import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Bitset } from '../../../../src/search/index/bitset.js';
import { mergePieces, mergeSegments } from '../../../../src/search/index/merge.js';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import {
  decodeSegment,
  decodeSegmentFromFile,
  encodeSegment,
  encodeSegmentStreaming,
  loadArrays,
  unloadArrays,
} from '../../../../src/search/index/segment-codec.js';
import { lookupId } from '../../../../src/search/index/segment.js';
import { stringBlockOf } from '../../../../src/search/index/string-block.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const text = field('t', 'text');
const kw = field('k', 'keyword');
const num = field('n', 'long');
const rng = field('r', 'integer_range');
const child = field('c.v', 'keyword');

interface D {
  id: string;
  words: string[];
  nums: number[];
  range: [number, number] | null;
  kids: string[];
  routing: string | null;
}

function build(docs: D[], base: number) {
  const b = new SegmentBuilder(standardResolver);
  docs.forEach((d, i) => {
    const values: Array<[typeof text, unknown]> = [];
    if (d.words.length) values.push([text, d.words.join(' ')]);
    for (const w of d.words.slice(0, 2)) values.push([kw, w]);
    for (const n of d.nums) values.push([num, n]);
    if (d.range) values.push([rng, { gte: d.range[0], lte: d.range[1] }]);
    const pd = doc(values as never);
    const nested = d.kids.map((k) => ({ path: 'c', doc: doc([[child, k]]) }));
    b.add(d.id, { ...pd, nested }, base + i, 1, d.routing);
  });
  return b.build();
}

const dir = mkdtempSync(join(tmpdir(), 'merge-streaming-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Parts = Parameters<typeof mergeSegments>[0];

/** The streamed encoding of the merge, through a scratch file. */
function streamed(parts: Parts, fromFile = false, streamPostingsFrom?: number): Buffer {
  const file = join(dir, 'data');
  const fd = openSync(file, 'w+');
  try {
    const none = { load: () => {}, unload: () => {}, streamPostingsFrom };
    if (!fromFile) return encodeSegmentStreaming(() => mergePieces(parts, none), fd);
    // each part read from a file as the merge reaches its arrays, as a worker reads the store's
    const blobs = join(dir, 'blobs');
    const encoded = parts.map((p) => encodeSegment(p.segment));
    const at: number[] = [];
    let off = 24; // not at the file's start
    for (const e of encoded) {
      at.push(off);
      off += e.length + 8;
    }
    writeFileSync(blobs, Buffer.concat(encoded.flatMap((e, i) => [Buffer.alloc(i === 0 ? 24 : 8, 1), e]))); // prettier-ignore
    const lazy = parts.map((p, i) => ({
      segment: decodeSegmentFromFile({ file: blobs, offset: at[i]!, length: encoded[i]!.length })!,
      live: p.live,
    }));
    const out = encodeSegmentStreaming(
      () => mergePieces(lazy, { load: loadArrays, unload: unloadArrays, streamPostingsFrom, dropIds: true }), // prettier-ignore
      fd,
    );
    // what the merge read is let go again, the parts' `_id`s too
    for (const p of lazy) expect(ArrayBuffer.isView(p.segment.seqNos)).toBe(false);
    for (const p of lazy) expect(p.segment.ids).toEqual([]);
    return out;
  } finally {
    closeSync(fd);
    rmSync(file);
  }
}

const word = fc.constantFrom('a', 'b', 'c', 'dd', 'é', 'zz', 'x1');
const docArb = fc.record({
  words: fc.array(word, { maxLength: 5 }),
  nums: fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 3 }),
  range: fc.option(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 5, max: 9 }))),
  kids: fc.array(word, { maxLength: 2 }),
  routing: fc.option(fc.constantFrom('r1', 'r2')),
});

describe('streamed merge encoding', () => {
  it('is byte for byte the encoding of the merged segment (parts in memory or read from a file field by field), with deletes, nested docs, ranges and routing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(docArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(40), { maxLength: 8 }),
        (groups, del) => {
          let n = 0;
          const parts = groups.map((g) => {
            const docs: D[] = g.map((d) => ({ ...d, id: `id${n++}` }));
            const segment = build(docs, n);
            let live: Bitset | null = null;
            for (const x of del) {
              if (x >= docs.length) continue;
              live ??= Bitset.full(docs.length);
              live.clear(x);
            }
            return { segment, live };
          });
          const bytes = streamed(parts);
          const expected = encodeSegment(mergeSegments(parts));
          expect(Buffer.compare(bytes, expected)).toBe(0);
          expect(Buffer.compare(streamed(parts, true), expected)).toBe(0);
          // the merged postings written block by block as computed: the same bytes
          expect(Buffer.compare(streamed(parts, false, 1), expected)).toBe(0);
          expect(Buffer.compare(streamed(parts, true, 1), expected)).toBe(0);
          // the bytes decode to the same segment
          const back = decodeSegment(bytes);
          expect(back.maxDoc).toBe(mergeSegments(parts).maxDoc);
          expect(encodeSegment(back).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('merged _ids', () => {
  // ASCII, Latin-1, a BMP character above the surrogates (sorts after them in UTF-16, before
  // them in UTF-8) and an astral one (a surrogate pair)
  const idChar = fc.constantFrom('a', 'b', 'Z', '0', 'é', '\uE000', '\uFFFD', '\u{1F600}');
  const idArb = fc.array(idChar, { minLength: 0, maxLength: 4 }).map((cs) => cs.join(''));

  it('stay encoded bytes when the parts keep theirs, in the order and with the contents of string ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(idArb, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), // prettier-ignore
        fc.array(fc.nat(12), { maxLength: 6 }),
        (groups, del) => {
          let n = 0;
          const parts = groups.map((ids, gi) => {
            const docs: D[] = ids.map((id) => ({ id: `${id}#${gi}`, words: ['a'], nums: [n++], range: null, kids: [], routing: null })); // prettier-ignore
            let live: Bitset | null = null;
            for (const x of del) {
              if (x >= docs.length) continue;
              live ??= Bitset.full(docs.length);
              live.clear(x);
            }
            return { segment: build(docs, n), live };
          });
          const strings = mergeSegments(parts);
          // decoded parts keep their _ids as one encoded block each
          const decoded = parts.map((p) => ({ segment: decodeSegment(encodeSegment(p.segment)), live: p.live })); // prettier-ignore
          expect(decoded.every((p) => stringBlockOf(p.segment.ids) !== undefined)).toBe(true);
          const blocks = mergeSegments(decoded);
          expect(stringBlockOf(blocks.ids)).toBeDefined();
          expect(stringBlockOf(strings.ids)).toBeUndefined();
          expect([...blocks.ids]).toEqual([...strings.ids]);
          expect([...blocks.idOrder]).toEqual([...strings.idOrder]);
          const sorted = [...strings.idOrder].map((d) => strings.ids[d]!);
          expect(sorted).toEqual([...strings.ids].sort());
          expect(encodeSegment(blocks).equals(encodeSegment(strings))).toBe(true);
          for (const id of strings.ids) expect(lookupId(blocks, id)).toBe(lookupId(strings, id));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a streamed merge', () => {
  it('hands out its per-document arrays and _ids once (let go of while the fields are merged)', () => {
    const parts = [0, 1].map((g) => ({
      segment: build([{ id: `a${g}`, words: ['x'], nums: [g], range: null, kids: [], routing: null }], g), // prettier-ignore
      live: null,
    }));
    const pieces = mergePieces(parts);
    const cols = pieces.docColumns();
    expect([...cols.seqNos]).toEqual([0, 1]);
    expect(() => pieces.docColumns()).toThrow();
    pieces.ids();
    expect(() => pieces.ids()).toThrow();
  });
});
