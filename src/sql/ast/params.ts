/**
 * REST `params` (`[{"type": "integer", "value": 10}, ...]`): each `?` becomes a literal of the
 * declared type, converting the JSON value the way ES's `ExpressionBuilder.visitParamLiteral`
 * does (DataTypeConverter / SqlDataTypeConverter), with its error messages.
 */
import { javaException, parsingError, qlIllegalArgument } from './errors.js';
import type { EsError } from '../../common/errors.js';
import { displayName, paramType } from './data-types.js';
import {
  DateTimeParseError,
  parseDateOnly,
  parseStrictDateOptionalTime,
  parseTimeOnly,
} from './datetime-literals.js';
import { javaDoubleToString, javaValueToString } from './java-format.js';
import type { DataTypeName, LiteralValue, Loc } from './nodes.js';

/** One REST parameter: ES `SqlTypedParamValue`. */
export interface SqlParam {
  readonly type: string;
  /** A JSON value; bigint stands for integers beyond 2^53. */
  readonly value: unknown;
}

type Source = 'integer' | 'long' | 'double' | 'boolean' | 'keyword';

/**
 * The Java type ES's JSON parser would give the value (`DataTypes.fromJava`): integral numbers
 * are Integer or Long by range, others Double. JSON `5.0` reaches us as 5 and reads as integer.
 */
function sourceType(value: unknown): Source | null {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'keyword';
  if (typeof value === 'bigint')
    return value >= -(2n ** 31n) && value < 2n ** 31n ? 'integer' : 'long';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'double';
    if (value >= -(2 ** 31) && value < 2 ** 31) return 'integer';
    return Number.isSafeInteger(value) ? 'long' : 'double';
  }
  return null;
}

/** Converts one parameter to `{dataType, value}` or throws ES's parsing_exception. */
export function paramLiteral(
  param: SqlParam,
  loc: Loc,
): { dataType: DataTypeName; value: LiteralValue } {
  const dataType = paramType(param.type);
  if (dataType === undefined)
    throw parsingError(loc, `Invalid parameter data type [${param.type}]`);
  if (param.value === null || param.value === undefined) return { dataType, value: null };
  const from = sourceType(param.value);
  if (from === null) {
    throw parsingError(
      loc,
      `Unexpected actual parameter type [${typeof param.value}] for type [${param.type}]`,
    );
  }
  const converter = converterFor(from, dataType);
  const shown = javaValueToString(param.value, from === 'double' ? 'double' : undefined);
  if (converter === null) {
    throw parsingError(
      loc,
      `Cannot cast value [${shown}] of type [${displayName(from)}] to parameter type [${displayName(dataType)}]`,
    );
  }
  try {
    return { dataType, value: converter(param.value as number | bigint | boolean | string) };
  } catch (e) {
    if (!(e instanceof ConversionError)) throw e;
    throw parsingError(
      loc,
      `Unexpected actual parameter type [${displayName(from)}] for type [${param.type}]`,
      qlIllegalArgument(e.message, e.javaCause),
    );
  }
}

/** A QlIllegalArgumentException message, with the Java exception ES chains under it. */
class ConversionError extends Error {
  constructor(
    message: string,
    readonly javaCause?: EsError,
  ) {
    super(message);
  }
}

// NumberFormatException's text for Integer/Long/Float/Double.valueOf
const numberFormat = (s: string) =>
  javaException('number_format_exception', `For input string: "${s}"`);

type Value = number | bigint | boolean | string;
type Converter = (v: Value) => LiteralValue;

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;
const RANGES = {
  integer: [-(2n ** 31n), 2n ** 31n - 1n],
  short: [-32768n, 32767n],
  byte: [-128n, 127n],
} as const;

// DataTypeConverter.safeToLong(double): range check, then Math.round
function safeToLong(d: number): bigint {
  if (d > 9223372036854775807 || d < -9223372036854775808 || Number.isNaN(d)) {
    if (Number.isNaN(d)) return 0n;
    throw new ConversionError(`[${javaDoubleToString(d)}] out of [long] range`);
  }
  const r = BigInt(Math.floor(d + 0.5));
  return r > LONG_MAX ? LONG_MAX : r < LONG_MIN ? LONG_MIN : r;
}

function narrow(v: bigint, to: 'integer' | 'short' | 'byte'): number {
  const [min, max] = RANGES[to];
  if (v < min || v > max) throw new ConversionError(`[${v}] out of [${to}] range`);
  return Number(v);
}

// `fromString(Long::valueOf, "long")`: Java integer syntax, NumberFormatException -> message
function javaInteger(s: string, to: 'long' | 'integer' | 'short' | 'byte'): bigint {
  const fail = () => new ConversionError(`cannot cast [${s}] to [${to}]`, numberFormat(s));
  if (!/^[+-]?\d+$/.test(s)) throw fail();
  const v = BigInt(s);
  const [min, max] = to === 'long' ? [LONG_MIN, LONG_MAX] : RANGES[to];
  if (v < min || v > max) throw fail();
  return v;
}

// Float.valueOf / Double.valueOf syntax (decimal forms; Java trims surrounding whitespace)
function javaFloating(s: string, to: 'float' | 'double'): number {
  const t = s.trim();
  const m = /^([+-]?)(NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?$/.exec(t);
  if (!m) throw new ConversionError(`cannot cast [${s}] to [${to}]`, numberFormat(s));
  const v = Number(m[1] + m[2]);
  return to === 'float' ? Math.fround(v) : v;
}

const toLongValue = (v: Value): bigint =>
  typeof v === 'number' && !Number.isInteger(v) ? safeToLong(v) : BigInt(v as number | bigint);

/** Epoch milliseconds of a number or boolean source (`RATIONAL_TO_LONG`, `BOOL_TO_INT`). */
function millisOf(from: Source, v: Value): number {
  if (from === 'boolean') return v ? 1 : 0;
  return Number(from === 'double' ? safeToLong(v as number) : BigInt(v as number | bigint));
}

function isoOfMillis(ms: number): string {
  return new Date(ms).toISOString();
}

function fromDateString(parse: (s: string) => string, to: string): Converter {
  return (v) => {
    try {
      return parse(v as string);
    } catch (e) {
      if (e instanceof DateTimeParseError) {
        // java.time errors are DateTimeParseExceptions; ES's DateFormatter wraps its own in an
        // IllegalArgumentException
        const type = e.message.startsWith('failed to parse')
          ? 'illegal_argument_exception'
          : 'date_time_parse_exception';
        throw new ConversionError(
          `cannot cast [${v as string}] to [${to}]: ${e.message}`,
          javaException(type, e.message),
        );
      }
      throw e;
    }
  };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
function isInetAddress(s: string): boolean {
  if (IPV4.test(s)) return true;
  if (!s.includes(':')) return false;
  try {
    return new URL(`http://[${s}]/`).hostname.length > 0;
  } catch {
    return false;
  }
}

/** DataTypeConverter.converterFor / SqlDataTypeConverter.converterFor for JSON sources. */
function converterFor(from: Source, to: DataTypeName): Converter | null {
  // IDENTITY: the value already has the declared type (longs normalised to bigint)
  if (from === to) return from === 'long' ? (v) => BigInt(v as number | bigint) : (v) => v;
  const numeric = from === 'integer' || from === 'long' || from === 'double';
  switch (to) {
    case 'null':
      return () => null;
    case 'keyword':
    case 'text':
    case 'constant_keyword':
      return (v) => javaValueToString(v, from === 'double' ? 'double' : undefined);
    case 'long':
      if (from === 'keyword') return (v) => javaInteger(v as string, 'long');
      return (v) => (from === 'boolean' ? (v ? 1n : 0n) : toLongValue(v));
    case 'integer':
    case 'short':
    case 'byte':
      if (from === 'keyword') return (v) => Number(javaInteger(v as string, to));
      return (v) => (from === 'boolean' ? (v ? 1 : 0) : narrow(toLongValue(v), to));
    case 'float':
    case 'double':
      if (from === 'keyword') return (v) => javaFloating(v as string, to);
      return (v) => {
        const n = from === 'boolean' ? (v ? 1 : 0) : Number(v);
        return to === 'float' ? Math.fround(n) : n;
      };
    case 'boolean':
      if (from === 'keyword') {
        return (v) => {
          const low = (v as string).toLowerCase();
          if (low !== 'true' && low !== 'false') {
            throw new ConversionError(`cannot cast [${v as string}] to [boolean]`);
          }
          return low === 'true';
        };
      }
      // NUMERIC_TO_BOOLEAN compares the Java longValue with 0
      return numeric ? (v) => (typeof v === 'number' ? Math.trunc(v) !== 0 : v !== 0n) : null;
    case 'datetime':
      if (from === 'keyword') return fromDateString(parseStrictDateOptionalTime, 'datetime');
      return (v) => isoOfMillis(millisOf(from, v));
    case 'date':
      if (from === 'keyword') return fromDateString(parseDateOnly, 'date');
      return (v) => isoOfMillis(millisOf(from, v)).substring(0, 10);
    case 'time':
      if (from === 'keyword') return fromDateString(parseTimeOnly, 'time');
      return (v) => {
        const day = 86400000;
        const ms = ((millisOf(from, v) % day) + day) % day;
        return `${isoOfMillis(ms).substring(11, 23)}Z`;
      };
    case 'ip':
      if (from !== 'keyword') return null;
      return (v) => {
        if (!isInetAddress(v as string)) {
          throw new ConversionError(`[${v as string}] is not a valid IPv4 or IPv6 address`);
        }
        return v as string;
      };
    default:
      return null;
  }
}
