/**
 * Numeric field queries as ES 6.8 NumberFieldMapper.NumberType: value parsing with its coercion
 * and errors, term/terms/range on points with integer rounding of decimal bounds, float and
 * half-float precision, and scaled_float scaling. Queries carry Lucene's display (`f:[1 TO 5]`).
 */
import type { FieldMapping } from '../../../mapping/types.js';
import type { Query } from '../../../search/query/query.js';
import { illegalArgument } from '../errors.js';
import { javaDoubleToString, javaFloatToString, javaParseDouble, javaParseFloat } from '../java.js';
import type { TermValue } from '../nodes.js';
import { matchNone, withDisplay } from './build.js';
import {
  halfNextDown,
  halfNextUp,
  nextDownDouble,
  nextDownFloat,
  nextUpDouble,
  nextUpFloat,
  toHalfFloat,
} from './float-bits.js';

export type NumberKind =
  | 'byte'
  | 'short'
  | 'integer'
  | 'long'
  | 'float'
  | 'half_float'
  | 'double'
  | 'scaled_float'
  | 'date'
  | 'token_count';

const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** Java `String.valueOf` of a JSON scalar as ES holds it (Integer/Long/Double/Boolean/String). */
export function valueText(v: TermValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return String(v);
  return javaDoubleToString(v);
}

function objectToDouble(v: TermValue): number {
  return typeof v === 'number' ? v : javaParseDouble(valueText(v));
}

function hasDecimalPart(v: TermValue): boolean {
  if (typeof v === 'number') return v % 1 !== 0;
  if (typeof v === 'string') return javaParseDouble(v) % 1 !== 0;
  return false;
}

const signum = (v: TermValue): number => Math.sign(objectToDouble(v));

function intLike(kind: 'byte' | 'short' | 'integer', v: TermValue): number {
  const d = objectToDouble(v);
  const [lo, hi, what] =
    kind === 'byte'
      ? [-128, 127, 'a byte']
      : kind === 'short'
        ? [-32768, 32767, 'a short']
        : [INT_MIN, INT_MAX, 'an integer'];
  if (d < lo || d > hi)
    throw illegalArgument(`Value [${valueText(v)}] is out of range for ${what}`);
  return Math.trunc(d);
}

function parseLong(v: TermValue): number {
  // beyond ±2^63 the JSON number was a BigInteger for ES, which the range check refuses
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2 ** 63) return v;
  const d = objectToDouble(v);
  if (d < LONG_MIN || d > LONG_MAX) {
    throw illegalArgument(`Value [${valueText(v)}] is out of range for a long`);
  }
  // Numbers.toLong(String, coerce=true): BigDecimal, truncated
  return Math.trunc(d);
}

function parseFloatValue(v: TermValue, kind: 'float' | 'half_float'): number {
  const f = typeof v === 'number' ? Math.fround(v) : javaParseFloat(valueText(v));
  const check = kind === 'half_float' ? toHalfFloat(f) : f;
  if (!Number.isFinite(check)) {
    throw illegalArgument(
      `[${kind}] supports only finite values, but got [${javaFloatToString(f)}]`,
    );
  }
  return f;
}

function parseDoubleValue(v: TermValue): number {
  const d = objectToDouble(v);
  if (!Number.isFinite(d)) {
    throw illegalArgument(
      `[double] supports only finite values, but got [${javaDoubleToString(d)}]`,
    );
  }
  return d;
}

/** NumberType.parse(value, coerce=true). */
export function parseNumber(kind: NumberKind, v: TermValue): number {
  switch (kind) {
    case 'byte':
    case 'short':
    case 'integer':
      return intLike(kind, v);
    case 'token_count':
      return intLike('integer', v);
    case 'long':
    case 'date':
      return parseLong(v);
    case 'float':
    case 'half_float':
      return parseFloatValue(v, kind);
    case 'double':
    case 'scaled_float':
      return parseDoubleValue(v);
  }
}

const isIntegral = (k: NumberKind): boolean =>
  k === 'byte' || k === 'short' || k === 'integer' || k === 'long' || k === 'token_count';

/** Lucene point toString for the field's numeric type. */
export function pointText(kind: NumberKind, v: number): string {
  if (kind === 'float' || kind === 'half_float') return javaFloatToString(v);
  if (kind === 'double') return javaDoubleToString(v);
  if (v >= LONG_MAX) return '9223372036854775807';
  if (v <= LONG_MIN) return '-9223372036854775808';
  return String(v);
}

export function pointRange(
  field: string,
  kind: NumberKind,
  lo: number,
  hi: number,
  display = `${field}:[${pointText(kind, lo)} TO ${pointText(kind, hi)}]`,
): Query {
  return withDisplay(
    { kind: 'NumericRange', field, lo, hi, includeLo: true, includeHi: true, boost: 1 },
    display,
  );
}

function pointSet(field: string, kind: NumberKind, values: number[]): Query {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  return withDisplay(
    { kind: 'NumericSet', field, values: sorted, boost: 1 },
    `${field}:{${sorted.map((v) => pointText(kind, v)).join(' ')}}`,
  );
}

/** scaled_float: the stored value of `v` (the indexer keeps round(v * f) / f). */
function scaled(field: FieldMapping, v: number): number {
  const f = field.scalingFactor ?? 1;
  return Math.round(v * f) / f;
}

/** NumberFieldType.termQuery (without the field boost). */
export function numberTermQuery(field: FieldMapping, kind: NumberKind, v: TermValue): Query {
  const name = field.path;
  if (kind === 'scaled_float') {
    const d = parseDoubleValue(v);
    const target = scaled(field, d);
    return pointRange(
      name,
      'long',
      target,
      target,
      `${name}:[${Math.round(d * (field.scalingFactor ?? 1))} TO ${Math.round(d * (field.scalingFactor ?? 1))}]`,
    );
  }
  if (isIntegral(kind)) {
    if (hasDecimalPart(v)) return matchNone(`Value [${valueText(v)}] has a decimal part`);
    const n = parseNumber(kind, v);
    return pointRange(name, kind, n, n);
  }
  let n = parseNumber(kind, v);
  if (kind === 'half_float') n = toHalfFloat(n);
  return pointRange(name, kind, n, n);
}

/** NumberFieldType.termsQuery. */
export function numberTermsQuery(
  field: FieldMapping,
  kind: NumberKind,
  values: readonly TermValue[],
): Query {
  const name = field.path;
  if (kind === 'scaled_float') {
    return pointSet(
      name,
      'double',
      values.map((v) => scaled(field, parseDoubleValue(v))),
    );
  }
  if (isIntegral(kind)) {
    const out: number[] = [];
    for (const v of values) if (!hasDecimalPart(v)) out.push(parseNumber(kind, v));
    if (out.length === 0) return matchNone('All values have a decimal part');
    return pointSet(name, kind, out);
  }
  return pointSet(
    name,
    kind,
    values.map((v) => {
      const n = parseNumber(kind, v);
      return kind === 'half_float' ? toHalfFloat(n) : n;
    }),
  );
}

/** NumberFieldType.rangeQuery; null bounds are open. */
export function numberRangeQuery(
  field: FieldMapping,
  kind: NumberKind,
  lower: TermValue | null,
  upper: TermValue | null,
  includeLower: boolean,
  includeUpper: boolean,
): Query {
  const name = field.path;
  switch (kind) {
    case 'half_float': {
      let l = -Infinity;
      let u = Infinity;
      if (lower !== null) {
        l = parseNumber(kind, lower);
        if (includeLower) l = halfNextDown(l);
        l = halfNextUp(l);
      }
      if (upper !== null) {
        u = parseNumber(kind, upper);
        if (includeUpper) u = halfNextUp(u);
        u = halfNextDown(u);
      }
      return pointRange(name, kind, l, u);
    }
    case 'float': {
      let l = -Infinity;
      let u = Infinity;
      if (lower !== null) {
        l = parseNumber(kind, lower);
        if (!includeLower) l = nextUpFloat(l);
      }
      if (upper !== null) {
        u = parseNumber(kind, upper);
        if (!includeUpper) u = nextDownFloat(u);
      }
      return pointRange(name, kind, l, u);
    }
    case 'double': {
      let l = -Infinity;
      let u = Infinity;
      if (lower !== null) {
        l = parseNumber(kind, lower);
        if (!includeLower) l = nextUpDouble(l);
      }
      if (upper !== null) {
        u = parseNumber(kind, upper);
        if (!includeUpper) u = nextDownDouble(u);
      }
      return pointRange(name, kind, l, u);
    }
    case 'scaled_float': {
      // ScaledFloatFieldMapper: bounds scaled, then ceil/floor to longs
      const f = field.scalingFactor ?? 1;
      let lo = LONG_MIN;
      let hi = LONG_MAX;
      if (lower !== null) {
        let d = parseDoubleValue(lower) * f;
        if (!includeLower) d = nextUpDouble(d);
        lo = Math.round(Math.ceil(d));
      }
      if (upper !== null) {
        let d = parseDoubleValue(upper) * f;
        if (!includeUpper) d = nextDownDouble(d);
        hi = Math.round(Math.floor(d));
      }
      const display = `${name}:[${pointText('long', lo)} TO ${pointText('long', hi)}]`;
      return pointRange(
        name,
        'long',
        lower === null ? -Infinity : lo / f,
        upper === null ? Infinity : hi / f,
        display,
      );
    }
    default: {
      const [min, max] =
        kind === 'long' || kind === 'date' ? [LONG_MIN, LONG_MAX] : [INT_MIN, INT_MAX];
      let l = min;
      let u = max;
      if (lower !== null) {
        l = parseNumber(kind, lower);
        const dec = hasDecimalPart(lower);
        if ((!dec && !includeLower) || (dec && signum(lower) > 0)) {
          if (l === max) return withDisplay({ kind: 'MatchNone' }, 'MatchNoDocsQuery("")');
          ++l;
        }
      }
      if (upper !== null) {
        u = parseNumber(kind, upper);
        const dec = hasDecimalPart(upper);
        if ((!dec && !includeUpper) || (dec && signum(upper) < 0)) {
          if (u === min) return withDisplay({ kind: 'MatchNone' }, 'MatchNoDocsQuery("")');
          --u;
        }
      }
      return pointRange(name, kind, l, u);
    }
  }
}
