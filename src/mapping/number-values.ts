/**
 * Numeric coercion as ES NumberFieldMapper.NumberType does it: `parse(Object, coerce)` for mapping
 * parameters (null_value) and `parse(XContentParser, coerce)` for document values, which goes
 * through ES AbstractXContentParser and Jackson (their range checks and exception wording).
 */
import type { EsError } from '../common/errors.js';
import type { FieldType } from './types.js';
import { illegalArgument, jsonParse } from './errors.js';
import {
  javaDoubleToString,
  javaFloatToString,
  javaToString,
  parseJavaDouble,
  roundToHalfFloat,
  stringToLong,
} from './java-numbers.js';
import { tokenName } from './geo.js';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN_D = -9223372036854775808;
const LONG_MAX_D = 9223372036854775807;

/** A JS value for a float type as Elasticsearch renders it in JSON (Float.toString digits). */
export function renderNumber(type: FieldType, v: number): number {
  return type === 'float' || type === 'half_float' ? Number(javaFloatToString(v)) : v;
}

function objectToDouble(v: unknown): number {
  return typeof v === 'number' ? v : parseJavaDouble(javaToString(v));
}

function validateFloat(type: 'float' | 'half_float' | 'double', v: number): void {
  const finite = type === 'half_float' ? Number.isFinite(roundToHalfFloat(v)) : Number.isFinite(v);
  if (!finite) {
    const shown = type === 'double' ? javaDoubleToString(v) : javaFloatToString(v);
    throw illegalArgument(`[${type}] supports only finite values, but got [${shown}]`);
  }
}

const RANGE_NAME: Record<string, string> = {
  byte: 'a byte',
  short: 'a short',
  integer: 'an integer',
  long: 'a long',
};
const RANGE: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [INT_MIN, INT_MAX],
};

/** ES NumberType.parse(Object value, boolean coerce) (mapping parameters, null_value). */
export function parseNumberObject(type: FieldType, value: unknown, coerce: boolean): number {
  switch (type) {
    case 'float':
    case 'half_float': {
      const f = Math.fround(objectToDouble(value));
      validateFloat(type, f);
      return f;
    }
    case 'double': {
      const d = objectToDouble(value);
      validateFloat('double', d);
      return d;
    }
    case 'byte':
    case 'short':
    case 'integer': {
      const d = objectToDouble(value);
      const [lo, hi] = RANGE[type]!;
      if (d < lo || d > hi) {
        throw illegalArgument(
          `Value [${javaToString(value)}] is out of range for ${RANGE_NAME[type]}`,
        );
      }
      if (!coerce && d % 1 !== 0) {
        throw illegalArgument(`Value [${javaToString(value)}] has a decimal part`);
      }
      return Math.trunc(d) || 0;
    }
    default: {
      // long
      const d = objectToDouble(value);
      if (d < LONG_MIN_D || d > LONG_MAX_D) {
        throw illegalArgument(`Value [${javaToString(value)}] is out of range for a long`);
      }
      if (!coerce && d % 1 !== 0) {
        throw illegalArgument(`Value [${javaToString(value)}] has a decimal part`);
      }
      return stringToLong(
        typeof value === 'number' ? numberText(value) : javaToString(value),
        coerce,
      );
    }
  }
}

/** The text Jackson would have for a number token (JS cannot know the source spelling). */
export function numberText(v: number): string {
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? BigInt(v).toString() : String(v);
}

const notNumeric = (v: unknown): EsError =>
  jsonParse(`Current token (${tokenName(v)}) not numeric, can not use numeric value accessors`);

const JAVA_CLASS: Record<string, string> = {
  long: 'Long',
  integer: 'Integer',
  byte: 'Integer',
  short: 'Short',
  float: 'Float',
  half_float: 'Float',
  double: 'Double',
  scaled_float: 'Double',
};

/** ES AbstractXContentParser.ensureNumberConversion. */
function ensureConversion(coerce: boolean, result: number, full: number, clazz: string): void {
  if (!coerce && result !== full) {
    throw illegalArgument(
      `${javaDoubleToString(full)} cannot be converted to ${clazz} without data loss`,
    );
  }
}

/** Jackson getIntValue on a number token. */
function jacksonInt(v: number): number {
  if (v < INT_MIN || v > INT_MAX) {
    throw jsonParse(
      Number.isInteger(v)
        ? `Numeric value (${numberText(v)}) out of range of int`
        : `Numeric value (${numberText(v)}) out of range of int (${INT_MIN} - ${INT_MAX})`,
    );
  }
  return Math.trunc(v) || 0;
}

/** Jackson getLongValue on a number token. */
function jacksonLong(v: number): number {
  if (v < LONG_MIN_D || v > LONG_MAX_D) {
    throw jsonParse(
      `Numeric value (${numberText(v)}) out of range of long (-9223372036854775808 - 9223372036854775807)`,
    );
  }
  return Math.trunc(v) || 0;
}

/**
 * ES NumberType.parse(XContentParser, coerce) for one JSON value (not null, not an empty string
 * under coerce). Returns the indexed value (float types rounded to their precision).
 */
export function parseNumberValue(type: FieldType, v: unknown, coerce: boolean): number {
  if (typeof v === 'string') {
    if (!coerce) throw illegalArgument(`${JAVA_CLASS[type]} value passed as String`);
    switch (type) {
      case 'long':
        return stringToLong(v, coerce);
      case 'integer':
      case 'byte':
      case 'short': {
        const d = parseJavaDouble(v);
        const wide = type === 'byte' ? 'integer' : type;
        const [lo, hi] = RANGE[wide]!;
        if (d < lo || d > hi)
          throw illegalArgument(`Value [${v}] is out of range for ${RANGE_NAME[wide]}`);
        const r = Math.trunc(d) || 0; // (int) NaN == 0
        if (type === 'byte' && (r < -128 || r > 127)) {
          throw illegalArgument(`Value [${r}] is out of range for a byte`);
        }
        return r;
      }
      case 'float':
      case 'half_float': {
        const f = Math.fround(parseJavaDouble(v));
        validateFloat(type, f);
        return type === 'half_float' ? roundToHalfFloat(f) : f;
      }
      default: {
        const d = parseJavaDouble(v);
        validateFloat('double', d);
        return d;
      }
    }
  }
  if (typeof v !== 'number') throw notNumeric(v);
  switch (type) {
    case 'long': {
      const r = jacksonLong(v);
      ensureConversion(coerce, r, v, 'Long');
      return r;
    }
    case 'integer': {
      const r = jacksonInt(v);
      ensureConversion(coerce, r, v, 'Integer');
      return r;
    }
    case 'byte': {
      const r = jacksonInt(v);
      ensureConversion(coerce, r, v, 'Integer');
      if (r < -128 || r > 127) throw illegalArgument(`Value [${r}] is out of range for a byte`);
      return r;
    }
    case 'short': {
      const r = jacksonInt(v);
      if (r < -32768 || r > 32767) {
        throw jsonParse(`Numeric value (${numberText(v)}) out of range of Java short`);
      }
      ensureConversion(coerce, r, v, 'Short');
      return r;
    }
    case 'float':
    case 'half_float': {
      const f = Math.fround(v);
      validateFloat(type, f);
      return type === 'half_float' ? roundToHalfFloat(f) : f;
    }
    default:
      validateFloat('double', v);
      return v;
  }
}

/** XContentParser.doubleValue(coerce) (scaled_float, range bounds of float/double ranges). */
export function parseDoubleValue(v: unknown, coerce: boolean): number {
  if (typeof v === 'string') {
    if (!coerce) throw illegalArgument('Double value passed as String');
    return parseJavaDouble(v);
  }
  if (typeof v !== 'number') throw notNumeric(v);
  return v;
}
