/**
 * The geometry rule of sql-spec-compare (JdbcAssert's Types.OTHER branch): H2's WKT read with
 * ES's parser, points within 1e-6, other geometries only when equal, GEOMETRY matching ES's
 * geometry JDBC type only.
 */
import { describe, expect, it } from 'vitest';
import { parseWkt } from '../../../src/functions/geo.js';
import { compareWithH2 } from './sql-spec-compare.js';

const diff = (h2Wkt: string, quarry: unknown, type = 'GEO_SHAPE') =>
  compareWithH2(
    { columns: [{ name: 'g', type: 'GEOMETRY', jdbc: 1111 }], rows: [[h2Wkt]] },
    { columns: [{ name: 'g', type }], rows: [[quarry]] },
  );

describe('sql-spec geometry comparison', () => {
  it('matches the same geometry whatever the number text', () => {
    expect(diff('POINT (10 12)', parseWkt('POINT (10.0 12.0)'))).toBeNull();
    const poly = 'POLYGON ((52 18, 66 23, 73 9, 48 6, 52 18))';
    expect(diff(poly, parseWkt('POLYGON ((52.0 18.0, 66.0 23.0, 73.0 9.0, 48.0 6.0, 52.0 18.0))'), 'SHAPE')).toBeNull(); // prettier-ignore
  });

  it('allows a point 1e-6 off (doc-value encoding), nothing more', () => {
    expect(
      diff('POINT (10 12)', parseWkt('POINT (10.0000004 11.9999996)'), 'GEO_POINT'),
    ).toBeNull();
    expect(diff('POINT (10 12)', parseWkt('POINT (10.00001 12.0)'), 'GEO_POINT')).toMatch(
      /entry \[1\]/,
    );
  });

  it('tells apart other coordinates and other types of geometry', () => {
    const poly = 'POLYGON ((52 18, 66 23, 73 9, 48 6, 52 18))';
    expect(diff(poly, parseWkt('POLYGON ((52 18, 66 23, 73 9, 48 7, 52 18))'))).toMatch(
      /entry \[1\]/,
    );
    expect(diff(poly, parseWkt('MULTIPOLYGON (((52 18, 66 23, 73 9, 48 6, 52 18)))'))).toMatch(
      /entry \[1\]/,
    );
  });

  it('matches GEOMETRY only with a geo column type', () => {
    expect(diff('POINT (10 12)', 'POINT (10 12)', 'KEYWORD')).toMatch(/column type/);
  });
});
