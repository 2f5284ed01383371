/**
 * Range field values (ES RangeFieldMapper / RangeType): `{gt, gte, lt, lte}` objects (or a CIDR
 * string for ip_range), normalized to inclusive bounds with the next/previous representable value.
 */
import type { RangeValue } from './types.js';
import type { MappingContext } from './context.js';
import type { FieldNode } from './build.js';
import { illegalArgument, mapperParsing } from './errors.js';
import { parseNumberValue } from './number-values.js';
import { bytesToIp, ipToBytes, parseCidr } from './ip.js';
import { parseDateText, textOf } from './value-sink.js';
import type { ValueSink } from './value-sink.js';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;

export function range(f: FieldNode, v: unknown, sink: ValueSink): void {
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
      return parseDateText(ctx, textOf(x), f.format!, f.locale) + step;
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
