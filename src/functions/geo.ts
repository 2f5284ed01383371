/**
 * Geo values for the ST_* functions (ES SQL GeoShape over the libs/geo geometry model): a small
 * geometry union, ES's WKT reader (coercing unclosed polygons, BBOX/ENVELOPE) and writer (Java
 * Double.toString coordinates, "POINT (4.85 52.34 2.0)"), first-point accessors for ST_X/Y/Z and
 * the arc distance between points (ES GeoUtils.arcDistance, haversine on the mean earth radius).
 */
import { sqlIllegalArgument, qlIllegalArgument } from './errors.js';
import { javaDoubleToString } from './java-text.js';

export interface Coord {
  readonly x: number;
  readonly y: number;
  readonly z?: number;
}

export type Geometry =
  | { readonly type: 'POINT'; readonly point: Coord | null }
  | { readonly type: 'MULTIPOINT'; readonly points: readonly Coord[] }
  | { readonly type: 'LINESTRING'; readonly coords: readonly Coord[] }
  | { readonly type: 'MULTILINESTRING'; readonly lines: readonly (readonly Coord[])[] }
  | { readonly type: 'POLYGON'; readonly rings: readonly (readonly Coord[])[] }
  | {
      readonly type: 'MULTIPOLYGON';
      readonly polygons: readonly (readonly (readonly Coord[])[])[];
    }
  | { readonly type: 'GEOMETRYCOLLECTION'; readonly geometries: readonly Geometry[] }
  | {
      readonly type: 'ENVELOPE';
      readonly minX: number;
      readonly maxX: number;
      readonly maxY: number;
      readonly minY: number;
    }
  | { readonly type: 'CIRCLE'; readonly center: Coord; readonly radius: number };

/** A geo_point / geo_shape / shape runtime value. */
export interface GeoValue {
  readonly kind: 'geo';
  readonly geometry: Geometry;
}

export const isGeoValue = (v: unknown): v is GeoValue =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'geo';

// ES GeoShape.toString is its WKT: script sorts and composite keys over a shape read that text
const GEO_PROTO = {
  toString(this: GeoValue): string {
    return toWkt(this.geometry);
  },
};

/** A frozen geo value of a geometry. */
export const geoValue = (geometry: Geometry): GeoValue =>
  Object.freeze(
    Object.assign(Object.create(GEO_PROTO) as object, { kind: 'geo' as const, geometry }),
  );

export const geoPoint = (lon: number, lat: number, z?: number): GeoValue =>
  geoValue({ type: 'POINT', point: z === undefined ? { x: lon, y: lat } : { x: lon, y: lat, z } });

// ---- WKT reader ------------------------------------------------------------------------------

class WktTokens {
  pos = 0;
  constructor(readonly text: string) {}
  private skipWs() {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }
  peek(): string {
    this.skipWs();
    if (this.pos >= this.text.length) return '';
    const c = this.text[this.pos]!;
    if (c === '(' || c === ')' || c === ',') return c;
    const m = /^[A-Za-z]+|^[-+0-9.eE]+/.exec(this.text.slice(this.pos));
    return m ? m[0] : c;
  }
  next(): string {
    const t = this.peek();
    this.pos += t.length;
    return t;
  }
  expect(t: string) {
    const got = this.next();
    if (got !== t) throw new Error(`expected ${t} but found: ${got || 'END-OF-STREAM'}`);
  }
  number(): number {
    const t = this.next();
    const n = Number(t);
    if (t === '' || Number.isNaN(n)) throw new Error('expected number but found: ' + t);
    return n;
  }
  isEmpty(): boolean {
    if (this.peek().toUpperCase() === 'EMPTY') {
      this.next();
      return true;
    }
    return false;
  }
}

function readCoord(t: WktTokens): Coord {
  const x = t.number();
  const y = t.number();
  const p = t.peek();
  if (p !== ',' && p !== ')' && p !== '') return { x, y, z: t.number() };
  return { x, y };
}

function readCoordList(t: WktTokens): Coord[] {
  t.expect('(');
  const out = [readCoord(t)];
  while (t.peek() === ',') {
    t.next();
    out.push(readCoord(t));
  }
  t.expect(')');
  return out;
}

function closeRing(ring: Coord[]): Coord[] {
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first.x !== last.x || first.y !== last.y || (first.z ?? NaN) !== (last.z ?? NaN)) {
    if (
      !(Number.isNaN(first.z ?? NaN) && Number.isNaN(last.z ?? NaN)) ||
      first.x !== last.x ||
      first.y !== last.y
    ) {
      return [...ring, first];
    }
  }
  return ring;
}

function readPolygon(t: WktTokens): Coord[][] {
  t.expect('(');
  const rings = [closeRing(readCoordList(t))];
  while (t.peek() === ',') {
    t.next();
    rings.push(closeRing(readCoordList(t)));
  }
  t.expect(')');
  return rings;
}

function readGeometry(t: WktTokens): Geometry {
  const type = t.next().toUpperCase();
  switch (type) {
    case 'POINT': {
      if (t.isEmpty()) return { type: 'POINT', point: null };
      t.expect('(');
      const c = readCoord(t);
      t.expect(')');
      return { type: 'POINT', point: c };
    }
    case 'MULTIPOINT': {
      if (t.isEmpty()) return { type: 'MULTIPOINT', points: [] };
      t.expect('(');
      const pts: Coord[] = [];
      do {
        if (t.peek() === ',') t.next();
        if (t.peek() === '(') {
          t.next();
          pts.push(readCoord(t));
          t.expect(')');
        } else pts.push(readCoord(t));
      } while (t.peek() === ',');
      t.expect(')');
      return { type: 'MULTIPOINT', points: pts };
    }
    case 'LINESTRING':
      if (t.isEmpty()) return { type: 'LINESTRING', coords: [] };
      return { type: 'LINESTRING', coords: readCoordList(t) };
    case 'MULTILINESTRING': {
      if (t.isEmpty()) return { type: 'MULTILINESTRING', lines: [] };
      t.expect('(');
      const lines = [readCoordList(t)];
      while (t.peek() === ',') {
        t.next();
        lines.push(readCoordList(t));
      }
      t.expect(')');
      return { type: 'MULTILINESTRING', lines };
    }
    case 'POLYGON':
      if (t.isEmpty()) return { type: 'POLYGON', rings: [] };
      return { type: 'POLYGON', rings: readPolygon(t) };
    case 'MULTIPOLYGON': {
      if (t.isEmpty()) return { type: 'MULTIPOLYGON', polygons: [] };
      t.expect('(');
      const polys = [readPolygon(t)];
      while (t.peek() === ',') {
        t.next();
        polys.push(readPolygon(t));
      }
      t.expect(')');
      return { type: 'MULTIPOLYGON', polygons: polys };
    }
    case 'GEOMETRYCOLLECTION': {
      if (t.isEmpty()) return { type: 'GEOMETRYCOLLECTION', geometries: [] };
      t.expect('(');
      const gs = [readGeometry(t)];
      while (t.peek() === ',') {
        t.next();
        gs.push(readGeometry(t));
      }
      t.expect(')');
      return { type: 'GEOMETRYCOLLECTION', geometries: gs };
    }
    case 'BBOX':
    case 'ENVELOPE': {
      t.expect('(');
      const minX = t.number();
      t.expect(',');
      const maxX = t.number();
      t.expect(',');
      const maxY = t.number();
      t.expect(',');
      const minY = t.number();
      t.expect(')');
      return { type: 'ENVELOPE', minX, maxX, maxY, minY };
    }
    case 'CIRCLE': {
      t.expect('(');
      const center = readCoord(t);
      const radius = t.number();
      t.expect(')');
      return { type: 'CIRCLE', center, radius };
    }
    default:
      throw new Error('Unknown geometry type: ' + type);
  }
}

/** ES: new GeoShape(String) via WKT; the ST_WKTTOSQL error on bad input. */
export function parseWkt(text: string): GeoValue {
  try {
    const t = new WktTokens(text);
    const g = readGeometry(t);
    if (t.peek() !== '') throw new Error('expected end of WKT');
    return geoValue(g);
  } catch {
    throw sqlIllegalArgument('Cannot parse [{}] as a geo_shape value', [text]);
  }
}

// ---- GeoJSON reader ----------------------------------------------------------------------------

type Json = Record<string, unknown>;

function jsonCoord(v: unknown): Coord {
  if (!Array.isArray(v) || v.length < 2) throw new Error('expected a position');
  const [x, y, z] = v.map(Number) as [number, number, number | undefined];
  if (Number.isNaN(x) || Number.isNaN(y)) throw new Error('expected a number');
  return z === undefined || Number.isNaN(z) ? { x, y } : { x, y, z };
}

const jsonList = (v: unknown): Coord[] => {
  if (!Array.isArray(v)) throw new Error('expected a list of positions');
  return v.map(jsonCoord);
};
const jsonRings = (v: unknown): Coord[][] => {
  if (!Array.isArray(v)) throw new Error('expected a list of rings');
  return v.map((r) => closeRing(jsonList(r)));
};

/** The geometry of a GeoJSON object as ES GeoJson reads `_source` (types case-insensitive). */
export function geometryFromGeoJson(v: unknown): Geometry {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a shape');
  const o = v as Json;
  const c = o.coordinates;
  switch (String(o.type).toUpperCase()) {
    case 'POINT':
      return { type: 'POINT', point: jsonCoord(c) };
    case 'MULTIPOINT':
      return { type: 'MULTIPOINT', points: jsonList(c) };
    case 'LINESTRING':
      return { type: 'LINESTRING', coords: jsonList(c) };
    case 'MULTILINESTRING':
      if (!Array.isArray(c)) throw new Error('expected lines');
      return { type: 'MULTILINESTRING', lines: c.map(jsonList) };
    case 'POLYGON':
      return { type: 'POLYGON', rings: jsonRings(c) };
    case 'MULTIPOLYGON':
      if (!Array.isArray(c)) throw new Error('expected polygons');
      return { type: 'MULTIPOLYGON', polygons: c.map(jsonRings) };
    case 'GEOMETRYCOLLECTION':
      if (!Array.isArray(o.geometries)) throw new Error('expected geometries');
      return { type: 'GEOMETRYCOLLECTION', geometries: o.geometries.map(geometryFromGeoJson) };
    case 'ENVELOPE': {
      const [tl, br] = jsonList(c) as [Coord, Coord];
      return { type: 'ENVELOPE', minX: tl.x, maxX: br.x, maxY: tl.y, minY: br.y };
    }
    case 'CIRCLE':
      return { type: 'CIRCLE', center: jsonCoord(c), radius: parseRadius(o.radius) };
    default:
      throw new Error('unknown shape type');
  }
}

/** A circle radius in metres: a number, or a number with a distance unit suffix. */
function parseRadius(v: unknown): number {
  const m = /^\s*([-+0-9.eE]+)\s*([a-zA-Z]*)\s*$/.exec(String(v));
  if (!m) throw new Error('bad radius');
  const unit = RADIUS_UNITS[m[2]!.toLowerCase()];
  if (unit === undefined) throw new Error('bad radius unit');
  return Number(m[1]) * unit;
}

const RADIUS_UNITS: Record<string, number> = {
  '': 1, m: 1, meters: 1, km: 1000, kilometers: 1000, mi: 1609.344, miles: 1609.344,
  yd: 0.9144, yards: 0.9144, ft: 0.3048, feet: 0.3048, in: 0.0254, inch: 0.0254,
  cm: 0.01, centimeters: 0.01, mm: 0.001, millimeters: 0.001, nmi: 1852, nm: 1852,
  nauticalmiles: 1852,
}; // prettier-ignore

/** A geo_shape / shape `_source` value (WKT text or GeoJSON) as ES SQL's GeoShape reads it. */
export function shapeFromSource(v: unknown): GeoValue {
  try {
    const g = typeof v === 'string' ? parseWkt(v).geometry : geometryFromGeoJson(v);
    return geoValue(g);
  } catch {
    throw sqlIllegalArgument('Cannot read geo_shape value [{}]', [v]);
  }
}

// ---- WKT writer ------------------------------------------------------------------------------

const num = javaDoubleToString;
const coordText = (c: Coord) =>
  num(c.x) + ' ' + num(c.y) + (c.z !== undefined ? ' ' + num(c.z) : '');
const listText = (cs: readonly Coord[]) => '(' + cs.map(coordText).join(', ') + ')';
const polyText = (rings: readonly (readonly Coord[])[]) =>
  '(' + rings.map(listText).join(', ') + ')';

/** ES WellKnownText.toWKT. */
export function toWkt(g: Geometry): string {
  switch (g.type) {
    case 'POINT':
      return g.point ? 'POINT (' + coordText(g.point) + ')' : 'POINT EMPTY';
    case 'MULTIPOINT':
      return g.points.length
        ? 'MULTIPOINT (' + g.points.map(coordText).join(', ') + ')'
        : 'MULTIPOINT EMPTY';
    case 'LINESTRING':
      return g.coords.length ? 'LINESTRING ' + listText(g.coords) : 'LINESTRING EMPTY';
    case 'MULTILINESTRING':
      return g.lines.length
        ? 'MULTILINESTRING (' + g.lines.map(listText).join(', ') + ')'
        : 'MULTILINESTRING EMPTY';
    case 'POLYGON':
      return g.rings.length ? 'POLYGON ' + polyText(g.rings) : 'POLYGON EMPTY';
    case 'MULTIPOLYGON':
      return g.polygons.length
        ? 'MULTIPOLYGON (' + g.polygons.map(polyText).join(', ') + ')'
        : 'MULTIPOLYGON EMPTY';
    case 'GEOMETRYCOLLECTION':
      return g.geometries.length
        ? 'GEOMETRYCOLLECTION (' + g.geometries.map(toWkt).join(',') + ')'
        : 'GEOMETRYCOLLECTION EMPTY';
    case 'ENVELOPE':
      return `BBOX (${num(g.minX)}, ${num(g.maxX)}, ${num(g.maxY)}, ${num(g.minY)})`;
    case 'CIRCLE':
      return 'CIRCLE (' + coordText(g.center) + ' ' + num(g.radius) + ')';
  }
}

// ---- accessors -------------------------------------------------------------------------------

function firstPoint(g: Geometry): Coord | null {
  switch (g.type) {
    case 'POINT':
      return g.point;
    case 'MULTIPOINT':
      return g.points[0] ?? null;
    case 'LINESTRING':
      return g.coords[0] ?? null;
    case 'MULTILINESTRING':
      return g.lines[0]?.[0] ?? null;
    case 'POLYGON':
      return g.rings[0]?.[0] ?? null;
    case 'MULTIPOLYGON':
      return g.polygons[0]?.[0]?.[0] ?? null;
    case 'GEOMETRYCOLLECTION':
      return g.geometries.length ? firstPoint(g.geometries[0]!) : null;
    case 'ENVELOPE':
      return { x: g.minX, y: g.minY };
    case 'CIRCLE':
      return g.center;
  }
}

function requireGeo(v: unknown): GeoValue {
  if (!isGeoValue(v))
    throw sqlIllegalArgument('A geo_point or geo_shape is required; received [{}]', [v]);
  return v;
}

export const stAsWkt = (v: unknown): string | null =>
  v == null ? null : toWkt(requireGeo(v).geometry);
export const stWktToSql = (v: unknown): GeoValue | null => {
  if (v == null) return null;
  if (typeof v !== 'string') throw sqlIllegalArgument('A string is required; received [{}]', [v]);
  return parseWkt(v);
};
export const stGeometryType = (v: unknown): string | null =>
  v == null ? null : requireGeo(v).geometry.type;
export const stX = (v: unknown): number | null =>
  v == null ? null : (firstPoint(requireGeo(v).geometry)?.x ?? null);
export const stY = (v: unknown): number | null =>
  v == null ? null : (firstPoint(requireGeo(v).geometry)?.y ?? null);
export const stZ = (v: unknown): number | null =>
  v == null ? null : (firstPoint(requireGeo(v).geometry)?.z ?? null);

const EARTH_MEAN_RADIUS = 6371008.7714;
const TO_RAD = Math.PI / 180;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/**
 * ES GeoUtils.arcDistance = Lucene SloppyMath.haversinMeters (metres). Lucene's table-based cos and
 * asin approximations are replaced by exact Math ones (differences are far below a millimetre).
 */
export function arcDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x1 = lat1 * TO_RAD;
  const x2 = lat2 * TO_RAD;
  const h1 = 1 - Math.cos(x1 - x2);
  const h2 = 1 - Math.cos((lon1 - lon2) * TO_RAD);
  f64[0] = h1 + Math.cos(x1) * Math.cos(x2) * h2;
  u32[0] = u32[0]! & 0xfffffff8; // Lucene clobbers the low bits of the sort key (little endian)
  return EARTH_MEAN_RADIUS * 2 * Math.asin(Math.min(1, Math.sqrt(f64[0]! * 0.5)));
}

/** ES: StDistanceProcessor.process / GeoShape.distance. */
export function stDistance(a: unknown, b: unknown): number | null {
  if (a == null || b == null) return null;
  for (const v of [a, b]) {
    if (!isGeoValue(v)) {
      throw sqlIllegalArgument(
        'A geo_point or geo_shape with type point is required; received [{}]',
        [v],
      );
    }
  }
  const ga = (a as GeoValue).geometry;
  const gb = (b as GeoValue).geometry;
  if (ga.type !== 'POINT' || !ga.point) {
    throw qlIllegalArgument('distance calculation is only supported for points; received [{}]', [
      toWkt(ga),
    ]);
  }
  if (gb.type !== 'POINT' || !gb.point) {
    throw qlIllegalArgument('distance calculation is only supported for points; received [{}]', [
      toWkt(gb),
    ]);
  }
  return arcDistance(ga.point.y, ga.point.x, gb.point.y, gb.point.x);
}
