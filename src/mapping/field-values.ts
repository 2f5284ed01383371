/**
 * One JSON value through one field mapper (ES FieldMapper.parse → parseCreateField, then its
 * multi-fields): coercion per type, null_value, ignore_above, ignore_malformed, and the
 * "failed to parse field [f] of type [t] in document with id 'x'" wrapping.
 */
import { EsError } from '../common/errors.js';
import type { FieldValue, GeoPointValue, RangeValue } from './types.js';
import type { MappingContext } from './context.js';
import type { FieldNode } from './build.js';
import { asEsError, illegalArgument, illegalState, jsonParse, mapperParsing } from './errors.js';
import { numberText, parseDoubleValue, parseNumberValue } from './number-values.js';
import { javaDoubleToString } from './java-numbers.js';
import { bytesToIp, canonicalIpv4, ipToBytes, parseCidr } from './ip.js';
import {
  assertZValue,
  checkGeoPoint,
  encodeGeohash,
  geoPointFromString,
  parseGeoPointValue,
  tokenName,
} from './geo.js';
import { builtinParseDate } from './dates.js';
import { parseException } from './errors.js';

export interface ValueSink {
  readonly ctx: MappingContext;
  /** Document id for error messages ('null' when unknown). */
  readonly id: string;
  add(field: FieldNode, value: FieldValue): void;
  ignore(path: string): void;
}

/** XContentParser.text(): values only (numbers in their JSON spelling). */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  throw illegalState(`Can't get text on a ${tokenName(v)}`);
}

const isIllegalArgument = (e: EsError) =>
  e.type === 'illegal_argument_exception' || e.type === 'number_format_exception';

/** Parses `v` (the token's value; null for JSON null) into `f` and its multi-fields. */
export function parseFieldValue(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (f.type === 'geo_point') {
    parseGeoPoint(f, v, sink);
    return;
  }
  if (f.type === 'geo_shape') {
    geoShape(f, v, sink);
    return;
  }
  try {
    createField(f, v, sink);
  } catch (e) {
    const err = asEsError(e);
    throw mapperParsing(
      `failed to parse field [${f.path}] of type [${f.type}] in document with id '${sink.id}'`,
      err,
    );
  }
  const multi = f.multi;
  for (let i = 0; i < multi.length; i++) parseFieldValue(multi[i]!, v, sink);
}

function createField(f: FieldNode, v: unknown, sink: ValueSink): void {
  switch (f.type) {
    case 'text':
      if (v !== null) sink.add(f, textOf(v));
      return;
    case 'keyword': {
      const s = v === null ? (f.nullValue as string | undefined) : textOf(v);
      if (s === undefined || (f.ignoreAbove !== undefined && s.length > f.ignoreAbove)) return;
      sink.add(f, s);
      return;
    }
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'double':
    case 'float':
    case 'half_float': {
      const coerce = f.coerce !== false;
      if (v === null || (coerce && v === '')) {
        if (f.nullFv !== undefined) sink.add(f, f.nullFv);
        return;
      }
      let n: number;
      try {
        n = parseNumberValue(f.type, v, coerce);
      } catch (e) {
        if (f.ignoreMalformed && isIllegalArgument(e as EsError)) {
          sink.ignore(f.path);
          return;
        }
        throw e;
      }
      sink.add(f, n);
      return;
    }
    case 'scaled_float':
      scaledFloat(f, v, sink);
      return;
    case 'date':
      date(f, v, sink);
      return;
    case 'boolean':
      boolean(f, v, sink);
      return;
    case 'ip':
      ip(f, v, sink);
      return;
    case 'binary':
      binary(f, v, sink);
      return;
    case 'token_count': {
      if (v === null) {
        if (f.nullValue !== undefined) sink.add(f, f.nullValue as number);
        return;
      }
      const text = textOf(v);
      const count = sink.ctx.countTokens
        ? sink.ctx.countTokens(f.analyzer!, text, f.enablePositionIncrements !== false)
        : approximateTokenCount(text);
      sink.add(f, count);
      return;
    }
    case 'geo_shape':
      geoShape(f, v, sink);
      return;
    case 'alias':
      throw illegalArgument(`Cannot write to a field alias [${f.path}].`);
    default:
      range(f, v, sink);
  }
}

const SHAPE_TYPES = new Set([
  'point', 'multipoint', 'linestring', 'multilinestring', 'polygon', 'multipolygon',
  'geometrycollection', 'envelope', 'circle',
]); // prettier-ignore

/**
 * geo_shape: the shape stays in `_source` (this module indexes nothing for it) but its outline is
 * checked like ES ShapeParser/GeoJsonParser so that obviously malformed shapes are rejected.
 */
function geoShape(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (v === null) return;
  try {
    if (typeof v === 'string') {
      const word = /^\s*([A-Za-z]+)/.exec(v)?.[1]?.toLowerCase();
      if (word === undefined)
        throw parseException(`expected word but found: '${v.trim().charAt(0)}'`);
      if (!SHAPE_TYPES.has(word) && word !== 'bbox')
        throw parseException(`unknown geometry type: ${word}`);
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
  } catch (e) {
    if (f.ignoreMalformed) {
      sink.ignore(f.path);
      return;
    }
    throw mapperParsing(`failed to parse field [${f.path}] of type [geo_shape]`, asEsError(e));
  }
}

/** Word count standing in for an analyzer when no token counter is plugged in. */
function approximateTokenCount(text: string): number {
  const m = text.match(/[\p{L}\p{N}]+/gu);
  return m === null ? 0 : m.length;
}

function scaledFloat(f: FieldNode, v: unknown, sink: ValueSink): void {
  const coerce = f.coerce !== false;
  let d: number;
  if (v === null || (coerce && v === '')) {
    if (f.nullValue === undefined) return;
    d = f.nullValue as number;
  } else {
    try {
      d = parseDoubleValue(v, coerce);
    } catch (e) {
      if (f.ignoreMalformed && isIllegalArgument(e as EsError)) return;
      throw e;
    }
  }
  if (!Number.isFinite(d)) {
    if (f.ignoreMalformed) return;
    throw illegalArgument(
      `[scaled_float] only supports finite values, but got [${javaDoubleToString(d)}]`,
    );
  }
  sink.add(f, d);
}

function dateParser(ctx: MappingContext) {
  return ctx.parseDate ?? builtinParseDate;
}

function parseDateText(ctx: MappingContext, text: string, format: string): number {
  try {
    return dateParser(ctx)(text, format);
  } catch (e) {
    throw asEsError(e);
  }
}

function date(f: FieldNode, v: unknown, sink: ValueSink): void {
  const text = v === null ? (f.nullValue as string | undefined) : textOf(v);
  if (text === undefined) return;
  let ms: number;
  try {
    ms = parseDateText(sink.ctx, text, f.format!);
  } catch (e) {
    if (f.ignoreMalformed && isIllegalArgument(e as EsError)) {
      sink.ignore(f.path);
      return;
    }
    throw e;
  }
  sink.add(f, ms);
}

function boolean(f: FieldNode, v: unknown, sink: ValueSink): void {
  let b: boolean;
  if (v === null) {
    if (f.nullValue === undefined) return;
    b = f.nullValue as boolean;
  } else if (typeof v === 'boolean') {
    b = v;
  } else if (typeof v === 'string') {
    // ES Booleans.parseBoolean(char[], …, default false): "" is false
    if (v === '' || v === 'false') b = false;
    else if (v === 'true') b = true;
    else
      throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
  } else {
    throw jsonParse(`Current token (${tokenName(v)}) not of boolean type`);
  }
  sink.add(f, b);
}

function ip(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (v === null) {
    if (f.nullValue !== undefined) sink.add(f, f.nullValue as string);
    return;
  }
  const text = textOf(v);
  const v4 = canonicalIpv4(text);
  if (v4 !== undefined) {
    sink.add(f, v4);
    return;
  }
  const bytes = ipToBytes(text);
  if (bytes === null) {
    if (f.ignoreMalformed) {
      sink.ignore(f.path);
      return;
    }
    throw illegalArgument(`'${text}' is not an IP string literal.`);
  }
  sink.add(f, bytesToIp(bytes));
}

const BASE64 = /^[A-Za-z0-9+/]$/;

function binary(f: FieldNode, v: unknown, sink: ValueSink): void {
  // ES BinaryFieldMapper: nothing is read unless the value is stored or has doc values
  if (!f.store && !f.docValues) return;
  if (v === null) return;
  if (typeof v !== 'string') {
    throw jsonParse(
      `Current token (${tokenName(v)}) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary`,
    );
  }
  checkBase64(v);
  sink.add(f, v);
}

/** Jackson Base64Variants.MIME_NO_LINEFEEDS decoding errors. */
function checkBase64(s: string): void {
  let n = 0;
  let pad = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c.charCodeAt(0) <= 32) continue;
    if (c === '=' && n % 4 >= 2) {
      pad++;
      n++;
      continue;
    }
    if (pad > 0 || !BASE64.test(c)) {
      const code = c.charCodeAt(0).toString(16);
      throw jsonParse(
        `Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Illegal character '${c}' (code 0x${code}) in base64 content`,
      );
    }
    n++;
  }
  if (n % 4 !== 0) {
    throw jsonParse(
      "Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Unexpected end of base64-encoded String: base64 variant 'MIME-NO-LINEFEEDS' expects padding (one or more '=' characters) at the end",
    );
  }
}

// ---- geo_point (ES GeoPointFieldMapper.parse, an ArrayValueMapperParser) ----

function parseGeoPoint(f: FieldNode, v: unknown, sink: ValueSink): void {
  try {
    geoPointValues(f, v, sink);
  } catch (e) {
    throw mapperParsing(`failed to parse field [${f.path}] of type [geo_point]`, asEsError(e));
  }
}

function geoPointValues(f: FieldNode, v: unknown, sink: ValueSink): void {
  const izv = f.ignoreZValue !== false;
  if (Array.isArray(v)) {
    if (v.length === 0) return;
    const first = v[0];
    if (Array.isArray(first)) {
      for (const el of v) ignoringMalformed(f, sink, () => parseGeoPointValue(el, izv));
    } else if (typeof first === 'number') {
      // [lon, lat(, z)] — ES reads two numbers (coercing), then an optional z
      const lon = first;
      const lat = coerceDouble(v[1], v.length < 2);
      if (v.length > 2) {
        if (typeof v[2] !== 'number')
          throw parseException('[geo_point] field type does not accept > 3 dimensions');
        assertZValue(izv, v[2]);
      }
      emitPoint(f, { lat, lon }, sink);
      // elements past z are read as further values of the field (ES parser position quirk)
      for (let i = 3; i < v.length; i++) geoPointValues(f, v[i], sink);
    } else {
      for (const el of v) {
        if (typeof el === 'string') ignoringMalformed(f, sink, () => geoPointFromString(el, izv));
        else ignoringMalformed(f, sink, () => parseGeoPointValue(el, izv));
      }
    }
  } else if (typeof v === 'string') {
    ignoringMalformed(f, sink, () => geoPointFromString(v, izv));
  } else if (v === null) {
    if (f.nullFv !== undefined) emitPoint(f, f.nullFv as GeoPointValue, sink);
  } else {
    ignoringMalformed(f, sink, () => parseGeoPointValue(v, izv));
  }
}

function coerceDouble(v: unknown, missing: boolean): number {
  if (missing)
    throw jsonParse('Current token (END_ARRAY) not numeric, can not use numeric value accessors');
  return parseDoubleValue(v, true);
}

/** ES parseGeoPointIgnoringMalformed: only ElasticsearchParseExceptions are ignored. */
function ignoringMalformed(f: FieldNode, sink: ValueSink, read: () => GeoPointValue): void {
  try {
    emitPoint(f, read(), sink);
  } catch (e) {
    if (e instanceof EsError && e.type === 'parse_exception' && f.ignoreMalformed) {
      sink.ignore(f.path);
      return;
    }
    throw e;
  }
}

function emitPoint(f: FieldNode, p: GeoPointValue, sink: ValueSink): void {
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
    for (const mf of f.multi) parseFieldValue(mf, hash, sink);
  }
}

// ---- ranges (ES RangeFieldMapper / RangeType) ----

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;

function range(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (v === null) return;
  if (f.type === 'ip_range' && typeof v === 'string') {
    const [lo, hi] = parseCidr(v);
    sink.add(f, { gte: bytesToIp(lo), lte: bytesToIp(hi) });
    return;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw mapperParsing(`error parsing field [${f.path}], expected an object but got ${f.name}`);
  }
  const out: RangeValue = defaultRange(f);
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const from = k === 'gt' || k === 'gte';
    if (!from && k !== 'lt' && k !== 'lte') {
      throw mapperParsing(`error parsing field [${f.path}], with unknown parameter [${k}]`);
    }
    if (x === null) continue;
    const included = k === 'gte' || k === 'lte';
    const b = rangeBound(f, x, included, from, sink.ctx);
    if (from) out.gte = b;
    else out.lte = b;
  }
  sink.add(f, out);
}

function defaultRange(f: FieldNode): RangeValue {
  switch (f.type) {
    case 'integer_range':
      return { gte: INT_MIN, lte: INT_MAX };
    case 'long_range':
    case 'date_range':
      return { gte: LONG_MIN, lte: LONG_MAX };
    case 'ip_range':
      return { gte: '::', lte: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' };
    default:
      return { gte: -Infinity, lte: Infinity };
  }
}

function rangeBound(
  f: FieldNode,
  x: unknown,
  included: boolean,
  from: boolean,
  ctx: MappingContext,
): number | string {
  const coerce = f.coerce !== false;
  const step = included ? 0 : from ? 1 : -1;
  switch (f.type) {
    case 'integer_range':
      return parseNumberValue('integer', x, coerce) + step;
    case 'long_range':
      return parseNumberValue('long', x, coerce) + step;
    case 'float_range': {
      const v = parseNumberValue('float', x, coerce);
      return step === 0 ? v : nextFloat(v, step);
    }
    case 'double_range': {
      const v = parseNumberValue('double', x, coerce);
      return step === 0 ? v : nextDouble(v, step);
    }
    case 'date_range':
      return parseDateText(ctx, textOf(x), f.format!) + step;
    default: {
      const text = textOf(x);
      const bytes = ipToBytes(text);
      if (bytes === null) throw illegalArgument(`'${text}' is not an IP string literal.`);
      return bytesToIp(step === 0 ? bytes : stepAddress(bytes, step));
    }
  }
}

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

function nextDouble(v: number, dir: number): number {
  if (Number.isNaN(v) || v === dir * Infinity) return v;
  if (v === 0) return dir * Number.MIN_VALUE;
  f64[0] = v;
  i64[0] = i64[0]! + BigInt(v > 0 === dir > 0 ? 1 : -1);
  return f64[0]!;
}

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

function nextFloat(v: number, dir: number): number {
  if (Number.isNaN(v) || v === dir * Infinity) return v;
  if (v === 0) return dir * 1.401298464324817e-45;
  f32[0] = v;
  i32[0] = i32[0]! + (v > 0 === dir > 0 ? 1 : -1);
  return f32[0]!;
}

/** InetAddressPoint.nextUp/nextDown over the 16-byte encoding. */
function stepAddress(bytes: Uint8Array, dir: number): Uint8Array {
  const b = new Uint8Array(16);
  if (bytes.length === 4) {
    b[10] = 0xff;
    b[11] = 0xff;
    b.set(bytes, 12);
  } else b.set(bytes);
  for (let i = 15; i >= 0; i--) {
    if (dir > 0) {
      if (b[i] === 0xff) {
        b[i] = 0;
        continue;
      }
      b[i]! += 1;
    } else {
      if (b[i] === 0) {
        b[i] = 0xff;
        continue;
      }
      b[i]! -= 1;
    }
    break;
  }
  return b;
}
