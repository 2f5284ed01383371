import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildRangeIndex,
  numberFromKey,
  numberKey,
  rangeDocs,
  rangeKey,
  rangeRelates,
  type RangeRelation,
} from '../../../../src/search/index/range-keys.js';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import { mergeSegments } from '../../../../src/search/index/merge.js';
import { decodeSegment, encodeSegment } from '../../../../src/search/index/segment-codec.js';
import { Bitset } from '../../../../src/search/index/bitset.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const RELATIONS: RangeRelation[] = ['intersects', 'within', 'contains'];

describe('range keys', () => {
  it('sort as the numbers they encode and decode back', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (a, b) => {
        const ka = numberKey(a);
        const kb = numberKey(b);
        expect(ka.length).toBe(16);
        if (a < b) expect(ka < kb).toBe(true);
        if (a > b) expect(ka > kb).toBe(true);
        expect(Object.is(numberFromKey(ka), a)).toBe(true);
      }),
    );
  });

  it('order negative zero before zero for floating types only', () => {
    expect(numberKey(-0) < numberKey(0)).toBe(true);
    expect(rangeKey('long_range', -0)).toBe(rangeKey('long_range', 0));
    expect(rangeKey('double_range', -0) < rangeKey('double_range', 0)).toBe(true);
  });

  it('encode addresses in address order, IPv4 as IPv4-mapped IPv6', () => {
    expect(rangeKey('ip_range', '192.168.0.1')).toBe('00000000000000000000ffffc0a80001');
    expect(rangeKey('ip_range', '192.168.0.1') < rangeKey('ip_range', '192.168.0.10')).toBe(true);
    expect(rangeKey('ip_range', '::1') < rangeKey('ip_range', '10.0.0.0')).toBe(true);
    expect(rangeKey('ip_range', '2001:db8::') > rangeKey('ip_range', '255.255.255.255')).toBe(true);
  });
});

describe('range relations', () => {
  const k = (n: number) => numberKey(n);
  it('follow Lucene RangeFieldQuery: intersects, within, contains', () => {
    // indexed [1, 5] against query [3, 4]
    expect(rangeRelates('intersects', k(1), k(5), k(3), k(4))).toBe(true);
    expect(rangeRelates('contains', k(1), k(5), k(3), k(4))).toBe(true);
    expect(rangeRelates('within', k(1), k(5), k(3), k(4))).toBe(false);
    // indexed [4, 5] against query [3, 4]: touching bounds intersect
    expect(rangeRelates('intersects', k(4), k(5), k(3), k(4))).toBe(true);
    expect(rangeRelates('contains', k(4), k(5), k(3), k(4))).toBe(false);
    // indexed [3, 4] is within [3, 4] and contains it
    expect(rangeRelates('within', k(3), k(4), k(3), k(4))).toBe(true);
    expect(rangeRelates('contains', k(3), k(4), k(3), k(4))).toBe(true);
    expect(rangeRelates('intersects', k(5), k(6), k(3), k(4))).toBe(false);
  });

  it('rangeDocs equals a scan of every value, for every relation', () => {
    const range = fc
      .tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 10 }))
      .map(([a, w]) => [a, a + w] as const);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(15), range), { maxLength: 60 }),
        range,
        fc.constantFrom(...RELATIONS),
        (values, [qa, qb], rel) => {
          const idx = buildRangeIndex(
            values.map(([, [a]]) => numberKey(a)),
            values.map(([, [, b]]) => numberKey(b)),
            values.map(([d]) => d),
          );
          const expected = [
            ...new Set(
              values
                .filter(([, [a, b]]) =>
                  rel === 'intersects'
                    ? a <= qb && b >= qa
                    : rel === 'within'
                      ? a >= qa && b <= qb
                      : a <= qa && b >= qb,
                )
                .map(([d]) => d),
            ),
          ].sort((x, y) => x - y);
          expect(Array.from(rangeDocs(idx, rel, numberKey(qa), numberKey(qb)))).toEqual(expected);
        },
      ),
    );
  });

  it('an empty query range matches nothing', () => {
    const idx = buildRangeIndex([numberKey(0)], [numberKey(10)], [0]);
    expect(rangeDocs(idx, 'intersects', numberKey(5), numberKey(4)).length).toBe(0);
  });
});

describe('range values in segments', () => {
  const f = field('r', 'integer_range');
  const seg = (ranges: Array<[number, number][]>) => {
    const b = new SegmentBuilder(standardResolver);
    ranges.forEach((rs, i) =>
      b.add(String(i), doc(rs.map(([gte, lte]) => [f, { gte, lte }])), i, 1),
    );
    return b.build();
  };

  it('are indexed sorted by lower bound, survive merges with deletes and the codec', () => {
    const a = seg([
      [[5, 9]],
      [
        [1, 3],
        [7, 8],
      ],
    ]);
    const b = seg([[[2, 4]], [[0, 1]]]);
    expect(a.fields.get('r')!.ranges!.mins).toEqual([numberKey(1), numberKey(5), numberKey(7)]);
    const live = Bitset.full(2);
    live.clear(1);
    const merged = mergeSegments([
      { segment: a, live: null },
      { segment: b, live },
    ]);
    const r = merged.fields.get('r')!.ranges!;
    expect(r.mins.map(numberFromKey)).toEqual([1, 2, 5, 7]);
    expect(Array.from(r.docs)).toEqual([1, 2, 0, 1]);
    const back = decodeSegment(encodeSegment(merged)).fields.get('r')!.ranges!;
    expect(back.mins).toEqual(r.mins);
    expect(back.maxs).toEqual(r.maxs);
    expect(Array.from(back.docs)).toEqual(Array.from(r.docs));
    expect(Array.from(rangeDocs(back, 'contains', numberKey(7), numberKey(8)))).toEqual([0, 1]);
  });
});
