/**
 * geo_distance (ES 6.8 GeoDistanceQueryBuilder): parsing of the center forms, distance units and
 * options, and matching by haversine distance over the field's (source-read) points.
 */
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../../src/dsl/query/index.js';
import { geoPointsFromSource } from '../../../../src/dsl/script/source-doc-values.js';
import { Bench } from './harness.js';

const sources = new Map<string, Record<string, unknown>>();
const docs: Array<[string, Record<string, unknown>]> = [
  ['nyc', { loc: '40.745171,-73.990027', name: 'x' }],
  ['chicago', { loc: [-87.637874, 41.888783], name: 'y' }],
  ['paris', { loc: { lat: 48.845538, lon: 2.351773 }, name: 'z' }],
  ['none', { name: 'w' }],
];
for (const [id, d] of docs) sources.set(id, d);

const bench = new Bench(
  { properties: { loc: { type: 'geo_point' }, name: { type: 'keyword' } } },
  {
    context: {
      geoPoints: (ls, field) => (doc) =>
        geoPointsFromSource(sources.get(ls.segment.ids[doc]!) ?? {}, field),
    },
  },
).index(docs);

describe('geo_distance', () => {
  it('parses the center forms, units and options', () => {
    const q = parseQuery({
      geo_distance: { loc: '42,-71', distance: '5000km', distance_type: 'plane', _name: 'n' },
    });
    expect(q).toMatchObject({
      type: 'geo_distance',
      field: 'loc',
      lat: 42,
      lon: -71,
      distance: 5_000_000,
      distanceType: 'plane',
      queryName: 'n',
    });
    expect(
      parseQuery({ geo_distance: { loc: [-71, 42], distance: 12, unit: 'mi' } }),
    ).toMatchObject({ lat: 42, lon: -71, distance: 12 * 1609.344 });
  });
  it('rejects a missing or non-positive distance', () => {
    expect(() => parseQuery({ geo_distance: { loc: [-71, 42] } })).toThrow(
      "geo_distance requires 'distance' to be specified",
    );
    expect(() => parseQuery({ geo_distance: { loc: [-71, 42], distance: 0 } })).toThrow(
      'distance must be greater than zero',
    );
  });
  it('matches the docs within the distance (haversine, in metres)', () => {
    expect(bench.ids({ geo_distance: { loc: [-71, 42], distance: 2_000_000 } }).sort()).toEqual([
      'chicago',
      'nyc',
    ]);
    expect(bench.ids({ geo_distance: { loc: [-71, 42], distance: '300km' } })).toEqual(['nyc']);
    expect(bench.ids({ geo_distance: { loc: [2.35, 48.85], distance: '1km' } })).toEqual(['paris']);
  });
  it('fails on a field that is not a geo_point, unless unmapped fields are ignored', () => {
    expect(bench.error({ geo_distance: { name: [-71, 42], distance: 10 } }).reason).toBe(
      'field [name] is not a geo_point field',
    );
    expect(bench.error({ geo_distance: { nope: [-71, 42], distance: 10 } }).reason).toBe(
      'failed to find geo_point field [nope]',
    );
    expect(
      bench.ids({ geo_distance: { nope: [-71, 42], distance: 10, ignore_unmapped: true } }),
    ).toEqual([]);
  });
});
