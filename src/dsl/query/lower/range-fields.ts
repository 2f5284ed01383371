/**
 * Queries on range fields (ES 6.8 RangeFieldMapper.RangeType.rangeQuery): the query bounds are
 * parsed as the field's number type without coercion (dates by date math without rounding, in
 * the request's time zone and format; addresses without CIDR), open bounds become the type's
 * minimum / maximum, exclusive bounds step to the next representable value, and the relation
 * (intersects by default, within, contains) picks the Lucene RangeFieldQuery.
 */
import {
  dateFormatter,
  DEFAULT_DATE_FORMAT,
  parseDateMath,
  timeZone,
  UTC,
} from '../../../common/dates/index.js';
import { bytesToIp, ipToBytes } from '../../../mapping/ip.js';
import { ipToSortable } from '../../../search/index/field-values.js';
import { rangeKey, type RangeRelation } from '../../../search/index/range-keys.js';
import type { Query } from '../../../search/query/query.js';
import { illegalArgument } from '../errors.js';
import { javaDoubleToString, javaFloatToString } from '../java.js';
import type { TermValue } from '../nodes.js';
import { withDisplay } from './build.js';
import type { LowerState } from './context.js';
import { failIfNotIndexed, type MappedField } from './fields.js';
import { nextDownDouble, nextDownFloat, nextUpDouble, nextUpFloat } from './float-bits.js';
import { parseNumber, valueText } from './numbers.js';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;

/** A query range as inclusive values of the field's type (numbers, or IPv6 hex for ip_range). */
interface Bounds {
  readonly lo: number | string;
  readonly hi: number | string;
}

/** NumberType.parse(value, coerce=false) of an integral range type. */
function integral(kind: 'integer' | 'long', v: TermValue): number {
  const n = parseNumber(kind, v);
  const d = typeof v === 'number' ? v : Number(valueText(v));
  if (d % 1 !== 0) throw illegalArgument(`Value [${valueText(v)}] has a decimal part`);
  return n;
}

function ipHex(v: TermValue): string {
  const text = valueText(v);
  if (ipToBytes(text) === null) throw illegalArgument(`'${text}' is not an IP string literal.`);
  return ipToSortable(text);
}

/** InetAddressPoint.nextUp / nextDown on the 16-byte form (saturating like Lucene refuses to). */
function ipStep(hex: string, delta: 1 | -1): string {
  const v = BigInt('0x' + hex) + BigInt(delta);
  if (v < 0n || v >= 1n << 128n) {
    throw illegalArgument(
      `Next ${delta > 0 ? 'up' : 'down'} value for ${hexToIp(hex)} would overflow`,
    );
  }
  return v.toString(16).padStart(32, '0');
}

function hexToIp(hex: string): string {
  const b = new Uint8Array(16);
  for (let i = 0; i < 16; i++) b[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytesToIp(b);
}

function dateBound(
  st: LowerState,
  f: MappedField,
  v: TermValue,
  tz: string | null,
  format: string | null,
): number {
  const formatter =
    format !== null
      ? dateFormatter(format)
      : dateFormatter(f.mapping?.format ?? DEFAULT_DATE_FORMAT, 'joda', f.mapping?.locale);
  const zone = tz === null ? UTC : timeZone(tz);
  // DATE.rangeQuery parses both bounds without rounding up
  return parseDateMath(valueText(v), () => st.ctx.now, false, zone, formatter);
}

function bounds(
  st: LowerState,
  f: MappedField,
  from: TermValue | null,
  to: TermValue | null,
  incLo: boolean,
  incHi: boolean,
  tz: string | null,
  format: string | null,
): Bounds {
  switch (f.typeName) {
    case 'integer_range':
    case 'long_range': {
      const kind = f.typeName === 'integer_range' ? 'integer' : 'long';
      const lo = from === null ? (kind === 'integer' ? INT_MIN : LONG_MIN) : integral(kind, from);
      const hi = to === null ? (kind === 'integer' ? INT_MAX : LONG_MAX) : integral(kind, to);
      return { lo: incLo ? lo : lo + 1, hi: incHi ? hi : hi - 1 };
    }
    case 'date_range': {
      const lo = from === null ? LONG_MIN : dateBound(st, f, from, tz, format);
      const hi = to === null ? LONG_MAX : dateBound(st, f, to, tz, format);
      return { lo: incLo ? lo : lo + 1, hi: incHi ? hi : hi - 1 };
    }
    case 'float_range': {
      const lo = from === null ? -Infinity : parseNumber('float', from);
      const hi = to === null ? Infinity : parseNumber('float', to);
      return { lo: incLo ? lo : nextUpFloat(lo), hi: incHi ? hi : nextDownFloat(hi) };
    }
    case 'double_range': {
      const lo = from === null ? -Infinity : parseNumber('double', from);
      const hi = to === null ? Infinity : parseNumber('double', to);
      return { lo: incLo ? lo : nextUpDouble(lo), hi: incHi ? hi : nextDownDouble(hi) };
    }
    default: {
      const lo = from === null ? '0'.repeat(32) : ipHex(from);
      const hi = to === null ? 'f'.repeat(32) : ipHex(to);
      return { lo: incLo ? lo : ipStep(lo, 1), hi: incHi ? hi : ipStep(hi, -1) };
    }
  }
}

/** How Lucene's IntRange/LongRange/FloatRange/DoubleRange/InetAddressRange print a bound. */
function boundText(type: string, v: number | string): string {
  switch (type) {
    case 'float_range':
      return javaFloatToString(v as number);
    case 'double_range':
      return javaDoubleToString(v as number);
    case 'ip_range':
      return hexToIp(v as string);
    default:
      return String(v);
  }
}

/** RangeFieldType.rangeQuery; `relation` null is intersects. */
export function rangeFieldQuery(
  st: LowerState,
  f: MappedField,
  from: TermValue | null,
  to: TermValue | null,
  incLo: boolean,
  incHi: boolean,
  relation: string | null,
  tz: string | null,
  format: string | null,
): Query {
  failIfNotIndexed(f);
  const rel: RangeRelation =
    relation === 'within' || relation === 'contains' ? relation : 'intersects';
  const { lo, hi } = bounds(st, f, from, to, incLo, incHi, tz, format);
  const type = f.typeName;
  // ip bounds are already sortable hex; the keys of numbers encode their order
  const key = (v: number | string) => (type === 'ip_range' ? (v as string) : rangeKey(type, v));
  return withDisplay(
    { kind: 'RangeField', field: f.name, min: key(lo), max: key(hi), relation: rel, boost: 1 },
    `${f.name}:<ranges:[${boundText(type, lo)} : ${boundText(type, hi)}]>`,
  );
}
