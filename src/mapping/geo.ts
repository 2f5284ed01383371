/**
 * geo_point values as Elasticsearch 6.8 accepts them (ES GeoUtils.parseGeoPoint, GeoPoint
 * .resetFromString, GeoPointFieldMapper.parse): `{lat, lon}`, `{geohash}`, "lat,lon[,z]",
 * geohash strings, `[lon, lat(, z)]`, arrays of those; range checks or normalization
 * (`ignore_malformed`), and geohash encoding for multi-fields (ES GeoHashUtils).
 */
import { EsError } from '../common/errors.js';
import type { GeoPointValue } from './types.js';
import { illegalArgument, parseException } from './errors.js';
import { javaDoubleToString, tryParseJavaDouble, javaDoubleError } from './java-numbers.js';
import { javaSplit } from './ip.js';

const BASE_32 = '0123456789bcdefghjkmnpqrstuvwxyz';
const LAT_SCALE = 2 ** 31 / 180;
const LON_SCALE = 2 ** 31 / 360;

/** ES GeoPoint.resetFromGeoHash: the south-west corner of the cell (ES GeoHashUtils). */
export function decodeGeohash(hash: string): GeoPointValue {
  if (hash.length === 0) throw parseException('empty geohash');
  let lonBits = 0;
  let latBits = 0;
  let lon = 0;
  let lat = 0;
  let bit = 0; // even bits are longitude
  const n = Math.min(hash.length, 12);
  for (let i = 0; i < n; i++) {
    const v = BASE_32.indexOf(hash[i]!);
    if (v < 0) throw parseException(`unsupported symbol [${hash[i]}] in geohash [${hash}]`);
    for (let b = 4; b >= 0; b--, bit++) {
      const on = (v >> b) & 1;
      if ((bit & 1) === 0) {
        lon = lon * 2 + on;
        lonBits++;
      } else {
        lat = lat * 2 + on;
        latBits++;
      }
    }
  }
  // scale into ES's 31-bit quantized space, then unscale as GeoHashUtils.decodeLatitude does
  const lat31 = lat * 2 ** (31 - latBits);
  const lon31 = lon * 2 ** (31 - lonBits);
  return { lat: lat31 / LAT_SCALE - 90, lon: lon31 / LON_SCALE - 180 };
}

/** ES GeoHashUtils.stringEncode(lon, lat, 12) over Lucene's 32-bit quantized coordinates. */
export function encodeGeohash(lat: number, lon: number): string {
  const latQ = lat === 90 ? 2 ** 32 - 1 : Math.floor(lat / (180 / 2 ** 32)) + 2 ** 31;
  const lonQ = lon === 180 ? 2 ** 32 - 1 : Math.floor(lon / (360 / 2 ** 32)) + 2 ** 31;
  let out = '';
  let latBit = 31;
  let lonBit = 31;
  let bit = 0;
  for (let c = 0; c < 12; c++) {
    let v = 0;
    for (let b = 0; b < 5; b++, bit++) {
      const on =
        (bit & 1) === 0
          ? Math.floor(lonQ / 2 ** lonBit--) % 2
          : Math.floor(latQ / 2 ** latBit--) % 2;
      v = v * 2 + on;
    }
    out += BASE_32[v];
  }
  return out;
}

/** ES GeoPoint.assertZValue. */
export function assertZValue(ignoreZValue: boolean, z: number): void {
  if (!ignoreZValue) {
    throw parseException(
      `Exception parsing coordinates: found Z value [${javaDoubleToString(z)}] but [ignore_z_value] parameter is [false]`,
    );
  }
}

/** ES GeoPoint.resetFromString. */
export function geoPointFromString(value: string, ignoreZValue: boolean): GeoPointValue {
  if (!value.includes(',')) return decodeGeohash(value);
  const vals = javaSplit(value, ',');
  if (vals.length > 3) {
    throw parseException(
      `failed to parse [${vals.length}], expected 2 or 3 coordinates but found: [{}]`,
    );
  }
  if (vals.length < 2) {
    throw new EsError(
      'array_index_out_of_bounds_exception',
      `Index ${vals.length} out of bounds for length ${vals.length}`,
      500,
    );
  }
  const lat = tryParseJavaDouble(vals[0]!.trim());
  if (lat === undefined) throw parseException('latitude must be a number');
  const lon = tryParseJavaDouble(vals[1]!.trim());
  if (lon === undefined) throw parseException('longitude must be a number');
  if (vals.length > 2) {
    const z = tryParseJavaDouble(vals[2]!.trim());
    if (z === undefined) throw javaDoubleError(vals[2]!.trim());
    assertZValue(ignoreZValue, z);
  }
  return { lat, lon };
}

/** Double value of a JSON number or numeric string (XContentParser.doubleValue(coerce=true)). */
function coerceDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const d = tryParseJavaDouble(v);
    if (d === undefined) throw javaDoubleError(v);
    return d;
  }
  throw new EsError(
    'json_parse_exception',
    `Current token (${tokenName(v)}) not numeric, can not use numeric value accessors`,
    400,
  );
}

/** Jackson token name of a parsed JSON value (for error messages). */
export function tokenName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (v === true) return 'VALUE_TRUE';
  if (v === false) return 'VALUE_FALSE';
  if (typeof v === 'number') return Number.isInteger(v) ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (Array.isArray(v)) return 'START_ARRAY';
  return 'START_OBJECT';
}

/** ES GeoUtils.parseGeoPoint(parser, point, ignoreZValue) for one token/value. */
export function parseGeoPointValue(v: unknown, ignoreZValue: boolean): GeoPointValue {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    let lat = NaN;
    let lon = NaN;
    let geohash: string | undefined;
    let nfe: EsError | undefined;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === 'lat' || k === 'lon') {
        if (typeof x !== 'number' && typeof x !== 'string') {
          throw parseException(`${k === 'lat' ? 'latitude' : 'longitude'} must be a number`);
        }
        try {
          if (k === 'lat') lat = coerceDouble(x);
          else lon = coerceDouble(x);
        } catch (e) {
          nfe = e as EsError;
        }
      } else if (k === 'geohash') {
        if (typeof x !== 'string') throw parseException('geohash must be a string');
        geohash = x;
      } else {
        throw parseException('field must be either [lat], [lon] or [geohash]');
      }
    }
    if (geohash !== undefined) {
      if (!Number.isNaN(lat) || !Number.isNaN(lon)) {
        throw parseException('field must be either lat/lon or geohash');
      }
      return decodeGeohash(geohash);
    }
    if (nfe) throw parseException('[lat] and [lon] must be valid double values', nfe);
    if (Number.isNaN(lat)) throw parseException('field [lat] missing');
    if (Number.isNaN(lon)) throw parseException('field [lon] missing');
    return { lat, lon };
  }
  if (Array.isArray(v)) {
    let lat = NaN;
    let lon = NaN;
    let element = 0;
    for (const x of v) {
      if (typeof x !== 'number') throw parseException('numeric value expected');
      element++;
      if (element === 1) lon = x;
      else if (element === 2) lat = x;
      else assertZValue(ignoreZValue, x);
    }
    return { lat, lon };
  }
  if (typeof v === 'string') return geoPointFromString(v, ignoreZValue);
  throw parseException('geo_point expected');
}

/** ES GeoUtils.normalizePoint(point). */
export function normalizePoint(p: GeoPointValue): GeoPointValue {
  let lon = p.lon;
  let lat = p.lat;
  const normLat = lat > 90 || lat < -90;
  const normLon = lon > 180 || lon < -180;
  if (normLat) {
    lat = centeredModulus(lat, 360);
    let shift = true;
    if (lat < -90) lat = -180 - lat;
    else if (lat > 90) lat = 180 - lat;
    else shift = false;
    if (shift) {
      if (normLon) lon += 180;
      else lon += normalizeLon(lon) > 0 ? -180 : 180;
    }
  }
  if (normLon) lon = centeredModulus(lon, 360);
  return { lat, lon };
}

function normalizeLon(lon: number): number {
  if (lon > 180 || lon <= -180) lon = centeredModulus(lon, 360);
  return lon + 0;
}

function centeredModulus(dividend: number, divisor: number): number {
  let r = dividend % divisor;
  if (r <= 0) r += divisor;
  if (r > divisor / 2) r -= divisor;
  return r;
}

/** GeoPointFieldMapper.parse(context, point): range check, or normalize under ignore_malformed. */
export function checkGeoPoint(
  p: GeoPointValue,
  ignoreMalformed: boolean,
  name: string,
): GeoPointValue {
  if (!ignoreMalformed) {
    if (p.lat > 90 || p.lat < -90) {
      throw illegalArgument(`illegal latitude value [${javaDoubleToString(p.lat)}] for ${name}`);
    }
    if (p.lon > 180 || p.lon < -180) {
      throw illegalArgument(`illegal longitude value [${javaDoubleToString(p.lon)}] for ${name}`);
    }
    return p;
  }
  if (Number.isFinite(p.lat) && Number.isFinite(p.lon)) return normalizePoint(p);
  throw parseException('cannot normalize the point - not a number');
}
