/**
 * One JSON value through one field mapper (ES FieldMapper.parse → parseCreateField, then its
 * multi-fields): coercion per type, null_value, ignore_above, ignore_malformed, and the
 * "failed to parse field [f] of type [t] in document with id 'x'" wrapping.
 */
import type { EsError } from '../common/errors.js';
import type { FieldNode } from './build.js';
import { asEsError, illegalArgument, jsonParse, mapperParsing } from './errors.js';
import { parseDoubleValue, parseNumberValue } from './number-values.js';
import { javaDoubleToString } from './java-numbers.js';
import { bytesToIp, canonicalIpv4, ipToBytes } from './ip.js';
import { tokenName } from './geo.js';
import { isIllegalArgument, parseDateText, textOf } from './value-sink.js';
import type { ValueSink } from './value-sink.js';
import { geoShape, parseGeoPoint } from './field-values-geo.js';
import { range } from './field-values-range.js';
import { parseCompletionValue } from './field-values-completion.js';
import { parseJoinValue } from './join.js';
import { parsePercolatorValue } from './percolator.js';

export type { ValueSink } from './value-sink.js';

/** Parses `v` (the token's value; null for JSON null) into `f` and its multi-fields. */
export function parseFieldValue(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (f.type === 'geo_point') {
    parseGeoPoint(f, v, sink, parseFieldValue);
    return;
  }
  if (f.type === 'completion') {
    parseCompletionValue(f, v, sink, parseFieldValue);
    return;
  }
  if (f.type === 'geo_shape' || f.type === 'shape') {
    geoShape(f, v, sink);
    return;
  }
  if (f.type === 'percolator') {
    parsePercolatorValue(f, v, sink);
    return;
  }
  if (f.type === 'join') {
    // ES wraps these in the document's "failed to parse", not the field's
    parseJoinValue(f, v, sink);
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
    case 'shape':
      geoShape(f, v, sink);
      return;
    case 'alias':
      throw illegalArgument(`Cannot write to a field alias [${f.path}].`);
    default:
      range(f, v, sink);
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

function date(f: FieldNode, v: unknown, sink: ValueSink): void {
  const text = v === null ? (f.nullValue as string | undefined) : textOf(v);
  if (text === undefined) return;
  let ms: number;
  try {
    ms = parseDateText(sink.ctx, text, f.format!, f.locale);
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
