import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SegmentBuilder, sortedIdOrder } from '../../../../src/search/index/segment-builder.js';
import { mergeSegments } from '../../../../src/search/index/merge.js';
import { Bitset } from '../../../../src/search/index/bitset.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const num = field('n', 'long');

interface D {
  id: string;
  values: number[];
}

function build(docs: D[]) {
  const b = new SegmentBuilder(standardResolver);
  docs.forEach((d, i) =>
    b.add(d.id, doc(d.values.map((v) => [num, v] as [typeof num, number])), i, 1),
  );
  return b.build();
}

describe('merged id order and points', () => {
  it('equal a full sort of the merged ids and of the surviving (value, doc) pairs', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 3 }), {
          minLength: 40,
          maxLength: 40,
        }),
        fc.array(fc.nat(39), { maxLength: 10 }),
        fc.array(fc.nat(39), { maxLength: 4 }),
        (ids, vals, del, cuts) => {
          const all: D[] = ids.map((id, i) => ({ id, values: vals[i]! }));
          const bounds = [...new Set([0, ...cuts.filter((c) => c < all.length), all.length])].sort(
            (a, b) => a - b,
          );
          const parts = [];
          for (let p = 0; p + 1 < bounds.length; p++) {
            const g = all.slice(bounds[p], bounds[p + 1]);
            if (g.length === 0) continue;
            const live = Bitset.full(g.length);
            let any = false;
            for (const d of del)
              if (d >= bounds[p]! && d < bounds[p + 1]!) {
                live.clear(d - bounds[p]!);
                any = true;
              }
            parts.push({ segment: build(g), live: any ? live : null });
          }
          const merged = mergeSegments(parts);
          const kept = all.filter((_, i) => !del.includes(i));
          expect(merged.ids).toEqual(kept.map((d) => d.id));
          expect(Array.from(merged.idOrder)).toEqual(Array.from(sortedIdOrder(merged.ids)));
          const pairs = kept
            .flatMap((d, i) => d.values.map((v) => [v, i] as const))
            .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          const pts = merged.fields.get('n')?.points;
          expect(pts ? Array.from(pts.values) : []).toEqual(pairs.map((p) => p[0]));
          expect(pts ? Array.from(pts.docs) : []).toEqual(pairs.map((p) => p[1]));
        },
      ),
      { numRuns: 200 },
    );
  });
});
