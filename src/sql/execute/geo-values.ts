/**
 * geo_point / geo_shape / shape values as ES SQL's FieldHitExtractor reads them from doc values or
 * `_source`: a point from any geo_point form (object, [lon, lat], "lat,lon", geohash, WKT POINT),
 * a shape from WKT or GeoJSON; both become the functions layer's GeoValue.
 */
import type { DataTypeName } from '../../functions/data-types.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import {
  geoPoint,
  isGeoValue,
  parseWkt,
  shapeFromSource,
  type GeoValue,
} from '../../functions/geo.js';
import { parseGeoPointValue } from '../../mapping/geo.js';

export const isGeoType = (t: DataTypeName): boolean =>
  t === 'GEO_POINT' || t === 'GEO_SHAPE' || t === 'SHAPE';

/** `[lon, lat]` / `[lon, lat, z]`: one geo point, not an array of values. */
export const isLonLatArray = (v: unknown): boolean =>
  Array.isArray(v) && v.length >= 2 && v.length <= 3 && v.every((x) => typeof x === 'number');

/** ES GeoUtils.parseGeoPoint(values, ignoreZValue=true) → GeoShape(lon, lat). */
export function geoPointOf(v: unknown, field: string): GeoValue {
  if (isGeoValue(v)) return v;
  try {
    if (typeof v === 'string' && /^\s*point\b/i.test(v)) {
      const g = parseWkt(v).geometry;
      if (g.type === 'POINT' && g.point) return geoPoint(g.point.x, g.point.y);
    }
    const p = parseGeoPointValue(v, true);
    return geoPoint(p.lon, p.lat);
  } catch {
    throw sqlIllegalArgument('Cannot parse geo_point value [{}] (returned by [{}])', [v, field]);
  }
}

/** A hit value of a geo column as a GeoValue (null stays null). */
export function geoValueOf(v: unknown, type: DataTypeName, field: string): GeoValue | null {
  if (v === null || v === undefined) return null;
  if (type === 'GEO_POINT') return geoPointOf(v, field);
  return isGeoValue(v) ? v : shapeFromSource(v);
}
