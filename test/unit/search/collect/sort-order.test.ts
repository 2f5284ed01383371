/**
 * orderByValue: the radix sort of large segments gives exactly the order the ranking of small
 * ones gives (values ascending or descending, ties by doc id, -0 tied with 0), over random
 * doubles with many ties, infinities, extreme longs and fractions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderByValue } from '../../../../src/search/collect/sort.js';

const valueArb = fc.oneof(
  fc.integer({ min: -4, max: 4 }),
  fc.constantFrom(0, -0, Infinity, -Infinity, 9223372036854775807, -9223372036854775808, 0.5),
  fc.double({ noNaN: true }),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
);

/** The order by a comparator: value, then doc id. */
function reference(vals: number[], desc: boolean): number[] {
  const docs = vals.map((_, d) => d);
  return docs.sort((a, b) => {
    const x = vals[a]!;
    const y = vals[b]!;
    if (x === y) return a - b;
    return (x < y ? -1 : 1) * (desc ? -1 : 1);
  });
}

describe('orderByValue', () => {
  it('radix and ranking orders equal the comparator order', () => {
    fc.assert(
      fc.property(fc.array(valueArb, { maxLength: 300 }), fc.boolean(), (vals, desc) => {
        const want = reference(vals, desc);
        expect([...orderByValue(Float64Array.from(vals), desc, 0)]).toEqual(want);
        expect([...orderByValue(Float64Array.from(vals), desc, Infinity)]).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });

  it('sorts a large column with every digit pass (and skips the constant ones)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cols = [
      Array.from({ length: 20_000 }, () => Math.floor(rnd() * 2_000_000) - 1_000_000),
      Array.from({ length: 20_000 }, () => (rnd() - 0.5) * 1e300),
      Array.from({ length: 20_000 }, () => Math.floor(rnd() * 3)),
    ];
    for (const vals of cols)
      for (const desc of [false, true])
        expect([...orderByValue(Float64Array.from(vals), desc)]).toEqual(reference(vals, desc));
  });

  it('falls back to ranking for NaN', () => {
    const vals = Float64Array.from([3, NaN, 1]);
    expect(orderByValue(vals, false, 0)).toEqual(orderByValue(vals, false, Infinity));
  });
});
