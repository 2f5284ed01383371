import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import { mergeSegments } from '../../../../src/search/index/merge.js';
import {
  decodeSegment,
  encodeSegment,
  encodeSegmentV3,
} from '../../../../src/search/index/segment-codec.js';
import { Bitset } from '../../../../src/search/index/bitset.js';
import { ChunkedInts } from '../../../../src/search/index/growable.js';
import { packedInts, packedMax } from '../../../../src/search/index/packed-ints.js';
import { AnalysisRegistry } from '../../../../src/search/analysis/index.js';
import type { InvertedField, Segment } from '../../../../src/search/index/segment.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const body = field('body', 'text', { analyzer: 'whitespace' });
const tag = field('tag', 'keyword');
const GAP = AnalysisRegistry.builtin.analyzer('whitespace')!.positionIncrementGap;

interface Src {
  body: string[];
  tags: string[];
}

/** Postings as plain data: term → [doc, freq, positions][]. */
type Plain = Record<string, Array<[number, number, number[]]>>;

function plain(inv: InvertedField | null | undefined): Plain {
  const out: Plain = {};
  if (!inv) return out;
  inv.terms.forEach((t, k) => {
    const rows: Array<[number, number, number[]]> = [];
    let p = inv.posStart ? inv.posStart[k]! : 0;
    for (let i = inv.termStart[k]!; i < inv.termStart[k + 1]!; i++) {
      const fr = inv.freqs ? inv.freqs[i]! : 1;
      const pos = inv.positions ? Array.from(inv.positions.subarray(p, p + fr)) : [];
      p += inv.positions ? fr : 0;
      rows.push([inv.docs[i]!, fr, pos]);
    }
    out[t] = rows;
  });
  return out;
}

/** What the postings of the kept docs must be, computed the obvious way. */
function expected(docs: Src[], keep: (i: number) => boolean): { body: Plain; tag: Plain } {
  const bodyP = new Map<string, Array<[number, number, number[]]>>();
  const tagP = new Map<string, Array<[number, number, number[]]>>();
  let nd = 0;
  docs.forEach((d, i) => {
    if (!keep(i)) return;
    const pos = new Map<string, number[]>();
    let p = 0;
    d.body.forEach((v, vi) => {
      if (vi > 0) p += GAP;
      for (const tok of v.split(' ').filter((x) => x.length > 0)) {
        if (!pos.has(tok)) pos.set(tok, []);
        pos.get(tok)!.push(p++);
      }
    });
    for (const [t, ps] of pos) {
      if (!bodyP.has(t)) bodyP.set(t, []);
      bodyP.get(t)!.push([nd, ps.length, ps]);
    }
    for (const t of new Set(d.tags)) {
      if (!tagP.has(t)) tagP.set(t, []);
      tagP.get(t)!.push([nd, 1, []]);
    }
    nd++;
  });
  const sorted = (m: Map<string, Array<[number, number, number[]]>>): Plain =>
    Object.fromEntries([...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  return { body: sorted(bodyP), tag: sorted(tagP) };
}

function build(docs: Src[], from = 0, deleted: number[] = []): Segment {
  const b = new SegmentBuilder(standardResolver);
  docs.forEach((d, i) =>
    b.add(
      `id${from + i}`,
      doc([
        ...d.body.map((v) => [body, v] as [typeof body, string]),
        ...d.tags.map((t) => [tag, t] as [typeof tag, string]),
      ]),
      from + i,
      1,
    ),
  );
  for (const d of deleted) b.markDeleted(d);
  return b.build();
}

const word = fc.constantFrom('a', 'b', 'c', 'dd', 'ee', 'fff', 'zz', 'ab');
const srcDoc: fc.Arbitrary<Src> = fc.record({
  body: fc.array(
    fc.array(word, { maxLength: 6 }).map((w) => w.join(' ')),
    { maxLength: 3 },
  ),
  tags: fc.array(fc.constantFrom('x', 'y', 'z', 'x y'), { maxLength: 3 }),
});

describe('segment builder postings', () => {
  it('match the postings computed directly from the documents, with superseded docs dropped', () => {
    fc.assert(
      fc.property(
        fc.array(srcDoc, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(11), { maxLength: 4 }),
        (docs, del) => {
          const deleted = [...new Set(del.filter((d) => d < docs.length))];
          const seg = build(docs, 0, deleted);
          const exp = expected(docs, (i) => !deleted.includes(i));
          expect(plain(seg.fields.get('body')?.inverted)).toEqual(exp.body);
          expect(plain(seg.fields.get('tag')?.inverted)).toEqual(exp.tag);
          const inv = seg.fields.get('body')?.inverted;
          if (inv) {
            let occ = 0;
            for (const rows of Object.values(exp.body)) for (const r of rows) occ += r[1];
            expect(inv.sumTotalTermFreq).toBe(occ);
            expect(inv.sumDocFreq).toBe(inv.docs.length);
            // Exactly sized: no slack after the last posting or position.
            expect(inv.termStart[inv.terms.length]).toBe(inv.docs.length);
            expect(inv.posStart![inv.terms.length]).toBe(inv.positions!.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts docs with a token and collapses repeated paths in _field_names', () => {
    const seg = build(
      [
        { body: ['a b'], tags: ['x', 'x'] },
        { body: [], tags: ['y'] },
        { body: ['c'], tags: [] },
      ],
      0,
      [2],
    );
    expect(seg.fields.get('body')!.inverted!.docCount).toBe(1);
    expect(plain(seg.fieldNames)).toEqual({
      body: [[0, 1, []]],
      tag: [
        [0, 1, []],
        [1, 1, []],
      ],
    });
  });

  it('stores small freqs and positions in bytes and widens them when needed', () => {
    const small = build([{ body: ['a b a'], tags: [] }]).fields.get('body')!.inverted!;
    expect(small.freqs).toBeInstanceOf(Uint8Array);
    expect(small.positions).toBeInstanceOf(Uint8Array);
    const many = Array.from({ length: 300 }, () => 'w').join(' ');
    const mid = build([{ body: [many], tags: [] }]).fields.get('body')!.inverted!;
    expect(mid.freqs).toBeInstanceOf(Uint16Array);
    expect(mid.freqs![0]).toBe(300);
    expect(mid.positions).toBeInstanceOf(Uint16Array);
    expect(mid.positions![299]).toBe(299);
    const long = Array.from({ length: 70_000 }, (_, i) => (i === 69_999 ? 'end' : 'w')).join(' ');
    const wide = build([{ body: [long], tags: [] }]).fields.get('body')!.inverted!;
    expect(wide.positions).toBeInstanceOf(Int32Array);
    expect(plain(wide).end).toEqual([[0, 1, [69_999]]]);
    expect(wide.freqs![wide.terms.indexOf('w')]).toBe(69_999);
  });
});

describe('merged segments', () => {
  it('equal one segment built from the surviving documents', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(srcDoc, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(30), { maxLength: 6 }),
        (groups, del) => {
          let base = 0;
          const parts = groups.map((g) => {
            const segment = build(g, base);
            const live = Bitset.full(g.length);
            let any = false;
            for (const d of del)
              if (d >= base && d < base + g.length) {
                live.clear(d - base);
                any = true;
              }
            base += g.length;
            return { segment, live: any ? live : null };
          });
          const all = groups.flat();
          const merged = mergeSegments(parts);
          const exp = expected(all, (i) => !del.includes(i));
          expect(plain(merged.fields.get('body')?.inverted)).toEqual(exp.body);
          expect(plain(merged.fields.get('tag')?.inverted)).toEqual(exp.tag);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('widen packed arrays to the widest part', () => {
    const many = Array.from({ length: 300 }, () => 'w').join(' ');
    const a = build([{ body: ['w w'], tags: [] }]);
    const b = build([{ body: [many], tags: [] }], 1);
    const m = mergeSegments([
      { segment: a, live: null },
      { segment: b, live: null },
    ]).fields.get('body')!.inverted!;
    expect(m.freqs).toBeInstanceOf(Uint16Array);
    expect(Array.from(m.freqs!)).toEqual([2, 300]);
  });
});

describe('segment codec', () => {
  const docs: Src[] = [
    { body: ['a b c a', 'dd'], tags: ['x', 'y'] },
    { body: [Array.from({ length: 300 }, () => 'w').join(' ')], tags: ['z'] },
    { body: ['b'], tags: [] },
  ];

  it('round-trips packed freqs and positions with their array types', () => {
    const seg = build(docs);
    const back = decodeSegment(encodeSegment(seg));
    const inv = back.fields.get('body')!.inverted!;
    expect(inv.freqs).toBeInstanceOf(Uint16Array);
    expect(inv.positions).toBeInstanceOf(Uint16Array);
    expect(plain(inv)).toEqual(plain(seg.fields.get('body')!.inverted));
    expect(plain(back.fields.get('tag')!.inverted)).toEqual(plain(seg.fields.get('tag')!.inverted));
    expect(back.ids).toEqual(seg.ids);
  });

  it('round-trips ASCII, multi-byte and lone-surrogate strings in terms and ids', () => {
    const tags = ['plain', 'café', '日本語', 'emoji 😀 mix', 'x'.repeat(500) + 'é', '', 'a\u0000b'];
    const seg = build(tags.map((t) => ({ body: ['w'], tags: [t] })));
    const lone = { ...seg, ids: seg.ids.map((id, i) => (i === 0 ? 'bad\ud800' : `${id}ñ`)) };
    const back = decodeSegment(encodeSegment(lone));
    expect(back.fields.get('tag')!.inverted!.terms).toEqual([...tags].sort());
    // As Buffer.from does, a lone surrogate becomes U+FFFD.
    expect(back.ids).toEqual(lone.ids.map((id, i) => (i === 0 ? 'bad\ufffd' : id)));
  });

  it('views a blob that owns its buffer and copies one at an offset', () => {
    const seg = build(docs);
    const enc = encodeSegment(seg);
    const owned = new Uint8Array(new ArrayBuffer(enc.length));
    owned.set(enc);
    const a = decodeSegment(owned).fields.get('body')!.inverted!;
    expect(a.docs.buffer).toBe(owned.buffer);
    const shifted = new Uint8Array(enc.length + 3);
    shifted.set(enc, 3);
    const b = decodeSegment(shifted.subarray(3)).fields.get('body')!.inverted!;
    expect(b.docs.buffer).not.toBe(shifted.buffer);
    expect(b.docs.byteOffset % 4).toBe(0);
    expect(plain(b)).toEqual(plain(seg.fields.get('body')!.inverted));
    expect(plain(a)).toEqual(plain(b));
  });

  it('still reads version 1 segments (Int32 freqs and positions)', () => {
    const seg = build(docs);
    const widen = (f: InvertedField): InvertedField => ({
      ...f,
      freqs: f.freqs ? Int32Array.from(f.freqs) : null,
      positions: f.positions ? Int32Array.from(f.positions) : null,
    });
    const fields = new Map(
      [...seg.fields].map(([k, f]) => [k, { ...f, inverted: f.inverted && widen(f.inverted) }]),
    );
    const blob = encodeSegmentV3({ ...seg, fields });
    blob.writeUInt32LE(1, 4);
    const back = decodeSegment(blob).fields.get('body')!.inverted!;
    expect(back.freqs).toBeInstanceOf(Int32Array);
    expect(plain(back)).toEqual(plain(seg.fields.get('body')!.inverted));
    blob.writeUInt32LE(5, 4);
    expect(() => decodeSegment(blob)).toThrow('unsupported segment version 5');
  });

  it('reads version 3 segments (arrays inline) as version 4 ones', () => {
    const seg = build(docs);
    const v3 = decodeSegment(encodeSegmentV3(seg));
    const v4 = decodeSegment(encodeSegment(seg));
    expect(encodeSegment(seg).readUInt32LE(4)).toBe(4);
    expect([...v3.ids]).toEqual(seg.ids);
    for (const [path, f] of seg.fields) {
      expect(plain(v3.fields.get(path)!.inverted)).toEqual(plain(f.inverted));
      expect(plain(v4.fields.get(path)!.inverted)).toEqual(plain(f.inverted));
      expect(v3.fields.get(path)!.docValues).toEqual(v4.fields.get(path)!.docValues);
    }
    expect(encodeSegment(v3)).toEqual(encodeSegment(v4));
  });
});

describe('packed ints and chunked lists', () => {
  it('pick the narrowest array and the widest of several', () => {
    expect(packedInts(255, 2)).toBeInstanceOf(Uint8Array);
    expect(packedInts(256, 2)).toBeInstanceOf(Uint16Array);
    expect(packedInts(65_536, 2)).toBeInstanceOf(Int32Array);
    expect(packedMax([new Uint8Array(1), null])).toBe(255);
    expect(packedMax([new Uint8Array(1), new Uint16Array(1)])).toBe(65_535);
    expect(packedMax([new Int32Array(1), new Uint16Array(1)])).toBe(0x7fffffff);
  });

  it('keep every pushed int in order across chunks', () => {
    const c = new ChunkedInts();
    const n = 100_000;
    for (let i = 0; i < n; i++) c.push(i * 3);
    expect(c.length).toBe(n);
    const out: number[] = [];
    for (let k = 0; k < c.chunks.length; k++) {
      const ch = c.chunks[k]!;
      for (let j = 0; j < c.chunkLength(k); j++) out.push(ch[j]!);
    }
    expect(out.length).toBe(n);
    expect(out.every((v, i) => v === i * 3)).toBe(true);
    expect(Math.max(...c.chunks.map((ch) => ch.length))).toBe(1 << 14);
  });
});
