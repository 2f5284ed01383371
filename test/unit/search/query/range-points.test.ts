/**
 * The points slice of a numeric range (range-scorer.ts): its two bounds found apart (the
 * allocation-free form per-segment counts use) agree with the slice and with a scan of the
 * values, for every combination of inclusive and exclusive bounds, ranges outside the values
 * and empty ones.
 */
import { describe, expect, it } from 'vitest';
import { pointsFrom, pointsSlice, pointsTo } from '../../../../src/search/query/range-scorer.js';

const values = Float64Array.from([-3, -1, 0, 0, 2, 2, 2, 5, 7, 7, 10]);
const pts = { values, docs: Int32Array.from(values, (_, i) => i) };

/** The slice a scan finds: the first and one past the last value inside the range. */
function scan(lo: number, hi: number, incLo: boolean, incHi: boolean): [number, number] {
  const inside = (v: number) => (incLo ? v >= lo : v > lo) && (incHi ? v <= hi : v < hi);
  let from = values.findIndex(inside);
  if (from < 0) from = values.findIndex((v) => (incLo ? v >= lo : v > lo));
  if (from < 0) return [values.length, values.length];
  let to = from;
  while (to < values.length && inside(values[to]!)) to++;
  return [from, to];
}

describe('points slice bounds', () => {
  it('agree with the slice and a scan', () => {
    const edges = [-5, -3, -1, 0, 1, 2, 5, 6, 7, 10, 11];
    for (const lo of edges)
      for (const hi of edges)
        for (const includeLo of [true, false])
          for (const includeHi of [true, false]) {
            const r = { lo, hi, includeLo, includeHi };
            const from = pointsFrom(pts, r);
            const to = pointsTo(pts, r, from);
            expect([r, from, to]).toEqual([r, ...pointsSlice(pts, r)]);
            const [sf, st] = scan(lo, hi, includeLo, includeHi);
            // an empty range: no point between the bounds, wherever the search stopped
            if (st <= sf) expect([r, to <= from]).toEqual([r, true]);
            else expect([r, from, to]).toEqual([r, sf, st]);
          }
  });

  it('count an exact value as the term query lowers it', () => {
    const r = { lo: 2, hi: 2, includeLo: true, includeHi: true };
    const from = pointsFrom(pts, r);
    expect([from, pointsTo(pts, r, from)]).toEqual([4, 7]);
    const none = { lo: 3, hi: 3, includeLo: true, includeHi: true };
    const f = pointsFrom(pts, none);
    expect(pointsTo(pts, none, f)).toBe(f);
  });
});
