import { describe, expect, it } from 'vitest';
import {
  geoContextLevelForMeters,
  geohashCellSize,
  geohashNeighbor,
  geohashNeighbors,
} from '../../../src/mapping/geohash-cells.js';
import {
  parseContextDefs,
  parseDocContext,
  pathContexts,
  withPathContexts,
} from '../../../src/mapping/completion-contexts.js';
import { decodeGeohash, encodeGeohash } from '../../../src/mapping/geo.js';
import type { FieldMapping, ParsedValue } from '../../../src/mapping/types.js';

describe('geohash cells', () => {
  it('finds the eight cells around a cell', () => {
    // the classic neighbour table: n dqcjw, s dqcjn, e dqcjr, w dqcjm
    expect(geohashNeighbors('dqcjq')).toEqual([
      'dqcjt',
      'dqcjw',
      'dqcjx',
      'dqcjm',
      'dqcjr',
      'dqcjj',
      'dqcjn',
      'dqcjp',
    ]);
  });

  it('agrees with moving a cell centre by one cell width or height', () => {
    for (const hash of ['u173z', 'ezs42', 's0000', '9q8yy', 'u1']) {
      const sw = decodeGeohash(hash);
      // cell size from the bits: longitude gets the extra bit on odd lengths
      const bits = hash.length * 5;
      const lonBits = Math.ceil(bits / 2);
      const latBits = Math.floor(bits / 2);
      const w = 360 / 2 ** lonBits;
      const h = 180 / 2 ** latBits;
      const lat = sw.lat + h / 2;
      const lon = sw.lon + w / 2;
      const at = (dLat: number, dLon: number) =>
        encodeGeohash(lat + dLat * h, lon + dLon * w).slice(0, hash.length);
      expect(geohashNeighbor(hash, hash.length, 0, 1)).toBe(at(1, 0));
      expect(geohashNeighbor(hash, hash.length, 0, -1)).toBe(at(-1, 0));
      expect(geohashNeighbor(hash, hash.length, 1, 0)).toBe(at(0, 1));
      expect(geohashNeighbor(hash, hash.length, -1, 0)).toBe(at(0, -1));
    }
  });

  it('has no neighbours past the poles at the first level', () => {
    expect(geohashNeighbor('b', 1, 0, 1)).toBeNull();
    expect(geohashNeighbors('b')).toEqual(['z', 'c', 'x', '8', '9']);
  });

  it('turns a precision in meters into a level one coarser when its cells are still smaller', () => {
    expect(geoContextLevelForMeters(5000)).toBe(5);
    expect(geoContextLevelForMeters(1000)).toBe(6);
    // ES steps back one level only, so 50 km still gets ~44 km cells
    expect(geoContextLevelForMeters(50000)).toBe(4);
    expect(geohashCellSize(4)).toBeLessThan(50000);
    for (const m of [10, 500, 5000])
      expect(geohashCellSize(geoContextLevelForMeters(m))).toBeGreaterThanOrEqual(m);
  });
});

describe('completion context mappings', () => {
  it('reads category and geo mappings with their precision', () => {
    expect(
      parseContextDefs([
        { name: 'color', type: 'category', path: 'c' },
        { name: 'loc', type: 'geo', precision: '5km' },
        { name: 'loc2', type: 'geo', precision: 3 },
        { name: 'loc3', type: 'geo' },
      ]),
    ).toEqual([
      { kind: 'category', name: 'color', path: 'c' },
      { kind: 'geo', name: 'loc', precision: 5 },
      { kind: 'geo', name: 'loc2', precision: 3 },
      { kind: 'geo', name: 'loc3', precision: 6 },
    ]);
  });

  it('encodes document contexts: categories as text, points as cut geohashes', () => {
    const cat = { kind: 'category', name: 'c' } as const;
    const geo = { kind: 'geo', name: 'g', precision: 4 } as const;
    expect(parseDocContext(cat, ['red', 1, true])).toEqual(['red', '1', 'true']);
    expect(() => parseDocContext(cat, { a: 1 })).toThrow(/contexts must be a string/);
    const ams = encodeGeohash(52.22, 4.53).slice(0, 4);
    expect(parseDocContext(geo, { lat: 52.22, lon: 4.53 })).toEqual([ams]);
    expect(parseDocContext(geo, [4.53, 52.22])).toEqual([ams]);
    expect(parseDocContext(geo, 'u173zzzz')).toEqual(['u173']);
  });

  it('reads contexts from path fields into the completion values', () => {
    const comp = {
      type: 'completion',
      path: 'suggest',
      completion: {
        preserveSeparators: true,
        preservePositionIncrements: true,
        maxInputLength: 50,
        contextDefs: [
          { kind: 'category', name: 'color', path: 'color' },
          { kind: 'geo', name: 'loc', path: 'loc', precision: 3 },
        ],
      },
    } as unknown as FieldMapping;
    const text = { type: 'text', path: 'color' } as unknown as FieldMapping;
    const point = { type: 'geo_point', path: 'loc' } as unknown as FieldMapping;
    const values: ParsedValue[] = [
      { field: comp, value: { input: 'foo', weight: 1, contexts: { color: ['red'] } } },
      { field: text, value: 'blue' },
      { field: point, value: { lat: 52.22, lon: 4.53 } },
    ];
    const out = withPathContexts(values)!;
    expect(out[0]!.value).toEqual({
      input: 'foo',
      weight: 1,
      contexts: { color: ['red', 'blue'], loc: [encodeGeohash(52.22, 4.53).slice(0, 3)] },
    });
    expect(withPathContexts(values.slice(1))).toBeNull();
    expect(() =>
      pathContexts({ kind: 'category', name: 'c', path: 'n' }, [{ type: 'long', value: 1 }]),
    ).toThrow(/only keyword and text fields are accepted/);
  });
});
