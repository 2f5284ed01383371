/**
 * geo_point values (ES GeoPointFieldMapper.parse, which takes whole arrays) and geo_shape values,
 * whose outline is checked like ES ShapeParser/GeoJsonParser (the shape itself stays in _source).
 */
import { EsError } from '../common/errors.js';
import type { GeoPointValue } from './types.js';
import type { FieldNode } from './build.js';
import { asEsError, illegalArgument, jsonParse, mapperParsing, parseException } from './errors.js';
import { parseDoubleValue } from './number-values.js';
import {
  assertZValue,
  checkGeoPoint,
  encodeGeohash,
  geoPointFromString,
  parseGeoPointValue,
} from './geo.js';
import type { ValueSink } from './value-sink.js';

/** Parses a multi-field with an external value (the geohash). */
export type MultiFieldParser = (f: FieldNode, v: unknown, sink: ValueSink) => void;

const SHAPE_TYPES = new Set([
  'point', 'multipoint', 'linestring', 'multilinestring', 'polygon', 'multipolygon',
  'geometrycollection', 'envelope', 'circle',
]); // prettier-ignore

/**
 * geo_shape: the shape stays in `_source` (this module indexes nothing for it) but its outline is
 * checked like ES ShapeParser/GeoJsonParser so that obviously malformed shapes are rejected.
 */
export function geoShape(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (v === null) return;
  try {
    if (typeof v === 'string') {
      const word = /^\s*([A-Za-z]+)/.exec(v)?.[1]?.toLowerCase();
      if (word === undefined)
        throw parseException(`expected word but found: '${v.trim().charAt(0)}'`);
      if (!SHAPE_TYPES.has(word) && word !== 'bbox')
        throw parseException(`unknown geometry type: ${word}`);
      sink.markPresent?.(f.path);
      return;
    }
    if (typeof v !== 'object' || Array.isArray(v)) {
      throw parseException('shape must be an object consisting of type and coordinates');
    }
    const o = v as Record<string, unknown>;
    if (typeof o.type !== 'string') throw parseException('shape type not included');
    const type = o.type.toLowerCase();
    if (!SHAPE_TYPES.has(type)) throw illegalArgument(`unknown geo_shape [${o.type}]`);
    if (type === 'geometrycollection') {
      if (o.geometries === undefined) throw parseException('geometries not included');
    } else if (o.coordinates === undefined) throw parseException('coordinates not included');
    sink.markPresent?.(f.path);
  } catch (e) {
    if (f.ignoreMalformed) {
      sink.ignore(f.path);
      return;
    }
    throw mapperParsing(`failed to parse field [${f.path}] of type [${f.type}]`, asEsError(e));
  }
}

export function parseGeoPoint(
  f: FieldNode,
  v: unknown,
  sink: ValueSink,
  multi: MultiFieldParser,
): void {
  try {
    geoPointValues(f, v, sink, multi);
  } catch (e) {
    throw mapperParsing(`failed to parse field [${f.path}] of type [geo_point]`, asEsError(e));
  }
}

function geoPointValues(f: FieldNode, v: unknown, sink: ValueSink, multi: MultiFieldParser): void {
  const izv = f.ignoreZValue !== false;
  if (Array.isArray(v)) {
    if (v.length === 0) return;
    const first = v[0];
    if (Array.isArray(first)) {
      for (const el of v) ignoringMalformed(f, sink, multi, () => parseGeoPointValue(el, izv));
    } else if (typeof first === 'number') {
      // [lon, lat(, z)] — ES reads two numbers (coercing), then an optional z
      const lon = first;
      const lat = coerceDouble(v[1], v.length < 2);
      if (v.length > 2) {
        if (typeof v[2] !== 'number')
          throw parseException('[geo_point] field type does not accept > 3 dimensions');
        assertZValue(izv, v[2]);
      }
      emitPoint(f, { lat, lon }, sink, multi);
      // elements past z are read as further values of the field (ES parser position quirk)
      for (let i = 3; i < v.length; i++) geoPointValues(f, v[i], sink, multi);
    } else {
      for (const el of v) {
        if (typeof el === 'string')
          ignoringMalformed(f, sink, multi, () => geoPointFromString(el, izv));
        else ignoringMalformed(f, sink, multi, () => parseGeoPointValue(el, izv));
      }
    }
  } else if (typeof v === 'string') {
    ignoringMalformed(f, sink, multi, () => geoPointFromString(v, izv));
  } else if (v === null) {
    if (f.nullFv !== undefined) emitPoint(f, f.nullFv as GeoPointValue, sink, multi);
  } else {
    ignoringMalformed(f, sink, multi, () => parseGeoPointValue(v, izv));
  }
}

function coerceDouble(v: unknown, missing: boolean): number {
  if (missing)
    throw jsonParse('Current token (END_ARRAY) not numeric, can not use numeric value accessors');
  return parseDoubleValue(v, true);
}

/** ES parseGeoPointIgnoringMalformed: only ElasticsearchParseExceptions are ignored. */
function ignoringMalformed(
  f: FieldNode,
  sink: ValueSink,
  multi: MultiFieldParser,
  read: () => GeoPointValue,
): void {
  try {
    emitPoint(f, read(), sink, multi);
  } catch (e) {
    if (e instanceof EsError && e.type === 'parse_exception' && f.ignoreMalformed) {
      sink.ignore(f.path);
      return;
    }
    throw e;
  }
}

function emitPoint(f: FieldNode, p: GeoPointValue, sink: ValueSink, multi: MultiFieldParser): void {
  if (Number.isNaN(p.lat) && !f.ignoreMalformed) {
    throw illegalArgument('invalid latitude NaN; must be between -90.0 and 90.0');
  }
  if (Number.isNaN(p.lon) && !f.ignoreMalformed) {
    throw illegalArgument('invalid longitude NaN; must be between -180.0 and 180.0');
  }
  const point = checkGeoPoint(p, f.ignoreMalformed === true, f.path);
  sink.add(f, point);
  // multi-fields of a geo_point index its geohash (ES: createExternalValueContext(point.geohash()))
  if (f.multi.length > 0) {
    const hash = encodeGeohash(point.lat, point.lon);
    for (const mf of f.multi) multi(mf, hash, sink);
  }
}
