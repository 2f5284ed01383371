/**
 * `geo_distance` (ES GeoDistanceQueryBuilder.fromXContent): one geo_point field with its center
 * (any geo_point form), `distance` (a number in `unit`, or text with a unit suffix; metres by
 * default), `distance_type` arc|plane, `validation_method`, `ignore_unmapped`, `_name`, `boost`.
 */
import { EsError } from '../../../common/errors.js';
import { parseGeoPointValue } from '../../../mapping/geo.js';
import type { GeoDistanceNode } from '../nodes.js';
import { parsingError } from '../errors.js';
import type { XParser } from '../xcontent.js';

/** ES DistanceUnit: names and metres per unit (suffixes are matched in this order). */
const UNITS: readonly (readonly [readonly string[], number])[] = [
  [['in', 'inch'], 0.0254],
  [['yd', 'yards'], 0.9144],
  [['ft', 'feet'], 0.3048],
  [['km', 'kilometers'], 1000],
  [['NM', 'nmi', 'nauticalmiles'], 1852],
  [['mm', 'millimeters'], 0.001],
  [['cm', 'centimeters'], 0.01],
  [['mi', 'miles'], 1609.344],
  [['m', 'meters'], 1],
];

const illegalArgument = (reason: string) => new EsError('illegal_argument_exception', reason, 400);

function unitFactor(name: string): number {
  for (const [names, f] of UNITS) if (names.includes(name)) return f;
  throw illegalArgument(`No distance unit match [${name}]`);
}

/** ES DistanceUnit.parse(text, unit, default): a unit suffix wins over `unit`. */
export function distanceMeters(text: string, unitMeters: number): number {
  for (const [names, f] of UNITS) {
    for (const n of names) {
      if (text.endsWith(n)) return Number(text.slice(0, -n.length)) * f;
    }
  }
  return Number(text) * unitMeters;
}

type Validation = GeoDistanceNode['validationMethod'];

export function parseGeoDistance(p: XParser): GeoDistanceNode {
  const at = p.location();
  const body = p.map();
  let field: string | null = null;
  let point: { lat: number; lon: number } | null = null;
  let distance: string | null = null;
  let unit = 1;
  let distanceType: 'arc' | 'plane' = 'arc';
  let validationMethod: Validation = 'strict';
  let ignoreUnmapped = false;
  let queryName: string | null = null;
  let boost = 1;
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'distance':
        distance = String(v);
        break;
      case 'unit':
        unit = unitFactor(String(v));
        break;
      case 'distance_type': {
        const t = String(v).toLowerCase();
        if (t !== 'arc' && t !== 'plane') throw illegalArgument(`No geo distance for [${t}]`);
        distanceType = t;
        break;
      }
      case 'validation_method': {
        const m = String(v).toLowerCase();
        if (m !== 'strict' && m !== 'ignore_malformed' && m !== 'coerce')
          throw illegalArgument(`No enum constant GeoValidationMethod.${String(v).toUpperCase()}`);
        validationMethod = m;
        break;
      }
      case 'ignore_unmapped':
        ignoreUnmapped = v === true || v === 'true';
        break;
      case '_name':
        queryName = String(v);
        break;
      case 'boost':
        boost = Number(v);
        break;
      default:
        if (field !== null && field !== k) {
          throw parsingError(
            `[geo_distance] query doesn't support multiple fields, found [${field}] and [${k}]`,
            at,
          );
        }
        field = k;
        point = parseGeoPointValue(v, true);
    }
  }
  if (distance === null) throw parsingError("geo_distance requires 'distance' to be specified", at);
  if (field === null || point === null)
    throw illegalArgument('fieldName must not be null or empty');
  const meters = distanceMeters(distance, unit);
  if (!(meters > 0)) throw illegalArgument('distance must be greater than zero');
  if (validationMethod === 'strict') {
    if (point.lat > 90 || point.lat < -90)
      throw parsingError(`illegal latitude value [${point.lat}] for [geo_distance]`, at);
    if (point.lon > 180 || point.lon < -180)
      throw parsingError(`illegal longitude value [${point.lon}] for [geo_distance]`, at);
  }
  return {
    type: 'geo_distance',
    field,
    lat: point.lat,
    lon: point.lon,
    distance: meters,
    distanceType,
    validationMethod,
    ignoreUnmapped,
    boost,
    queryName,
  };
}
