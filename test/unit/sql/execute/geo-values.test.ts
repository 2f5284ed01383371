import { describe, expect, it } from 'vitest';
import { geoValueOf, isLonLatArray } from '../../../../src/sql/execute/geo-values.js';
import { toWkt, type GeoValue } from '../../../../src/functions/geo.js';
import { EsError } from '../../../../src/common/errors.js';

const wkt = (v: GeoValue | null) => (v ? toWkt(v.geometry) : null);

describe('geo hit values (ES FieldHitExtractor over geo types)', () => {
  it('reads every geo_point source form as a 2-D point', () => {
    expect(wkt(geoValueOf({ lat: '37.386483', lon: '-122.083843' }, 'GEO_POINT', 'f'))).toBe(
      'POINT (-122.083843 37.386483)',
    );
    expect(wkt(geoValueOf([-87.637874, 41.888783], 'GEO_POINT', 'f'))).toBe(
      'POINT (-87.637874 41.888783)',
    );
    expect(wkt(geoValueOf('52.347557,4.850312', 'GEO_POINT', 'f'))).toBe(
      'POINT (4.850312 52.347557)',
    );
    expect(wkt(geoValueOf('POINT (10 20 30)', 'GEO_POINT', 'f'))).toBe('POINT (10.0 20.0)');
    expect(wkt(geoValueOf('u173zq', 'GEO_POINT', 'f'))).toMatch(/^POINT \(4\.8\d+ 52\.3\d+\)$/);
    expect(geoValueOf(null, 'GEO_POINT', 'f')).toBeNull();
  });
  it('reads shapes from WKT and GeoJSON, keeping z', () => {
    expect(wkt(geoValueOf('POINT (-122.083843 37.386483 30)', 'GEO_SHAPE', 'f'))).toBe(
      'POINT (-122.083843 37.386483 30.0)',
    );
    expect(
      wkt(geoValueOf({ type: 'point', coordinates: [-87.637874, 41.888783, 181] }, 'SHAPE', 'f')),
    ).toBe('POINT (-87.637874 41.888783 181.0)');
    expect(
      wkt(
        geoValueOf(
          {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
              ],
            ],
          },
          'SHAPE',
          'f',
        ),
      ),
    ).toBe('POLYGON ((0.0 0.0, 1.0 0.0, 1.0 1.0, 0.0 0.0))');
    expect(
      wkt(
        geoValueOf(
          {
            type: 'envelope',
            coordinates: [
              [0, 10],
              [5, 2],
            ],
          },
          'GEO_SHAPE',
          'f',
        ),
      ),
    ).toBe('BBOX (0.0, 5.0, 10.0, 2.0)');
  });
  it('fails on an unreadable value as ES does', () => {
    expect(() => geoValueOf('nope', 'GEO_SHAPE', 'f')).toThrow(EsError);
    expect(() => geoValueOf(true, 'GEO_POINT', 'f')).toThrow(
      'Cannot parse geo_point value [true] (returned by [f])',
    );
  });
  it('reads as its WKT where Java would call toString (script sorts, composite keys)', () => {
    expect(String(geoValueOf('1,2', 'GEO_POINT', 'f'))).toBe('POINT (2.0 1.0)');
    expect(`${geoValueOf('LINESTRING (1 2, 3 4)', 'SHAPE', 'f')}`).toBe(
      'LINESTRING (1.0 2.0, 3.0 4.0)',
    );
  });
  it('tells a [lon, lat] pair from an array of values', () => {
    expect(isLonLatArray([1, 2])).toBe(true);
    expect(isLonLatArray([1, 2, 3])).toBe(true);
    expect(isLonLatArray(['1,2', '3,4'])).toBe(false);
    expect(isLonLatArray([[1, 2]])).toBe(false);
  });
});
