import { describe, expect, it } from 'vitest';
import * as s from '../../../src/functions/string.js';
import * as m from '../../../src/functions/math.js';
import * as g from '../../../src/functions/geo.js';
import { EsError } from '../../../src/common/errors.js';

function reason(f: () => unknown): string | null {
  try {
    f();
  } catch (e) {
    return e instanceof EsError ? e.reason : String(e);
  }
  return null;
}

describe('string function edge cases (ES processors)', () => {
  it('handles nulls as ES does', () => {
    expect(s.concat(null, null)).toBe('');
    expect(s.concat('a', null)).toBe('a');
    expect(s.insert('abc', null, 1, 'x')).toBe('abc');
    expect(s.insert('abc', 1, 1, null)).toBe('abc');
    expect(s.locate(null, 'abc')).toBe(0);
    expect(s.locate('a', null)).toBeNull();
    expect(s.replace('abc', null, 'x')).toBe('abc');
    expect(s.substring('abc', null, 1)).toBe('abc');
    expect(s.repeat('a', 0)).toBeNull();
    expect(s.left('abc', -1)).toBe('');
    expect(s.space(-1)).toBeNull();
    expect(s.char(256)).toBeNull();
    expect(s.ascii('')).toBeNull();
  });
  it('clamps positions', () => {
    expect(s.substring('Elastic', 5, 100)).toBe('tic');
    expect(s.substring('Elastic', 10, 2)).toBe('');
    expect(s.substring('Elastic', -3, 4)).toBe('Elas');
    expect(s.insert('abc', 10, 1, 'x')).toBe('abc');
    expect(s.insert('abc', 4, 1, 'x')).toBe('abcx');
    expect(s.insert('abc', 0, 1, 'x')).toBe('xbc');
    expect(s.locate('a', 'banana', -5)).toBe(2);
  });
  it('trims like Java', () => {
    expect(s.trim('\t x \u0001')).toBe('x');
    expect(s.ltrim('\u00a0x')).toBe('\u00a0x');
    expect(s.length('ab \u2003')).toBe(2);
    expect(s.octetLength('é😀')).toBe(6);
  });
  it('reports ES errors', () => {
    expect(reason(() => s.left('abc', 1.5))).toBe(
      'A fixed point number is required for [count]; received [java.lang.Double]',
    );
    expect(reason(() => s.left('abc', '1'))).toBe(
      'A fixed point number is required for [count]; received [java.lang.String]',
    );
    expect(reason(() => s.substring('abc', 1, -1))).toBe(
      '[length] out of the allowed range [0, 2147483647], received [-1]',
    );
    expect(reason(() => s.ucase(5))).toBe('A string/char is required; received [5]');
  });
});

describe('math edge cases', () => {
  it('rounds like ES', () => {
    expect(m.round(2.5)).toBe(3);
    expect(m.round(-2.5)).toBe(-3);
    expect(Object.is(m.round(0), -0)).toBe(true);
    expect(m.round(123.456, 2)).toBe(123.46);
    expect(m.truncate(123.456, 2)).toBe(123.45);
    expect(reason(() => m.round(1, 1.5))).toBe(
      'An integer number is required; received [1.5] as second parameter',
    );
    expect(reason(() => m.sqrt('a'))).toBe('A number is required; received [a]');
  });
  it('keeps integral types for ABS/SIGN', () => {
    expect(reason(() => m.abs(-2147483648, 'INTEGER'))).toBe(
      '[2147483648] cannot be negated since the result is outside the range',
    );
    expect(m.abs(-5, 'LONG')).toBe(5);
    expect(m.sign(-2.5)).toBe(-1);
    expect(Number.isNaN(m.sign(NaN))).toBe(true);
  });
  it('CEIL/FLOOR narrow to the integral result type', () => {
    expect(m.ceil(1.2)).toBe(2);
    expect(reason(() => m.ceil(3e10, 'INTEGER'))).toBe('[30000000000] out of [integer] range');
  });
  it('RANDOM(seed) follows java.util.Random', () => {
    expect(m.random(0)).toBe(0.730967787376657);
    expect(m.random(42)).toBe(0.7275636800328681);
  });
});

describe('geo', () => {
  it('reads and writes WKT', () => {
    expect(g.stAsWkt(g.parseWkt('POINT (4.850312 52.347557 2)'))).toBe(
      'POINT (4.850312 52.347557 2.0)',
    );
    expect(g.stAsWkt(g.parseWkt('LINESTRING (1 2, 3 4)'))).toBe('LINESTRING (1.0 2.0, 3.0 4.0)');
    expect(g.stAsWkt(g.parseWkt('POLYGON ((0 0, 1 0, 1 1, 0 0))'))).toBe(
      'POLYGON ((0.0 0.0, 1.0 0.0, 1.0 1.0, 0.0 0.0))',
    );
    expect(g.stAsWkt(g.parseWkt('MULTIPOINT ((1 2), (3 4))'))).toBe(
      'MULTIPOINT (1.0 2.0, 3.0 4.0)',
    );
    expect(g.stAsWkt(g.parseWkt('BBOX (1, 2, 4, 3)'))).toBe('BBOX (1.0, 2.0, 4.0, 3.0)');
    expect(g.stAsWkt(g.parseWkt('GEOMETRYCOLLECTION (POINT (1 2), POINT EMPTY)'))).toBe(
      'GEOMETRYCOLLECTION (POINT (1.0 2.0),POINT EMPTY)',
    );
    expect(reason(() => g.parseWkt('POINT (a b)'))).toBe(
      'Cannot parse [POINT (a b)] as a geo_shape value',
    );
  });
  it('ST_X/Y/Z/GEOMETRYTYPE', () => {
    const p = g.parseWkt('LINESTRING (1 2 3, 4 5 6)');
    expect(g.stX(p)).toBe(1);
    expect(g.stY(p)).toBe(2);
    expect(g.stZ(p)).toBe(3);
    expect(g.stZ(g.parseWkt('POINT (1 2)'))).toBeNull();
    expect(g.stGeometryType(p)).toBe('LINESTRING');
  });
  it('ST_DISTANCE between points', () => {
    const d = g.stDistance(g.geoPoint(-71, 42), g.geoPoint(-73.9900270756334, 40.74517097789794))!;
    // geosql.csv-spec: New York to POINT (-71 42) is 285839.6579622518 (Lucene sloppy trig differs below 1e-7)
    expect(Math.abs(d - 285839.6579622518)).toBeLessThan(1e-4);
    expect(reason(() => g.stDistance(g.parseWkt('LINESTRING (1 2, 3 4)'), g.geoPoint(0, 0)))).toBe(
      'distance calculation is only supported for points; received [LINESTRING (1.0 2.0, 3.0 4.0)]',
    );
  });
});
