import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import { sortSegment } from '../../../../src/search/index/sort-segment.js';
import { indexSortOrder, type IndexSort } from '../../../../src/search/index/index-sort.js';
import {
  lookupId,
  type InvertedField,
  type Segment,
} from '../../../../src/search/index/segment.js';
import { positionOffsets } from '../../../../src/search/index/postings-extras.js';
import { numberFromKey } from '../../../../src/search/index/range-keys.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';
import type { FieldMapping } from '../../../../src/mapping/types.js';

const body = field('body', 'text');
const tag = field('tag', 'keyword');
const n = field('n', 'long');
const r = field('r', 'long_range');

interface D {
  text: string;
  tags: string[];
  nums: number[];
  range: [number, number] | null;
}

const WORDS = ['a', 'b', 'c', 'd'];
const docArb = fc.record({
  text: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' ')),
  tags: fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 2 }),
  nums: fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 2 }),
  range: fc.option(
    fc
      .tuple(fc.integer({ min: 0, max: 9 }), fc.nat(5))
      .map(([a, w]) => [a, a + w] as [number, number]),
  ),
});

function build(docs: D[]): Segment {
  const b = new SegmentBuilder(standardResolver);
  docs.forEach((d, i) => {
    const values: Array<[FieldMapping, unknown]> = [];
    if (d.text) values.push([body, d.text]);
    for (const t of d.tags) values.push([tag, t]);
    for (const x of d.nums) values.push([n, x]);
    if (d.range) values.push([r, { gte: d.range[0], lte: d.range[1] }]);
    b.add(`id${i}`, doc(values as never), i, 1, i % 3 === 0 ? `r${i}` : null);
  });
  return b.build();
}

/** Per term: id → [freq, positions]. */
function postings(seg: Segment, inv: InvertedField | null) {
  const out: Record<string, Record<string, unknown>> = {};
  if (!inv) return out;
  const off = positionOffsets(inv);
  inv.terms.forEach((t, k) => {
    const m: Record<string, unknown> = {};
    let last = -1;
    for (let p = inv.termStart[k]!; p < inv.termStart[k + 1]!; p++) {
      const d = inv.docs[p]!;
      expect(d).toBeGreaterThan(last);
      last = d;
      const f = inv.freqs ? inv.freqs[p]! : 1;
      const pos = off ? Array.from(inv.positions!.subarray(off[p]!, off[p]! + f)) : null;
      m[seg.ids[d]!] = [f, pos];
    }
    out[t] = m;
  });
  return out;
}

/** Everything a segment knows about each id. */
function view(seg: Segment) {
  const byId: Record<string, unknown> = {};
  const nf = seg.fields.get('n');
  const tf = seg.fields.get('tag');
  for (let d = 0; d < seg.maxDoc; d++) {
    const id = seg.ids[d]!;
    expect(lookupId(seg, id)).toBe(d);
    const col = nf?.docValues;
    const nums =
      col?.kind === 'numeric'
        ? col.single
          ? Number.isNaN(col.single[d]!)
            ? []
            : [col.single[d]]
          : Array.from(col.values!.subarray(col.offsets![d]!, col.offsets![d + 1]!))
        : [];
    const ocol = tf?.docValues;
    const ords =
      ocol?.kind === 'ordinal'
        ? ocol.single
          ? ocol.single[d]! < 0
            ? []
            : [ocol.single[d]]
          : Array.from(ocol.ords!.subarray(ocol.offsets![d]!, ocol.offsets![d + 1]!))
        : [];
    byId[id] = {
      seq: seg.seqNos[d],
      routing: seg.routing.get(d) ?? null,
      nums,
      tags: ocol?.kind === 'ordinal' ? ords.map((o) => ocol.dict[o!]) : [],
      norm: seg.fields.get('body')?.inverted?.norms?.[d] ?? null,
    };
  }
  const pts = nf?.points;
  const points = pts
    ? Array.from(pts.values, (v, i) => `${v}:${seg.ids[pts.docs[i]!]}`).sort()
    : [];
  if (pts) {
    for (let i = 1; i < pts.values.length; i++) {
      const a = pts.values[i - 1]!;
      const b = pts.values[i]!;
      expect(a < b || (a === b && pts.docs[i - 1]! <= pts.docs[i]!)).toBe(true);
    }
  }
  const rg = seg.fields.get('r')?.ranges;
  const ranges = rg
    ? rg.docs.reduce<string[]>((acc, d, i) => {
        acc.push(`${seg.ids[d]}:${numberFromKey(rg.mins[i]!)}-${numberFromKey(rg.maxs[i]!)}`);
        return acc;
      }, [])
    : [];
  return {
    byId,
    points,
    ranges: ranges.sort(),
    body: postings(seg, seg.fields.get('body')?.inverted ?? null),
    tag: postings(seg, seg.fields.get('tag')?.inverted ?? null),
    fieldNames: postings(seg, seg.fieldNames),
  };
}

describe('sortSegment', () => {
  it('renumbers docs and keeps what each id holds', () => {
    fc.assert(
      fc.property(
        fc
          .array(docArb, { minLength: 1, maxLength: 25 })
          .chain((docs) =>
            fc.tuple(
              fc.constant(docs),
              fc.shuffledSubarray([...docs.keys()], { minLength: docs.length }),
            ),
          ),
        ([docs, perm]) => {
          const seg = build(docs);
          const sorted = sortSegment(seg, Int32Array.from(perm));
          expect(sorted.ids).toEqual(perm.map((i) => `id${i}`));
          expect(view(sorted)).toEqual(view(seg));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('index sort order', () => {
  const docs: D[] = [
    { text: '', tags: ['y'], nums: [2], range: null },
    { text: '', tags: [], nums: [], range: null },
    { text: '', tags: ['x', 'z'], nums: [1, 5], range: null },
    { text: '', tags: ['y'], nums: [0], range: null },
  ];
  const order = (sort: IndexSort) => {
    const o = indexSortOrder(build(docs), sort);
    return o ? Array.from(o) : null;
  };
  const by = (f: string, o: Partial<IndexSort[number]> = {}): IndexSort[number] => ({
    field: f,
    reverse: false,
    mode: 'min',
    missingFirst: false,
    ...o,
  });

  it('sorts by min or max value, missing first or last, ties in doc order', () => {
    expect(order([by('n')])).toEqual([3, 2, 0, 1]);
    expect(order([by('n', { reverse: true, mode: 'max' })])).toEqual([2, 0, 3, 1]);
    expect(order([by('n', { reverse: true, mode: 'max', missingFirst: true })])).toEqual([
      1, 2, 0, 3,
    ]);
    expect(order([by('tag', { missingFirst: true })])).toEqual([1, 2, 0, 3]);
    expect(order([by('tag', { mode: 'max' }), by('n', { reverse: true })])).toEqual([0, 3, 2, 1]);
  });

  it('is null for a segment already in order', () => {
    expect(order([by('missing_field')])).toBeNull();
  });

  it('keeps a shard index sorted across refreshes and merges', () => {
    const si = new ShardIndex(standardResolver, [by('n', { reverse: true, mode: 'max' })]);
    for (let i = 0; i < 30; i++) {
      si.add(`d${i}`, doc([[n, (i * 7) % 11]]), i, 1);
      if (i % 4 === 3) si.refresh();
    }
    si.forceMerge(1);
    const seg = si.searcher().segments[0]!.segment;
    const col = seg.fields.get('n')!.docValues;
    const vals = col?.kind === 'numeric' ? Array.from(col.single!) : [];
    expect(vals).toEqual([...vals].sort((a, b) => b - a));
    expect(seg.maxDoc).toBe(30);
  });
});
