/**
 * A segment's points are ordered by value, then doc: the radix sort must give the comparison
 * sort's order for every input, -0, infinities, ties, magnitudes far apart and NaN included.
 */
import { describe, expect, it } from 'vitest';
import { pointOrder } from '../../../../src/search/index/segment-builder.js';

function byComparison(docs: Int32Array, vals: Float64Array, n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => vals[a]! - vals[b]! || docs[a]! - docs[b]!);
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const pick = (rand: () => number, kind: number): number => {
  switch (kind) {
    case 0: // few distinct small integers: long runs of ties
      return Math.floor(rand() * 5) - 2;
    case 1: // dates in ms
      return 1.4e12 + Math.floor(rand() * 1e9);
    case 2: // any magnitude and sign, zeros of both signs, infinities
      return rand() < 0.3
        ? [0, -0, Infinity, -Infinity, 5e-324, -Number.MAX_VALUE, 2 ** 53][Math.floor(rand() * 7)]!
        : (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
    default: // one value for all
      return 42;
  }
};

describe('pointOrder', () => {
  it('orders as the comparison sort does, for docs in order with ties and multi-values', () => {
    const rand = random(7);
    for (let round = 0; round < 40; round++) {
      const n = [0, 1, 3, 511, 512, 513, 3000][round % 7]!;
      const kind = round % 4;
      const docs = new Int32Array(n + 5); // longer than n, as a growable's data is
      const vals = new Float64Array(n + 5);
      let doc = 0;
      for (let i = 0; i < n; i++) {
        if (rand() < 0.7) doc += 1 + Math.floor(rand() * 3); // else another value of the same doc
        docs[i] = doc;
        vals[i] = pick(rand, kind);
      }
      expect(vals.subarray(0, n).some((v) => Number.isNaN(v))).toBe(false);
      const got = pointOrder(docs, vals, n);
      expect(Array.from(got)).toEqual(Array.from(byComparison(docs, vals, n)));
      // the values the order gives: -0 and 0 keep their docs' order
      expect(Array.from(got, (i) => Object.is(vals[i], -0))).toEqual(
        Array.from(byComparison(docs, vals, n), (i) => Object.is(vals[i], -0)),
      );
    }
  });

  it('falls back for docs out of order and for NaN', () => {
    const n = 2000;
    const rand = random(11);
    const docs = Int32Array.from({ length: n }, () => Math.floor(rand() * 500));
    const vals = Float64Array.from({ length: n }, () => Math.floor(rand() * 50));
    expect(Array.from(pointOrder(docs, vals, n))).toEqual(Array.from(byComparison(docs, vals, n)));
    const sortedDocs = Int32Array.from({ length: n }, (_, i) => i);
    vals[17] = NaN;
    expect(Array.from(pointOrder(sortedDocs, vals, n))).toEqual(
      Array.from(byComparison(sortedDocs, vals, n)),
    );
  });
});
