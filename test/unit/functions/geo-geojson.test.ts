import { describe, expect, it } from 'vitest';
import { geometryFromGeoJson, shapeFromSource, toWkt } from '../../../src/functions/geo.js';

const wkt = (v: unknown) => toWkt(geometryFromGeoJson(v));

describe('GeoJSON shapes as ES SQL reads geo_shape/shape sources', () => {
  it('reads every geometry type, case-insensitively', () => {
    expect(
      wkt({
        type: 'MultiPoint',
        coordinates: [
          [1, 2],
          [3, 4],
        ],
      }),
    ).toBe('MULTIPOINT (1.0 2.0, 3.0 4.0)');
    expect(
      wkt({
        type: 'multilinestring',
        coordinates: [
          [
            [1, 2],
            [3, 4],
          ],
          [
            [5, 6],
            [7, 8],
          ],
        ],
      }),
    ).toBe('MULTILINESTRING ((1.0 2.0, 3.0 4.0), (5.0 6.0, 7.0 8.0))');
    expect(
      wkt({
        type: 'MULTIPOLYGON',
        coordinates: [
          [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        ],
      }),
    ).toBe('MULTIPOLYGON (((0.0 0.0, 1.0 0.0, 1.0 1.0, 0.0 0.0)))');
    expect(
      wkt({
        type: 'geometrycollection',
        geometries: [
          { type: 'point', coordinates: [1, 2] },
          {
            type: 'linestring',
            coordinates: [
              [1, 2],
              [3, 4],
            ],
          },
        ],
      }),
    ).toBe('GEOMETRYCOLLECTION (POINT (1.0 2.0),LINESTRING (1.0 2.0, 3.0 4.0))');
    expect(wkt({ type: 'circle', coordinates: [1, 2], radius: '1km' })).toBe(
      'CIRCLE (1.0 2.0 1000.0)',
    );
  });
  it('refuses what is not a shape', () => {
    expect(() => geometryFromGeoJson({ type: 'blob', coordinates: [1, 2] })).toThrow();
    expect(() => geometryFromGeoJson({ type: 'point' })).toThrow();
    expect(() => shapeFromSource(42)).toThrow('Cannot read geo_shape value [42]');
  });
});
