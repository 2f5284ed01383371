/**
 * Doc values Quarry's segments do not keep (geo_point, binary), read for scripts from the fetched
 * document's `_source` the way ES's doc values would give them: geo points quantized to Lucene's
 * 32-bit encoding (LatLonDocValuesField) and ordered by it, binary values decoded from base64,
 * sorted and deduplicated (BinaryFieldMapper's doc values).
 */
import { valueAtPath } from '../../engine/documents.js';
import { geoPointFromString, parseGeoPointValue } from '../../mapping/geo.js';
import type { GeoPointValue } from '../../mapping/types.js';

/** org.elasticsearch.common.geo.GeoPoint as scripts see it. */
export class ScriptGeoPoint {
  constructor(
    readonly lat: number,
    readonly lon: number,
  ) {}
  getLat(): number {
    return this.lat;
  }
  getLon(): number {
    return this.lon;
  }
  toString(): string {
    return `${this.lat}, ${this.lon}`;
  }
  toJSON(): { lat: number; lon: number } {
    return { lat: this.lat, lon: this.lon };
  }
}

/** org.apache.lucene.util.BytesRef as scripts see it. */
export class ScriptBytesRef {
  constructor(readonly bytes: Buffer) {}
  utf8ToString(): string {
    return this.bytes.toString('utf8');
  }
  get length(): number {
    return this.bytes.length;
  }
  /** Lucene's BytesRef.toString: the bytes in hex. */
  toString(): string {
    return `[${[...this.bytes].map((b) => b.toString(16)).join(' ')}]`;
  }
  /** XContent writes binary values as base64. */
  toJSON(): string {
    return this.bytes.toString('base64');
  }
}

const LAT_DECODE = 180 / 2 ** 32;
const LON_DECODE = 360 / 2 ** 32;
const MAX_INT = 2 ** 31 - 1;

/** Lucene GeoEncodingUtils.encodeLatitude/encodeLongitude (90 and 180 fall just below). */
function encode(v: number, decode: number): number {
  return Math.min(Math.floor(v / decode), MAX_INT);
}

/** Every geo point of `path` in the source, as doc values return them. */
export function geoPointsFromSource(source: unknown, path: string): ScriptGeoPoint[] {
  const raw = valueAtPath(source, path);
  if (raw === undefined || raw === null) return [];
  const points: GeoPointValue[] = [];
  try {
    collectGeo(raw, points);
  } catch {
    return []; // a malformed point was ignored when indexed (ignore_malformed)
  }
  const enc = points.map((p) => [encode(p.lat, LAT_DECODE), encode(p.lon, LON_DECODE)] as const);
  // doc values order: by the encoded long (latitude bits high, longitude bits low and unsigned)
  enc.sort((a, b) => a[0] - b[0] || (a[1] >>> 0) - (b[1] >>> 0));
  return enc.map(([la, lo]) => new ScriptGeoPoint(la * LAT_DECODE, lo * LON_DECODE));
}

function collectGeo(v: unknown, out: GeoPointValue[]): void {
  if (typeof v === 'string') out.push(geoPointFromString(v, true));
  else if (Array.isArray(v)) {
    if (v.length >= 2 && typeof v[0] === 'number') out.push({ lon: v[0], lat: Number(v[1]) });
    else for (const x of v) collectGeo(x, out);
  } else if (v !== null && typeof v === 'object') out.push(parseGeoPointValue(v, true));
}

/** Every binary value of `path` in the source: decoded, sorted by bytes, without duplicates. */
export function binaryFromSource(source: unknown, path: string): ScriptBytesRef[] {
  const raw = valueAtPath(source, path);
  if (raw === undefined || raw === null) return [];
  const list = (Array.isArray(raw) ? raw : [raw]).filter((x): x is string => typeof x === 'string');
  const bufs = list.map((s) => Buffer.from(s, 'base64')).sort(Buffer.compare);
  const out: ScriptBytesRef[] = [];
  for (const b of bufs)
    if (out.length === 0 || !out[out.length - 1]!.bytes.equals(b)) out.push(new ScriptBytesRef(b));
  return out;
}
